import { copyFile, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildIso, isoToolPresent, makeIsoWorkDir } from '../../helpers/iso-fixtures.js';
import { createTestCore, tempDir, type TestCore } from '../../helpers/test-core.js';
import { as, roleAuthenticator } from '../settings/role-authenticator.js';

/** The NFS settings part of a kit (docs/kit.md, "Settings"): two real cores sharing one allowed root. */

const PASS = 'correct horse battery';
const LAN = ['10.77.0.0/16'];

let work: { dir: string; remove: () => Promise<void> };
let library: string;
let a: TestCore;
let b: TestCore;

interface Reply {
  status: number;
  text: string;
  body: { data?: { items: { key: string; action: string; changes: { path: string; from: unknown; to: unknown }[] }[] }; error?: string; details?: { field: string; message: string }[] };
}

async function call(core: TestCore, method: 'POST' | 'PUT', url: string, payload: unknown): Promise<Reply> {
  const res = await core.core.http.inject({ method, url: `/api/v1${url}`, headers: as('admin'), payload: payload as object });
  let body: Reply['body'] = {};
  try {
    body = JSON.parse(res.body) as Reply['body'];
  } catch {
    // the export answers YAML
  }
  return { status: res.statusCode, text: res.body, body };
}

type NfsPart = Record<string, unknown> & { exports: Record<string, unknown>[] };
const nfsPartOf = (kitText: string): NfsPart => (parseYaml(kitText) as { sections: { settings: { nfs: NfsPart } } }).sections.settings.nfs;
const withNfsPart = (kitText: string, part: NfsPart): string => {
  const kit = parseYaml(kitText) as { sections: { settings: Record<string, unknown> } };
  kit.sections.settings = { nfs: part };
  return stringifyYaml(kit);
};

beforeAll(async () => {
  work = await tempDir('bootwright-kit-nfs-');
  library = await realpath(work.dir).then((dir) => path.join(dir, 'library'));
  for (const folder of ['live', 'empty']) await mkdir(path.join(library, folder), { recursive: true });
  await writeFile(path.join(library, 'live', 'vmlinuz'), 'kernel');
  a = await createTestCore({ authenticator: roleAuthenticator, config: { allowedRoots: [library] } });
  b = await createTestCore({ authenticator: roleAuthenticator, config: { allowedRoots: [library] } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await work?.remove();
});

describe('NFS settings in a kit', () => {
  it('exports ports, modes and exports by path, never the handle key or export ids', async () => {
    const put = await call(a, 'PUT', '/services/nfs', {
      nfs_port: 12049,
      mount_port: 12048,
      portmapper: 'off',
      udp: false,
      image_clients: LAN,
      exports: [{ path: '/live', folder: path.join(library, 'live'), clients: LAN, comment: 'casper' }],
    });
    expect(put.status, put.body.error).toBe(200);
    const key = await a.core.area('nfs').settings.ensureHandleKey();
    const res = await call(a, 'POST', '/kit/export', { passphrase: PASS });
    expect(res.status).toBe(200);
    expect(nfsPartOf(res.text)).toEqual({
      nfs_port: 12049,
      mount_port: 12048,
      portmapper: 'off',
      udp: false,
      export_mounted_images: true,
      image_clients: LAN,
      exports: [{ path: '/live', folder: path.join(library, 'live'), clients: LAN, enabled: true, comment: 'casper' }],
    });
    expect(res.text).not.toContain(key.toString('base64'));
    expect(res.text).not.toContain('handle_key');
  });

  it('imports onto the export at the same path (its id, so its clients keep their handles), and keeps the target key', async () => {
    const nfs = b.core.area('nfs').settings;
    const keyBefore = (await nfs.ensureHandleKey()).toString('base64');
    expect((await call(b, 'PUT', '/services/nfs', { exports: [{ path: '/scratch', folder: path.join(library, 'empty'), clients: ['192.168.9.0/24'] }, { path: '/live', folder: path.join(library, 'empty'), clients: LAN }] })).status).toBe(200);
    const liveId = nfs.get().exports.find((entry) => entry.path === '/live')?.id;
    const kitText = (await call(a, 'POST', '/kit/export', { passphrase: PASS })).text;

    const dry = await call(b, 'POST', '/kit/import', { content: kitText, passphrase: PASS, dry_run: true, include: ['settings'] });
    expect(dry.status, dry.body.error).toBe(200);
    const item = dry.body.data?.items.find((entry) => entry.key === 'settings/nfs');
    expect(item?.action).toBe('conflict');
    expect(item?.changes).toContainEqual({ path: 'nfs_port', from: 2049, to: 12049 });

    const res = await call(b, 'POST', '/kit/import', { content: kitText, passphrase: PASS, include: ['settings'], resolutions: { 'settings/nfs': 'overwrite' }, on_conflict: 'skip' });
    expect(res.status, JSON.stringify(res.body.details ?? res.body.error)).toBe(200);
    const stored = nfs.get();
    expect(stored).toMatchObject({ nfs_port: 12049, mount_port: 12048, portmapper: 'off', udp: false, image_clients: LAN });
    // The kit's list replaces the local one: /scratch goes, /live keeps its id with the kit's folder.
    expect(stored.exports).toEqual([{ id: liveId, path: '/live', folder: path.join(library, 'live'), image_id: null, clients: LAN, enabled: true, comment: 'casper' }]);
    expect(stored.handle_key).toBe(keyBefore);
    expect(b.core.area('nfs').exports.byPath('/live')?.id).toBe(liveId);
    // The same kit again: nothing to change.
    const again = await call(b, 'POST', '/kit/import', { content: kitText, passphrase: PASS, dry_run: true, include: ['settings'] });
    expect(again.body.data?.items.find((entry) => entry.key === 'settings/nfs')?.action).toBe('unchanged');
  });

  it('refuses a folder outside the target allowed roots, an unknown image and a two-source export; nothing changes', async () => {
    const kitText = (await call(a, 'POST', '/kit/export', { passphrase: PASS })).text;
    const before = structuredClone(b.core.area('nfs').settings.get());
    const part = nfsPartOf(kitText);
    const bad = withNfsPart(kitText, {
      ...part,
      nfs_port: 14049,
      exports: [
        { path: '/outside', folder: path.dirname(library), clients: LAN },
        { path: '/media', image: 'no-such-image', clients: LAN },
        { path: '/both', folder: path.join(library, 'live'), image: 'no-such-image', clients: LAN },
      ],
    });
    const res = await call(b, 'POST', '/kit/import', { content: bad, passphrase: PASS, on_conflict: 'overwrite' });
    expect(res.status).toBe(400);
    const fields = (res.body.details ?? []).map((detail) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(['settings/nfs: settings.nfs.exports.1.image', 'settings/nfs: settings.nfs.exports.2']));
    expect(JSON.stringify(res.body.details)).toMatch(/images do not travel in a kit/);
    const noImage = withNfsPart(kitText, { ...part, exports: [{ path: '/outside', folder: path.dirname(library), clients: LAN }] });
    const outside = await call(b, 'POST', '/kit/import', { content: noImage, passphrase: PASS, on_conflict: 'overwrite' });
    expect(outside.status).toBe(400);
    expect(JSON.stringify(outside.body.details)).toMatch(/settings\.nfs\.exports\.0\.folder.*outside the allowed roots/);
    const unknownField = withNfsPart(kitText, { ...part, handle_key: 'AAAA' });
    expect((await call(b, 'POST', '/kit/import', { content: unknownField, passphrase: PASS, on_conflict: 'overwrite' })).status).toBe(400);
    expect(b.core.area('nfs').settings.get()).toEqual(before);
  });

  it('an import that fails after writing the NFS part puts the NFS settings back', async () => {
    const nfs = b.core.area('nfs').settings;
    const before = structuredClone(nfs.get());
    const kitText = (await call(a, 'POST', '/kit/export', { passphrase: PASS })).text;
    const kit = parseYaml(kitText) as { sections: { settings: Record<string, unknown> } };
    // netboot is written last of all: make it differ, and fail its write.
    kit.sections.settings = { nfs: { ...nfsPartOf(kitText), nfs_port: 13049, exports: [] }, netboot: { default_action: 'local' } };
    const settings = b.core.kernel.settings;
    const update = settings.update.bind(settings);
    settings.update = async (patch, options) => {
      if ('netboot' in patch) throw new Error('injected failure writing netboot');
      return update(patch, options);
    };
    try {
      const res = await call(b, 'POST', '/kit/import', { content: stringifyYaml(kit), passphrase: PASS, on_conflict: 'overwrite' });
      expect(res.status).toBe(500);
    } finally {
      settings.update = update;
    }
    expect(nfs.get()).toEqual(before);
    expect(b.core.area('nfs').exports.byPath('/live')?.id).toBe(before.exports[0]?.id);
  });

  it('names an image export by its slug and finds the image of that slug on the target', async () => {
    if (!isoToolPresent('xorriso', 'the kit test of NFS image exports')) return;
    const isoDir = await makeIsoWorkDir('bw-kit-nfs-iso-');
    const iso = await buildIso(isoDir, 'live.iso', { entries: [{ kind: 'file', path: 'readme.txt', content: 'live' }] });
    const other = await buildIso(isoDir, 'other.iso', { entries: [{ kind: 'file', path: 'other.txt', content: 'other' }] });
    const isoInLibrary = path.join(library, 'rescue-live.iso');
    await copyFile(iso, isoInLibrary);
    await copyFile(other, path.join(library, 'other.iso'));
    const importInto = async (core: TestCore, file: string): Promise<number> => {
      const imported = await core.core.http.inject({ method: 'POST', url: '/api/v1/os-images/import', headers: as('admin'), payload: { path: file } });
      expect(imported.statusCode, imported.body).toBe(201);
      return (imported.json() as { data: { id: number } }).data.id;
    };
    // B holds another image first, so the same ISO gets another id there: the kit must carry the slug, not A's id.
    await importInto(b, path.join(library, 'other.iso'));
    const ids = [await importInto(a, isoInLibrary), await importInto(b, isoInLibrary)];
    expect(ids[0]).not.toBe(ids[1]);
    const slug = a.core.area('os-images').get(ids[0] ?? 0)?.slug ?? '';
    expect(b.core.area('os-images').get(ids[1] ?? 0)?.slug).toBe(slug);
    expect((await call(a, 'PUT', '/services/nfs', { exports: [...a.core.area('nfs').settings.get().exports.map(({ id, path: at, clients }) => ({ id, path: at, clients })), { path: '/media', image_id: ids[0], clients: LAN }] })).status).toBe(200);
    const kitText = (await call(a, 'POST', '/kit/export', { passphrase: PASS })).text;
    expect(nfsPartOf(kitText).exports[1]).toEqual({ path: '/media', image: slug, clients: LAN, enabled: true, comment: '' });
    const res = await call(b, 'POST', '/kit/import', { content: kitText, passphrase: PASS, include: ['settings'], resolutions: { 'settings/nfs': 'overwrite' }, on_conflict: 'skip' });
    expect(res.status, JSON.stringify(res.body.details ?? res.body.error)).toBe(200);
    expect(b.core.area('nfs').settings.get().exports.find((entry) => entry.path === '/media')?.image_id).toBe(ids[1]);
    await rm(isoDir, { recursive: true, force: true });
  });
});
