import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppCore, type AppCoreOptions } from '../../src-main/app/app-core.js';
import { defaultConfig, type AppConfig } from '../../src-main/core/config.js';

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
  // Network servers do not auto-start in tests unless a test asks (they would bind this machine's interfaces).
  const core = await AppCore.create({ fileLog: false, rendererDir: null, autoStartServices: false, ...rest, config });
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
