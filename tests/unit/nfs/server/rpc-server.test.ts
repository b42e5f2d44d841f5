import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sendfileAvailable } from '../../../../src-main/core/sendfile-transfer.js';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPT_STAT, AUTH_STAT } from '../../../../src-main/nfs/server/rpc-constants.js';
import { AUTH_NONE_VERF, decodeReply, encodeAuthSys, encodeCall, type OpaqueAuth, type RpcReply } from '../../../../src-main/nfs/server/rpc-message.js';
import type { RpcCallContext, RpcCallRecord, RpcOutcome, RpcProgram } from '../../../../src-main/nfs/server/rpc-program.js';
import { RpcServer, type RpcServerOptions } from '../../../../src-main/nfs/server/rpc-server.js';
import { encodeRecord, fragmentHeader, RecordDecoder } from '../../../../src-main/nfs/server/record-marking.js';
import { XdrReader, XdrWriter } from '../../../../src-main/nfs/server/xdr.js';
import { RpcDispatcher } from '../../../../src-main/nfs/server/rpc-dispatch.js';
import { prng } from '../../../helpers/prng.js';
import { toolPresent } from '../../../helpers/tools.js';

const TEST_PROGRAM = 0x2000_0001;

/** A test program (versions 1 and 3) whose procedures exercise each outcome. */
class TestProgram implements RpcProgram {
  readonly program = TEST_PROGRAM;
  readonly name = 'test';
  readonly versions = [1, 3];
  calls = 0;
  contexts: RpcCallContext[] = [];
  /** The open file procedure 7 answers stretches of, and how often their tails were released. */
  tailFd = -1;
  releases = 0;
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  release(): void {
    this.openGate();
  }

  async call(_version: number, procedure: number, args: XdrReader, context: RpcCallContext): Promise<RpcOutcome> {
    this.calls += 1;
    this.contexts.push(context);
    switch (procedure) {
      case 0:
        return { status: 'success', results: new XdrWriter() };
      case 1: // echo an opaque
        return { status: 'success', results: new XdrWriter().attach(Buffer.from(args.opaque(1 << 20, 'data'))) };
      case 2: // wait for the gate, then answer
        await this.gate;
        return { status: 'success', results: new XdrWriter().uint32(2) };
      case 3:
        throw new Error('disk on fire');
      case 4: // needs a uint32 argument
        return { status: 'success', results: new XdrWriter().uint32(args.uint32('n')) };
      case 5: {
        // A reply of n bytes (at most 1 MiB: the fuzz test mutates n too).
        const size = args.uint32('n');
        if (size > 1 << 20) return { status: 'garbage_args' };
        return { status: 'success', results: new XdrWriter().attach(Buffer.alloc(size, 0x5a)) };
      }
      case 6:
        return { status: 'auth_error', authStat: AUTH_STAT.AUTH_REJECTEDCRED };
      case 7: {
        // Bytes of tailFd as an opaque whose bytes are a file tail: two stretches (the second half first), as a multi-extent file.
        const offset = args.uint32('offset');
        const length = args.uint32('length');
        const half = Math.floor(length / 2);
        const pieces = [
          { fd: this.tailFd, offset: offset + half, length: length - half },
          { fd: this.tailFd, offset, length: half },
        ];
        const release = () => {
          this.releases += 1;
        };
        if (!context.sendsFiles) return { status: 'success', results: new XdrWriter().uint32(length) };
        return { status: 'success', results: new XdrWriter().uint32(length), tail: { pieces, length, pad: (4 - (length % 4)) % 4, release } };
      }
      default:
        return { status: 'proc_unavail' };
    }
  }
}

let xidCounter = 100;

function call(procedure: number, args: Buffer = Buffer.alloc(0), options: { program?: number; version?: number; rpcvers?: number; cred?: OpaqueAuth; xid?: number } = {}): { xid: number; bytes: Buffer } {
  const xid = options.xid ?? (xidCounter += 1);
  const header = encodeCall({
    xid,
    rpcvers: options.rpcvers ?? 2,
    program: options.program ?? TEST_PROGRAM,
    version: options.version ?? 3,
    procedure,
    cred: options.cred ?? AUTH_NONE_VERF,
    verf: AUTH_NONE_VERF,
  });
  return { xid, bytes: Buffer.concat([header, args]) };
}

const u32 = (value: number): Buffer => new XdrWriter(4).uint32(value).toBuffer();

/** A TCP client collecting replies by xid. */
class Client {
  readonly replies = new Map<number, { header: RpcReply; body: Buffer }>();
  private readonly decoder = new RecordDecoder(64 << 20);
  private waiters: (() => void)[] = [];
  closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const record of this.decoder.push(chunk)) {
        const header = decodeReply(record);
        this.replies.set(header.xid, { header, body: record.subarray(decodeReply.bytes) });
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static async connect(port: number, host = '127.0.0.1'): Promise<Client> {
    const socket = net.connect({ port, host });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
    return new Client(socket);
  }

  send(bytes: Buffer): void {
    for (const chunk of encodeRecord([bytes])) this.socket.write(chunk);
  }

  async reply(xid: number): Promise<{ header: RpcReply; body: Buffer }> {
    for (;;) {
      const found = this.replies.get(xid);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async roundTrip(message: { xid: number; bytes: Buffer }): Promise<{ header: RpcReply; body: Buffer }> {
    this.send(message.bytes);
    return this.reply(message.xid);
  }
}

async function udpRoundTrip(port: number, bytes: Buffer): Promise<Buffer> {
  const socket = dgram.createSocket('udp4');
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve);
      socket.once('error', reject);
      socket.send(bytes, port, '127.0.0.1');
    });
  } finally {
    socket.close();
  }
}

const servers: RpcServer[] = [];
const clients: Client[] = [];

async function start(options: Partial<RpcServerOptions> = {}): Promise<{ server: RpcServer; program: TestProgram; records: RpcCallRecord[]; port: number }> {
  const program = new TestProgram();
  const records: RpcCallRecord[] = [];
  const server = new RpcServer({ programs: [program], host: '127.0.0.1', port: 0, observer: (record) => records.push(record), ...options });
  await server.listen();
  servers.push(server);
  return { server, program, records, port: server.addresses().tcp.port };
}

async function connect(port: number, host?: string): Promise<Client> {
  const client = await Client.connect(port, host);
  clients.push(client);
  return client;
}

function accepted(reply: RpcReply): number {
  if (reply.kind !== 'accepted') throw new Error(`expected an accepted reply, got ${reply.kind}`);
  return reply.acceptStat;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  for (const server of servers.splice(0)) await server.close();
});

describe('RpcServer over TCP', () => {
  it('answers a call and reports it to the observer', async () => {
    const { port, records } = await start();
    const client = await connect(port);
    const reply = await client.roundTrip(call(0));
    expect(accepted(reply.header)).toBe(ACCEPT_STAT.SUCCESS);
    expect(reply.body.length).toBe(0);
    expect(records).toEqual([{ program: 'test', version: 3, procedure: 0, transport: 'tcp', remote: '127.0.0.1', outcome: 'success', replyBytes: 24 }]);
  });

  it('reassembles a call sent as several fragments in separate writes', async () => {
    const { port } = await start();
    const client = await connect(port);
    const data = Buffer.alloc(70_001, 0x33);
    const message = call(1, new XdrWriter().opaque(data).toBuffer());
    const cut = [10, 50_000];
    const pieces = [message.bytes.subarray(0, cut[0]), message.bytes.subarray(cut[0], cut[1]), message.bytes.subarray(cut[1])];
    for (let i = 0; i < pieces.length; i += 1) {
      const piece = pieces[i] ?? Buffer.alloc(0);
      client.socket.write(Buffer.concat([fragmentHeader(piece.length, i === pieces.length - 1), piece]));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const reply = await client.reply(message.xid);
    expect(accepted(reply.header)).toBe(ACCEPT_STAT.SUCCESS);
    expect(new XdrReader(reply.body).opaque(1 << 20).equals(data)).toBe(true);
  });

  it('answers each refusal with its RFC 5531 status', async () => {
    const { port, records } = await start();
    const client = await connect(port);
    expect(accepted((await client.roundTrip(call(0, undefined, { program: 100099 }))).header)).toBe(ACCEPT_STAT.PROG_UNAVAIL);
    const mismatch = (await client.roundTrip(call(0, undefined, { version: 2 }))).header;
    expect(mismatch).toMatchObject({ kind: 'accepted', acceptStat: ACCEPT_STAT.PROG_MISMATCH, mismatch: { low: 1, high: 3 } });
    expect((await client.roundTrip(call(0, undefined, { rpcvers: 3 }))).header).toMatchObject({ kind: 'rpc_mismatch', low: 2, high: 2 });
    expect(accepted((await client.roundTrip(call(99))).header)).toBe(ACCEPT_STAT.PROC_UNAVAIL);
    expect(accepted((await client.roundTrip(call(4))).header)).toBe(ACCEPT_STAT.GARBAGE_ARGS);
    expect(accepted((await client.roundTrip(call(3))).header)).toBe(ACCEPT_STAT.SYSTEM_ERR);
    expect((await client.roundTrip(call(6))).header).toMatchObject({ kind: 'auth_error', authStat: AUTH_STAT.AUTH_REJECTEDCRED });
    // RPCSEC_GSS (6) is not taken; an AUTH_SYS body that does not parse is a bad credential.
    expect((await client.roundTrip(call(0, undefined, { cred: { flavor: 6, body: Buffer.alloc(8) } }))).header).toMatchObject({ kind: 'auth_error', authStat: AUTH_STAT.AUTH_TOOWEAK });
    expect((await client.roundTrip(call(0, undefined, { cred: { flavor: 1, body: Buffer.alloc(6) } }))).header).toMatchObject({ kind: 'auth_error', authStat: AUTH_STAT.AUTH_BADCRED });
    expect(records.map((record) => record.outcome)).toEqual(['prog_unavail', 'prog_mismatch', 'rpc_mismatch', 'proc_unavail', 'garbage_args', 'system_err', 'auth_error_2', 'auth_tooweak', 'auth_badcred']);
  });

  it('hands AUTH_SYS credentials and the unmapped peer address to the program', async () => {
    const { port, program } = await start({ host: '::' });
    const client = await connect(port, '127.0.0.1');
    const sys = { stamp: 7, machineName: 'pxe-client', uid: 1000, gid: 100, gids: [100, 27] };
    expect(accepted((await client.roundTrip(call(0, undefined, { cred: { flavor: 1, body: encodeAuthSys(sys) } }))).header)).toBe(ACCEPT_STAT.SUCCESS);
    expect(program.contexts[0]).toMatchObject({ transport: 'tcp', remote: { address: '127.0.0.1' }, local: { address: '127.0.0.1', port }, credentials: { flavor: 1, sys } });
  });

  it('runs the calls of one connection concurrently and answers them by xid', async () => {
    const { port, program } = await start();
    const client = await connect(port);
    program.hold();
    const slow = call(2);
    const fast = call(4, u32(9));
    client.send(slow.bytes);
    client.send(fast.bytes);
    // The second call is answered while the first still waits on its gate.
    const fastReply = await client.reply(fast.xid);
    expect(new XdrReader(fastReply.body).uint32()).toBe(9);
    expect(client.replies.has(slow.xid)).toBe(false);
    program.release();
    expect(accepted((await client.reply(slow.xid)).header)).toBe(ACCEPT_STAT.SUCCESS);
  });

  it('closes a connection whose record mark announces more than the limit, without waiting for the bytes', async () => {
    const { port, records } = await start();
    const client = await connect(port);
    client.socket.write(fragmentHeader(1024 * 1024 + 4097));
    await client.closed;
    expect(records.at(-1)?.outcome).toBe('too_large');
    // The server goes on serving.
    const next = await connect(port);
    expect(accepted((await next.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
  });

  it('stops reading a connection whose replies are not drained, and resumes when they are', async () => {
    const { port, program } = await start({ maxCallsInFlight: 4, maxPendingReplyBytes: 256 * 1024 });
    const client = await connect(port);
    const total = 200;
    const xids: number[] = [];
    client.socket.pause();
    const batch: Buffer[] = [];
    for (let i = 0; i < total; i += 1) {
      const message = call(5, u32(256 * 1024));
      xids.push(message.xid);
      batch.push(...encodeRecord([message.bytes]));
    }
    client.socket.write(Buffer.concat(batch));
    // Wait until the server has stopped making progress (bounded), then check it did not run every call.
    let seen = -1;
    for (let i = 0; i < 50 && seen !== program.calls; i += 1) {
      seen = program.calls;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(program.calls).toBeLessThan(total);
    client.socket.resume();
    for (const xid of xids) expect((await client.reply(xid)).body.length).toBe(4 + 256 * 1024);
    expect(program.calls).toBe(total);
  });

  it('limits open connections and closes idle ones', async () => {
    const { port } = await start({ maxConnections: 2, idleTimeoutMs: 300 });
    const a = await connect(port);
    const b = await connect(port);
    expect(accepted((await a.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
    expect(accepted((await b.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
    const third = await connect(port);
    await third.closed;
    // Idle connections are closed by the server, which then takes new ones again.
    await Promise.all([a.closed, b.closed]);
    const fourth = await connect(port);
    expect(accepted((await fourth.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
  });

  it('answers the calls of a peer that shut its sending side, then closes', async () => {
    const { port } = await start();
    const client = await connect(port);
    const message = call(4, u32(5));
    client.send(message.bytes);
    client.socket.end();
    expect(new XdrReader((await client.reply(message.xid)).body).uint32()).toBe(5);
    await client.closed;
  });

  it('survives hostile streams: garbage, a reply instead of a call, a reset in the middle of a record', async () => {
    const { port } = await start();
    const garbage = await connect(port);
    garbage.socket.write(Buffer.concat([fragmentHeader(7), Buffer.from('garbage'), fragmentHeader(30), Buffer.alloc(30, 0xff)]));
    const replyInstead = await connect(port);
    replyInstead.send(Buffer.from('0000000100000001000000000000000000000000000000000000006f', 'hex'));
    const reset = await connect(port);
    reset.socket.write(Buffer.concat([fragmentHeader(1000), Buffer.alloc(10)]));
    reset.socket.resetAndDestroy();
    const healthy = await connect(port);
    expect(accepted((await healthy.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
    expect(garbage.replies.size + replyInstead.replies.size).toBe(0);
  });
});

describe('RpcServer over TCP: file tails by sendfile', () => {
  const hasSendfile = sendfileAvailable();

  async function withTailFile(program: TestProgram, bytes: Buffer): Promise<() => void> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bw-rpc-tail-'));
    writeFileSync(path.join(dir, 'data.bin'), bytes);
    program.tailFd = openSync(path.join(dir, 'data.bin'), 'r');
    return () => {
      closeSync(program.tailFd);
      rmSync(dir, { recursive: true, force: true });
    };
  }

  it.runIf(hasSendfile)('sends the stretches after the results in one record, padded, in order with the other replies, and releases each once', async () => {
    const { program, port } = await start();
    const bytes = Buffer.from(Array.from({ length: 300_001 }, (_, index) => (index * 7) % 251));
    const cleanup = await withTailFile(program, bytes);
    try {
      const client = await connect(port);
      // Interleaved: file tails of odd lengths and plain replies, all in flight at once.
      const calls = [
        { message: call(7, Buffer.concat([u32(0), u32(300_001)])), offset: 0, length: 300_001 },
        { message: call(5, u32(10)), offset: -1, length: 10 },
        { message: call(7, Buffer.concat([u32(12_345), u32(3)])), offset: 12_345, length: 3 },
        { message: call(7, Buffer.concat([u32(1), u32(65_537)])), offset: 1, length: 65_537 },
        { message: call(0), offset: -1, length: 0 },
      ];
      for (const entry of calls) client.send(entry.message.bytes);
      for (const entry of calls) {
        const reply = await client.reply(entry.message.xid);
        expect(accepted(reply.header)).toBe(ACCEPT_STAT.SUCCESS);
        if (entry.offset < 0) continue;
        const reader = new XdrReader(reply.body);
        expect(reader.uint32('length')).toBe(entry.length);
        // The tail's halves were sent second half first: the record holds them as sent.
        const half = Math.floor(entry.length / 2);
        const expected = Buffer.concat([bytes.subarray(entry.offset + half, entry.offset + entry.length), bytes.subarray(entry.offset, entry.offset + half)]);
        const padded = (4 - (entry.length % 4)) % 4;
        expect(reply.body.length).toBe(4 + entry.length + padded);
        expect(reply.body.subarray(4, 4 + entry.length).equals(expected)).toBe(true);
        expect(reply.body.subarray(4 + entry.length).equals(Buffer.alloc(padded))).toBe(true);
      }
      await expect.poll(() => program.releases).toBe(3);
      expect(program.contexts.every((context) => context.sendsFiles)).toBe(true);
    } finally {
      cleanup();
    }
  });

  it.runIf(hasSendfile)('closes the connection when the file ends before the promised bytes, and releases the tail', async () => {
    const { program, port, server } = await start();
    const cleanup = await withTailFile(program, Buffer.alloc(1000, 1));
    try {
      const client = await connect(port);
      client.send(call(7, Buffer.concat([u32(0), u32(5000)])).bytes);
      await client.closed;
      await expect.poll(() => program.releases).toBe(1);
      // The server itself goes on: a new connection is answered.
      const again = await connect(port);
      expect(accepted((await again.roundTrip(call(0))).header)).toBe(ACCEPT_STAT.SUCCESS);
      expect(server.connections).toBe(1);
    } finally {
      cleanup();
    }
  });

  /** The congestion control `ss` reports for the server's end of the connection on `port`. */
  function congestionOf(port: number): string {
    const out = execFileSync('ss', ['-tinH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
    const known = out.match(/\b(cubic|bbr|reno)\b/);
    if (!known?.[1]) throw new Error(`ss shows no congestion control for port ${port}: ${out}`);
    return known[1];
  }
  const cubicAllowed = readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').split(/\s+/).includes('cubic');
  const hasSs = toolPresent('ss', 'the RPC congestion-control test');

  it.runIf(hasSendfile && hasSs && cubicAllowed)('puts connections that get file tails on CUBIC, and leaves them on the system\'s with congestionControl null', async () => {
    const system = readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim();
    const tuned = await start();
    await (await connect(tuned.port)).roundTrip(call(0));
    expect(congestionOf(tuned.port)).toBe('cubic');
    const untouched = await start({ congestionControl: null });
    await (await connect(untouched.port)).roundTrip(call(0));
    expect(congestionOf(untouched.port)).toBe(system);
  });

  it('without sendfile (option off, or UDP) the program is told so and answers bytes', async () => {
    const { program, port } = await start({ sendfile: false, udp: true });
    const client = await connect(port);
    const reply = await client.roundTrip(call(7, Buffer.concat([u32(0), u32(8)])));
    expect(new XdrReader(reply.body).uint32('length')).toBe(8);
    await udpRoundTrip(port, call(7, Buffer.concat([u32(0), u32(8)])).bytes);
    expect(program.contexts.map((context) => context.sendsFiles)).toEqual([false, false]);
    expect(program.releases).toBe(0);
  });
});

describe('RpcServer over UDP', () => {
  it('serves the same programs on the same port, one datagram per call', async () => {
    const { server, port, records } = await start({ udp: true });
    expect(server.addresses().udp).toEqual({ address: '127.0.0.1', port });
    const echo = call(1, new XdrWriter().opaque(Buffer.from('over udp')).toBuffer());
    const reply = await udpRoundTrip(port, echo.bytes);
    const header = decodeReply(reply);
    expect(header).toMatchObject({ xid: echo.xid, kind: 'accepted', acceptStat: ACCEPT_STAT.SUCCESS });
    expect(new XdrReader(reply, decodeReply.bytes).string(100)).toBe('over udp');
    const mismatch = call(0, undefined, { version: 7 });
    expect(decodeReply(await udpRoundTrip(port, mismatch.bytes))).toMatchObject({ xid: mismatch.xid, mismatch: { low: 1, high: 3 } });
    expect(records[0]).toMatchObject({ transport: 'udp', outcome: 'success' });
  });

  it('answers SYSTEM_ERR for a reply too large for a datagram and ignores datagrams that are not calls', async () => {
    const { port } = await start({ udp: true });
    const big = call(5, u32(70_000));
    expect(decodeReply(await udpRoundTrip(port, big.bytes))).toMatchObject({ xid: big.xid, acceptStat: ACCEPT_STAT.SYSTEM_ERR });
    const socket = dgram.createSocket('udp4');
    socket.send(Buffer.from('xyz'), port, '127.0.0.1');
    socket.send(Buffer.alloc(40, 0xff), port, '127.0.0.1');
    const ok = call(0);
    const answer = await new Promise<Buffer>((resolve) => {
      socket.on('message', resolve);
      socket.send(ok.bytes, port, '127.0.0.1');
    });
    socket.close();
    // The first answer on this socket is to the real call: the junk got none.
    expect(decodeReply(answer).xid).toBe(ok.xid);
  });

  it('refuses to listen when the UDP port is taken, and leaves TCP closed too', async () => {
    const blocker = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(0, '127.0.0.1', () => resolve()));
    const taken = blocker.address().port;
    const server = new RpcServer({ programs: [new TestProgram()], host: '127.0.0.1', port: taken, udp: true });
    try {
      await expect(server.listen()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      await expect(Client.connect(taken)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      blocker.close();
      await server.close();
    }
  });
});

describe('RPC dispatcher under fuzz', () => {
  it('answers every mutated call with a well-formed reply to its xid, or not at all, and never throws', async () => {
    const dispatcher = new RpcDispatcher([new TestProgram()], { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, scope() { return this; } });
    const source = { transport: 'tcp' as const, remote: { address: '127.0.0.1', port: 1 }, local: { address: '127.0.0.1', port: 2 } };
    const seeds = [
      call(1, new XdrWriter().opaque(Buffer.from('seed')).toBuffer()).bytes,
      call(4, u32(1), { cred: { flavor: 1, body: encodeAuthSys({ stamp: 1, machineName: 'fuzz', uid: 0, gid: 0, gids: [1, 2] }) } }).bytes,
      call(5, u32(16)).bytes,
    ];
    const random = prng(0xd15_9a7c);
    for (let round = 0; round < 2000; round += 1) {
      const seed = seeds[round % seeds.length] ?? Buffer.alloc(0);
      const input = Buffer.from(seed.subarray(0, Math.floor(random() * (seed.length + 4))));
      for (let flips = 1 + Math.floor(random() * 3); flips > 0 && input.length > 0; flips -= 1) {
        const at = Math.floor(random() * input.length);
        input[at] = random() < 0.3 ? 0xff : random() < 0.5 ? 0 : Math.floor(random() * 256);
      }
      const result = await dispatcher.dispatch(input, source);
      if (result.reply === null) continue;
      const [first] = result.reply;
      if (!first) throw new Error(`round ${round}: an empty reply`);
      expect(decodeReply(first).xid, `round ${round}`).toBe(input.readUInt32BE(0));
    }
  });
});
