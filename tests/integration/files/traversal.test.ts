import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { toolPresent } from '../../helpers/tools.js';
import { auditEntryOf, call, callers, curlUpload, type ApiAnswer, type Caller } from './files-helpers.js';

/*
 * The traversal suite: every file route (list, upload, delete, browse) with
 * a table of hostile paths. Each must answer 400 VALIDATION_FAILED naming the
 * field, change nothing on disk (the boot and images roots and the folder a
 * link points out to, compared entry by entry), and the mutating ones must
 * leave an audit entry naming the root and the path tried.
 */

let t: TestCore;
let base: string;
let who: { operator: Caller; admin: Caller };
let boot: string;
let images: string;
let outside: { dir: string; remove: () => Promise<void> };
let scratch: { dir: string; remove: () => Promise<void> };
let source: string;
const hasTools = toolPresent('curl', 'the /files traversal suite') && toolPresent('mkfifo', 'the /files traversal suite');
const PROBE = 'bootwright-traversal-probe';

interface Hostile {
  name: string;
  /** The query value, already percent-encoded as it goes on the wire, for list, upload and delete (or per route). */
  list: string;
  upload: string;
  remove: string;
  /** An absolute path for /fs/browse, encoded likewise. */
  browse: string;
}

const enc = encodeURIComponent;

function same(name: string, files: string, browse: string): Hostile {
  return { name, list: files, upload: files, remove: files, browse };
}

/** Built once the roots are known. */
function hostileTable(): Hostile[] {
  return [
    same('..', '..', '..'),
    same('../../etc/passwd', enc('../../etc/passwd'), enc(`${boot}/../../etc/passwd`)),
    same('%2e%2e%2f (decoded once by the server)', `%2e%2e%2f${PROBE}`, `${enc(boot)}%2f%2e%2e%2f%2e%2e%2fetc`),
    same('%252e%252e (double-encoded)', `%252e%252e%252f${PROBE}`, `${enc(boot)}%2f%252e%252e%252f%252e%252e%252fetc`),
    same('/etc/passwd', enc('/etc/passwd'), enc('/etc/passwd')),
    same('a/../../b', enc('a/../../b'), enc('a/../../b')),
    same('NUL (%00)', `${PROBE}%00.txt`, `${enc(boot)}%00`),
    same('backslash', `..%5c..%5c${PROBE}`, `${enc(boot)}%5c..%5c..%5cetc`),
    { name: 'a symlink to /etc in the boot root', list: 'etc-link', upload: `etc-link%2f${PROBE}`, remove: `etc-link%2f${PROBE}`, browse: enc(`${boot}/etc-link`) },
    { name: 'a symlinked parent directory', list: 'parent-link', upload: 'parent-link%2fnew.txt', remove: 'parent-link%2fvictim.txt', browse: enc(`${boot}/parent-link`) },
    { name: '/dev/null', list: 'null-link', upload: enc('/dev/null'), remove: enc('/dev/null'), browse: enc('/dev/null') },
    same('a FIFO', 'fifo', enc(`${boot}/fifo`)),
  ];
}

/** Every entry under the watched folders (not following links): type, size, mtime. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const full = path.join(dir, name);
      const info = await lstat(full);
      out[full] = `${info.isDirectory() ? 'd' : info.isSymbolicLink() ? 'l' : info.isFile() ? 'f' : 'o'}:${info.size}:${info.mtimeMs}`;
      if (info.isDirectory()) await walk(full);
    }
  };
  for (const dir of [boot, images, outside.dir]) await walk(dir);
  for (const probe of [`/etc/${PROBE}`, `/${PROBE}`, path.join(path.dirname(boot), PROBE), path.join(t.dataDir, PROBE)]) {
    out[probe] = await lstat(probe).then(
      () => 'exists',
      () => 'absent',
    );
  }
  return out;
}

function expectRefused(res: ApiAnswer, field: string, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.json)}`).toBe(400);
  expect(res.json.code, what).toBe('VALIDATION_FAILED');
  expect(res.json.details?.[0]?.field, what).toBe(field);
}

async function expectAudited(res: ApiAnswer, action: string, what: string): Promise<void> {
  const entry = await auditEntryOf(t.core, res.requestId);
  expect(entry, `${what}: no audit entry`).toBeDefined();
  expect(entry, what).toMatchObject({ action, outcome: 'failure', status: 400 });
  expect(entry?.detail?.root, what).toBe('boot');
  expect(entry?.detail?.path, what).toEqual(expect.any(String));
  expect(entry?.detail?.refused, what).toMatch(/query\.path/);
}

beforeAll(async () => {
  if (!hasTools) return;
  outside = await tempDir('bootwright-outside-');
  scratch = await tempDir('bootwright-traversal-src-');
  // The folder the link points to is not an allowed root: browsing into it must be refused too.
  t = await createTestCore();
  await t.core.start();
  base = t.core.url();
  const made = await callers(t.core);
  who = { operator: made.operator, admin: made.admin };
  boot = t.core.area('boot-files').files.root;
  images = path.join(t.dataDir, 'images');
  await writeFile(path.join(outside.dir, 'victim.txt'), 'must survive');
  await mkdir(path.join(boot, 'safe'), { recursive: true });
  await writeFile(path.join(boot, 'safe', 'existing.txt'), 'inside');
  await symlink('/etc', path.join(boot, 'etc-link'));
  await symlink(outside.dir, path.join(boot, 'parent-link'));
  await symlink('/dev/null', path.join(boot, 'null-link'));
  execFileSync('mkfifo', [path.join(boot, 'fifo')]);
  source = path.join(scratch.dir, 'payload.txt');
  await writeFile(source, 'hostile payload');
}, 60_000);

afterAll(async () => {
  // Tests may run as root: should a regression ever let a probe out, it must not stay behind.
  if (boot) for (const probe of [`/etc/${PROBE}`, `/${PROBE}`, path.join(path.dirname(boot), PROBE)]) await rm(probe, { force: true });
  await t?.close();
  await outside?.remove();
  await scratch?.remove();
});

describe.runIf(hasTools)('traversal: every file route refuses every hostile path', () => {
  it('GET /files', async () => {
    const before = await snapshot();
    for (const row of hostileTable()) {
      expectRefused(await call(base, who.operator, 'GET', `/files?root=boot&path=${row.list}`), 'query.path', `list ${row.name}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('POST /files/upload (raw body over curl, with overwrite and parents): 400, nothing written, audited', async () => {
    const before = await snapshot();
    for (const row of hostileTable()) {
      const res = await curlUpload(base, who.operator, `/files/upload?root=boot&path=${row.upload}&overwrite=true&parents=true`, { raw: source });
      expectRefused(res, 'query.path', `upload ${row.name}`);
      await expectAudited(res, 'files.upload', `upload ${row.name}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('DELETE /files (with recursive): 400, nothing removed, audited', async () => {
    const before = await snapshot();
    for (const row of hostileTable()) {
      const res = await call(base, who.operator, 'DELETE', `/files?root=boot&path=${row.remove}&recursive=true`);
      expectRefused(res, 'query.path', `delete ${row.name}`);
      await expectAudited(res, 'files.delete', `delete ${row.name}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('GET /fs/browse', async () => {
    const before = await snapshot();
    for (const row of hostileTable()) {
      expectRefused(await call(base, who.admin, 'GET', `/fs/browse?path=${row.browse}`), 'query.path', `browse ${row.name}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('multipart file names that climb, hide a NUL or carry a slash are refused (body.file), nothing written', async () => {
    const before = await snapshot();
    for (const name of ['../evil', '..', 'a/b', '%2e%2e%2fevil', '..\\evil', `${'%25'}2e%252e%252fevil`]) {
      const res = await curlUpload(base, who.operator, '/files/upload?root=boot&path=safe', { form: `${source};filename=${name}` });
      expectRefused(res, 'body.file', `multipart name ${name}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the audit detail of a refused request names the path tried, control characters escaped', async () => {
    const res = await call(base, who.operator, 'DELETE', `/files?root=boot&path=${PROBE}%00.txt`);
    expectRefused(res, 'query.path', 'NUL delete');
    const entry = await auditEntryOf(t.core, res.requestId);
    expect(entry?.detail?.path).toBe(`${PROBE}\\x00.txt`);
  });

  it('the same roots still work for honest paths (the suite can tell a refusal from a broken route)', async () => {
    const list = await call(base, who.operator, 'GET', '/files?root=boot&path=safe');
    expect(list.status).toBe(200);
    const up = await curlUpload(base, who.operator, '/files/upload?root=boot&path=safe/new.txt', { raw: source });
    expect(up.status).toBe(201);
    expect((await call(base, who.operator, 'DELETE', '/files?root=boot&path=safe/new.txt')).status).toBe(200);
    // The links themselves are entries of the root: deleting one removes the link, never what it points to.
    expect((await call(base, who.operator, 'DELETE', '/files?root=boot&path=parent-link')).status).toBe(200);
    expect((await lstat(path.join(outside.dir, 'victim.txt'))).isFile()).toBe(true);
    expect((await call(base, who.admin, 'GET', `/fs/browse?path=${enc(path.join(boot, 'safe'))}`)).status).toBe(200);
  });
});
