import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src-main/core/errors.js';
import { checkImagePath, importPathSyntaxProblem, type RootChecker } from '../../../src-main/os-images/import-path.js';
import { tempDir } from '../../helpers/test-core.js';

let dir: { dir: string; remove: () => Promise<void> };
let allowed: string;
let outside: string;
// The served-root policy reduced to "inside `allowed`" (its own tests cover the rest).
const roots: RootChecker = {
  async check(candidate) {
    return candidate === allowed || candidate.startsWith(`${allowed}/`) ? { ok: true, real: candidate } : { ok: false, problem: `${candidate} is outside the allowed roots` };
  },
};

beforeAll(async () => {
  dir = await tempDir('bootwright-import-path-');
  allowed = path.join(dir.dir, 'allowed');
  outside = path.join(dir.dir, 'outside');
  await mkdir(path.join(allowed, 'sub'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(allowed, 'sub', 'a.iso'), 'x');
  await writeFile(path.join(outside, 'secret.iso'), 'x');
  await writeFile(path.join(allowed, 'notes.txt'), 'x');
  await symlink(path.join(outside, 'secret.iso'), path.join(allowed, 'escape.iso'));
  await symlink(path.join(allowed, 'sub', 'a.iso'), path.join(allowed, 'inside-link.iso'));
  await symlink('/dev/null', path.join(allowed, 'null.iso'));
  await symlink(path.join(allowed, 'notes.txt'), path.join(allowed, 'text.iso'));
  await mkdir(path.join(allowed, 'dir.iso'));
});
afterAll(async () => dir.remove());

async function refusal(input: string): Promise<string> {
  try {
    await checkImagePath(input, roots);
  } catch (error) {
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
      expect(error.details?.[0]?.field).toBe('body.path');
      return error.message;
    }
    throw error;
  }
  throw new Error(`${input} was accepted`);
}

describe('import path check', () => {
  it('refuses bad text before touching the disk', () => {
    expect(importPathSyntaxProblem('relative/a.iso')).toMatch(/absolute/);
    expect(importPathSyntaxProblem('/a/../b.iso')).toMatch(/\.\./);
    expect(importPathSyntaxProblem('/a/b\0.iso')).toMatch(/NUL/);
    expect(importPathSyntaxProblem('/a/b.txt')).toMatch(/\.iso or \.img/);
    expect(importPathSyntaxProblem('/a/b.ISO')).toBeNull();
  });

  it('accepts a file inside the roots, also through a symlink that stays inside (real path returned)', async () => {
    const direct = await checkImagePath(path.join(allowed, 'sub', 'a.iso'), roots);
    expect(direct).toMatchObject({ real: path.join(allowed, 'sub', 'a.iso'), size: 1 });
    expect((await checkImagePath(path.join(allowed, 'inside-link.iso'), roots)).real).toBe(path.join(allowed, 'sub', 'a.iso'));
  });

  it('refuses symlinks out of the roots, device files, non-images behind an image name, directories, missing files and traversal', async () => {
    expect(await refusal(path.join(allowed, 'escape.iso'))).toMatch(/outside the allowed roots/);
    expect(await refusal(path.join(allowed, 'null.iso'))).toMatch(/not a regular file/);
    expect(await refusal(path.join(allowed, 'text.iso'))).toMatch(/not an \.iso or \.img/);
    expect(await refusal(path.join(allowed, 'dir.iso'))).toMatch(/not a regular file/);
    expect(await refusal(path.join(allowed, 'missing.iso'))).toMatch(/does not exist/);
    expect(await refusal(path.join(outside, 'secret.iso'))).toMatch(/outside/);
    expect(await refusal(`${allowed}/sub/../../outside/secret.iso`)).toMatch(/\.\./);
    expect(await refusal('/dev/null')).toMatch(/\.iso or \.img/);
    expect(await refusal('sub/a.iso')).toMatch(/absolute/);
  });
});
