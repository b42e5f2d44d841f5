import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCore, type StoreCore } from './store-kit.js';

let s: StoreCore;

beforeAll(async () => {
  s = await storeCore();
});
afterAll(async () => s.t.close());

describe('store catalog routes', () => {
  it('lists the shipped items to viewers, filtered by type and words; anonymous callers get 401', async () => {
    const all = await s.call('GET', '/store/catalog', undefined, 'viewer');
    expect(all.status).toBe(200);
    expect(all.body.meta?.total).toBeGreaterThanOrEqual(12);
    expect(all.body.data.every((item) => item.source === 'builtin' && item.installed === null)).toBe(true);
    const scripts = await s.call('GET', '/store/catalog?type=script&q=docker', undefined, 'viewer');
    expect(scripts.body.data.map((item) => item.id).sort()).toEqual(['docker-debian', 'docker-rocky']);
    const paged = await s.call('GET', '/store/catalog?limit=2&offset=2', undefined, 'viewer');
    expect(paged.body.data).toHaveLength(2);
    expect((await s.t.core.http.inject({ method: 'GET', url: '/api/v1/store/catalog' })).statusCode).toBe(401);
    expect((await s.call('GET', '/store/catalog?type=nonsense', undefined, 'viewer')).status).toBe(400);
  });

  it('shows one item with its payload and what it requires; 404 for an unknown one', async () => {
    const baseline = await s.call('GET', '/store/items/baseline/linux-server-baseline', undefined, 'viewer');
    expect(baseline.status).toBe(200);
    expect(baseline.body.data.requires).toEqual(['script/ssh-authorized-key', 'script/unattended-upgrades', 'script/hardware-inventory']);
    expect((baseline.body.data.payload as { scripts: unknown[] }).scripts).toHaveLength(3);
    expect((await s.call('GET', '/store/items/script/nope', undefined, 'viewer')).status).toBe(404);
    expect((await s.call('GET', '/store/items/script/ssh-authorized-key?source=elsewhere', undefined, 'viewer')).status).toBe(404);
  });

  it('lets only operators import', async () => {
    const res = await s.call('POST', '/store/import', { type: 'script', id: 'docker-rocky' }, 'viewer');
    expect(res.status).toBe(403);
    expect(s.scripts.list().length).toBe(0);
  });
});

describe('importing a baseline with its scripts', () => {
  it('creates the scripts, then the baseline with their local ids, and records provenance', async () => {
    const res = await s.call('POST', '/store/import', { type: 'baseline', id: 'linux-server-baseline' });
    expect(res.status, res.body.error).toBe(200);
    const items = res.body.data.items as unknown as { type: string; store_id: string; action: string; local_id: number }[];
    expect(items.map((item) => [item.type, item.store_id, item.action])).toEqual([
      ['script', 'ssh-authorized-key', 'created'],
      ['script', 'unattended-upgrades', 'created'],
      ['script', 'hardware-inventory', 'created'],
      ['baseline', 'linux-server-baseline', 'created'],
    ]);
    const baseline = s.baselines.get(items[3]?.local_id ?? 0);
    expect(baseline?.scripts.map((step) => step.script_id)).toEqual(items.slice(0, 3).map((item) => item.local_id));
    expect(baseline?.scripts[2]).toMatchObject({ continue_on_error: true, timeout_seconds: 900 });
    const listed = await s.call('GET', '/store/catalog?type=baseline&q=linux', undefined, 'viewer');
    expect(listed.body.data[0]?.installed).toMatchObject({ version: '1.0.0', imported_by: 'test-operator', update_available: false, local: [{ type: 'baseline', id: items[3]?.local_id, name: 'Linux server baseline' }] });
    const script = await s.call('GET', '/store/catalog?type=script&q=inventory', undefined, 'viewer');
    expect(script.body.data[0]?.installed).not.toBeNull();
    const event = s.t.core.kernel.events.all().find((row) => row.kind === 'store.imported');
    expect(event?.detail).toMatchObject({ key: 'baseline/linux-server-baseline', source: 'builtin', user: 'test-operator' });
    await s.t.core.kernel.audit.flush();
    const audit = s.t.core.kernel.audit.all().find((row) => row.path === '/api/v1/store/import' && row.outcome === 'success');
    expect(audit?.detail).toMatchObject({ item: 'baseline/linux-server-baseline', dry_run: 'false' });
    expect(String(audit?.detail?.items)).toContain('script/ssh-authorized-key:created#1');
  });

  it('answers 409 listing every conflict when asked (the default)', async () => {
    const res = await s.call('POST', '/store/import', { type: 'baseline', id: 'linux-server-baseline' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.details?.map((detail) => detail.key)).toEqual(['script/ssh-authorized-key', 'script/unattended-upgrades', 'script/hardware-inventory', 'baseline/linux-server-baseline']);
    expect(res.body.details?.[0]).toMatchObject({ type: 'script', name: 'Add SSH authorized key', existing_id: 1, field: 'script/ssh-authorized-key' });
  });

  it('reports a dry run with renames and writes nothing', async () => {
    const before = [s.scripts.list().length, s.baselines.list().length];
    const res = await s.call('POST', '/store/import', { type: 'baseline', id: 'linux-server-baseline', on_conflict: 'rename', dry_run: true });
    expect(res.status, res.body.error).toBe(200);
    expect(res.body.data.dry_run).toBe(true);
    expect((res.body.data.items as unknown as { action: string; name: string; local_id: null }[]).map((item) => [item.action, item.name, item.local_id])).toEqual([
      ['renamed', 'Add SSH authorized key (2)', null],
      ['renamed', 'Enable unattended upgrades (2)', null],
      ['renamed', 'Hardware inventory report (2)', null],
      ['renamed', 'Linux server baseline (2)', null],
    ]);
    expect([s.scripts.list().length, s.baselines.list().length]).toEqual(before);
    const overwrite = await s.call('POST', '/store/import', { type: 'script', id: 'ssh-authorized-key', on_conflict: 'overwrite', dry_run: true });
    expect(overwrite.body.data.items).toEqual([{ type: 'script', store_id: 'ssh-authorized-key', action: 'overwritten', local_id: 1, name: 'Add SSH authorized key' }]);
    const skip = await s.call('POST', '/store/import', { type: 'script', id: 'ssh-authorized-key', on_conflict: 'skip', dry_run: true });
    expect((skip.body.data.items as unknown as { local_id: unknown }[])[0]?.local_id).toBeNull();
  });

  it('applies per-item resolutions: skipped scripts are used by the overwritten baseline', async () => {
    await s.scripts.update(1, { content: '#!/bin/sh\necho changed locally\n' }, 'x');
    const res = await s.call('POST', '/store/import', {
      type: 'baseline',
      id: 'linux-server-baseline',
      on_conflict: 'skip',
      resolutions: { 'baseline/linux-server-baseline': 'overwrite' },
    });
    expect(res.status, res.body.error).toBe(200);
    expect((res.body.data.items as unknown as { action: string }[]).map((item) => item.action)).toEqual(['skipped', 'skipped', 'skipped', 'overwritten']);
    expect(s.scripts.get(1)?.content).toContain('changed locally');
    expect(s.baselines.list().length).toBe(1);
    expect(s.baselines.get(1)?.scripts.map((step) => step.script_id)).toEqual([1, 2, 3]);
  });

  it('refuses unknown resolution values and bodies with unknown fields', async () => {
    expect((await s.call('POST', '/store/import', { type: 'script', id: 'docker-rocky', resolutions: { 'script/docker-rocky': 'merge' } })).status).toBe(400);
    expect((await s.call('POST', '/store/import', { type: 'script', id: 'docker-rocky', extra: true })).status).toBe(400);
  });
});

describe('importing into the netboot and profiles areas', () => {
  it('creates an answer template; an overwrite makes a new version commented "imported from store"', async () => {
    const first = await s.call('POST', '/store/import', { type: 'answer-template', id: 'debian-preseed-lvm' });
    expect(first.status, first.body.error).toBe(200);
    const id = (first.body.data.items as unknown as { local_id: number }[])[0]?.local_id;
    await s.call('PUT', `/netboot/answer-templates/${id}`, { content: 'd-i debian-installer/locale string en_US.UTF-8\n' });
    const again = await s.call('POST', '/store/import', { type: 'answer-template', id: 'debian-preseed-lvm', on_conflict: 'overwrite' });
    expect(again.status, again.body.error).toBe(200);
    const versions = await s.call('GET', `/netboot/answer-templates/${id}/versions`, undefined, 'viewer');
    expect(versions.body.data[0]).toMatchObject({ version: 3, comment: 'imported from store builtin answer-template/debian-preseed-lvm 1.0.0' });
    const template = await s.call('GET', `/netboot/answer-templates/${id}`, undefined, 'viewer');
    expect(template.body.data.content).toContain('bootwright-lvm');
  });

  it('creates profiles and renames on request', async () => {
    const made = await s.call('POST', '/store/import', { type: 'profile', id: 'local-disk' });
    expect(made.status, made.body.error).toBe(200);
    const renamed = await s.call('POST', '/store/import', { type: 'profile', id: 'local-disk', on_conflict: 'rename' });
    expect((renamed.body.data.items as unknown as { name: string }[])[0]?.name).toBe('Boot from local disk (2)');
    const profiles = await s.call('GET', '/profiles?q=local%20disk', undefined, 'viewer');
    expect(profiles.body.data.map((row) => row.name).sort()).toEqual(['Boot from local disk', 'Boot from local disk (2)']);
  });

  it('puts an overlay; an overlay cannot be renamed', async () => {
    const made = await s.call('POST', '/store/import', { type: 'overlay', id: 'debian-serial-console' });
    expect(made.status, made.body.error).toBe(200);
    const overlay = await s.call('GET', '/netboot/overlays/debian', undefined, 'viewer');
    expect(overlay.body.data.cmdline).toContain('console=ttyS0,115200n8');
    const rename = await s.call('POST', '/store/import', { type: 'overlay', id: 'debian-serial-console', on_conflict: 'rename' });
    expect(rename.status).toBe(400);
    expect(rename.body.error).toContain('cannot be renamed');
  });

  it('imports a bundle all together (skipping what exists on request)', async () => {
    const res = await s.call('POST', '/store/import', { type: 'bundle', id: 'linux-lab', on_conflict: 'skip' });
    expect(res.status, res.body.error).toBe(200);
    const items = res.body.data.items as unknown as { store_id: string; action: string }[];
    expect(items.find((item) => item.store_id === 'memtest86plus')?.action).toBe('created');
    expect(items.find((item) => item.store_id === 'local-disk')?.action).toBe('skipped');
    const bundle = await s.call('GET', '/store/catalog?type=bundle', undefined, 'viewer');
    expect((bundle.body.data[0]?.installed as { local: { type: string }[] }).local.map((ref) => ref.type)).toEqual(['profile']);
  });
});

describe('POST /store/import-local', () => {
  const scriptYaml = [
    'type: script',
    'id: local-hello',
    'name: Local hello',
    'version: "1"',
    'summary: says hello',
    'tags: []',
    'os_family: linux',
    'author: me',
    'description: ""',
    'payload:',
    '  name: Local hello',
    '  kind: sh',
    '  content: |',
    '    echo hello',
  ].join('\n');

  it('imports one item file given as YAML', async () => {
    const res = await s.call('POST', '/store/import-local', { content: scriptYaml, filename: 'hello.yaml' });
    expect(res.status, res.body.error).toBe(200);
    expect(s.scripts.byName('Local hello')?.content).toBe('echo hello\n');
  });

  it('imports a bundle file whose baseline refers to its own script and a shipped one', async () => {
    const bundle = {
      format: 'bootwright-store-bundle',
      items: [
        { type: 'script', id: 'local-two', name: 'Two', version: '1', summary: '', tags: [], os_family: 'linux', author: 'me', description: '', payload: { name: 'Local two', kind: 'bash', content: 'echo two\n' } },
        {
          type: 'baseline',
          id: 'local-base',
          name: 'Local base',
          version: '1',
          summary: '',
          tags: [],
          os_family: 'linux',
          author: 'me',
          description: '',
          requires: ['script/local-two', 'script/docker-debian'],
          payload: { name: 'Local base', os_family: 'linux', scripts: [{ script: 'local-two' }, { script: 'docker-debian' }] },
        },
      ],
    };
    const res = await s.call('POST', '/store/import-local', { content: JSON.stringify(bundle) });
    expect(res.status, res.body.error).toBe(200);
    const names = (res.body.data.items as unknown as { name: string }[]).map((item) => item.name);
    expect(names).toEqual(['Local two', 'Install Docker on Debian or Ubuntu', 'Local base']);
    expect(s.baselines.byName('Local base')?.scripts.map((step) => step.script_name)).toEqual(['Local two', 'Install Docker on Debian or Ubuntu']);
  });

  it('refuses text that is not an item, an item with a bad payload, and references to nothing', async () => {
    expect((await s.call('POST', '/store/import-local', { content: '{ not: [json' })).status).toBe(400);
    // Larger than the API's 1 MiB default body, within the 2 MiB of text the route takes: checked, not refused as too large.
    expect((await s.call('POST', '/store/import-local', { content: `# ${'x'.repeat(1_500_000)}` })).status).toBe(400);
    expect((await s.call('POST', '/store/import-local', { content: 'x'.repeat(2 * 1024 * 1024 + 1) })).status).toBe(400);
    const bad = await s.call('POST', '/store/import-local', { content: scriptYaml.replace('kind: sh', 'kind: cobol').replace('local-hello', 'local-bad').replaceAll('Local hello', 'Local bad') });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('script/local-bad.payload');
    const dangling = scriptYaml.replace('local-hello', 'local-dangling').replaceAll('Local hello', 'Dangling').replace("description: \"\"", "description: \"\"\nrequires: [script/nowhere]");
    const res = await s.call('POST', '/store/import-local', { content: dangling });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('script/nowhere');
  });
});
