import { describe, expect, it } from 'vitest';
import { ACCEPT_STAT, AUTH_STAT } from '../../../../src-main/nfs/server/rpc-constants.js';
import {
  AUTH_NONE_VERF,
  authSysCodec,
  decodeAuthSys,
  decodeCall,
  decodeReply,
  encodeAuthSys,
  encodeCall,
  rpcCallCodec,
  rpcReplyCodec,
  type RpcCall,
  type RpcReply,
} from '../../../../src-main/nfs/server/rpc-message.js';
import type { AuthSysCredentials } from '../../../../src-main/nfs/server/rpc-program.js';
import { XdrError } from '../../../../src-main/nfs/server/xdr.js';
import { expectRoundTrip, type CodecAdapter } from '../../../helpers/codec-roundtrip.js';
import { prng } from '../../../helpers/prng.js';

const calls: CodecAdapter<RpcCall> = { codec: rpcCallCodec, decodeTakesEnd: true };
const replies: CodecAdapter<RpcReply> = { codec: rpcReplyCodec, decodeTakesEnd: true };
const authSys: CodecAdapter<AuthSysCredentials> = { codec: authSysCodec, decodeTakesEnd: true };

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** `rpcinfo -u 127.0.0.1 100005 3` (libtirpc): rpcbind v4 GETADDR for mountd v3 over udp, AUTH_NONE. */
const RPCINFO_UDP_CALL = hex(
  '6b018e7a 00000000 00000002 000186a0 00000004 00000003 00000000 00000000 00000000 00000000' +
    '000186a5 00000003 00000003 75647000 0000000f 3132372e 302e302e 312e302e 31313100 00000008 6c696274 69727063',
);
/** rpcbind 1.2.6 answering a v2 GETPORT for itself over udp: SUCCESS, port 111. */
const RPCBIND_GETPORT_REPLY = hex('01020304 00000001 00000000 00000000 00000000 00000000 0000006f');
/** rpcbind 1.2.6 answering a call for portmapper v9: PROG_MISMATCH, low 2, high 4. */
const RPCBIND_MISMATCH_REPLY = hex('01020305 00000001 00000000 00000000 00000000 00000002 00000002 00000004');

const SYS: AuthSysCredentials = { stamp: 0x5f3e1, machineName: 'client-7', uid: 1000, gid: 1000, gids: [4, 24, 27, 1000] };

describe('RPC call header codec', () => {
  it('round-trips calls with AUTH_NONE and AUTH_SYS credentials', () => {
    expectRoundTrip(calls, { xid: 1, rpcvers: 2, program: 100003, version: 3, procedure: 6, cred: AUTH_NONE_VERF, verf: AUTH_NONE_VERF });
    expectRoundTrip(calls, { xid: 0xffff_ffff, rpcvers: 2, program: 100005, version: 3, procedure: 1, cred: { flavor: 1, body: encodeAuthSys(SYS) }, verf: AUTH_NONE_VERF });
    // Odd-length bodies are padded; the largest body RFC 5531 allows (400 bytes) passes.
    expectRoundTrip(calls, { xid: 9, rpcvers: 3, program: 1, version: 1, procedure: 0, cred: { flavor: 6, body: Buffer.from('abcde') }, verf: { flavor: 6, body: Buffer.alloc(400, 7) } });
  });

  it('decodes a call captured from rpcinfo and re-encodes its header byte for byte', () => {
    const call = decodeCall(RPCINFO_UDP_CALL);
    expect(call).toEqual({ xid: 0x6b018e7a, rpcvers: 2, program: 100000, version: 4, procedure: 3, cred: AUTH_NONE_VERF, verf: AUTH_NONE_VERF });
    expect(decodeCall.bytes).toBe(40);
    expect(encodeCall(call).equals(RPCINFO_UDP_CALL.subarray(0, 40))).toBe(true);
  });

  it('refuses a reply, a credential over 400 bytes and a truncated header with XdrError', () => {
    expect(() => decodeCall(RPCBIND_GETPORT_REPLY)).toThrow(/not CALL/);
    const big = encodeCall({ xid: 1, rpcvers: 2, program: 1, version: 1, procedure: 0, cred: AUTH_NONE_VERF, verf: AUTH_NONE_VERF });
    big.writeUInt32BE(401, 28);
    expect(() => decodeCall(Buffer.concat([big, Buffer.alloc(404)]))).toThrow(XdrError);
    expect(() => decodeCall(RPCINFO_UDP_CALL.subarray(0, 30))).toThrow(XdrError);
    expect(() => encodeCall({ xid: 1, rpcvers: 2, program: 1, version: 1, procedure: 0, cred: { flavor: 1, body: Buffer.alloc(401) }, verf: AUTH_NONE_VERF })).toThrow(RangeError);
  });
});

describe('RPC reply header codec', () => {
  it('round-trips every reply kind', () => {
    for (const acceptStat of Object.values(ACCEPT_STAT)) {
      const mismatch = acceptStat === ACCEPT_STAT.PROG_MISMATCH ? { low: 2, high: 4 } : null;
      expectRoundTrip(replies, { xid: 77, kind: 'accepted', verf: AUTH_NONE_VERF, acceptStat, mismatch });
    }
    expectRoundTrip(replies, { xid: 78, kind: 'rpc_mismatch', low: 2, high: 2 });
    expectRoundTrip(replies, { xid: 79, kind: 'auth_error', authStat: AUTH_STAT.AUTH_TOOWEAK });
  });

  it('decodes replies captured from rpcbind and re-encodes them byte for byte', () => {
    const success = decodeReply(RPCBIND_GETPORT_REPLY);
    expect(success).toEqual({ xid: 0x01020304, kind: 'accepted', verf: AUTH_NONE_VERF, acceptStat: ACCEPT_STAT.SUCCESS, mismatch: null });
    expect(RPCBIND_GETPORT_REPLY.readUInt32BE(decodeReply.bytes)).toBe(111);
    const mismatch = decodeReply(RPCBIND_MISMATCH_REPLY);
    expect(mismatch).toEqual({ xid: 0x01020305, kind: 'accepted', verf: AUTH_NONE_VERF, acceptStat: ACCEPT_STAT.PROG_MISMATCH, mismatch: { low: 2, high: 4 } });
    expect(decodeReply.bytes).toBe(RPCBIND_MISMATCH_REPLY.length);
    expect(rpcReplyCodec.encode(mismatch).equals(RPCBIND_MISMATCH_REPLY)).toBe(true);
  });

  it('refuses an unknown accept_stat, reply_stat or reject_stat, and a mismatch on the wrong status', () => {
    const bad = Buffer.from(RPCBIND_GETPORT_REPLY.subarray(0, 24));
    bad.writeUInt32BE(6, 20);
    expect(() => decodeReply(bad)).toThrow(/accept_stat/);
    bad.writeUInt32BE(2, 8);
    expect(() => decodeReply(bad)).toThrow(/reply_stat/);
    expect(() => decodeReply(hex('00000001 00000001 00000001 00000002 00000000'))).toThrow(/reject_stat/);
    expect(() => rpcReplyCodec.encode({ xid: 1, kind: 'accepted', verf: AUTH_NONE_VERF, acceptStat: 0, mismatch: { low: 1, high: 1 } })).toThrow(RangeError);
  });
});

describe('AUTH_SYS credentials', () => {
  it('round-trips, including 255-byte machine names and 16 gids', () => {
    expectRoundTrip(authSys, SYS);
    expectRoundTrip(authSys, { stamp: 0, machineName: '', uid: 0, gid: 0, gids: [] });
    expectRoundTrip(authSys, { stamp: 1, machineName: 'm'.repeat(255), uid: 65534, gid: 65534, gids: Array.from({ length: 16 }, (_, i) => i) });
  });

  it('decodes the bytes a Linux client sends', () => {
    // authsys_parms: stamp, "nfs-client" (10 bytes + 2 pad), uid 0, gid 0, gids [0].
    const bytes = hex('0000abcd 0000000a 6e66732d 636c6965 6e740000 00000000 00000000 00000001 00000000');
    expect(decodeAuthSys(bytes)).toEqual({ stamp: 0xabcd, machineName: 'nfs-client', uid: 0, gid: 0, gids: [0] });
    expect(decodeAuthSys.bytes).toBe(bytes.length);
  });

  it('refuses a machine name over 255 bytes and more than 16 gids', () => {
    const name = encodeAuthSys({ ...SYS, machineName: 'x'.repeat(255) });
    name.writeUInt32BE(256, 4);
    expect(() => decodeAuthSys(Buffer.concat([name, Buffer.alloc(8)]))).toThrow(/machinename/);
    const gids = encodeAuthSys({ ...SYS, gids: [] });
    gids.writeUInt32BE(17, gids.length - 4);
    expect(() => decodeAuthSys(Buffer.concat([gids, Buffer.alloc(17 * 4)]))).toThrow(/gids/);
    expect(() => encodeAuthSys({ ...SYS, gids: Array.from({ length: 17 }, () => 1) })).toThrow(RangeError);
  });
});

describe('RPC message decoders under fuzz', () => {
  it('end every random or mutated input in a value or an XdrError, never another throw', () => {
    const random = prng(0x5eed_0001);
    const seeds = [RPCINFO_UDP_CALL, RPCBIND_GETPORT_REPLY, RPCBIND_MISMATCH_REPLY, encodeAuthSys(SYS)];
    const decoders = [decodeCall, decodeReply, decodeAuthSys];
    for (let round = 0; round < 3000; round += 1) {
      const base = seeds[round % seeds.length] ?? RPCINFO_UDP_CALL;
      let input: Buffer;
      if (round % 3 === 0) {
        input = Buffer.alloc(Math.floor(random() * 96));
        for (let i = 0; i < input.length; i += 1) input[i] = Math.floor(random() * 256);
      } else {
        input = Buffer.from(base.subarray(0, Math.floor(random() * (base.length + 1))));
        for (let flips = 1 + Math.floor(random() * 4); flips > 0 && input.length > 0; flips -= 1) {
          const at = Math.floor(random() * input.length);
          // Favour the bytes lengths live in: big or small values there.
          input[at] = random() < 0.5 ? 0xff : Math.floor(random() * 256);
        }
      }
      for (const decoder of decoders) {
        try {
          decoder(input);
        } catch (error) {
          if (!(error instanceof XdrError)) throw new Error(`round ${round}: ${decoder.name} threw ${String(error)} on ${input.toString('hex')}`);
        }
      }
    }
  });
});
