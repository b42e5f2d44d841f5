import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TreeError } from '../../../../src-main/core/read-only-tree.js';
import { decodeDirectoryRecord, directoryRecords, recordName } from '../../../../src-main/os-images/iso/directory-record.js';
import { readBootCatalog } from '../../../../src-main/os-images/iso/el-torito.js';
import { decDateTime, recordDateTime } from '../../../../src-main/os-images/iso/iso-fields.js';
import { openIso } from '../../../../src-main/os-images/iso/index.js';
import { IsoSource } from '../../../../src-main/os-images/iso/iso-source.js';
import { rockRidgeAttributes } from '../../../../src-main/os-images/iso/rock-ridge.js';
import { sharingProtocolSkip, suspEntries, type SuspEntry } from '../../../../src-main/os-images/iso/susp.js';
import { readDescriptorSet } from '../../../../src-main/os-images/iso/volume-descriptors.js';
import { buildIso, isoToolPresent, makeIsoWorkDir } from '../../../helpers/iso-fixtures.js';

/* The decoders one by one, on hand-made bytes: hostile lengths, loops and bad checksums end in one stable answer. */

function record(options: { identifier: Buffer; flags?: number; extent?: number; size?: number; systemUse?: Buffer; length?: number }): Buffer {
  const padding = options.identifier.length % 2 === 0 ? 1 : 0;
  const systemUse = options.systemUse ?? Buffer.alloc(0);
  const length = options.length ?? 33 + options.identifier.length + padding + systemUse.length;
  const buf = Buffer.alloc(Math.max(length, 33 + options.identifier.length + padding + systemUse.length));
  buf[0] = length;
  buf.writeUInt32LE(options.extent ?? 20, 2);
  buf.writeUInt32BE(options.extent ?? 20, 6);
  buf.writeUInt32LE(options.size ?? 0, 10);
  buf.writeUInt32BE(options.size ?? 0, 14);
  buf.set([124, 1, 2, 3, 4, 5, 0], 18);
  buf[25] = options.flags ?? 0;
  buf[32] = options.identifier.length;
  options.identifier.copy(buf, 33);
  systemUse.copy(buf, 33 + options.identifier.length + padding);
  return buf;
}

function susp(signature: string, data: number[] | Buffer): Buffer {
  const body = Buffer.from(data);
  return Buffer.concat([Buffer.from(signature, 'latin1'), Buffer.from([4 + body.length, 1]), body]);
}

function entries(...buffers: Buffer[]): SuspEntry[] {
  return buffers.map((bytes) => ({ signature: bytes.toString('latin1', 0, 2), version: 1, bytes }));
}

function corruptCode(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof TreeError ? err.code : `not a TreeError: ${String(err)}`;
  }
}

describe('directory records (ECMA-119 §9.1)', () => {
  it('decodes a record and its name (version and trailing dot dropped, ISO names lower-cased, Joliet UCS-2)', () => {
    const decoded = decodeDirectoryRecord(record({ identifier: Buffer.from('README.;1'), size: 42, extent: 99 }), 0);
    expect(decoded).toMatchObject({ extentBlock: 99, dataLength: 42, isDirectory: false, multiExtent: false });
    expect(decoded?.recordedAt).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(recordName(Buffer.from('README.;1'), 'iso9660')).toBe('readme');
    expect(recordName(Buffer.from('A.TXT;1'), 'iso9660')).toBe('a.txt');
    expect(recordName(Buffer.from('Ünï.txt;1', 'utf16le').swap16(), 'joliet')).toBe('Ünï.txt');
  });

  it('refuses records shorter than their fixed part or identifier, as CORRUPT', () => {
    const short = record({ identifier: Buffer.from('A') });
    short[0] = 20;
    expect(corruptCode(() => decodeDirectoryRecord(short, 0))).toBe('CORRUPT');
    const noName = record({ identifier: Buffer.from('A') });
    noName[32] = 0;
    expect(corruptCode(() => decodeDirectoryRecord(noName, 0))).toBe('CORRUPT');
    const longName = record({ identifier: Buffer.from('ABC') });
    longName[32] = 200;
    expect(corruptCode(() => decodeDirectoryRecord(longName, 0))).toBe('CORRUPT');
    // The record's length runs past the buffer.
    expect(corruptCode(() => decodeDirectoryRecord(record({ identifier: Buffer.from('A') }).subarray(0, 30), 0))).toBe('CORRUPT');
  });

  it('walks a sector to its zero padding, and refuses a record crossing the sector end', () => {
    const sector = Buffer.alloc(4096);
    const first = record({ identifier: Buffer.from('ONE') });
    first.copy(sector, 0);
    record({ identifier: Buffer.from('TWO') }).copy(sector, 2048);
    expect([...directoryRecords(sector, 0)].map(({ record: r, position }) => [r.identifier.toString(), position])).toEqual([
      ['ONE', 0],
      ['TWO', 2048],
    ]);
    expect([...directoryRecords(Buffer.alloc(8192), 0)]).toEqual([]);
    const crossing = Buffer.alloc(4096);
    record({ identifier: Buffer.from('X') }).copy(crossing, 2030);
    expect(corruptCode(() => [...directoryRecords(crossing, 0)])).toBe('CORRUPT');
  });
});

describe('fields', () => {
  it('reads 17-byte and 7-byte dates with their GMT offsets; zeros and nonsense are null', () => {
    const dec = Buffer.concat([Buffer.from('2024061512300050'), Buffer.from([8])]);
    expect(decDateTime(dec, 0, 'date')).toBe(Date.UTC(2024, 5, 15, 10, 30, 0, 500));
    expect(decDateTime(Buffer.concat([Buffer.from('0000000000000000'), Buffer.from([0])]), 0, 'date')).toBeNull();
    expect(decDateTime(Buffer.concat([Buffer.from('2024139912300050'), Buffer.from([0])]), 0, 'date')).toBeNull();
    expect(recordDateTime(Buffer.from([124, 6, 15, 12, 30, 0, -8 & 0xff]), 0, 'date')).toBe(Date.UTC(2024, 5, 15, 14, 30, 0));
    expect(recordDateTime(Buffer.alloc(7), 0, 'date')).toBeNull();
    expect(corruptCode(() => decDateTime(Buffer.alloc(10), 0, 'date'))).toBe('CORRUPT');
  });
});

describe('Rock Ridge entries (RRIP 1.12)', () => {
  it('joins NM pieces, builds SL targets from components and flags, reads PX and TF', () => {
    const px = Buffer.alloc(40);
    px.writeUInt32LE(0o100640, 0);
    px.writeUInt32LE(0o100640, 4);
    px.writeUInt32LE(7, 32);
    const tf = Buffer.concat([Buffer.from([0x02]), Buffer.from([124, 1, 2, 3, 4, 5, 0])]);
    const rr = rockRidgeAttributes(
      entries(
        susp('NM', [0x01, ...Buffer.from('long-')]),
        susp('NM', [0x00, ...Buffer.from('name')]),
        susp('PX', px),
        susp('TF', tf),
        // "/usr/" + "li" "b" continued + ".." + "." across two SL entries.
        susp('SL', [0x01, 0x08, 0, 0x00, 3, ...Buffer.from('usr'), 0x01, 2, ...Buffer.from('li')]),
        susp('SL', [0x00, 0x00, 1, ...Buffer.from('b'), 0x04, 0, 0x02, 0]),
      ),
    );
    expect(rr).toMatchObject({ name: 'long-name', mode: 0o100640, inode: 7, target: '/usr/lib/../.', modifiedAt: Date.UTC(2024, 0, 2, 3, 4, 5) });
    const relative = rockRidgeAttributes(entries(susp('SL', [0, 0x04, 0, 0, 5, ...Buffer.from('a.txt')])));
    expect(relative.target).toBe('../a.txt');
  });

  it('ignores entries too short for their fields and components that run past their entry', () => {
    const rr = rockRidgeAttributes(entries(susp('PX', [1, 2, 3]), susp('CL', [1]), susp('TF', [0x02, 1]), susp('SL', [0, 0, 200, 65])));
    expect(rr).toMatchObject({ mode: null, inode: null, childLink: null, modifiedAt: null, target: '' });
    expect(rockRidgeAttributes(entries(susp('ZF', [0, 0, 0, 0]))).unreadable).toMatch(/zisofs/);
  });

  it('accepts SP only with its check bytes', () => {
    expect(sharingProtocolSkip(entries(susp('SP', [0xbe, 0xef, 3]))[0])).toBe(3);
    expect(sharingProtocolSkip(entries(susp('SP', [0xbe, 0xee, 0]))[0])).toBeNull();
    expect(sharingProtocolSkip(undefined)).toBeNull();
  });
});

describe('SUSP areas and the boot catalog on hand-made files', () => {
  let work = '';
  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-iso-codec-');
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  function ce(block: number, offset: number, length: number): Buffer {
    const data = Buffer.alloc(24);
    data.writeUInt32LE(block, 0);
    data.writeUInt32LE(offset, 8);
    data.writeUInt32LE(length, 16);
    return susp('CE', data);
  }

  it('follows CE continuation areas, stops a CE loop and refuses areas outside the file', async () => {
    const file = join(work, 'susp.bin');
    const image = Buffer.alloc(4 * 2048);
    // Block 1 holds an NM and a CE pointing at itself: an endless chain.
    const looping = Buffer.concat([susp('NM', [0, ...Buffer.from('x')]), ce(1, 0, 0)]);
    looping.writeUInt32LE(looping.length, looping.length - 8);
    looping.copy(image, 2048);
    // Block 2: a plain continuation with ST then garbage.
    Buffer.concat([susp('NM', [0, ...Buffer.from('continued')]), susp('ST', []), Buffer.from('garbage!')]).copy(image, 4096);
    await writeFile(file, image);
    const source = await IsoSource.open(file);
    try {
      const context = { source, blockSize: 2048, treePath: 'p' };
      const found = await suspEntries(Buffer.concat([susp('PX', Buffer.alloc(32)), ce(2, 0, 32)]), 0, context);
      expect(found.map((entry) => entry.signature)).toEqual(['PX', 'NM']);
      await expect(suspEntries(ce(1, 0, looping.length), 0, context)).rejects.toMatchObject({ code: 'CORRUPT', message: expect.stringMatching(/continuation/) });
      await expect(suspEntries(ce(1000, 0, 100), 0, context)).rejects.toMatchObject({ code: 'CORRUPT' });
      await expect(suspEntries(ce(1, 0, 100_000), 0, context)).rejects.toMatchObject({ code: 'CORRUPT' });
      // A truncated entry ends the area quietly.
      expect(await suspEntries(Buffer.from([0x4e, 0x4d, 200, 1, 0]), 0, context)).toEqual([]);
    } finally {
      await source.close();
    }
  });

  it('reads a catalog with BIOS and UEFI sections, and reports bad ones as problems without throwing', async () => {
    const validation = Buffer.alloc(32);
    validation[0] = 1;
    validation[30] = 0x55;
    validation[31] = 0xaa;
    let sum = 0;
    for (let at = 0; at < 32; at += 2) sum = (sum + validation.readUInt16LE(at)) & 0xffff;
    validation.writeUInt16LE((0x10000 - sum) & 0xffff, 28);
    const entry = (bootable: boolean, media: number, count: number, rba: number): Buffer => {
      const buf = Buffer.alloc(32);
      buf[0] = bootable ? 0x88 : 0;
      buf[1] = media;
      buf.writeUInt16LE(count, 6);
      buf.writeUInt32LE(rba, 8);
      return buf;
    };
    const header = (last: boolean, platform: number, count: number): Buffer => {
      const buf = Buffer.alloc(32);
      buf[0] = last ? 0x91 : 0x90;
      buf[1] = platform;
      buf.writeUInt16LE(count, 2);
      return buf;
    };
    const extension = Buffer.alloc(32);
    extension[0] = 0x44;
    const catalog = Buffer.concat([
      validation,
      entry(true, 0, 4, 100),
      header(false, 0xef, 1),
      entry(true, 0x20, 2880, 200),
      extension,
      header(true, 0x02, 1),
      entry(false, 2, 1, 300),
    ]);
    const file = join(work, 'catalog.bin');
    const image = Buffer.alloc(3 * 2048);
    catalog.copy(image, 2048);
    await writeFile(file, image);
    const source = await IsoSource.open(file);
    try {
      const read = await readBootCatalog(source, 1);
      expect(read.problems).toEqual([]);
      expect(read.entries).toEqual([
        { platform: 'bios', bootable: true, emulation: 'no_emulation', load_rba: 100, sector_count: 4 },
        { platform: 'uefi', bootable: true, emulation: 'no_emulation', load_rba: 200, sector_count: 2880 },
        { platform: 'other', bootable: false, emulation: 'floppy_1.44', load_rba: 300, sector_count: 1 },
      ]);
      expect((await readBootCatalog(source, 99)).problems[0]).toMatch(/outside the file/);
      const handle = await open(file, 'r+');
      await handle.write(Buffer.from([0x56]), 0, 1, 2048 + 30);
      await handle.close();
      expect(await readBootCatalog(source, 1)).toEqual({ entries: [], problems: [expect.stringMatching(/0x55 0xAA/)] });
      const handle2 = await open(file, 'r+');
      // Key bytes back, checksum zeroed.
      await handle2.write(Buffer.from([0, 0, 0x55, 0xaa]), 0, 4, 2048 + 28);
      await handle2.close();
      expect((await readBootCatalog(source, 1)).problems[0]).toMatch(/checksum/);
    } finally {
      await source.close();
    }
  });
});

const haveXorriso = isoToolPresent('xorriso', 'the directory cycle test');

describe.skipIf(!haveXorriso)('cycles and descriptor checks on a real image', () => {
  let work = '';
  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-iso-cycle-');
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('refuses to descend into a directory that points back at the root (LOOP), and a bad block size (VALIDATION_FAILED)', async () => {
    const file = await buildIso(work, 'cycle.iso', { entries: [{ kind: 'file', path: 'sub/x.txt', content: 'x' }] });
    const source = await IsoSource.open(file);
    const set = await readDescriptorSet(source);
    const rootOffset = set.primary.root.extentBlock * 2048;
    const rootDir = await source.read(rootOffset, set.primary.root.dataLength, 'root');
    await source.close();
    const sub = [...directoryRecords(rootDir, rootOffset)].find(({ record: r }) => r.identifier.toString() === 'SUB');
    expect(sub).toBeDefined();
    const handle = await open(file, 'r+');
    const extent = Buffer.alloc(8);
    extent.writeUInt32LE(set.primary.root.extentBlock, 0);
    extent.writeUInt32BE(set.primary.root.extentBlock, 4);
    await handle.write(extent, 0, 8, (sub?.position ?? 0) + 2);
    await handle.close();
    const tree = await openIso(file);
    try {
      expect((await tree.stat('sub'))?.type).toBe('directory');
      await expect(tree.list('sub')).rejects.toMatchObject({ code: 'LOOP' });
      await expect(tree.stat('sub/sub/sub')).rejects.toMatchObject({ code: 'LOOP' });
    } finally {
      await tree.close();
    }
    const sizeHandle = await open(file, 'r+');
    const blockSize = Buffer.alloc(4);
    blockSize.writeUInt16LE(3000, 0);
    blockSize.writeUInt16BE(3000, 2);
    await sizeHandle.write(blockSize, 0, 4, 16 * 2048 + 128);
    await sizeHandle.close();
    await expect(openIso(file)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/logical block size 3000/) });
  });
});
