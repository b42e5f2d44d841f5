import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventInput } from '../../../src-main/events/event-types.js';
import { NfsExports, type ExportImages } from '../../../src-main/nfs/nfs-exports.js';
import { NFS_DEFAULTS, type StoredNfsExport, type StoredNfsSettings } from '../../../src-main/nfs/nfs-settings.js';
import type { OsImage } from '../../../src-main/os-images/os-images-contract.js';
import { ServedRoots } from '../../../src-main/settings/served-roots.js';
import { Store } from '../../../src-main/store/store.js';
import { memoryTree, type MemoryTree } from '../../helpers/memory-tree.js';
import { tempDir } from '../../helpers/test-core.js';

let store: Store;
let remove: () => Promise<void>;
let allowed: string;
let outside: string;
let roots: ServedRoots;
let settings: StoredNfsSettings;
let images: FakeImages;
let events: EventInput[];
let subnets: string[];
let table: NfsExports;

class FakeImages implements ExportImages {
  rows = new Map<number, OsImage>();
  opened: MemoryTree[] = [];
  failing = new Set<number>();
  get(id: number): OsImage | undefined {
    return this.rows.get(id);
  }
  list(): OsImage[] {
    return [...this.rows.values()];
  }
  async openTree(id: number): Promise<MemoryTree> {
    if (this.failing.has(id)) throw new Error('not an ISO 9660 image');
    const tree = memoryTree({ 'README.TXT': `image ${id}`, casper: { dir: true }, 'casper/filesystem.squashfs': 'squash' });
    this.opened.push(tree);
    return tree;
  }
  add(id: number, slug: string, mounted: boolean): void {
    this.rows.set(id, { id, name: slug, slug, file_name: `${slug}.iso`, path: `/images/${slug}.iso`, state: 'ready', mounted: mounted ? { url_path: `/boot/iso/${slug}/`, since: new Date().toISOString() } : null } as unknown as OsImage);
  }
}

function folderExport(id: number, exportPath: string, folder: string, extra: Partial<StoredNfsExport> = {}): StoredNfsExport {
  return { id, path: exportPath, folder, image_id: null, clients: ['192.168.50.0/24', '::1'], enabled: true, comment: '', ...extra };
}

const log = { info: () => undefined, warn: () => undefined };

beforeEach(async () => {
  const made = await tempDir('bootwright-nfs-exports-');
  remove = made.remove;
  allowed = path.join(made.dir, 'allowed');
  outside = path.join(made.dir, 'outside');
  await mkdir(path.join(allowed, 'live', 'casper'), { recursive: true });
  await writeFile(path.join(allowed, 'live', 'casper', 'vmlinuz'), 'kernel bytes');
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret'), 'not for NFS');
  store = await Store.open({ dataDir: path.join(made.dir, 'data') });
  roots = new ServedRoots({ store, dataDir: path.join(made.dir, 'data'), configRoots: [allowed] });
  settings = structuredClone(NFS_DEFAULTS);
  images = new FakeImages();
  events = [];
  subnets = ['192.168.50.0/24'];
  table = new NfsExports({ settings: { get: () => settings }, roots, images, servedSubnets: () => subnets, events: { emit: (input) => events.push(input) }, log });
});

afterEach(async () => {
  await table.close();
  await store.close();
  await remove();
});

describe('NfsExports', () => {
  it('serves a folder export through a confined FolderTree, found by path and id', async () => {
    settings.exports = [folderExport(1, '/live', path.join(allowed, 'live'))];
    await table.refresh();
    const served = table.byPath('/live');
    expect(served).toBeDefined();
    expect(table.byPath('/live/')).toBe(served);
    expect(table.byId(1)).toBe(served);
    expect(table.list()).toEqual([served]);
    expect(served?.source).toBe(`folder ${path.join(allowed, 'live')}`);
    expect((await served?.tree.read('casper/vmlinuz', 0, 100))?.toString()).toBe('kernel bytes');
    expect(served?.allows('192.168.50.20')).toBe(true);
    expect(served?.allows('::ffff:192.168.50.20')).toBe(true);
    expect(served?.allows('::1')).toBe(true);
    expect(served?.allows('192.168.51.20')).toBe(false);
    expect(table.views()).toEqual([{ id: 1, path: '/live', source: `folder ${path.join(allowed, 'live')}`, automatic: false, clients: ['192.168.50.0/24', '::1'], problem: null }]);
    expect(events.map((event) => event.kind)).toEqual(['nfs.exports.changed']);
  });

  it('does not serve a folder outside the allowed roots, a disabled export or a missing folder, and says why', async () => {
    settings.exports = [
      folderExport(1, '/out', outside),
      folderExport(2, '/off', path.join(allowed, 'live'), { enabled: false }),
      folderExport(3, '/gone', path.join(allowed, 'missing')),
    ];
    await table.refresh();
    expect(table.list()).toEqual([]);
    expect(table.byPath('/out')).toBeUndefined();
    expect(table.problemOf(1)).toMatch(/outside the allowed roots/);
    expect(table.problemOf(2)).toBe('disabled');
    expect(table.problemOf(3)).toMatch(/does not exist/);
  });

  it('stops serving a folder swapped for a symlink that leads out, at the next refresh', async () => {
    settings.exports = [folderExport(1, '/live', path.join(allowed, 'live'))];
    await table.refresh();
    const before = table.byId(1);
    await rename(path.join(allowed, 'live'), path.join(allowed, 'moved'));
    await symlink(outside, path.join(allowed, 'live'));
    await table.refresh();
    expect(table.byId(1)).toBeUndefined();
    expect(table.problemOf(1)).toContain(`resolves to ${outside}`);
    // The old tree was closed after the swap.
    await expect(before?.tree.stat('')).rejects.toThrow();
  });

  it('serves a stored image export through openTree; a missing or unreadable image is a problem', async () => {
    images.add(3, 'debian-12', false);
    images.add(4, 'broken', false);
    images.failing.add(4);
    settings.exports = [
      { id: 1, path: '/debian', folder: null, image_id: 3, clients: ['10.0.0.0/8'], enabled: true, comment: '' },
      { id: 2, path: '/broken', folder: null, image_id: 4, clients: ['10.0.0.0/8'], enabled: true, comment: '' },
      { id: 3, path: '/nothing', folder: null, image_id: 9, clients: ['10.0.0.0/8'], enabled: true, comment: '' },
    ];
    await table.refresh();
    expect(table.list().map((entry) => entry.path)).toEqual(['/debian']);
    expect((await table.byPath('/debian')?.tree.read('README.TXT', 0, 100))?.toString()).toBe('image 3');
    expect(table.byPath('/debian')?.source).toBe('image 3 (debian-12.iso)');
    expect(table.problemOf(2)).toMatch(/cannot be opened: not an ISO 9660 image/);
    expect(table.problemOf(3)).toMatch(/does not exist/);
  });

  it('exports mounted images at /iso/<slug> with id 1,000,000 + image id, following mount and unmount', async () => {
    images.add(7, 'ubuntu-24.04', true);
    images.add(8, 'not-mounted', false);
    await table.refresh();
    expect(table.list().map((entry) => [entry.id, entry.path, entry.clients])).toEqual([[1_000_007, '/iso/ubuntu-24.04', ['192.168.50.0/24']]]);
    expect(table.views()[0]).toMatchObject({ automatic: true, source: 'image 7 (ubuntu-24.04.iso)', problem: null });
    const tree = images.opened[0];
    // A refresh that changes nothing keeps the same tree open and emits nothing new.
    await table.refresh();
    expect(images.opened).toHaveLength(1);
    expect(tree?.closed).toBe(false);
    expect(events).toHaveLength(1);
    // Unmounted: the export goes and its tree is closed.
    images.add(7, 'ubuntu-24.04', false);
    await table.refresh();
    expect(table.list()).toEqual([]);
    expect(tree?.closed).toBe(true);
    expect(events.map((event) => event.kind)).toEqual(['nfs.exports.changed', 'nfs.exports.changed']);
    // export_mounted_images off: nothing automatic.
    images.add(7, 'ubuntu-24.04', true);
    settings.export_mounted_images = false;
    await table.refresh();
    expect(table.list()).toEqual([]);
  });

  it('gives the image exports image_clients, or the served subnets while it is null; with neither, nobody, with a problem', async () => {
    images.add(7, 'ubuntu', true);
    settings.image_clients = ['10.1.0.0/16'];
    await table.refresh();
    expect(table.byId(1_000_007)?.allows('10.1.2.3')).toBe(true);
    expect(table.byId(1_000_007)?.allows('192.168.50.3')).toBe(false);
    settings.image_clients = null;
    subnets = [];
    await table.refresh();
    expect(table.byId(1_000_007)).toBeUndefined();
    expect(table.views()[0]?.problem).toMatch(/no client may mount it/);
  });

  it('keeps an export\'s tree across a change of its path or clients, and reopens it when its folder changes', async () => {
    await mkdir(path.join(allowed, 'other'));
    settings.exports = [folderExport(1, '/live', path.join(allowed, 'live'))];
    await table.refresh();
    const first = table.byId(1);
    settings.exports = [folderExport(1, '/renamed', path.join(allowed, 'live'), { clients: ['0.0.0.0/0'] })];
    await table.refresh();
    expect(table.byPath('/live')).toBeUndefined();
    expect(table.byPath('/renamed')?.tree).toBe(first?.tree);
    expect(table.byPath('/renamed')?.allows('8.8.8.8')).toBe(true);
    settings.exports = [folderExport(1, '/renamed', path.join(allowed, 'other'))];
    await table.refresh();
    expect(table.byId(1)?.tree).not.toBe(first?.tree);
  });

  it('folds refreshes asked for while one runs into one more run, and serves nothing after close', async () => {
    images.add(7, 'ubuntu', true);
    const runs = [table.refresh(), table.refresh(), table.refresh()];
    await Promise.all(runs);
    expect(images.opened).toHaveLength(1);
    expect(table.list()).toHaveLength(1);
    await table.close();
    expect(table.list()).toEqual([]);
    expect(images.opened[0]?.closed).toBe(true);
    await table.refresh();
    expect(table.list()).toEqual([]);
  });
});
