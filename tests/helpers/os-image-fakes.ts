import { existsSync } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../src-main/core/errors.js';
import { TreeError, type ByteExtent, type TreeNode } from '../../src-main/core/read-only-tree.js';
import type { ImageDetector, ImageExtractor, ImageMountPort, MountedImage, OpenedImage } from '../../src-main/os-images/image-ports.js';
import type { Detection, IsoInfo } from '../../src-main/os-images/os-images-contract.js';

/*
 * Stand-ins for the os-images parts built elsewhere (the ISO reader, the
 * detector, the extractor, the mount port), so the area's service is tested
 * on its own. A "fake ISO" is any file starting with `FAKEISO1 <volume id>\n`;
 * its tree holds a few small in-memory files.
 */

export const FAKE_MAGIC = 'FAKEISO1';

/** The bytes of a fake ISO with this volume id, padded with `padding` bytes of filler. */
export function fakeIso(volumeId: string, padding = 4096): Buffer {
  const head = Buffer.from(`${FAKE_MAGIC} ${volumeId}\n`);
  const body = Buffer.alloc(padding);
  for (let i = 0; i < padding; i += 1) body[i] = (i * 31 + volumeId.length) & 0xff;
  return Buffer.concat([head, body]);
}

export const FAKE_FILES: Record<string, string> = {
  'README.TXT': 'a fake image\n',
  'casper/vmlinuz': 'kernel bytes',
  'casper/initrd': 'initrd bytes',
};

function node(name: string, type: TreeNode['type'], size: number, id: number): TreeNode {
  return { name: name.split('/').at(-1) ?? '', path: name, type, size, mtimeMs: 0, mode: type === 'file' ? 0o444 : 0o555, id: BigInt(id) };
}

/** A small in-memory ReadOnlyTree (files from a map; directories implied by their paths). */
export class MapTree implements OpenedImage {
  readonly kind = 'fake';
  closed = false;

  constructor(
    readonly info: IsoInfo,
    private readonly files: Record<string, string>,
    private readonly backing: string,
  ) {}

  private dirs(): Set<string> {
    const dirs = new Set<string>(['']);
    for (const file of Object.keys(this.files)) {
      const parts = file.split('/');
      for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join('/'));
    }
    return dirs;
  }

  async stat(p: string): Promise<TreeNode | null> {
    const content = this.files[p];
    if (content !== undefined) return node(p, 'file', Buffer.byteLength(content), Object.keys(this.files).indexOf(p) + 1);
    return this.dirs().has(p) ? node(p, 'directory', 0, 1000 + [...this.dirs()].indexOf(p)) : null;
  }

  async list(p: string): Promise<TreeNode[]> {
    if (!this.dirs().has(p)) throw new TreeError('NOT_FOUND', p, `${p} not found`);
    const prefix = p === '' ? '' : `${p}/`;
    const names = new Set<string>();
    for (const file of [...Object.keys(this.files), ...this.dirs()]) {
      if (file !== p && file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) names.add(file);
    }
    const nodes: TreeNode[] = [];
    for (const name of names) {
      const found = await this.stat(name);
      if (found) nodes.push(found);
    }
    return nodes;
  }

  async read(p: string, offset: number, length: number): Promise<Buffer> {
    const content = this.files[p];
    if (content === undefined) throw new TreeError('NOT_FOUND', p, `${p} not found`);
    return Buffer.from(content).subarray(offset, offset + length);
  }

  async extents(p: string): Promise<ByteExtent[]> {
    const content = this.files[p];
    if (content === undefined) throw new TreeError('NOT_FOUND', p, `${p} not found`);
    return [{ file: this.backing, offset: 0, length: Buffer.byteLength(content) }];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export function fakeInfo(volumeId: string): IsoInfo {
  return { volume_id: volumeId, publisher: '', application: '', created_at: null, volume_bytes: 0, joliet: false, rock_ridge: true, udf: false, el_torito: [], limitations: [] };
}

export interface FakeOpener {
  (file: string): Promise<OpenedImage>;
  opened: string[];
  trees: MapTree[];
}

/** Opens fake ISOs; anything else is refused like the real reader refuses a non-ISO (VALIDATION_FAILED with a reason). */
export function fakeOpener(): FakeOpener {
  const opened: string[] = [];
  const trees: MapTree[] = [];
  const opener = (async (file: string) => {
    const handle = await open(file, 'r');
    try {
      const head = Buffer.alloc(128);
      const { bytesRead } = await handle.read(head, 0, 128, 0);
      const text = head.subarray(0, bytesRead).toString('latin1');
      if (!text.startsWith(`${FAKE_MAGIC} `)) throw new AppError('VALIDATION_FAILED', 'no ISO 9660 volume descriptor at sector 16');
      const volumeId = text.slice(FAKE_MAGIC.length + 1).split('\n')[0] ?? '';
      opened.push(file);
      const tree = new MapTree(fakeInfo(volumeId), FAKE_FILES, file);
      trees.push(tree);
      return tree;
    } finally {
      await handle.close();
    }
  }) as unknown as FakeOpener;
  opener.opened = opened;
  opener.trees = trees;
  return opener;
}

/** Detects "DEBIAN 12.5.0 amd64"-style volume ids; asks the catalog lookup like the real detector. */
export const fakeDetector: ImageDetector = async ({ info, catalog }) => {
  const [distroWord = '', version = '', arch = ''] = info.volume_id.split(' ');
  const family = distroWord.toLowerCase() === 'debian' ? 'debian' : distroWord.toLowerCase() === 'ubuntu' ? 'ubuntu' : 'other';
  const distro = family === 'debian' ? 'Debian GNU/Linux' : family === 'ubuntu' ? 'Ubuntu' : distroWord;
  const detection: Detection = {
    family,
    distro,
    version,
    arch,
    boot_method: 'linux',
    kernel: 'casper/vmlinuz',
    initrds: ['casper/initrd'],
    iso_cmdline: 'boot=casper',
    netboot_cmdline: 'ip=dhcp url={{ iso_url }}',
    boot_wim: null,
    efi_loaders: [],
    catalog_entry: catalog({ family, distro, version, arch }),
    evidence: ['volume id'],
    notes: [],
  };
  return detection;
};

/** Copies the tree's files into the target (waits for `gate` first when given, so a test can see the operation running). */
export function fakeExtractor(gate?: Promise<void>): ImageExtractor {
  return async ({ tree, target, overwrite, onProgress, signal }) => {
    if (gate) await gate;
    // As the real extractor (the port's contract): an existing target is refused unless overwrite.
    if (!overwrite && existsSync(target)) throw new AppError('CONFLICT', `${target} exists already: extract with overwrite to replace it`);
    let files = 0;
    let bytes = 0;
    const total = Object.values(FAKE_FILES).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    for (const file of Object.keys(FAKE_FILES)) {
      signal.throwIfAborted();
      const content = await tree.read(file, 0, 1 << 20);
      await mkdir(path.dirname(path.join(target, file)), { recursive: true });
      await writeFile(path.join(target, file), content);
      files += 1;
      bytes += content.length;
      onProgress({ files, bytes, total_files: Object.keys(FAKE_FILES).length, total_bytes: total });
    }
    return { files, bytes };
  };
}

/** Records what is mounted. */
export class FakeMounts implements ImageMountPort {
  readonly current = new Map<number, MountedImage>();
  readonly history: string[] = [];

  mount(image: MountedImage): void {
    this.current.set(image.id, image);
    this.history.push(`mount ${image.id} ${image.slug}`);
  }

  unmount(id: number): void {
    if (this.current.delete(id)) this.history.push(`unmount ${id}`);
  }

  mounted(): number[] {
    return [...this.current.keys()];
  }
}
