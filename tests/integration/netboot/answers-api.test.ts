import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { verify } from 'unixcrypt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../src-main/core/http-kit/access.js';
import { sampleAnswerContext } from '../../../src-main/netboot/answers/index.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

let t: TestCore;

beforeAll(async () => {
  // A log file and debug level: the secrets test greps it.
  t = await createTestCore({ authenticator: roleAuthenticator, fileLog: true, config: { logLevel: 'debug' } });
});
afterAll(async () => t.close());

interface Issue {
  line: number | null;
  severity: string;
  message: string;
}

function issuesOf(body: Body): Issue[] {
  return body.data.issues as Issue[];
}

interface Body {
  success: boolean;
  data: Record<string, unknown> & Record<string, unknown>[];
  meta?: { total: number };
  error?: string;
  code?: string;
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, role: Role = 'operator') {
  const res = await t.core.http.inject({ method, url: `/api/v1${url}`, headers: as(role), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Body };
}

async function create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call('POST', '/netboot/answer-templates', body);
  expect(res.status, res.body.error).toBe(201);
  return res.body.data;
}

/** Every file under `dir` (journals, snapshots, store files, logs). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('answer templates API', () => {
  it('lists the presets, one per kind', async () => {
    const res = await call('GET', '/netboot/answer-templates/presets', undefined, 'viewer');
    expect(res.status).toBe(200);
    const kinds = res.body.data.map((preset) => preset.kind);
    expect(new Set(kinds)).toEqual(new Set(['preseed', 'kickstart', 'autoinstall', 'autoyast', 'alpine', 'autounattend']));
  });

  it('creates from a preset, filters by kind, and refuses a viewer write', async () => {
    const made = await create({ preset: 'kickstart', name: 'Rocky lab' });
    expect(made).toMatchObject({ kind: 'kickstart', preset: 'kickstart', version: 1, secret_names: [] });
    expect((made.variables as Record<string, string>).disk).toBe('sda');
    const list = await call('GET', '/netboot/answer-templates?kind=kickstart', undefined, 'viewer');
    expect(list.body.data.map((row) => row.name)).toContain('Rocky lab');
    const other = await call('GET', '/netboot/answer-templates?kind=alpine', undefined, 'viewer');
    expect(other.body.data.map((row) => row.name)).not.toContain('Rocky lab');
    expect((await call('POST', '/netboot/answer-templates', { preset: 'kickstart', name: 'x' }, 'viewer')).status).toBe(403);
    expect((await call('POST', '/netboot/answer-templates', { preset: 'kickstart', name: 'rocky LAB' })).status).toBe(409);
    const bad = await call('POST', '/netboot/answer-templates', { name: 'broken', kind: 'preseed', content: 'd-i a/b string x\n{% if %}\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('line 2');
  });

  it('keeps versions, diffs them and rolls back without duplicating the current content', async () => {
    const made = await create({ name: 'Versioned', kind: 'preseed', content: 'd-i netcfg/get_hostname string one\n' });
    const id = String(made.id);
    const v2 = await call('PUT', `/netboot/answer-templates/${id}`, { content: 'd-i netcfg/get_hostname string two\n', comment: 'second' });
    expect(v2.body.data.version).toBe(2);
    const same = await call('PUT', `/netboot/answer-templates/${id}`, { content: 'd-i netcfg/get_hostname string two\n', description: 'no content change' });
    expect(same.body.data).toMatchObject({ version: 2, description: 'no content change' });
    const versions = await call('GET', `/netboot/answer-templates/${id}/versions`, undefined, 'viewer');
    expect(versions.body.data.map((v) => v.version)).toEqual([2, 1]);
    expect(versions.body.data[0]).toMatchObject({ author: 'test-operator', comment: 'second' });

    const one = await call('GET', `/netboot/answer-templates/${id}/versions/1`, undefined, 'viewer');
    expect(one.body.data.content).toBe('d-i netcfg/get_hostname string one\n');
    expect(one.body.data.diff_to_current).toContain('-d-i netcfg/get_hostname string one');
    expect(one.body.data.diff_to_current).toContain('+d-i netcfg/get_hostname string two');
    expect((await call('GET', `/netboot/answer-templates/${id}/versions/9`, undefined, 'viewer')).status).toBe(404);

    const back = await call('POST', `/netboot/answer-templates/${id}/rollback/1`);
    expect(back.body.data).toMatchObject({ version: 3, content: 'd-i netcfg/get_hostname string one\n' });
    // Version 1 is the current content now: nothing is added.
    const again = await call('POST', `/netboot/answer-templates/${id}/rollback/1`, { comment: 'twice' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ version: 3 });
    const after = await call('GET', `/netboot/answer-templates/${id}/versions`, undefined, 'viewer');
    expect(after.body.data.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(after.body.data[0]).toMatchObject({ comment: 'rollback to version 1' });
  });

  it('stores secrets encrypted, shows only their names, masks them in previews and never writes them to journals or logs', async () => {
    const plain = 'Pl41n-Secret-Zebra-7731';
    const made = await create({ preset: 'debian-preseed', name: 'Debian with root', secrets: { root_password: plain }, comment: 'with a secret' });
    expect(made.secret_names).toEqual(['root_password']);
    expect(JSON.stringify(made)).not.toContain(plain);
    const id = Number(made.id);

    const preview = await call('POST', `/netboot/answer-templates/${id}/preview`, {});
    expect(preview.status, preview.body.error).toBe(200);
    expect(preview.body.data.content).toContain('d-i passwd/root-password-crypted password ********');
    expect(preview.body.data.validation).toMatchObject({ valid: true });

    // The installer's render is the one place the secret is decrypted: the hash of the plain password.
    const rendered = await t.core.area('netboot').answers.render(id, 'preseed', sampleAnswerContext());
    const hash = /d-i passwd\/root-password-crypted password (\S+)/.exec(rendered.content)?.[1] ?? '';
    expect(hash.startsWith('$6$')).toBe(true);
    expect(verify(plain, hash)).toBe(true);
    expect(rendered).toMatchObject({ content_type: 'text/plain; charset=utf-8', template_version: 1 });

    // Removing a secret with null.
    const removed = await call('PUT', `/netboot/answer-templates/${id}`, { secrets: { root_password: null } });
    expect(removed.body.data.secret_names).toEqual([]);

    const files = await filesUnder(t.dataDir);
    expect(files.some((file) => file.includes(`${path.sep}logs${path.sep}`))).toBe(true);
    expect(files.some((file) => file.includes('netboot_answer_templates'))).toBe(true);
    for (const file of files) {
      const text = await readFile(file, 'latin1');
      expect(text.includes(plain), file).toBe(false);
    }
  });

  it('renders an answer once per context and anew after every template write (content, secrets, rollback)', async () => {
    const made = await create({ preset: 'debian-preseed', name: 'Debian cached' });
    const id = Number(made.id);
    const answers = t.core.area('netboot').answers;
    const first = await answers.render(id, 'preseed', sampleAnswerContext());
    expect(await answers.render(id, 'preseed', sampleAnswerContext())).toBe(first);
    const content = `${String(made.content)}\n# changed by the test\n`;
    expect((await call('PUT', `/netboot/answer-templates/${id}`, { content })).status).toBe(200);
    expect((await answers.render(id, 'preseed', sampleAnswerContext())).content).toContain('# changed by the test');
    expect((await call('PUT', `/netboot/answer-templates/${id}`, { secrets: { root_password_hash: '$6$salt$abc' } })).status).toBe(200);
    expect((await answers.render(id, 'preseed', sampleAnswerContext())).content).toContain('root-password-crypted password $6$salt$abc');
    expect((await call('POST', `/netboot/answer-templates/${id}/rollback/1`, {})).status).toBe(200);
    expect((await answers.render(id, 'preseed', sampleAnswerContext())).content).not.toContain('# changed by the test');
  });

  it('keeps at most 16 secrets per template', async () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`s${i}`, `value-${i}`]));
    const made = await create({ preset: 'kickstart', name: 'Many secrets', secrets: sixteen });
    expect((made.secret_names as string[]).length).toBe(16);
    const more = await call('PUT', `/netboot/answer-templates/${String(made.id)}`, { secrets: { extra: 'x' } });
    expect(more.status).toBe(400);
    expect(more.body.error).toContain('at most 16 secrets');
    const swap = await call('PUT', `/netboot/answer-templates/${String(made.id)}`, { secrets: { extra: 'x', s0: null } });
    expect(swap.status, swap.body.error).toBe(200);
  });

  it('refuses to delete a template an active install task uses (usage check) and deletes it once free', async () => {
    const made = await create({ preset: 'alpine-answers', name: 'Alpine busy' });
    let busy = true;
    t.core.area('netboot').answers.addUsageCheck((templateId) => (busy && templateId === made.id ? [{ id: 7, name: 'install debian on 52:54:00:00:00:07' }] : []));
    const refused = await call('DELETE', `/netboot/answer-templates/${String(made.id)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('install debian on 52:54:00:00:00:07 (id 7)');
    busy = false;
    expect((await call('DELETE', `/netboot/answer-templates/${String(made.id)}`)).status).toBe(200);
    expect((await call('GET', `/netboot/answer-templates/${String(made.id)}`, undefined, 'viewer')).status).toBe(404);
    expect((await call('GET', `/netboot/answer-templates/${String(made.id)}/versions`, undefined, 'viewer')).status).toBe(404);
  });

  it('previews for a host and for a MAC, and validates the output', async () => {
    const host = await call('POST', '/hosts', { mac: '52:54:00:aa:bb:42', hostname: 'web42' });
    expect(host.status, host.body.error).toBe(201);
    const made = await create({ preset: 'ubuntu-autoinstall', name: 'Ubuntu preview' });
    const byHost = await call('POST', `/netboot/answer-templates/${String(made.id)}/preview`, { host_id: host.body.data.id, variables: { timezone: 'Europe/Paris' } });
    expect(byHost.status, byHost.body.error).toBe(200);
    expect(byHost.body.data.content_type).toBe('text/yaml; charset=utf-8');
    expect(byHost.body.data.content).toContain('hostname: "web42"');
    expect(byHost.body.data.content).toContain('timezone: "Europe/Paris"');
    expect(byHost.body.data.validation).toEqual({ valid: true, issues: [] });
    const byMac = await call('POST', `/netboot/answer-templates/${String(made.id)}/preview`, { mac: '52-54-00-AA-BB-42' });
    expect(byMac.body.data.content).toContain('hostname: "web42"');
    expect((await call('POST', `/netboot/answer-templates/${String(made.id)}/preview`, { host_id: 999 })).status).toBe(404);
    expect((await call('POST', `/netboot/answer-templates/${String(made.id)}/preview`, { task_id: 999 })).status).toBe(404);
    // As an install task would get it, its token replaced: the real one is only in what the machine fetches.
    // Offline: the task's entry is only on the internet, and tests download nothing from it.
    await t.core.kernel.settings.update({ netboot: { offline: true } });
    const task = await call('POST', '/netboot/tasks', { mac: '52:54:00:aa:bb:42', distro: 'ubuntu', version: '24.04', template_id: made.id });
    expect(task.status, task.body.error).toBe(201);
    const byTask = await call('POST', `/netboot/answer-templates/${String(made.id)}/preview`, { task_id: task.body.data.id });
    expect(byTask.status, byTask.body.error).toBe(200);
    expect(byTask.body.data.content).toContain(`/netboot/callback/${String(task.body.data.id)}/TOKEN/installing`);
    expect(byTask.body.data.content).toContain('hostname: "web42"');
  });

  it('validates unsaved and stored templates with lines', async () => {
    const res = await call('POST', '/netboot/answer-templates/validate', { kind: 'preseed', content: 'd-i netcfg/get_hostname string {{ host.hostname }}\nd-i clock-setup/utc boolean maybe\n' });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.issues).toContainEqual(expect.objectContaining({ line: 2, severity: 'error', message: expect.stringContaining('true or false') }));
    const syntax = await call('POST', '/netboot/answer-templates/validate', { kind: 'kickstart', content: 'text\n\n{% for x in %}\n' });
    expect(issuesOf(syntax.body)[0]).toMatchObject({ line: 3, severity: 'error' });
    const made = await create({ preset: 'windows-autounattend', name: 'Windows stored' });
    const stored = await call('POST', `/netboot/answer-templates/${String(made.id)}/validate`);
    expect(stored.body.data).toEqual({ valid: true, issues: [] });
  });

  it('cuts an endless or huge template with the sandbox limits and reports it', async () => {
    const endless = await call('POST', '/netboot/answer-templates/validate', {
      kind: 'alpine',
      content: 'KEYMAPOPTS=us\n{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}\n',
    });
    expect(endless.status).toBe(200);
    expect(endless.body.data.valid).toBe(false);
    expect(issuesOf(endless.body)[0]?.message).toMatch(/exceeded|limit/);
    const huge = await call('POST', '/netboot/answer-templates/validate', {
      kind: 'alpine',
      content: '{% assign s = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" %}{% for a in (1..30000) %}{{ s }}{% endfor %}',
    });
    expect(huge.body.data.valid).toBe(false);
    expect(issuesOf(huge.body)[0]?.message).toMatch(/larger than|limit|exceeded/);
  });
});
