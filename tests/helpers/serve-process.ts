import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The built headless entry (what ships); `npm test` builds it before the suite. */
export const SERVE_JS = path.resolve(import.meta.dirname, '../../dist/main/serve.js');

export function assertServeBuilt(): void {
  if (!existsSync(SERVE_JS)) throw new Error(`${SERVE_JS} is missing: run "npm run build:main" first (npm test does)`);
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output: () => string;
}

/**
 * Starts `node dist/main/serve.js ARGS` as a child process and resolves with
 * its URL once it says it is serving; rejects if it exits first or says
 * nothing within 20 s. The caller kills it.
 */
export function startServe(args: readonly string[], env: Record<string, string> = {}, cwd?: string): Promise<ServeProcess> {
  assertServeBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVE_JS, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    let output = '';
    const timer = setTimeout(() => reject(Object.assign(new Error(`serve did not start: ${output}`), { child })), 20_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        output += `${line}\n`;
        const match = /serving the web UI and API at (\S+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ child, url: match[1]!, output: () => output });
        }
      });
    }
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
}
