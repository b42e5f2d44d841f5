import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertServeBuilt, SERVE_JS as serveJs, startServe as startServeProcess, type ServeProcess } from '../../helpers/serve-process.js';
import { tempDir } from '../../helpers/test-core.js';

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the headless server (killed after each test) and resolves with its URL once it says it is serving. */
async function startServe(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<ServeProcess> {
  const started = startServeProcess(args, env, cwd);
  // Registered for cleanup even when the start fails (the error carries the child).
  started.catch((err: { child?: ChildProcess }) => err.child && children.push(err.child));
  const serve = await started;
  children.push(serve.child);
  return serve;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('headless entry (node dist/main/serve.js)', () => {
  it('serves the API with flags, stops cleanly on SIGTERM and leaves a flushed store and its log file, from a foreign working directory', async () => {
    const data = await tempDir();
    try {
      // The working directory holds no package.json (a systemd unit's WorkingDirectory=/var/lib/bootwright): the log file is still written.
      const { child, url } = await startServe(['--data-dir', data.dir, '--listen', '127.0.0.1:0', '--log-level', 'info'], {}, data.dir);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const doc = await fetch(`${url}/api/v1/openapi.json`);
      expect(doc.status).toBe(200);
      const missing = await fetch(`${url}/api/v1/nothing-here`);
      expect(await missing.json()).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(path.join(data.dir, 'config.json'))).toBe(true);
      expect(existsSync(path.join(data.dir, 'config.json.last-good'))).toBe(true);
      expect(existsSync(path.join(data.dir, 'logs', 'bootwright.log'))).toBe(true);
    } finally {
      await data.remove();
    }
  });

  it('takes its settings from BOOTWRIGHT_* environment variables', async () => {
    const data = await tempDir();
    try {
      const { child, url } = await startServe([], { BOOTWRIGHT_DATA_DIR: data.dir, BOOTWRIGHT_LISTEN: '127.0.0.1:0' });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(path.join(data.dir, 'config.json'))).toBe(true);
    } finally {
      await data.remove();
    }
  });

  it('exits with a clear message when the HTTP port is taken', async () => {
    assertServeBuilt();
    const data = await tempDir();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [serveJs, '--data-dir', data.dir, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      expect(await exitOf(child)).toBe(1);
      expect(stderr).toContain(`listen tcp 127.0.0.1:${port}: address already in use`);
    } finally {
      blocker.close();
      await data.remove();
    }
  });

  it('rejects a bad flag with exit code 2 and names it', async () => {
    assertServeBuilt();
    const child = spawn(process.execPath, [serveJs, '--listen', 'nowhere'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toContain('nowhere');
  });
});
