import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { defaultStoreDir } from '../../../src-main/community-store/builtin-catalog.js';
import { buildIndex } from '../../../src-main/community-store/index-builder.js';
import { importRows, provenanceRows, type ImportStep } from '../../../src-main/community-store/store-records.js';
import { tempDir } from '../../helpers/test-core.js';
import { storeCore, type StoreCore } from './store-kit.js';

describe('all or nothing', () => {
  let s: StoreCore;
  beforeAll(async () => {
    s = await storeCore();
  });
  afterAll(async () => s.t.close());

  it('undoes created and overwritten resources when a write fails part-way', async () => {
    const mine = await s.scripts.create({ name: 'Add SSH authorized key', kind: 'sh', content: 'echo mine\n' }, 'me');
    s.inject.baselineWriteFails = (name) => name === 'Linux server baseline';
    const res = await s.call('POST', '/store/import', { type: 'bundle', id: 'linux-lab', resolutions: { 'script/ssh-authorized-key': 'overwrite' } });
    expect(res.status, JSON.stringify(res.body)).toBe(500);
    // The overwritten script has its own content back; the created scripts and the answer template are gone; the profiles never came.
    expect(s.scripts.get(mine.id)?.content).toBe('echo mine\n');
    expect(s.scripts.list().map((row) => row.name)).toEqual(['Add SSH authorized key']);
    expect(s.t.core.area('netboot').answers.list({ q: 'LVM' }).data).toEqual([]);
    expect(s.t.core.area('profiles').all()).toEqual([]);
    const record = importRows(s.t.core.kernel.store).all().at(-1);
    expect(record).toMatchObject({ status: 'rolled_back', key: 'bundle/linux-lab' });
    expect(record?.error).toContain('injected failure');
    expect(provenanceRows(s.t.core.kernel.store).all()).toEqual([]);
    const catalog = await s.call('GET', '/store/catalog?type=bundle', undefined, 'viewer');
    expect(catalog.body.data[0]?.installed).toBeNull();
    s.inject.baselineWriteFails = null;
    // Skipping the store's script would leave the baseline on the local one, which declares none of the variables it sets: refused, nothing written.
    const skip = await s.call('POST', '/store/import', { type: 'bundle', id: 'linux-lab', resolutions: { 'script/ssh-authorized-key': 'skip' } });
    expect(skip.status, skip.body.error).toBe(400);
    expect(skip.body.error).toContain('declares no variable "user"');
    expect(s.scripts.list().map((row) => row.name)).toEqual(['Add SSH authorized key']);
    const retry = await s.call('POST', '/store/import', { type: 'bundle', id: 'linux-lab', resolutions: { 'script/ssh-authorized-key': 'rename' } });
    expect(retry.status, retry.body.error).toBe(200);
    expect(s.scripts.get(mine.id)?.content).toBe('echo mine\n');
  });

  it('writes nothing when a later item fails validation', async () => {
    const before = s.t.core.area('netboot').answers.list({}).meta.total;
    // The overlay conflicts (no overlay yet → created) but a profile named like the shipped one exists and is asked about.
    const res = await s.call('POST', '/store/import-local', {
      content: JSON.stringify({
        format: 'bootwright-store-bundle',
        items: [
          { type: 'answer-template', id: 'ok-template', name: 'x', version: '1', summary: '', tags: [], os_family: null, author: '', description: '', payload: { name: 'Fine template', kind: 'preseed', content: 'd-i debian-installer/locale string en_US.UTF-8\n' } },
          { type: 'profile', id: 'broken-profile', name: 'x', version: '1', summary: '', tags: [], os_family: null, author: '', description: '', payload: { name: 'Broken', boot_type: 'ipxe_script', script: '#!ipxe\n{% if %}\n' } },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(s.t.core.area('netboot').answers.list({}).meta.total).toBe(before);
  });
});

async function copyCatalogWithVersion(target: string, itemFile: string, version: string): Promise<void> {
  const source = defaultStoreDir();
  await cp(source, target, { recursive: true });
  const file = path.join(target, 'items', itemFile);
  await writeFile(file, (await readFile(file, 'utf8')).replace('version: 1.0.0', `version: ${version}`));
  const files = (await readdir(path.join(target, 'items'), { recursive: true })).filter((name) => name.endsWith('.yaml')).sort();
  const index = buildIndex(await Promise.all(files.map(async (name) => ({ file: `items/${name}`, text: await readFile(path.join(target, 'items', name), 'utf8') }))));
  await writeFile(path.join(target, 'index.yaml'), stringify(index));
}

describe('crash rollback and provenance across a restart', () => {
  it('undoes a pending import at start and offers updates of installed items', async () => {
    const data = await tempDir();
    const catalogDir = await tempDir();
    try {
      const first = await storeCore({ dataDir: data.dir });
      // Installed normally: provenance for the profile local-disk 1.0.0.
      expect((await first.call('POST', '/store/import', { type: 'profile', id: 'local-disk' })).status).toBe(200);
      // An import that crashed part-way: it created a template, overwrote a profile, and was creating another profile when it stopped.
      const profiles = first.t.core.area('profiles');
      const answers = first.t.core.area('netboot').answers;
      const mine = await profiles.create({ name: 'Memtest86+', boot_type: 'ipxe_script', script: '#!ipxe\necho mine\n' }, { author: 'me' });
      const template = await answers.create({ name: 'Debian preseed (LVM)', kind: 'preseed', content: 'd-i debian-installer/locale string en_US.UTF-8\n' }, { author: 'op' });
      const steps: ImportStep[] = [
        { key: 'answer-template/debian-preseed-lvm', type: 'answer-template', action: 'created', name: template.name, local_id: template.id, before: null, done: true },
        { key: 'profile/memtest86plus', type: 'profile', action: 'overwritten', name: 'Memtest86+', local_id: mine.id, before: structuredClone(mine), done: false },
        { key: 'profile/half-written', type: 'profile', action: 'created', name: 'Half written', local_id: null, before: null, done: false },
      ];
      await profiles.update(mine.id, { script: '#!ipxe\necho from the store\n' }, { author: 'op' });
      await profiles.create({ name: 'Half written', boot_type: 'local' }, { author: 'op' });
      const pending = await importRows(first.t.core.kernel.store).insert({ status: 'pending', key: 'bundle/linux-lab', source: 'builtin', by: 'op', steps, error: null });
      await first.t.close();

      await copyCatalogWithVersion(catalogDir.dir, 'profile/local-disk.yaml', '1.1.0');
      const second = await storeCore({ dataDir: data.dir, storeDir: catalogDir.dir });
      try {
        const after = second.t.core.area('profiles');
        expect(after.get(mine.id)?.script).toBe('#!ipxe\necho mine\n');
        expect(after.all().map((profile) => profile.name).sort()).toEqual(['Boot from local disk', 'Memtest86+']);
        expect(second.t.core.area('netboot').answers.list({}).data.map((row) => row.name)).not.toContain('Debian preseed (LVM)');
        expect(importRows(second.t.core.kernel.store).get(pending.id)).toMatchObject({ status: 'rolled_back' });
        expect(second.t.core.kernel.events.all().filter((event) => event.kind === 'store.import.rolled_back')).toHaveLength(1);
        const listed = await second.call('GET', '/store/catalog?type=profile&q=local', undefined, 'viewer');
        expect(listed.body.data[0]).toMatchObject({ version: '1.1.0', installed: { version: '1.0.0', update_available: true } });
      } finally {
        await second.t.close();
      }
    } finally {
      await data.remove();
      await catalogDir.remove();
    }
  });
});
