/**
 * Measures API latency from outside the server's process: GET `url` with
 * keep-alive, one request at a time, every `interval` ms, until stdin
 * closes; then prints the latencies (ms) as JSON.
 *
 *   node --import tsx bench/tftp/api-probe.ts <url> <bearer token> [interval ms]
 */
import http from 'node:http';

const [url, token, intervalArg] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies: number[] = [];
let errors = 0;
let running = true;
process.stdin.on('end', () => (running = false));
process.stdin.resume();

function once(): Promise<void> {
  return new Promise((resolve) => {
    const start = performance.now();
    const request = http.get(url!, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode === 200) latencies.push(performance.now() - start);
        else errors++;
        resolve();
      });
    });
    request.on('error', () => {
      errors++;
      resolve();
    });
  });
}

while (running) {
  await once();
  await new Promise((resolve) => setTimeout(resolve, Number(intervalArg ?? 5)));
}
process.stdout.write(`${JSON.stringify({ latencies, errors })}\n`);
agent.destroy();
