import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/*
 * A profile that names kernel/initrd files the boot root lacks is saved with
 * warnings; the boot loader check lists every profile's files; the host
 * preview marks what a machine would miss.
 */

let t: TestCore;
let bootRoot: string;

beforeAll(async () => {
  t = await createTestCore({ authenticator: roleAuthenticator });
  bootRoot = t.core.area('boot-files').files.root;
  await mkdir(path.join(bootRoot, 'debian'), { recursive: true });
  await writeFile(path.join(bootRoot, 'debian', 'linux'), 'kernel bytes');
});
afterAll(async () => t.close());

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as('operator'), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as { data: Record<string, unknown> & { warnings?: string[] } } };
}

describe('profile files', () => {
  let profileId = 0;

  it('saves a profile whose initrd is missing, with a warning naming it; none once the file is there', async () => {
    const created = await call('POST', '/profiles', {
      name: 'Debian local files',
      boot_type: 'linux',
      linux: { kernel: 'debian/linux', initrds: ['debian/initrd.gz', 'http://mirror.test/extra.gz', '{{ variables.base }}/x.gz'], cmdline: 'auto=true' },
    });
    expect(created.status).toBe(201);
    profileId = Number(created.body.data.id);
    expect(created.body.data.name).toBe('Debian local files');
    expect(created.body.data.warnings).toHaveLength(1);
    expect(created.body.data.warnings?.[0]).toContain('linux.initrds[0]: debian/initrd.gz does not exist in the boot root');

    await writeFile(path.join(bootRoot, 'debian', 'initrd.gz'), 'initrd bytes');
    const updated = await call('PUT', `/profiles/${profileId}`, { description: 'files copied' });
    expect(updated.status).toBe(200);
    expect(updated.body.data.warnings).toEqual([]);
  });

  it('answers warnings only to a save: a list has no warnings field', async () => {
    const listed = await t.core.http.inject({ method: 'GET', url: '/api/v1/profiles', headers: as('viewer') });
    expect(listed.body).not.toContain('"warnings"');
  });

  it('lists every profile file in the boot loader check, missing ones as warnings', async () => {
    await call('POST', '/profiles', { name: 'Missing kernel', boot_type: 'linux', linux: { kernel: 'nowhere/vmlinuz' } });
    const res = await t.core.http.inject({ method: 'GET', url: '/api/v1/bootloader/check', headers: as('viewer') });
    expect(res.statusCode).toBe(200);
    const report = res.json().data as { profiles: { profile_name: string; field: string; path: string; state: string }[]; problems: { name: string; severity: string }[] };
    const states = Object.fromEntries(report.profiles.map((file) => [`${file.profile_name} ${file.field}`, file.state]));
    expect(states).toMatchObject({
      'Debian local files linux.kernel': 'present',
      'Debian local files linux.initrds[0]': 'present',
      'Debian local files linux.initrds[1]': 'remote',
      'Debian local files linux.initrds[2]': 'templated',
      'Missing kernel linux.kernel': 'missing',
    });
    expect(report.problems.find((problem) => problem.name === 'nowhere/vmlinuz')).toMatchObject({ severity: 'warning' });
  });

  it('marks the files a host would miss in its boot-config preview', async () => {
    const missing = await call('POST', '/profiles', { name: 'Half there', boot_type: 'linux', linux: { kernel: 'debian/linux', initrds: ['debian/missing.gz'] } });
    const host = await call('POST', '/hosts', { mac: '52:54:00:aa:bb:01', profile_id: missing.body.data.id });
    expect(host.status).toBe(201);
    const preview = await t.core.http.inject({ method: 'GET', url: `/api/v1/hosts/${String(host.body.data.id)}/boot-config`, headers: as('viewer') });
    const files = (preview.json().data as { files: { command: string; url: string; state: string }[] }).files;
    expect(files.map((file) => [file.command, file.url.replace(/^.*\/boot\//, ''), file.state])).toEqual([
      ['kernel', 'debian/linux', 'present'],
      ['initrd', 'debian/missing.gz', 'missing'],
    ]);
  });
});
