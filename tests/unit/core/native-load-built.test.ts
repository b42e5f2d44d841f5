import { copyFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/test-core.js';

const LOADER = path.resolve(import.meta.dirname, '../../../native/sendfile/load-built.js');

describe('native/sendfile/load-built.js (each module of the addon loads through it)', () => {
  let dir: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir('bw-load-built-');
  });
  afterAll(async () => {
    await dir?.remove();
  });

  it('loads a built module, and for one that was not built throws require\'s error, or names build-failed.txt when the install left one', async () => {
    const real = createRequire(import.meta.url)(LOADER) as (name: string) => { supported: boolean };
    expect(typeof real('receive').supported).toBe('boolean');
    // A copy of the loader in an empty package folder: nothing is built there.
    await copyFile(LOADER, path.join(dir.dir, 'load-built.js'));
    const load = createRequire(path.join(dir.dir, 'x.js'))('./load-built.js') as (name: string) => unknown;
    expect(() => load('receive')).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
    await writeFile(path.join(dir.dir, 'build-failed.txt'), 'native build failed');
    expect(() => load('receive')).toThrow(`the native build failed at install time, see ${path.join(dir.dir, 'build-failed.txt')}`);
  });
});
