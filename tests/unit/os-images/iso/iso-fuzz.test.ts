import { open, rm, type FileHandle } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../src-main/core/errors.js';
import { resolveTreePath, TreeError, type ReadOnlyTree } from '../../../../src-main/core/read-only-tree.js';
import { directoryRecords, isSelfOrParent } from '../../../../src-main/os-images/iso/directory-record.js';
import { openIso, readIsoInfo } from '../../../../src-main/os-images/iso/index.js';
import { IsoSource } from '../../../../src-main/os-images/iso/iso-source.js';
import { readDescriptorSet } from '../../../../src-main/os-images/iso/volume-descriptors.js';
import { buildIso, isoToolPresent, makeIsoWorkDir } from '../../../helpers/iso-fixtures.js';
import { prng } from '../../../helpers/prng.js';

/*
 * Corrupted images: bytes of a small Rock Ridge + Joliet + El Torito ISO are
 * mutated where the reader decodes them (volume descriptors, directory
 * records, SUSP areas and continuation areas, the boot catalog), then the
 * image is opened, walked whole and its files read. Every failure must be a
 * TreeError or an AppError, and every walk must end. The mutations are
 * written into the file in place and undone after each round.
 */

const haveXorriso = isoToolPresent('xorriso', 'the ISO 9660 reader fuzz test');
const ROUNDS = Number(process.env.BOOTWRIGHT_FUZZ_ROUNDS ?? 1500);
const SEED = Number(process.env.BOOTWRIGHT_FUZZ_SEED ?? 0x15090660);
const MAX_WALK_NODES = 400;
const MAX_WALK_DEPTH = 80;


interface Region {
  kind: 'descriptor' | 'directory' | 'susp' | 'catalog' | 'udf';
  offset: number;
  length: number;
}

/** Where the metadata of `file` sits: found with the reader's own decoders on the intact image. */
async function metadataRegions(file: string): Promise<Region[]> {
  const source = await IsoSource.open(file);
  try {
    const set = await readDescriptorSet(source);
    const regions: Region[] = [{ kind: 'descriptor', offset: 16 * 2048, length: 6 * 2048 }];
    // The fields the reader decodes in each descriptor: header, volume size, block size, root record, boot catalog pointer.
    for (let sector = 16; sector < 22; sector += 1) {
      for (const [at, length] of [[0, 7], [71, 4], [80, 8], [88, 3], [128, 4], [156, 34]] as const) {
        regions.push({ kind: 'descriptor', offset: sector * 2048 + at, length });
      }
    }
    if (set.bootCatalogSector !== null) regions.push({ kind: 'catalog', offset: set.bootCatalogSector * 2048, length: 2048 });
    const seen = new Set<number>();
    const visit = async (block: number, length: number, susp: boolean): Promise<void> => {
      const offset = block * 2048;
      if (seen.has(offset)) return;
      seen.add(offset);
      regions.push({ kind: 'directory', offset, length });
      const buffer = await source.read(offset, length, 'directory');
      for (const { record, position } of directoryRecords(buffer, offset)) {
        if (susp && record.systemUse.length > 0) {
          regions.push({ kind: 'susp', offset: position + record.length - record.systemUse.length, length: record.systemUse.length });
          // Continuation areas: CE entries are consumed by suspEntries, so find them here.
          let at = 0;
          while (at + 4 <= record.systemUse.length) {
            const length = record.systemUse.readUInt8(at + 2);
            if (length < 4) break;
            if (record.systemUse.toString('latin1', at, at + 2) === 'CE' && length >= 28) {
              const ceBlock = record.systemUse.readUInt32LE(at + 4);
              regions.push({ kind: 'susp', offset: ceBlock * 2048 + record.systemUse.readUInt32LE(at + 12), length: record.systemUse.readUInt32LE(at + 20) });
            }
            at += length;
          }
        }
        if (record.isDirectory && !isSelfOrParent(record.identifier)) await visit(record.extentBlock, record.dataLength, susp);
      }
    };
    await visit(set.primary.root.extentBlock, set.primary.root.dataLength, true);
    if (set.joliet) await visit(set.joliet.root.extentBlock, set.joliet.root.dataLength, false);
    return regions;
  } finally {
    await source.close();
  }
}

/** UDF structures of a bridge image: the anchor, the volume descriptor sequence, and every sector with a file set, file entry or file identifier tag. */
async function udfRegions(file: string): Promise<Region[]> {
  const source = await IsoSource.open(file);
  try {
    const regions: Region[] = [];
    const anchor = await source.read(256 * 2048, 2048, 'anchor');
    regions.push({ kind: 'udf', offset: 256 * 2048, length: 32 });
    const vds = anchor.readUInt32LE(20);
    for (let sector = vds; sector < vds + 8; sector += 1) regions.push({ kind: 'udf', offset: sector * 2048, length: 512 });
    const last = Math.min(Math.floor(source.size / 2048), 256 + 400);
    for (let sector = 257; sector < last; sector += 1) {
      const tag = (await source.read(sector * 2048, 2, 'tag')).readUInt16LE(0);
      if ([256, 257, 261, 266].includes(tag)) regions.push({ kind: 'udf', offset: sector * 2048, length: 256 });
    }
    return regions;
  } finally {
    await source.close();
  }
}

interface Mutation {
  offset: number;
  bytes: Buffer;
}

function mutationsFor(random: () => number, regions: readonly Region[]): Mutation[] {
  const mutations: Mutation[] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let n = 0; n < count; n += 1) {
    // A kind first (each as likely), then one of its regions.
    const kinds = [...new Set(regions.map((region) => region.kind))];
    const kind = kinds[Math.floor(random() * kinds.length)];
    const ofKind = regions.filter((region) => region.kind === kind);
    const region = ofKind[Math.floor(random() * ofKind.length)] ?? regions[0];
    if (!region) break;
    const offset = region.offset + Math.floor(random() * Math.max(1, region.length));
    const choice = random();
    let bytes: Buffer;
    if (choice < 0.35) {
      bytes = Buffer.from([Math.floor(random() * 256)]);
    } else if (choice < 0.5) {
      bytes = Buffer.from([random() < 0.5 ? 0 : 0xff]);
    } else if (choice < 0.85) {
      // A 32-bit number: extents, lengths, CE pointers, catalog RBAs — small, huge, or near the volume's end.
      bytes = Buffer.alloc(4);
      const pick = random();
      const value = pick < 0.3 ? Math.floor(random() * 64) : pick < 0.6 ? 0xffffffff - Math.floor(random() * 16) : Math.floor(random() * 0x100000);
      bytes.writeUInt32LE(value >>> 0);
    } else {
      bytes = Buffer.alloc(1 + Math.floor(random() * 32));
      for (let at = 0; at < bytes.length; at += 1) bytes[at] = Math.floor(random() * 256);
    }
    mutations.push({ offset, bytes });
  }
  return mutations;
}

async function apply(handle: FileHandle, mutations: readonly Mutation[]): Promise<Mutation[]> {
  const undo: Mutation[] = [];
  for (const mutation of mutations) {
    const original = Buffer.alloc(mutation.bytes.length);
    const { bytesRead } = await handle.read(original, 0, original.length, mutation.offset);
    undo.unshift({ offset: mutation.offset, bytes: original.subarray(0, bytesRead) });
    await handle.write(mutation.bytes, 0, bytesRead, mutation.offset);
  }
  return undo;
}

/** What the rounds ended in (printed, so a run shows it reached the decoders' refusals). */
const outcomes = new Map<string, number>();
function count(outcome: string): void {
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
}

function expectTreeFailure(err: unknown, context: string): void {
  if (err instanceof TreeError || err instanceof AppError) {
    count(err.code);
    return;
  }
  throw new Error(`${context}: ${err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err)}`);
}

/** Opens and walks the whole tree, reading every file's start and end; counts failures by kind. */
async function exercise(file: string, context: string): Promise<void> {
  try {
    await readIsoInfo(file);
  } catch (err) {
    expectTreeFailure(err, `${context} readIsoInfo`);
  }
  let tree: ReadOnlyTree;
  try {
    tree = await openIso(file);
    count('opened');
  } catch (err) {
    expectTreeFailure(err, `${context} openIso`);
    return;
  }
  try {
    let visited = 0;
    const pending: Array<{ path: string; depth: number }> = [{ path: '', depth: 0 }];
    while (pending.length > 0 && visited < MAX_WALK_NODES) {
      const next = pending.pop();
      if (!next) break;
      let nodes;
      try {
        nodes = await tree.list(next.path);
      } catch (err) {
        expectTreeFailure(err, `${context} list ${next.path}`);
        continue;
      }
      for (const node of nodes) {
        visited += 1;
        if (visited >= MAX_WALK_NODES) break;
        try {
          await tree.stat(node.path);
          if (node.type === 'directory' && next.depth < MAX_WALK_DEPTH) pending.push({ path: node.path, depth: next.depth + 1 });
          if (node.type === 'symlink') await resolveTreePath(tree, node.path);
          if (node.type === 'file') {
            await tree.read(node.path, 0, 4096);
            await tree.read(node.path, Math.max(0, node.size - 100), 200);
            await tree.extents(node.path);
          }
        } catch (err) {
          expectTreeFailure(err, `${context} ${node.path}`);
        }
      }
    }
  } finally {
    await tree.close();
  }
}

describe.skipIf(!haveXorriso)('ISO 9660 reader on corrupted images', () => {
  let work = '';
  let file = '';
  let regions: Region[] = [];

  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-iso-fuzz-');
    file = await buildIso(work, 'fuzz.iso', {
      joliet: true,
      relocateDeep: true,
      elTorito: { bios: true, uefi: true },
      entries: [
        { kind: 'file', path: 'a.txt', content: 'hello' },
        { kind: 'file', path: `${'long-name-'.repeat(20)}.txt`, content: 'a name that needs a continuation area' },
        { kind: 'symlink', path: 'link', target: 'a.txt' },
        { kind: 'symlink', path: 'sub/abs', target: '/a.txt' },
        { kind: 'symlink', path: 'long-link', target: `${'x/'.repeat(120)}target` },
        { kind: 'file', path: 'sub/b.txt', content: 'b' },
        { kind: 'file', path: '1/2/3/4/5/6/7/8/9/10/deep.txt', content: 'deep' },
      ],
    });
    regions = await metadataRegions(file);
  }, 60_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('finds the regions it mutates', () => {
    const kinds = new Set(regions.map((region) => region.kind));
    expect([...kinds].sort()).toEqual(['catalog', 'descriptor', 'directory', 'susp']);
  });

  it(`ends every one of ${ROUNDS} mutated images in a TreeError or AppError, never another exception or a hang`, async () => {
    const random = prng(SEED);
    const handle = await open(file, 'r+');
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const mutations = mutationsFor(random, regions);
        const undo = await apply(handle, mutations);
        try {
          await exercise(file, `seed ${SEED} round ${round} (${mutations.map((m) => `${m.offset}:${m.bytes.toString('hex')}`).join(' ')})`);
        } finally {
          await apply(handle, undo);
        }
      }
    } finally {
      await handle.close();
    }
    console.log(`ISO fuzz (seed ${SEED}, ${ROUNDS} rounds): ${[...outcomes].map(([outcome, n]) => `${outcome} ${n}`).join(', ')}`);
    expect(outcomes.get('opened')).toBeGreaterThan(0);
    expect(outcomes.get('CORRUPT')).toBeGreaterThan(0);
    // The image is intact again: it opens and reads.
    const tree = await openIso(file);
    try {
      expect((await tree.read('a.txt', 0, 10)).toString()).toBe('hello');
    } finally {
      await tree.close();
    }
  }, 120_000);
});

const haveGenisoimage = isoToolPresent('genisoimage', 'the UDF reader fuzz test');
const UDF_ROUNDS = Math.ceil(ROUNDS / 3);

describe.skipIf(!haveGenisoimage)('UDF reader on corrupted bridge images', () => {
  let work = '';
  let file = '';
  let regions: Region[] = [];

  beforeAll(async () => {
    work = await makeIsoWorkDir('bw-udf-fuzz-');
    file = await buildIso(work, 'udf-fuzz.iso', {
      udf: true,
      joliet: true,
      rockRidge: false,
      entries: [
        { kind: 'file', path: 'sources/boot.wim', content: 'wim' },
        { kind: 'file', path: 'a.txt', content: 'hello' },
        { kind: 'file', path: 'x/y/z/deep.txt', content: 'deep' },
      ],
    });
    regions = await udfRegions(file);
  }, 60_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(`ends every one of ${UDF_ROUNDS} mutated UDF images in a TreeError or AppError`, async () => {
    expect(regions.length).toBeGreaterThan(5);
    const random = prng(SEED ^ 0x0d0f);
    const handle = await open(file, 'r+');
    outcomes.clear();
    try {
      for (let round = 0; round < UDF_ROUNDS; round += 1) {
        const mutations = mutationsFor(random, regions);
        const undo = await apply(handle, mutations);
        try {
          await exercise(file, `UDF seed ${SEED} round ${round} (${mutations.map((m) => `${m.offset}:${m.bytes.toString('hex')}`).join(' ')})`);
        } finally {
          await apply(handle, undo);
        }
      }
    } finally {
      await handle.close();
    }
    console.log(`UDF fuzz (seed ${SEED}, ${UDF_ROUNDS} rounds): ${[...outcomes].map(([outcome, n]) => `${outcome} ${n}`).join(', ')}`);
    const tree = await openIso(file);
    try {
      expect(tree.kind).toBe('udf');
      expect((await tree.read('a.txt', 0, 10)).toString()).toBe('hello');
    } finally {
      await tree.close();
    }
  }, 120_000);
});
