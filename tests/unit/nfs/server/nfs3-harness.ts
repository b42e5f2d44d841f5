import { randomBytes } from 'node:crypto';
import { readSync } from 'node:fs';
import { expect } from 'vitest';
import type { ReadOnlyTree } from '../../../../src-main/core/read-only-tree.js';
import type { ExportTable, NfsActivity, ServedExport } from '../../../../src-main/nfs/export-table.js';
import { HandleIndex } from '../../../../src-main/nfs/server/handle-index.js';
import { AttributeCache } from '../../../../src-main/nfs/server/nfs3-attr-cache.js';
import { MountProgram } from '../../../../src-main/nfs/server/mount-program.js';
import { fattr3, postOpAttr, type Fattr3 } from '../../../../src-main/nfs/server/nfs3-codec.js';
import { NFS3, NFSPROC3 } from '../../../../src-main/nfs/server/nfs3-constants.js';
import { Nfs3Program } from '../../../../src-main/nfs/server/nfs3-program.js';
import { ReadCache, type ReadCacheOptions } from '../../../../src-main/nfs/server/read-cache.js';
import type { RpcCallContext, RpcOutcome, RpcProgram } from '../../../../src-main/nfs/server/rpc-program.js';
import { XdrReader, XdrWriter } from '../../../../src-main/nfs/server/xdr.js';

/*
 * In-process harness for the MOUNT and NFS programs: an export table over
 * given trees, an activity recorder, calls with XdrWriter-encoded arguments
 * and replies decoded by hand (the client side of RFC 1813).
 */

function ipv4(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    const byte = Number(part);
    if (!/^\d+$/.test(part) || byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** Plain IPv4 CIDR matching (the area's client-subnets.ts is the real one). */
function inSubnet(address: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const ip = ipv4(address);
  const net = ipv4(base ?? '');
  const bits = Number(bitsText ?? '32');
  if (ip === null || net === null) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(net / size);
}

export function servedExport(id: number, path: string, tree: ReadOnlyTree, clients: string[] = ['127.0.0.0/8']): ServedExport {
  return { id, path, tree, source: `test ${path}`, clients, allows: (address) => clients.some((cidr) => inSubnet(address, cidr)) };
}

export class TestExports implements ExportTable {
  constructor(public exports: ServedExport[]) {}
  list(): readonly ServedExport[] {
    return this.exports;
  }
  byPath(path: string): ServedExport | undefined {
    const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
    return this.exports.find((served) => served.path === trimmed);
  }
  byId(id: number): ServedExport | undefined {
    return this.exports.find((served) => served.id === id);
  }
}

export class ActivityLog implements NfsActivity {
  readonly events: { kind: string; client: string; path: string | null; bytes?: number }[] = [];
  readBytes = 0;
  mounted(client: string, exportPath: string): void {
    this.events.push({ kind: 'mounted', client, path: exportPath });
  }
  unmounted(client: string, exportPath: string | null): void {
    this.events.push({ kind: 'unmounted', client, path: exportPath });
  }
  refused(client: string, exportPath: string | null): void {
    this.events.push({ kind: 'refused', client, path: exportPath });
  }
  served(_client: string, _exportId: number, bytes: number): void {
    this.readBytes += bytes;
  }
  count(kind: string): number {
    return this.events.filter((event) => event.kind === kind).length;
  }
}

export function context(address = '127.0.0.1', transport: 'tcp' | 'udp' = 'tcp', sendsFiles = false): RpcCallContext {
  return { transport, remote: { address, port: 700 }, local: { address: '127.0.0.1', port: 2049 }, credentials: { flavor: 0, sys: null }, xid: 1, sendsFiles };
}

export interface Harness {
  exports: TestExports;
  activity: ActivityLog;
  index: HandleIndex;
  key: Buffer;
  readCache: ReadCache;
  nfs: Nfs3Program;
  mount: MountProgram;
}

export function harness(exports: ServedExport[], key: Buffer = randomBytes(32), readCacheOptions: ReadCacheOptions = {}, attributes?: AttributeCache): Harness {
  const table = new TestExports(exports);
  const activity = new ActivityLog();
  const index = new HandleIndex({ key, exports: table, ...(attributes ? { attributes } : {}) });
  const readCache = new ReadCache(readCacheOptions);
  const nfs = new Nfs3Program({ exports: table, activity, index, readCache });
  const mount = new MountProgram({ exports: table, activity, index });
  return { exports: table, activity, index, key, readCache, nfs, mount };
}

export async function outcome(program: RpcProgram, procedure: number, args: (writer: XdrWriter) => void, ctx: RpcCallContext = context()): Promise<RpcOutcome> {
  const writer = new XdrWriter();
  args(writer);
  return program.call(3, procedure, new XdrReader(writer.toBuffer()), ctx);
}

/** Calls and returns a reader over the results (the call must succeed at the RPC level). */
export async function call(program: RpcProgram, procedure: number, args: (writer: XdrWriter) => void, ctx: RpcCallContext = context()): Promise<XdrReader> {
  const result = await outcome(program, procedure, args, ctx);
  if (result.status !== 'success') throw new Error(`procedure ${procedure}: ${result.status}`);
  if (!result.tail) return new XdrReader(result.results.toBuffer());
  // What the transport would send by sendfile: the stretches read from their descriptors, then the padding.
  const tail = result.tail;
  const stretches = tail.pieces.map((piece) => {
    const bytes = Buffer.alloc(piece.length);
    expect(readSync(piece.fd, bytes, 0, piece.length, piece.offset)).toBe(piece.length);
    return bytes;
  });
  tail.release();
  return new XdrReader(Buffer.concat([result.results.toBuffer(), ...stretches, Buffer.alloc(tail.pad)]));
}

/** MNT → the root handle (asserts MNT3_OK). */
export async function mountRoot(h: Harness, path: string, ctx: RpcCallContext = context()): Promise<Buffer> {
  const reply = await call(h.mount, 1, (w) => w.string(path), ctx);
  expect(reply.uint32()).toBe(0);
  return Buffer.from(reply.opaque(64));
}

export async function getattr(h: Harness, handle: Buffer, ctx?: RpcCallContext): Promise<{ status: number; attrs: Fattr3 | null }> {
  const reply = await call(h.nfs, NFSPROC3.GETATTR, (w) => w.opaque(handle), ctx);
  const status = reply.uint32();
  return { status, attrs: status === NFS3.OK ? fattr3.decode(reply) : null };
}

export async function lookup(h: Harness, dir: Buffer, name: string | Buffer, ctx?: RpcCallContext): Promise<{ status: number; handle: Buffer | null; attrs: Fattr3 | null; dirAttrs: Fattr3 | null }> {
  const reply = await call(h.nfs, NFSPROC3.LOOKUP, (w) => w.opaque(dir).opaque(typeof name === 'string' ? Buffer.from(name) : name), ctx);
  const status = reply.uint32();
  if (status !== NFS3.OK) return { status, handle: null, attrs: null, dirAttrs: postOpAttr.decode(reply) };
  const handle = Buffer.from(reply.opaque(64));
  const attrs = postOpAttr.decode(reply);
  return { status, handle, attrs, dirAttrs: postOpAttr.decode(reply) };
}

/** Walks a '/'-separated path by LOOKUPs (asserts each is OK). */
export async function walk(h: Harness, root: Buffer, path: string, ctx?: RpcCallContext): Promise<Buffer> {
  let handle = root;
  for (const name of path.split('/').filter(Boolean)) {
    const result = await lookup(h, handle, name, ctx);
    expect(result.status, `LOOKUP ${name}`).toBe(NFS3.OK);
    if (!result.handle) throw new Error('no handle');
    handle = result.handle;
  }
  return handle;
}

export async function read(h: Harness, handle: Buffer, offset: number | bigint, count: number, ctx?: RpcCallContext): Promise<{ status: number; attrs: Fattr3 | null; eof: boolean; data: Buffer }> {
  const reply = await call(h.nfs, NFSPROC3.READ, (w) => w.opaque(handle).uint64(BigInt(offset)).uint32(count), ctx);
  const status = reply.uint32();
  const attrs = postOpAttr.decode(reply);
  if (status !== NFS3.OK) return { status, attrs, eof: false, data: Buffer.alloc(0) };
  const length = reply.uint32();
  const eof = reply.bool();
  const data = Buffer.from(reply.opaque(16 * 1024 * 1024));
  expect(data.length).toBe(length);
  return { status, attrs, eof, data };
}

/** Reads a whole file in `chunk`-sized READs. */
export async function readAll(h: Harness, handle: Buffer, chunk: number, ctx?: RpcCallContext): Promise<Buffer> {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let guard = 0; guard < 100_000; guard += 1) {
    const result = await read(h, handle, offset, chunk, ctx);
    expect(result.status).toBe(NFS3.OK);
    parts.push(result.data);
    offset += result.data.length;
    if (result.eof) return Buffer.concat(parts);
    expect(result.data.length).toBeGreaterThan(0);
  }
  throw new Error('readAll: no eof');
}

export interface DirEntry {
  fileid: bigint;
  name: string;
  cookie: bigint;
  attrs?: Fattr3 | null;
  handle?: Buffer | null;
}

export async function readdir(
  h: Harness,
  dir: Buffer,
  cookie: bigint,
  verf: Buffer,
  count: number,
  plus = false,
  ctx?: RpcCallContext,
): Promise<{ status: number; dirAttrs: Fattr3 | null; verf: Buffer; entries: DirEntry[]; eof: boolean; bytes: number }> {
  const reply = await call(
    h.nfs,
    plus ? NFSPROC3.READDIRPLUS : NFSPROC3.READDIR,
    (w) => {
      w.opaque(dir).uint64(cookie).fixedOpaque(verf).uint32(count);
      if (plus) w.uint32(count);
    },
    ctx,
  );
  const status = reply.uint32();
  const dirAttrs = postOpAttr.decode(reply);
  if (status !== NFS3.OK) return { status, dirAttrs, verf: Buffer.alloc(8), entries: [], eof: false, bytes: reply.end };
  const newVerf = Buffer.from(reply.fixedOpaque(8));
  const entries: DirEntry[] = [];
  while (reply.bool()) {
    const entry: DirEntry = { fileid: reply.uint64(), name: reply.string(4096), cookie: reply.uint64() };
    if (plus) {
      entry.attrs = postOpAttr.decode(reply);
      entry.handle = reply.bool() ? Buffer.from(reply.opaque(64)) : null;
    }
    entries.push(entry);
  }
  const eof = reply.bool();
  expect(reply.remaining()).toBe(0);
  return { status, dirAttrs, verf: newVerf, entries, eof, bytes: reply.end };
}

/** Every entry of a directory through repeated READDIR(PLUS) calls of `count` bytes. */
export async function listAll(h: Harness, dir: Buffer, count: number, plus = false): Promise<DirEntry[]> {
  const all: DirEntry[] = [];
  let cookie = 0n;
  let verf: Buffer = Buffer.alloc(8);
  for (let guard = 0; guard < 10_000; guard += 1) {
    const page = await readdir(h, dir, cookie, verf, count, plus);
    expect(page.status).toBe(NFS3.OK);
    // The reply fits the client's count, and is not needlessly short (a page stops only when the next entry would not fit).
    expect(page.bytes).toBeLessThanOrEqual(count);
    if (!page.eof) expect(page.bytes).toBeGreaterThan(count - (plus ? 200 : 48));
    all.push(...page.entries);
    if (page.eof) return all;
    const last = page.entries.at(-1);
    if (!last) throw new Error('empty page without eof');
    cookie = last.cookie;
    verf = page.verf;
  }
  throw new Error('listAll: no eof');
}
