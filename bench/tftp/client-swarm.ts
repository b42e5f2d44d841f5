/**
 * Starts N atftp clients at once, waits for all of them, checks each file's
 * size and prints {seconds, failures} as JSON. It runs in its own process
 * so that spawning clients never stalls the server's thread. With nice=1 the
 * clients run at nice 19: real clients are other machines and take none of
 * the server's CPU.
 *
 *   node --import tsx bench/tftp/client-swarm.ts <port> <remote file> <count> <blksize> <windowsize> <expected size> <out dir> <nice 0|1>
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const [port, file, count, blksize, windowsize, expected, outDir, nice] = process.argv.slice(2) as [string, string, string, string, string, string, string, string];

async function one(i: number): Promise<boolean> {
  const local = path.join(outDir, `swarm-${port}-${i}`);
  const atftp = ['atftp', '--option', `blksize ${blksize}`, ...(windowsize !== '1' ? ['--option', `windowsize ${windowsize}`] : []), '--tftp-timeout', '2', '-g', '-r', file, '-l', local, '127.0.0.1', port];
  try {
    if (nice === '1') await run('nice', ['-n', '19', ...atftp], { timeout: 120_000 });
    else await run(atftp[0]!, atftp.slice(1), { timeout: 120_000 });
  } catch {
    return false;
  }
  return (await stat(local).catch(() => null))?.size === Number(expected);
}

const start = performance.now();
const outcomes = await Promise.all(Array.from({ length: Number(count) }, (_, i) => one(i)));
process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - start) / 1000, failures: outcomes.filter((ok) => !ok).length })}\n`);
