import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core/errors.js';
import { NfsSettings, NFS_DEFAULTS, type NfsSettingsPatch } from '../../../src-main/nfs/nfs-settings.js';
import { ServedRoots } from '../../../src-main/settings/served-roots.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

let store: Store;
let remove: () => Promise<void>;
let dir: string;
let allowed: string;
let outside: string;
let roots: ServedRoots;
const images = new Map([[3, { id: 3, name: 'debian-12' }]]);
let settings: NfsSettings;

beforeEach(async () => {
  const made = await tempDir('bootwright-nfs-settings-');
  dir = made.dir;
  remove = made.remove;
  allowed = path.join(dir, 'allowed');
  outside = path.join(dir, 'outside');
  await mkdir(path.join(allowed, 'live'), { recursive: true });
  await mkdir(path.join(allowed, 'other'), { recursive: true });
  await mkdir(outside, { recursive: true });
  store = await Store.open({ dataDir: path.join(dir, 'data') });
  roots = new ServedRoots({ store, dataDir: path.join(dir, 'data'), configRoots: [allowed] });
  settings = new NfsSettings({ store, roots, images: { get: (id) => images.get(id) } });
});

afterEach(async () => {
  await store.close();
  await remove();
});

/** The VALIDATION_FAILED details of an update (fails the test when it does not throw one). */
async function fieldsOf(patch: NfsSettingsPatch): Promise<string[]> {
  const error = await settings.update(patch).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe('VALIDATION_FAILED');
  return (appError.details ?? []).map((detail) => detail.field);
}

describe('NfsSettings', () => {
  it('starts with the defaults', () => {
    expect(settings.get()).toEqual(NFS_DEFAULTS);
    expect(settings.get()).toMatchObject({ nfs_port: 2049, mount_port: 20048, portmapper: 'auto', udp: true, export_mounted_images: true, image_clients: null });
  });

  it('generates the handle key once (32 bytes, base64) and keeps it across reopening', async () => {
    const key = await settings.ensureHandleKey();
    expect(key).toHaveLength(32);
    expect(settings.get().handle_key).toBe(key.toString('base64'));
    expect(await settings.ensureHandleKey()).toEqual(key);
    expect(settings.handleKey()).toEqual(key);
    await store.close();
    store = await Store.open({ dataDir: path.join(dir, 'data') });
    const again = new NfsSettings({ store, roots, images: { get: () => undefined } });
    expect(again.handleKey()).toEqual(key);
  });

  it('gives new exports ids, keeps ids given back, never reuses a deleted one', async () => {
    const first = await settings.update({ exports: [{ path: '/live', folder: path.join(allowed, 'live'), clients: ['192.168.50.0/24'] }, { path: '/iso-3', image_id: 3, clients: ['10.0.0.0/8'] }] });
    expect(first.addedIds).toEqual([1, 2]);
    expect(first.exportsChanged).toBe(true);
    expect(first.serverChanged).toBe(false);
    expect(settings.get().exports).toEqual([
      { id: 1, path: '/live', folder: path.join(allowed, 'live'), image_id: null, clients: ['192.168.50.0/24'], enabled: true, comment: '' },
      { id: 2, path: '/iso-3', folder: null, image_id: 3, clients: ['10.0.0.0/8'], enabled: true, comment: '' },
    ]);
    // Export 2 goes, export 1 changes its path; a new one gets 3, not 2.
    const second = await settings.update({ exports: [{ id: 1, path: '/live2', clients: ['192.168.50.0/24'] }, { path: '/other', folder: path.join(allowed, 'other'), clients: ['fd00::/64'] }] });
    expect(second.removedIds).toEqual([2]);
    expect(second.addedIds).toEqual([3]);
    expect(settings.get().exports.map((entry) => [entry.id, entry.path, entry.folder])).toEqual([
      [1, '/live2', path.join(allowed, 'live')],
      [3, '/other', path.join(allowed, 'other')],
    ]);
    expect(settings.get().next_export_id).toBe(4);
    expect(await fieldsOf({ exports: [{ id: 2, path: '/back', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] })).toEqual(['body.exports.0.id']);
  });

  it('names every bad field of the exports and changes nothing', async () => {
    const fields = await fieldsOf({
      exports: [
        { path: '/a', folder: outside, clients: ['192.168.50.0/24'] },
        { path: '/a', folder: path.join(allowed, 'live'), clients: ['192.168.50.0/24', 'nope'] },
        { path: '/b', clients: ['10.0.0.0/8'] },
        { path: '/c', folder: path.join(allowed, 'live'), image_id: 3, clients: ['10.0.0.0/8'] },
        { path: '/d', image_id: 99, clients: ['10.0.0.0/8'] },
        { path: '/iso/mine', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] },
        { path: '/', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] },
      ],
    });
    expect(fields).toEqual([
      'body.exports.0.folder',
      'body.exports.1.path',
      'body.exports.1.clients.1',
      'body.exports.2.folder',
      'body.exports.3.image_id',
      'body.exports.4.image_id',
      'body.exports.6.path',
      'body.exports.5.path',
    ]);
    expect(settings.get()).toEqual(NFS_DEFAULTS);
  });

  it('refuses a folder that is a symlink leading out of the allowed roots, naming where it leads', async () => {
    await symlink(outside, path.join(allowed, 'escape'));
    const error = await settings.update({ exports: [{ path: '/x', folder: path.join(allowed, 'escape'), clients: ['10.0.0.0/8'] }] }).catch((caught: unknown) => caught as AppError);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details?.[0]).toMatchObject({ field: 'body.exports.0.folder' });
    expect((error as AppError).details?.[0]?.message).toContain(`resolves to ${outside}`);
  });

  it('allows /iso paths only while export_mounted_images is off', async () => {
    expect(await fieldsOf({ exports: [{ path: '/iso', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] })).toEqual(['body.exports.0.path']);
    await settings.update({ export_mounted_images: false, exports: [{ path: '/iso/mine', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] });
    // /isolinux is not under /iso.
    await settings.update({ exports: [{ id: 1, path: '/iso/mine', clients: ['10.0.0.0/8'] }, { path: '/isolinux', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] });
    expect(await fieldsOf({ export_mounted_images: true })).toEqual(['body.export_mounted_images']);
  });

  it('checks ports and image_clients', async () => {
    expect(await fieldsOf({ nfs_port: 111 })).toEqual(['body.nfs_port']);
    expect(await fieldsOf({ mount_port: 2049 })).toEqual(['body.mount_port']);
    expect(await fieldsOf({ image_clients: ['10.0.0.0/8', '10.0.0.1/8'] })).toEqual(['body.image_clients.1']);
    const result = await settings.update({ nfs_port: 3049, portmapper: 'off', udp: false, image_clients: [] });
    expect(result.serverChanged).toBe(true);
    expect(result.exportsChanged).toBe(true);
    expect(settings.get()).toMatchObject({ nfs_port: 3049, portmapper: 'off', udp: false, image_clients: [] });
    // With the portmapper off, 111 is free for NFS.
    await settings.update({ mount_port: 111 });
  });

  it('says when a patch needs admin, and refuses it without', async () => {
    await settings.update({ exports: [{ path: '/live', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] });
    const same = { exports: [{ id: 1, path: '/live', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] };
    expect(settings.needsAdmin(same)).toBe(false);
    expect(settings.needsAdmin({ udp: false, portmapper: 'own' })).toBe(false);
    expect(settings.needsAdmin({ nfs_port: 2049 })).toBe(false);
    expect(settings.needsAdmin({ nfs_port: 2050 })).toBe(true);
    expect(settings.needsAdmin({ exports: [] })).toBe(true);
    expect(settings.needsAdmin({ exports: [{ id: 1, path: '/live', clients: ['0.0.0.0/0'] }] })).toBe(true);
    const refused = await settings.update({ exports: [] }, { mayChangeExports: false }).catch((caught: unknown) => caught as AppError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
    await settings.update({ ...same, udp: false }, { mayChangeExports: false });
    expect(settings.get().udp).toBe(false);
  });

  it('keeps an unchanged folder that the policy no longer accepts (the table shows its problem), but checks a changed one', async () => {
    await settings.update({ exports: [{ path: '/live', folder: path.join(allowed, 'live'), clients: ['10.0.0.0/8'] }] });
    const narrower = new NfsSettings({ store, roots: new ServedRoots({ store, dataDir: path.join(dir, 'data') }), images: { get: () => undefined } });
    await narrower.update({ exports: [{ id: 1, path: '/live', clients: ['10.0.0.0/8'] }, { path: '/more', image_id: 3, clients: ['10.0.0.0/8'] }] }).catch(() => undefined);
    expect(await narrower.update({ exports: [{ id: 1, path: '/live', clients: ['10.0.0.0/8'], comment: 'still here' }] }).then((result) => result.value.exports[0]?.comment)).toBe('still here');
    const error = await narrower.update({ exports: [{ id: 1, path: '/live', folder: path.join(allowed, 'other'), clients: ['10.0.0.0/8'] }] }).catch((caught: unknown) => caught as AppError);
    expect((error as AppError).details?.map((detail) => detail.field)).toEqual(['body.exports.0.folder']);
  });
});
