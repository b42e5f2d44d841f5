import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  commit: string | null;
  build_date: string | null;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The project root: two levels above this file in src-main/core and in dist/main/core. */
export const PROJECT_ROOT = path.resolve(here, '..', '..', here.includes(`${path.sep}dist${path.sep}`) ? '..' : '.');

/** Version from package.json; commit and build date from dist/build-info.json when the build wrote one. */
export function readBuildInfo(): BuildInfo {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  let extra: Partial<BuildInfo> = {};
  try {
    extra = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'dist', 'build-info.json'), 'utf8')) as Partial<BuildInfo>;
  } catch {
    // Running from sources (tests): no build info.
  }
  return { version: pkg.version, commit: extra.commit ?? null, build_date: extra.build_date ?? null };
}

/** Where the built web UI lives (null when it was not built). */
export function defaultRendererDir(): string {
  return path.join(PROJECT_ROOT, 'dist', 'renderer');
}
