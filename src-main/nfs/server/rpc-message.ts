import { MAX_AUTH_BYTES, MAX_AUTH_SYS_GIDS, MAX_MACHINE_NAME, ACCEPT_STAT, MSG_TYPE, REJECT_STAT, REPLY_STAT } from './rpc-constants.js';
import type { AuthSysCredentials } from './rpc-program.js';
import { paddedLength, XdrError, XdrReader } from './xdr.js';

/*
 * Codecs of the ONC RPC message headers (RFC 5531 §9) and of AUTH_SYS
 * credentials (appendix A), in the codec shape of docs/STYLE.md:
 * encode(value, buf?, offset?) / decode(buf, offset?, end?) with `.bytes`, and
 * encodingLength(value). A call's arguments and a reply's results are not part
 * of the header: they follow it (decode.bytes says where), so a program reads
 * its arguments straight from the received record and a reply's results are
 * written after the header with writev, never copied into one buffer.
 */

/** RFC 5531 §8.2: a flavor and its body (≤ 400 bytes). */
export interface OpaqueAuth {
  flavor: number;
  body: Buffer;
}

/** The header of a call (msg_type CALL), up to and including the verifier. */
export interface RpcCall {
  xid: number;
  /** Decoded whatever it is: the server answers RPC_MISMATCH when it is not 2. */
  rpcvers: number;
  program: number;
  version: number;
  procedure: number;
  cred: OpaqueAuth;
  verf: OpaqueAuth;
}

/** The header of a reply (msg_type REPLY); a SUCCESS reply's results follow it. */
export type RpcReply =
  | {
      xid: number;
      kind: 'accepted';
      verf: OpaqueAuth;
      acceptStat: number;
      /** The versions supported; present exactly when acceptStat is PROG_MISMATCH. */
      mismatch: { low: number; high: number } | null;
    }
  | { xid: number; kind: 'rpc_mismatch'; low: number; high: number }
  | { xid: number; kind: 'auth_error'; authStat: number };

export const AUTH_NONE_VERF: OpaqueAuth = Object.freeze({ flavor: 0, body: Buffer.alloc(0) });

const ACCEPT_STATS: ReadonlySet<number> = new Set(Object.values(ACCEPT_STAT));

function authLength(auth: OpaqueAuth): number {
  return 8 + paddedLength(auth.body.length);
}

function checkAuth(auth: OpaqueAuth): void {
  if (auth.body.length > MAX_AUTH_BYTES) throw new RangeError(`opaque_auth body of ${auth.body.length} bytes is over ${MAX_AUTH_BYTES}`);
}

function writeUint(buf: Buffer, at: number, value: number): number {
  buf.writeUInt32BE(value >>> 0, at);
  return at + 4;
}

function writeAuth(buf: Buffer, at: number, auth: OpaqueAuth): number {
  let next = writeUint(buf, at, auth.flavor);
  next = writeUint(buf, next, auth.body.length);
  buf.set(auth.body, next);
  const padded = paddedLength(auth.body.length);
  buf.fill(0, next + auth.body.length, next + padded);
  return next + padded;
}

function readAuth(reader: XdrReader, what: string): OpaqueAuth {
  const flavor = reader.uint32(`${what} flavor`);
  return { flavor, body: reader.opaque(MAX_AUTH_BYTES, `${what} body`) };
}

function target(length: number, buf: Buffer | undefined, offset: number): Buffer {
  const out = buf ?? Buffer.allocUnsafe(length);
  if (offset < 0 || out.length - offset < length) throw new RangeError(`buffer too small: need ${length} bytes at offset ${offset}`);
  return out;
}

// ---- call header -------------------------------------------------------------

export function callEncodingLength(call: RpcCall): number {
  return 24 + authLength(call.cred) + authLength(call.verf);
}

export function encodeCall(call: RpcCall, buf?: Buffer, offset = 0): Buffer {
  checkAuth(call.cred);
  checkAuth(call.verf);
  const length = callEncodingLength(call);
  const out = target(length, buf, offset);
  let at = writeUint(out, offset, call.xid);
  at = writeUint(out, at, MSG_TYPE.CALL);
  at = writeUint(out, at, call.rpcvers);
  at = writeUint(out, at, call.program);
  at = writeUint(out, at, call.version);
  at = writeUint(out, at, call.procedure);
  at = writeAuth(out, at, call.cred);
  writeAuth(out, at, call.verf);
  encodeCall.bytes = length;
  return out;
}
encodeCall.bytes = 0;

/** Decodes a call header; throws XdrError when it is not a call or does not decode. */
export function decodeCall(buf: Buffer, offset = 0, end = buf.length): RpcCall {
  const reader = new XdrReader(buf, offset, end);
  const xid = reader.uint32('xid');
  const at = reader.offset;
  const type = reader.uint32('msg_type');
  if (type !== MSG_TYPE.CALL) throw new XdrError(`msg_type ${type} is not CALL`, at);
  const call: RpcCall = {
    xid,
    rpcvers: reader.uint32('rpcvers'),
    program: reader.uint32('prog'),
    version: reader.uint32('vers'),
    procedure: reader.uint32('proc'),
    cred: readAuth(reader, 'cred'),
    verf: readAuth(reader, 'verf'),
  };
  decodeCall.bytes = reader.offset - offset;
  return call;
}
decodeCall.bytes = 0;

export const rpcCallCodec = { encode: encodeCall, decode: decodeCall, encodingLength: callEncodingLength };

// ---- reply header ------------------------------------------------------------

export function replyEncodingLength(reply: RpcReply): number {
  switch (reply.kind) {
    case 'accepted':
      return 12 + authLength(reply.verf) + 4 + (reply.mismatch ? 8 : 0);
    case 'rpc_mismatch':
      return 24;
    case 'auth_error':
      return 20;
  }
}

export function encodeReply(reply: RpcReply, buf?: Buffer, offset = 0): Buffer {
  if (reply.kind === 'accepted') {
    checkAuth(reply.verf);
    if ((reply.acceptStat === ACCEPT_STAT.PROG_MISMATCH) !== (reply.mismatch !== null)) {
      throw new RangeError('an accepted reply carries mismatch_info exactly when its accept_stat is PROG_MISMATCH');
    }
  }
  const length = replyEncodingLength(reply);
  const out = target(length, buf, offset);
  let at = writeUint(out, offset, reply.xid);
  at = writeUint(out, at, MSG_TYPE.REPLY);
  switch (reply.kind) {
    case 'accepted':
      at = writeUint(out, at, REPLY_STAT.MSG_ACCEPTED);
      at = writeAuth(out, at, reply.verf);
      at = writeUint(out, at, reply.acceptStat);
      if (reply.mismatch) {
        at = writeUint(out, at, reply.mismatch.low);
        writeUint(out, at, reply.mismatch.high);
      }
      break;
    case 'rpc_mismatch':
      at = writeUint(out, at, REPLY_STAT.MSG_DENIED);
      at = writeUint(out, at, REJECT_STAT.RPC_MISMATCH);
      at = writeUint(out, at, reply.low);
      writeUint(out, at, reply.high);
      break;
    case 'auth_error':
      at = writeUint(out, at, REPLY_STAT.MSG_DENIED);
      at = writeUint(out, at, REJECT_STAT.AUTH_ERROR);
      writeUint(out, at, reply.authStat);
      break;
  }
  encodeReply.bytes = length;
  return out;
}
encodeReply.bytes = 0;

/** Decodes a reply header; a SUCCESS reply's results start at offset + decode.bytes. Throws XdrError. */
export function decodeReply(buf: Buffer, offset = 0, end = buf.length): RpcReply {
  const reader = new XdrReader(buf, offset, end);
  const xid = reader.uint32('xid');
  let at = reader.offset;
  const type = reader.uint32('msg_type');
  if (type !== MSG_TYPE.REPLY) throw new XdrError(`msg_type ${type} is not REPLY`, at);
  at = reader.offset;
  const stat = reader.uint32('reply_stat');
  let reply: RpcReply;
  if (stat === REPLY_STAT.MSG_ACCEPTED) {
    const verf = readAuth(reader, 'verf');
    const acceptStat = reader.enumOf<number>(ACCEPT_STATS, 'accept_stat');
    const mismatch = acceptStat === ACCEPT_STAT.PROG_MISMATCH ? { low: reader.uint32('low'), high: reader.uint32('high') } : null;
    reply = { xid, kind: 'accepted', verf, acceptStat, mismatch };
  } else if (stat === REPLY_STAT.MSG_DENIED) {
    at = reader.offset;
    const reject = reader.uint32('reject_stat');
    if (reject === REJECT_STAT.RPC_MISMATCH) reply = { xid, kind: 'rpc_mismatch', low: reader.uint32('low'), high: reader.uint32('high') };
    else if (reject === REJECT_STAT.AUTH_ERROR) reply = { xid, kind: 'auth_error', authStat: reader.uint32('auth_stat') };
    else throw new XdrError(`reject_stat ${reject} is not a known value`, at);
  } else {
    throw new XdrError(`reply_stat ${stat} is not a known value`, at);
  }
  decodeReply.bytes = reader.offset - offset;
  return reply;
}
decodeReply.bytes = 0;

export const rpcReplyCodec = { encode: encodeReply, decode: decodeReply, encodingLength: replyEncodingLength };

// ---- AUTH_SYS credentials (RFC 5531 appendix A) -------------------------------

export function authSysEncodingLength(sys: AuthSysCredentials): number {
  return 4 + 4 + paddedLength(Buffer.byteLength(sys.machineName, 'utf8')) + 8 + 4 + 4 * sys.gids.length;
}

export function encodeAuthSys(sys: AuthSysCredentials, buf?: Buffer, offset = 0): Buffer {
  const name = Buffer.from(sys.machineName, 'utf8');
  if (name.length > MAX_MACHINE_NAME) throw new RangeError(`machinename of ${name.length} bytes is over ${MAX_MACHINE_NAME}`);
  if (sys.gids.length > MAX_AUTH_SYS_GIDS) throw new RangeError(`${sys.gids.length} gids is over ${MAX_AUTH_SYS_GIDS}`);
  const length = authSysEncodingLength(sys);
  const out = target(length, buf, offset);
  let at = writeUint(out, offset, sys.stamp);
  at = writeUint(out, at, name.length);
  out.set(name, at);
  out.fill(0, at + name.length, at + paddedLength(name.length));
  at += paddedLength(name.length);
  at = writeUint(out, at, sys.uid);
  at = writeUint(out, at, sys.gid);
  at = writeUint(out, at, sys.gids.length);
  for (const gid of sys.gids) at = writeUint(out, at, gid);
  encodeAuthSys.bytes = length;
  return out;
}
encodeAuthSys.bytes = 0;

/** Decodes authsys_parms (the body of an AUTH_SYS credential); throws XdrError. */
export function decodeAuthSys(buf: Buffer, offset = 0, end = buf.length): AuthSysCredentials {
  const reader = new XdrReader(buf, offset, end);
  const sys: AuthSysCredentials = {
    stamp: reader.uint32('stamp'),
    machineName: reader.string(MAX_MACHINE_NAME, 'machinename'),
    uid: reader.uint32('uid'),
    gid: reader.uint32('gid'),
    gids: reader.array(MAX_AUTH_SYS_GIDS, (r) => r.uint32('gid'), 'gids'),
  };
  decodeAuthSys.bytes = reader.offset - offset;
  return sys;
}
decodeAuthSys.bytes = 0;

export const authSysCodec = { encode: encodeAuthSys, decode: decodeAuthSys, encodingLength: authSysEncodingLength };
