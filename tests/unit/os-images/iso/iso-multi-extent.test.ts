import { open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedImage } from '../../../../src-main/os-images/image-ports.js';
import { openIso } from '../../../../src-main/os-images/iso/index.js';
import { IsoSource } from '../../../../src-main/os-images/iso/iso-source.js';
import { readIsoInfoFrom } from '../../../../src-main/os-images/iso/open-iso.js';
import { buildIso, isoToolPresent, makeIsoWorkDir } from '../../../helpers/iso-fixtures.js';

/*
 * A file of 4 GiB and more is recorded as several extents (ECMA-119 §6.5.1:
 * multi-extent records, ISO level 3). A sparse 4.25 GiB source with marker
 * bytes at its start, across the 4 GiB boundary and at its end is put in an
 * ISO (about 4.3 GB written to the temp dir, removed afterwards).
 */

const SIZE = 4 * 1024 ** 3 + 256 * 1024 ** 2;
const FOUR_GIB = 4 * 1024 ** 3;
const NEEDED_FREE = 12 * 1024 ** 3;

function marker(label: string): Buffer {
  return Buffer.from(`<<${label}:${'0123456789abcdef'.repeat(2)}>>`);
}

const MARKERS: Array<{ offset: number; bytes: Buffer }> = [
  { offset: 0, bytes: marker('start') },
  { offset: FOUR_GIB - 20, bytes: marker('across-4GiB') },
  { offset: SIZE - marker('end').length, bytes: marker('end') },
];

async function freeBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

const haveXorriso = isoToolPresent('xorriso', 'the multi-extent ISO test');
const free = await freeBytes(tmpdir());
const roomy = free >= NEEDED_FREE;
if (!roomy) console.warn(`skipping the multi-extent ISO test: ${tmpdir()} has ${Math.round(free / 1024 ** 3)} GB free, it needs 12 GB`);

describe.skipIf(!haveXorriso || !roomy)('ISO 9660 reader on a file larger than 4 GiB', () => {
  let work = '';
  let iso = '';
  let tree: OpenedImage | null = null;

  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-iso-big-');
    const source = join(work, 'big.bin');
    const handle = await open(source, 'w');
    try {
      await handle.truncate(SIZE);
      for (const { offset, bytes } of MARKERS) await handle.write(bytes, 0, bytes.length, offset);
    } finally {
      await handle.close();
    }
    iso = await buildIso(work, 'big.iso', {
      isoLevel: 3,
      entries: [
        { kind: 'file', path: 'small.txt', content: 'small' },
        { kind: 'file', path: 'big/huge.bin', source },
      ],
    });
    await rm(source);
    tree = await openIso(iso);
  }, 600_000);

  afterAll(async () => {
    await tree?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('joins the extents: size, extents() in order, marker bytes at the start, across 4 GiB and at the end', async () => {
    if (!tree) throw new Error('no tree');
    const node = await tree.stat('big/huge.bin');
    expect(node).toMatchObject({ type: 'file', size: SIZE });
    const extents = await tree.extents('big/huge.bin');
    expect(extents.length).toBeGreaterThan(1);
    expect(extents.every((extent) => extent.length <= 0xffffffff && extent.file === iso)).toBe(true);
    expect(extents.reduce((sum, extent) => sum + extent.length, 0)).toBe(SIZE);
    for (let index = 1; index < extents.length; index += 1) expect(extents[index]!.offset).toBeGreaterThan(extents[index - 1]!.offset);

    const handle = await open(iso, 'r');
    try {
      for (const { offset, bytes } of MARKERS) {
        // Through the tree…
        expect((await tree.read('big/huge.bin', offset, bytes.length)).toString()).toBe(bytes.toString());
        // …and in the ISO file at the place extents() names, piece by piece across extent ends.
        const direct = Buffer.alloc(bytes.length);
        let filled = 0;
        let start = 0;
        for (const extent of extents) {
          const from = offset + filled;
          if (filled < bytes.length && from < start + extent.length && from >= start) {
            const count = Math.min(bytes.length - filled, start + extent.length - from);
            await handle.read(direct, filled, count, extent.offset + (from - start));
            filled += count;
          }
          start += extent.length;
        }
        expect(direct.toString()).toBe(bytes.toString());
      }
    } finally {
      await handle.close();
    }
    // Across the first extent's end (zeros around it) and past the file's end.
    const firstEnd = extents[0]!.length;
    expect((await tree.read('big/huge.bin', firstEnd - 3, 6)).equals(Buffer.alloc(6))).toBe(true);
    expect((await tree.read('big/huge.bin', SIZE - 4, 100)).toString()).toBe(marker('end').subarray(-4).toString());
    expect((await tree.read('big/huge.bin', SIZE, 100)).length).toBe(0);
    expect((await tree.read('small.txt', 0, 10)).toString()).toBe('small');
    // Detection reads metadata only, even on a 4 GB image.
    const source = await IsoSource.open(iso);
    try {
      await readIsoInfoFrom(source);
      expect(source.bytesRead).toBeLessThan(64 * 1024);
    } finally {
      await source.close();
    }
  }, 120_000);
});
