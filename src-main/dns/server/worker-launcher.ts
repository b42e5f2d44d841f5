import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread running the module at `url`. Built code (`.js`) runs
 * as is. From TypeScript sources (tests, benchmarks under tsx) the worker
 * first registers tsx's loader, which a worker does not inherit.
 */
export function launchWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsxLoader = pathToFileURL(tsxEsmApi()).href;
  const code = `import(${JSON.stringify(tsxLoader)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** tsx's ESM API entry, from its package.json exports (the "import" condition). */
function tsxEsmApi(): string {
  const require = createRequire(fileURLToPath(import.meta.url));
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = require(manifestPath) as { exports: Record<string, { import?: { default?: string } }> };
  const entry = manifest.exports['./esm/api']?.import?.default;
  if (!entry) throw new Error('tsx does not export ./esm/api; cannot run the DNS worker from TypeScript sources');
  return path.join(path.dirname(manifestPath), entry);
}
