import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread from a module next to the caller. Built code loads
 * the `.js` file directly; when running from TypeScript sources (tests,
 * benchmarks under tsx) the worker bootstraps tsx first, because loader
 * hooks of the parent thread do not reach into workers.
 */
export function startModuleWorker(moduleUrl: URL): Worker {
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl);
  const tsxEsm = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm'));
  const api = new URL('./api/index.mjs', tsxEsm).href;
  const bootstrap = `const { tsImport } = await import(${JSON.stringify(api)}); await tsImport(${JSON.stringify(moduleUrl.href)}, ${JSON.stringify(moduleUrl.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`));
}

/** `name` (a `.js` module name) next to `base`, as `.ts` when `base` itself is TypeScript source. */
export function siblingModule(base: string, name: string): URL {
  const url = new URL(name, base);
  if (base.endsWith('.ts')) url.pathname = url.pathname.replace(/\.js$/, '.ts');
  return url;
}
