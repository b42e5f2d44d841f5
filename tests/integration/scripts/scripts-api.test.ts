import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
});
afterAll(async () => t.close());

interface Body {
  success: boolean;
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: { total: number };
  error?: string;
  code?: string;
  details?: { field: string; message: string }[];
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role = 'operator', core: TestCore = t) {
  const res = await core.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Body };
}

async function create(body: Record<string, unknown>, core: TestCore = t): Promise<Record<string, unknown>> {
  const res = await call('POST', '/scripts', body, 'operator', core);
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}

const SH = '#!/bin/sh\nset -e\necho "hello {{ who }}"\n';

describe('scripts API', () => {
  it('creates a script with version 1, its sha256 and os_family from its kind; viewers read, only operators write', async () => {
    const made = await create({ name: 'Hello', kind: 'sh', content: SH, variables: { who: 'world' }, description: 'greets' });
    expect(made).toMatchObject({ name: 'Hello', kind: 'sh', os_family: 'linux', version: 1, variables: { who: 'world' }, description: 'greets' });
    expect(made.sha256).toBe(createHash('sha256').update(SH).digest('hex'));
    const got = await call('GET', `/scripts/${String(made.id)}`, undefined, 'viewer');
    expect(got.status).toBe(200);
    expect(got.body.data.content).toBe(SH);
    expect((await call('POST', '/scripts', { name: 'V', kind: 'sh', content: 'true\n' }, 'viewer')).status).toBe(403);
    expect((await call('PUT', `/scripts/${String(made.id)}`, { description: 'x' }, 'viewer')).status).toBe(403);
    expect((await call('DELETE', `/scripts/${String(made.id)}`, undefined, 'viewer')).status).toBe(403);
    expect((await call('POST', '/scripts/check', { kind: 'sh', content: 'true\n' }, 'viewer')).status).toBe(403);
    const anonymous = await t.core.http.inject({ method: 'GET', url: '/api/v1/scripts' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lists with paging and filters by kind, os_family and q', async () => {
    await create({ name: 'Win setup', kind: 'powershell', os_family: 'windows', content: 'Write-Host "hi"\n' });
    await create({ name: 'Cmd thing', kind: 'batch', content: '@echo off\r\necho hi\r\n' });
    const ps = await call('GET', '/scripts?kind=powershell', undefined, 'viewer');
    expect(ps.body.data.map((row) => row.name)).toEqual(['Win setup']);
    const windows = await call('GET', '/scripts?os_family=windows', undefined, 'viewer');
    expect(windows.body.data.map((row) => row.name).sort()).toEqual(['Cmd thing', 'Win setup']);
    const q = await call('GET', '/scripts?q=cmd', undefined, 'viewer');
    expect(q.body.data.map((row) => row.name)).toEqual(['Cmd thing']);
    const paged = await call('GET', '/scripts?size=1&page=2&sort=name', undefined, 'viewer');
    expect(paged.body.meta?.total).toBeGreaterThanOrEqual(3);
    expect(paged.body.data).toHaveLength(1);
    expect((await call('GET', '/scripts?kind=perl', undefined, 'viewer')).status).toBe(400);
  });

  it('refuses unknown fields, bad names, contradictory OS families and reserved variables with field errors', async () => {
    const unknown = await call('POST', '/scripts', { name: 'U', kind: 'sh', content: 'true\n', shell: '/bin/sh' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toContainEqual({ field: 'body.shell', message: 'unknown field' });
    expect((await call('POST', '/scripts', { name: '-bad', kind: 'sh', content: 'true\n' })).status).toBe(400);
    expect((await call('POST', '/scripts', { name: 'Empty', kind: 'sh', content: '' })).status).toBe(400);
    const batchLinux = await call('POST', '/scripts', { name: 'B', kind: 'batch', os_family: 'linux', content: 'echo\r\n' });
    expect(batchLinux.status).toBe(400);
    expect(batchLinux.body.details).toContainEqual({ field: 'body.os_family', message: 'a batch script runs on windows only' });
    const shWindows = await call('POST', '/scripts', { name: 'S', kind: 'sh', os_family: 'windows', content: 'true\n' });
    expect(shWindows.body.details?.[0]?.field).toBe('body.os_family');
    const reserved = await call('POST', '/scripts', { name: 'R', kind: 'sh', content: 'true\n', variables: { host: 'x' } });
    expect(reserved.status).toBe(400);
    expect(reserved.body.details?.[0]?.field).toBe('body.variables.host');
    const control = await call('POST', '/scripts', { name: 'C', kind: 'sh', description: 'a\u0007b', content: 'true\n' });
    expect(control.status).toBe(400);
    expect((await call('PUT', '/scripts/1', {})).status).toBe(400);
    expect((await call('GET', '/scripts/999999', undefined, 'viewer')).status).toBe(404);
  });

  it('answers 409 for a duplicate name in any case, on create and on rename', async () => {
    await create({ name: 'Unique one', kind: 'bash', content: 'echo one\n' });
    const other = await create({ name: 'Unique two', kind: 'bash', content: 'echo two\n' });
    const dup = await call('POST', '/scripts', { name: 'UNIQUE ONE', kind: 'sh', content: 'true\n' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    expect((await call('PUT', `/scripts/${String(other.id)}`, { name: 'unique one' })).status).toBe(409);
  });

  it('refuses content that fails its check with 400 listing the lines, and saves warnings', async () => {
    const bad = await call('POST', '/scripts', { name: 'Broken', kind: 'sh', content: 'if true; then\n  echo hi\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.details?.[0]).toMatchObject({ field: 'body.content' });
    expect(bad.body.error).toMatch(/line 3: .*(fi|end of file)/);
    const bashism = await call('POST', '/scripts', { name: 'Bashism', kind: 'sh', content: 'a=(1 2)\n' });
    expect(bashism.status).toBe(400);
    expect((await call('POST', '/scripts', { name: 'Bash array', kind: 'bash', content: 'a=(1 2)\necho "${a[1]}"\n' })).status).toBe(201);
    const liquid = await call('POST', '/scripts', { name: 'Bad liquid', kind: 'sh', content: 'echo {{ x | nosuchfilter }}\n', variables: { x: '1' } });
    expect(liquid.status).toBe(400);
    expect(liquid.body.error).toContain('line 1');
    // An undeclared variable is a warning: the script saves.
    expect((await call('POST', '/scripts', { name: 'Undeclared', kind: 'sh', content: 'echo {{ nobody }}\n' })).status).toBe(201);
    const yaml = await call('POST', '/scripts', { name: 'Bad yaml', kind: 'cloud-init', content: '#cloud-config\npackages: [a\n' });
    expect(yaml.status).toBe(400);
    const ps = await call('POST', '/scripts', { name: 'Bad ps', kind: 'powershell', content: 'if ($true) {\n  Write-Host hi\n' });
    expect(ps.status).toBe(400);
    expect(ps.body.error).toContain('line 1');
  });

  it('checks unsaved text: issues with lines, warnings, the checker name', async () => {
    const bad = await call('POST', '/scripts/check', { kind: 'bash', content: 'echo ok\nif true; then\n  echo\nfi fi\n' });
    expect(bad.status).toBe(200);
    expect(bad.body.data).toMatchObject({ ok: false, checker: 'bash -n' });
    expect(bad.body.data.issues).toEqual([expect.objectContaining({ severity: 'error', line: 4 })]);
    const warn = await call('POST', '/scripts/check', { kind: 'sh', content: 'echo {{ who }} {{ other }}\n', variables: { who: 'me' } });
    expect(warn.body.data.ok).toBe(true);
    expect(warn.body.data.issues).toEqual([expect.objectContaining({ severity: 'warning', line: 1, message: expect.stringContaining('"other"') })]);
    const cloud = await call('POST', '/scripts/check', { kind: 'cloud-init', content: '#cloud-config\npackages:\n  - curl\n' });
    expect(cloud.body.data).toMatchObject({ ok: true, checker: 'cloud-init yaml', issues: [] });
    expect((await call('POST', '/scripts/check', { kind: 'sh', content: 'true\n', extra: 1 })).status).toBe(400);
  });

  it('keeps versions on content changes, gets one with its diff, diffs two, and rolls back', async () => {
    const made = await create({ name: 'Versioned', kind: 'sh', content: 'echo one\n' });
    const id = String(made.id);
    const v2 = await call('PUT', `/scripts/${id}`, { content: 'echo two\n', comment: 'second' });
    expect(v2.body.data).toMatchObject({ version: 2, sha256: createHash('sha256').update('echo two\n').digest('hex') });
    const same = await call('PUT', `/scripts/${id}`, { description: 'no content change' });
    expect(same.body.data).toMatchObject({ version: 2, description: 'no content change' });
    const v3 = await call('PUT', `/scripts/${id}`, { content: 'echo three\n' });
    expect(v3.body.data.version).toBe(3);

    const versions = await call('GET', `/scripts/${id}/versions`, undefined, 'viewer');
    expect(versions.body.data.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions.body.data[1]).toMatchObject({ author: 'test-operator', comment: 'second', kind: 'sh', script_id: made.id });

    const one = await call('GET', `/scripts/${id}/versions/1`, undefined, 'viewer');
    expect(one.body.data.content).toBe('echo one\n');
    expect(one.body.data.diff_to_current).toContain('-echo one');
    expect(one.body.data.diff_to_current).toContain('+echo three');
    expect((await call('GET', `/scripts/${id}/versions/9`, undefined, 'viewer')).status).toBe(404);

    const diff = await call('GET', `/scripts/${id}/versions/1/diff?to=2`, undefined, 'viewer');
    expect(diff.body.data).toMatchObject({ script_id: made.id, from_version: 1, to_version: 2, additions: 1, deletions: 1 });
    expect(diff.body.data.diff).toContain('+echo two');
    const toCurrent = await call('GET', `/scripts/${id}/versions/2/diff`, undefined, 'viewer');
    expect(toCurrent.body.data).toMatchObject({ from_version: 2, to_version: 3 });
    expect((await call('GET', `/scripts/${id}/versions/1/diff?to=7`, undefined, 'viewer')).status).toBe(404);

    const back = await call('POST', `/scripts/${id}/versions/1/rollback`);
    expect(back.status, back.body.error).toBe(200);
    expect(back.body.data).toMatchObject({ version: 4, content: 'echo one\n' });
    const again = await call('POST', `/scripts/${id}/versions/1/rollback`, { comment: 'twice' });
    expect(again.body.data).toMatchObject({ version: 4 });
    const after = await call('GET', `/scripts/${id}/versions`, undefined, 'viewer');
    expect(after.body.data.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(after.body.data[0]).toMatchObject({ comment: 'rollback to version 1' });
    expect((await call('POST', `/scripts/${id}/versions/1/rollback`, undefined, 'viewer')).status).toBe(403);
  });

  it('a kind change is a new version and a rollback restores the kind (and an OS family that fits it)', async () => {
    const made = await create({ name: 'Kind change', kind: 'batch', content: 'echo hi\r\n' });
    expect(made.os_family).toBe('windows');
    const ps = await call('PUT', `/scripts/${String(made.id)}`, { kind: 'powershell', content: 'Write-Host hi\n' });
    expect(ps.body.data).toMatchObject({ kind: 'powershell', os_family: 'windows', version: 2 });
    const sh = await call('PUT', `/scripts/${String(made.id)}`, { kind: 'sh', content: 'echo hi\n' });
    // windows does not fit sh: the family follows the kind.
    expect(sh.body.data).toMatchObject({ kind: 'sh', os_family: 'linux', version: 3 });
    const back = await call('POST', `/scripts/${String(made.id)}/versions/1/rollback`);
    expect(back.body.data).toMatchObject({ kind: 'batch', os_family: 'windows', version: 4 });
  });

  it('refuses a delete while a usage check names users (409 naming them), deletes with force, and records events and audit', async () => {
    const made = await create({ name: 'In use', kind: 'sh', content: 'true\n' });
    const id = Number(made.id);
    t.core.area('scripts').addUsageCheck((scriptId) => (scriptId === id ? ['baseline "Web servers" (id 3)'] : []));
    const refused = await call('DELETE', `/scripts/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('baseline "Web servers" (id 3)');
    expect(refused.body.details).toEqual([{ field: 'used_by', message: 'baseline "Web servers" (id 3)' }]);
    expect((await call('GET', `/scripts/${id}`, undefined, 'viewer')).status).toBe(200);
    expect((await call('DELETE', `/scripts/${id}?force=yes`)).status).toBe(400);
    const forced = await call('DELETE', `/scripts/${id}?force=true`);
    expect(forced.status).toBe(200);
    expect((await call('GET', `/scripts/${id}`, undefined, 'viewer')).status).toBe(404);
    expect((await call('GET', `/scripts/${id}/versions`, undefined, 'viewer')).status).toBe(404);

    const events = await call('GET', '/events?kind=script.', undefined, 'viewer');
    const kinds = events.body.data.map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['script.created', 'script.updated', 'script.deleted']));
    const deleted = events.body.data.find((event) => event.kind === 'script.deleted' && (event.detail as Record<string, unknown>).id === id);
    expect(deleted?.detail).toMatchObject({ name: 'In use', forced: true, used_by: ['baseline "Web servers" (id 3)'] });
    const audit = await call('GET', '/audit-logs?size=200', undefined, 'admin');
    expect(JSON.stringify(audit.body.data)).toContain(`/scripts/${id}`);
  });

  it('the facade validates exactly like the API and writes nothing', async () => {
    const scripts = t.core.area('scripts');
    await expect(scripts.validate({ name: 'Hello', kind: 'sh', content: 'true\n' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(scripts.validate({ name: 'Fresh', kind: 'sh', content: 'true\n', bogus: 1 } as never)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'body.bogus', message: 'unknown field' }],
    });
    await expect(scripts.validate({ name: 'Fresh', kind: 'sh', content: 'fi\n' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(scripts.validate({ name: 'Fresh', kind: 'sh', content: 'true\n' })).resolves.toBeUndefined();
    expect(scripts.byName('fresh')).toBeUndefined();
    expect(scripts.byName('HELLO')?.name).toBe('Hello');
  });
});

describe('scripts across a restart', () => {
  it('keeps scripts, versions and the next version number after the store is reopened', async () => {
    const dir = await tempDir();
    try {
      const first = await createTestCore({ dataDir: dir.dir, authenticator: roleAuthenticator });
      const made = await create({ name: 'Durable', kind: 'bash', content: 'echo a\n' }, first);
      await call('PUT', `/scripts/${String(made.id)}`, { content: 'echo b\n' }, 'operator', first);
      await first.close();

      const second = await createTestCore({ dataDir: dir.dir, authenticator: roleAuthenticator });
      try {
        const got = await call('GET', `/scripts/${String(made.id)}`, undefined, 'viewer', second);
        expect(got.body.data).toMatchObject({ name: 'Durable', version: 2, content: 'echo b\n' });
        const versions = await call('GET', `/scripts/${String(made.id)}/versions`, undefined, 'viewer', second);
        expect(versions.body.data.map((v) => v.version)).toEqual([2, 1]);
        const v3 = await call('PUT', `/scripts/${String(made.id)}`, { content: 'echo c\n' }, 'operator', second);
        expect(v3.body.data.version).toBe(3);
        expect((await call('POST', '/scripts', { name: 'durable', kind: 'sh', content: 'true\n' }, 'operator', second)).status).toBe(409);
      } finally {
        await second.close();
      }
    } finally {
      await dir.remove();
    }
  });
});
