import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src-main/core/errors.js';
import { checkAbsolutePath, checkFileName, checkRelativePath, PARTIAL_PREFIX, pathProblem, splitPath } from '../../../src-main/files/file-paths.js';

function refusal(run: () => unknown): { field: string; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!isAppError(error) || error.code !== 'VALIDATION_FAILED') throw error;
    return error.details?.[0] ?? null;
  }
}

describe('checkRelativePath', () => {
  it('normalises honest paths: empty and "." segments and slashes around them go away', () => {
    expect(checkRelativePath('', 'query.path')).toBe('');
    expect(checkRelativePath('.', 'query.path')).toBe('');
    expect(checkRelativePath('a/b/c.txt', 'query.path')).toBe('a/b/c.txt');
    expect(checkRelativePath('a//b/./c/', 'query.path')).toBe('a/b/c');
    // Names that merely contain dots or a percent sign are names.
    expect(checkRelativePath('..hidden/a..b/...', 'query.path')).toBe('..hidden/a..b/...');
    expect(checkRelativePath('100%/50%done', 'query.path')).toBe('100%/50%done');
    expect(checkRelativePath('Büro ☕/файл.iso', 'query.path')).toBe('Büro ☕/файл.iso');
  });

  const hostile: [string, RegExp][] = [
    ['..', /"\.\." segment/],
    ['../../etc/passwd', /"\.\." segment/],
    ['a/../../b', /"\.\." segment/],
    ['a/..', /"\.\." segment/],
    ['/etc/passwd', /absolute/],
    ['//etc', /absolute/],
    ['C:/Windows', /drive-letter/],
    ['a\\..\\b', /backslash/],
    ['evil\u0000.txt', /NUL/],
    ['line\nbreak', /control/],
    ['del\u007f', /control/],
    // What fastify's one decoding leaves behind, and deeper.
    ['%2e%2e/x', /"\.\." segment once percent-decoded/],
    ['%2e%2e%2fx', /"\.\." segment once percent-decoded/],
    ['%2E%2E%2Fx', /"\.\." segment once percent-decoded/],
    ['%252e%252e%252fx', /"\.\." segment once percent-decoded/],
    ['%25252e%25252e', /"\.\." segment once percent-decoded/],
    ['%2fetc%2fpasswd', /absolute.*percent-decoded/],
    ['a%00b', /NUL character once percent-decoded/],
    ['a%5c..%5cb', /backslash once percent-decoded/],
    ['a%0ab', /control character once percent-decoded/],
  ];
  it.each(hostile)('refuses %j naming the field', (raw, message) => {
    const refused = refusal(() => checkRelativePath(raw, 'query.path'));
    expect(refused?.field).toBe('query.path');
    expect(refused?.message).toMatch(message);
  });

  it('refuses names of partial uploads, anywhere in the path', () => {
    expect(refusal(() => checkRelativePath(`${PARTIAL_PREFIX}abc`, 'query.path'))?.message).toMatch(/reserved/);
    expect(refusal(() => checkRelativePath(`dir/${PARTIAL_PREFIX}abc/x`, 'query.path'))?.message).toMatch(/reserved/);
  });
});

describe('checkFileName', () => {
  it('takes one plain segment and refuses anything that is a path', () => {
    expect(checkFileName('debian.iso', 'body.file')).toBe('debian.iso');
    for (const bad of ['', '.', 'a/b', '../x', '..', '/x', 'x\\y', '%2e%2e']) {
      expect(refusal(() => checkFileName(bad, 'body.file'))?.field, bad).toBe('body.file');
    }
  });
});

describe('checkAbsolutePath', () => {
  it('normalises absolute paths and refuses relative, climbing or hidden ones', () => {
    expect(checkAbsolutePath('/srv//isos/./x/', 'query.path')).toBe('/srv/isos/x');
    expect(checkAbsolutePath('/', 'query.path')).toBe('/');
    for (const bad of ['srv/isos', '..', '/srv/../etc', '/srv/%2e%2e/etc', '/srv/%252e%252e/etc', '/srv\u0000', '/srv\\..\\etc', 'C:\\Windows']) {
      expect(refusal(() => checkAbsolutePath(bad, 'query.path'))?.field, bad).toBe('query.path');
    }
  });
});

describe('pathProblem and splitPath', () => {
  it('stops decoding after a few rounds (no endless loop on self-similar text)', () => {
    expect(pathProblem('%25'.repeat(50), false)).toBeNull();
  });

  it('splits a normalised path into its directory and name', () => {
    expect(splitPath('a/b/c')).toEqual({ dir: 'a/b', name: 'c' });
    expect(splitPath('c')).toEqual({ dir: '', name: 'c' });
  });
});
