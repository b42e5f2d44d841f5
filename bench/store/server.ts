/**
 * The built headless server (`node dist/main/serve.js`) on a given data
 * directory and loopback, with its start-up time: from spawn to the
 * "serving" line (the store is open and the API listens by then).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD } from '../security/harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVE = path.join(ROOT, 'dist', 'main', 'serve.js');

export interface StoreBenchServer {
  url: URL;
  pid: number;
  startupMs: number;
  stop(): Promise<void>;
}

export async function startServerIn(dataDir: string): Promise<StoreBenchServer> {
  if (!existsSync(SERVE)) throw new Error(`${SERVE} is missing: run "npm run build:main" first (npm run bench:store does)`);
  const started = performance.now();
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
  const child = spawn(process.execPath, [...nodeArgs, SERVE, '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--admin-password', ADMIN_PASSWORD], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${output}`)), 60_000);
    const seen = (line: string) => {
      output += `${line}\n`;
      const match = /serving the web UI and API at (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    };
    createInterface({ input: child.stdout! }).on('line', seen);
    createInterface({ input: child.stderr! }).on('line', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}): ${output}`));
    });
  });
  return { url, pid: child.pid!, startupMs: performance.now() - started, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
