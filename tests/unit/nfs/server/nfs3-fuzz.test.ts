import { describe, expect, it } from 'vitest';
import { NFSPROC3 } from '../../../../src-main/nfs/server/nfs3-constants.js';
import type { RpcOutcome, RpcProgram } from '../../../../src-main/nfs/server/rpc-program.js';
import { XdrError, XdrReader, XdrWriter } from '../../../../src-main/nfs/server/xdr.js';
import { memoryTree } from '../../../helpers/memory-tree.js';
import { prng } from '../../../helpers/prng.js';
import { context, harness, mountRoot, servedExport, walk } from './nfs3-harness.js';

/*
 * Every procedure of both programs fed random bytes and corrupted valid
 * arguments: the answer is a reply or GARBAGE_ARGS (an XdrError), never
 * another exception and never a hang (each call is awaited in turn; a hang
 * would time the test out).
 */

const ROUNDS = 150;

async function survive(program: RpcProgram, procedure: number, bytes: Buffer, udp: boolean): Promise<string> {
  let result: RpcOutcome;
  try {
    result = await program.call(3, procedure, new XdrReader(bytes), context(udp ? '127.0.0.2' : '127.0.0.1', udp ? 'udp' : 'tcp'));
  } catch (error) {
    if (error instanceof XdrError) return 'garbage_args';
    throw new Error(`procedure ${procedure} threw on ${bytes.toString('hex')}: ${String(error)}`);
  }
  expect(['success', 'proc_unavail']).toContain(result.status);
  // The reply must encode (a reply the transport cannot send would be a bug too).
  if (result.status === 'success') expect(result.results.toBuffer().length % 4).toBe(0);
  return result.status;
}

function corrupt(valid: Buffer, next: () => number): Buffer {
  const bytes = Buffer.from(valid);
  const mode = Math.floor(next() * 4);
  if (mode === 0) return bytes.subarray(0, Math.floor(next() * bytes.length)); // truncated
  if (mode === 1) {
    for (let flips = 1 + Math.floor(next() * 4); flips > 0; flips -= 1) {
      const at = Math.floor(next() * bytes.length);
      bytes[at] = Math.floor(next() * 256);
    }
    return bytes;
  }
  if (mode === 2) {
    // A length word set huge: the decoder must refuse it, not allocate it.
    const at = Math.floor(next() * Math.max(1, bytes.length - 4)) & ~3;
    if (bytes.length >= at + 4) bytes.writeUInt32BE(0xffff_fff0, at);
    return bytes;
  }
  return Buffer.concat([bytes, Buffer.from(Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256)))]);
}

describe('NFS and MOUNT argument decoders under random and corrupted input', () => {
  it('never throw anything but XdrError', async () => {
    const tree = memoryTree({ 'dir/file': 'content', 'dir/link': { symlink: 'file' } });
    const h = harness([servedExport(1, '/x', tree)]);
    const root = await mountRoot(h, '/x');
    const file = await walk(h, root, 'dir/file');
    const handles = [root, file];
    const next = prng(0x5eed);
    const validArgs = (procedure: number, handle: Buffer): Buffer => {
      const w = new XdrWriter().opaque(handle);
      switch (procedure) {
        case NFSPROC3.LOOKUP:
          w.string('dir');
          break;
        case NFSPROC3.ACCESS:
          w.uint32(0x3f);
          break;
        case NFSPROC3.READ:
          w.uint64(0n).uint32(4096);
          break;
        case NFSPROC3.READDIR:
          w.uint64(0n).fixedOpaque(Buffer.alloc(8)).uint32(4096);
          break;
        case NFSPROC3.READDIRPLUS:
          w.uint64(0n).fixedOpaque(Buffer.alloc(8)).uint32(4096).uint32(8192);
          break;
        default:
          w.string('name').uint64(1n).uint32(7);
      }
      return w.toBuffer();
    };
    const seen = new Set<string>();
    for (let procedure = 0; procedure <= 22; procedure += 1) {
      for (let round = 0; round < ROUNDS; round += 1) {
        const random = Buffer.from(Array.from({ length: Math.floor(next() * 120) }, () => Math.floor(next() * 256)));
        seen.add(await survive(h.nfs, procedure, random, round % 2 === 0));
        const handle = handles[round % handles.length] ?? root;
        seen.add(await survive(h.nfs, procedure, corrupt(validArgs(procedure, handle), next), round % 3 === 0));
      }
    }
    for (let procedure = 0; procedure <= 6; procedure += 1) {
      for (let round = 0; round < ROUNDS; round += 1) {
        const random = Buffer.from(Array.from({ length: Math.floor(next() * 80) }, () => Math.floor(next() * 256)));
        seen.add(await survive(h.mount, procedure, random, false));
        seen.add(await survive(h.mount, procedure, corrupt(new XdrWriter().string('/x/dir').toBuffer(), next), false));
      }
    }
    // The fuzz reached both outcomes (a decoder that refused everything, or nothing, would be suspicious).
    expect(seen).toEqual(new Set(['success', 'garbage_args', 'proc_unavail']));
    await h.readCache.close();
  });
});
