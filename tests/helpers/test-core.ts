import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppCore, type AppCoreOptions } from '../../src-main/app/app-core.js';
import { defaultConfig, type AppConfig } from '../../src-main/core/config.js';
import type { Command } from '../../src-main/diagnostics/index.js';

export interface TestCore {
  core: AppCore;
  dataDir: string;
  /** Stops the core and removes its data directory. */
  close(): Promise<void>;
}

/** A temporary data directory, removed by the returned function. */
export async function tempDir(prefix = 'bootwright-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

function loopbackDiagnosticsOnly(command: Command): Command {
  const target = command.args.at(-1) ?? '';
  if (!['127.0.0.1', '::1', 'localhost'].includes(target)) throw new Error(`a test tried to ${command.tool} ${target}: tests send traffic only to loopback (or into namespaces they made)`);
  return command;
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * A core on a temporary data dir, HTTP on 127.0.0.1 with an ephemeral port,
 * no log files, no web UI and no auto-started network servers unless asked.
 * Call start() on it when the test needs sockets.
 */
export async function createTestCore(
  options: Partial<Omit<AppCoreOptions, 'config'>> & { config?: Partial<AppConfig>; dataDir?: string } = {},
): Promise<TestCore> {
  const owned = options.dataDir ? null : await tempDir();
  const dataDir = options.dataDir ?? owned!.dir;
  const config: AppConfig = {
    ...defaultConfig(dataDir),
    listen: { host: '127.0.0.1', port: 0 },
    logLevel: 'warn',
    ...options.config,
  };
  const { config: _ignored, dataDir: _dir, ...rest } = options;
  // Tests reach only loopback: a netboot download of any other host (a shipped catalog entry's mirror) fails before it is sent.
  const observe = rest.netboot?.onMirrorRequest;
  const netboot = {
    ...rest.netboot,
    onMirrorRequest: (url: string, headers: Record<string, string>) => {
      if (!isLoopbackUrl(url)) throw new Error(`a test tried to download ${url}: tests send traffic only to loopback (put the files under the boot root or serve a local mirror)`);
      observe?.(url, headers);
    },
  };
  // Tests reach only loopback: a diagnostic aimed anywhere else fails before anything is spawned. A test that
  // passes its own `wrap` (running the tools inside a namespace it made) takes that duty over.
  const diagnostics = rest.diagnostics?.wrap ? rest.diagnostics : { ...rest.diagnostics, wrap: loopbackDiagnosticsOnly };
  // Network servers do not auto-start in tests unless a test asks (they would bind this machine's interfaces).
  const core = await AppCore.create({ fileLog: false, rendererDir: null, autoStartServices: false, ...rest, netboot, diagnostics, config });
  let closed = false;
  return {
    core,
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      await core.stop();
      await owned?.remove();
    },
  };
}
