import type { Logger } from '../../core/logger.js';
import { ACCEPT_STAT, AUTH_STAT, MSG_TYPE, RPC_VERSION } from './rpc-constants.js';
import { AUTH_NONE_VERF, decodeAuthSys, decodeCall, encodeReply, type RpcCall, type RpcReply } from './rpc-message.js';
import { AUTH_NONE, AUTH_SYS, type FileTail, type RpcCallContext, type RpcCredentials, type RpcOutcome, type RpcPeer, type RpcProgram } from './rpc-program.js';
import { XdrError, XdrReader } from './xdr.js';

/*
 * One RPC call from received bytes to reply chunks (RFC 5531 §9), the same
 * for TCP records and UDP datagrams: the header, the credentials, the
 * program and version lookup, the program's call, and the refusal replies.
 */

/** The fields before the credential: xid, msg_type, rpcvers, prog, vers, proc. */
const FIXED_HEADER_BYTES = 24;

export interface DispatchResult {
  /** The reply as chunks (header first), or null when nothing is answered (not a call, too short to have an xid to answer). */
  reply: Buffer[] | null;
  /** Bytes the transport sends from files after `reply` (TCP with sendfile only); the record covers both. */
  tail: FileTail | null;
  /** The whole reply's bytes, the tail's included. */
  replyBytes: number;
  program: string;
  version: number;
  procedure: number;
  outcome: string;
}

export interface DispatchSource {
  transport: 'tcp' | 'udp';
  remote: RpcPeer;
  local: RpcPeer;
  /** The transport sends a FileTail (RpcCallContext.sendsFiles); false when left out. */
  sendsFiles?: boolean;
}

function header(reply: RpcReply): Buffer {
  return encodeReply(reply);
}

function accepted(xid: number, acceptStat: number, mismatch: { low: number; high: number } | null = null): Buffer {
  return header({ xid, kind: 'accepted', verf: AUTH_NONE_VERF, acceptStat, mismatch });
}

function credentialsOf(call: RpcCall): RpcCredentials | 'badcred' | 'tooweak' {
  if (call.cred.flavor === AUTH_NONE) return { flavor: AUTH_NONE, sys: null };
  if (call.cred.flavor !== AUTH_SYS) return 'tooweak';
  try {
    const sys = decodeAuthSys(call.cred.body);
    // The body must be exactly the parameters: trailing bytes mean a credential we misread.
    if (decodeAuthSys.bytes !== call.cred.body.length) return 'badcred';
    return { flavor: AUTH_SYS, sys };
  } catch (error) {
    if (error instanceof XdrError) return 'badcred';
    throw error;
  }
}

export class RpcDispatcher {
  private readonly byNumber: Map<number, RpcProgram>;

  constructor(
    programs: readonly RpcProgram[],
    private readonly logger: Logger,
  ) {
    this.byNumber = new Map(programs.map((program) => [program.program, program]));
  }

  async dispatch(message: Buffer, source: DispatchSource): Promise<DispatchResult> {
    const result: DispatchResult = { reply: null, tail: null, replyBytes: 0, program: 'unknown', version: 0, procedure: 0, outcome: 'dropped' };
    // Too short to hold a call header, or not a call at all (a REPLY sent to a server): nothing sensible to answer.
    if (message.length < FIXED_HEADER_BYTES || message.readUInt32BE(4) !== MSG_TYPE.CALL) return result;
    const xid = message.readUInt32BE(0);
    const rpcvers = message.readUInt32BE(8);
    result.version = message.readUInt32BE(16);
    result.procedure = message.readUInt32BE(20);
    const known = this.byNumber.get(message.readUInt32BE(12));
    if (known) result.program = known.name;
    const finish = (chunks: Buffer[], outcome: string): DispatchResult => {
      result.reply = chunks;
      result.outcome = outcome;
      for (const chunk of chunks) result.replyBytes += chunk.length;
      return result;
    };
    if (rpcvers !== RPC_VERSION) return finish([header({ xid, kind: 'rpc_mismatch', low: RPC_VERSION, high: RPC_VERSION })], 'rpc_mismatch');

    let call: RpcCall;
    try {
      call = decodeCall(message);
    } catch (error) {
      if (!(error instanceof XdrError)) throw error;
      // RFC 5531 §9: a credential or verifier that does not decode is AUTH_BADCRED.
      return finish([header({ xid, kind: 'auth_error', authStat: AUTH_STAT.AUTH_BADCRED })], 'auth_badcred');
    }
    const credentials = credentialsOf(call);
    if (credentials === 'tooweak') return finish([header({ xid, kind: 'auth_error', authStat: AUTH_STAT.AUTH_TOOWEAK })], 'auth_tooweak');
    if (credentials === 'badcred') return finish([header({ xid, kind: 'auth_error', authStat: AUTH_STAT.AUTH_BADCRED })], 'auth_badcred');

    const program = known;
    if (!program) return finish([accepted(xid, ACCEPT_STAT.PROG_UNAVAIL)], 'prog_unavail');
    if (!program.versions.includes(call.version)) {
      const low = Math.min(...program.versions);
      const high = Math.max(...program.versions);
      return finish([accepted(xid, ACCEPT_STAT.PROG_MISMATCH, { low, high })], 'prog_mismatch');
    }

    const context: RpcCallContext = { transport: source.transport, remote: source.remote, local: source.local, credentials, xid, sendsFiles: source.sendsFiles === true };
    if (credentials.sys) this.logger.debug('rpc call with AUTH_SYS', { xid, program: program.name, procedure: call.procedure, machine: credentials.sys.machineName, uid: credentials.sys.uid });
    let outcome: RpcOutcome;
    try {
      outcome = await program.call(call.version, call.procedure, new XdrReader(message, decodeCall.bytes), context);
    } catch (error) {
      if (error instanceof XdrError) outcome = { status: 'garbage_args' };
      else outcome = { status: 'system_err', error: error instanceof Error ? error.message : String(error) };
    }
    switch (outcome.status) {
      case 'success': {
        const done = finish([accepted(xid, ACCEPT_STAT.SUCCESS), ...outcome.results.toBuffers()], 'success');
        if (outcome.tail) {
          // Only a transport that said it sends files gets one; a program that answers one anyway is a bug, not a reply.
          if (!context.sendsFiles) {
            outcome.tail.release();
            throw new Error(`${program.name} procedure ${call.procedure} answered file bytes to a transport that cannot send them`);
          }
          done.tail = outcome.tail;
          done.replyBytes += outcome.tail.length + outcome.tail.pad;
        }
        return done;
      }
      case 'proc_unavail':
        return finish([accepted(xid, ACCEPT_STAT.PROC_UNAVAIL)], 'proc_unavail');
      case 'garbage_args':
        return finish([accepted(xid, ACCEPT_STAT.GARBAGE_ARGS)], 'garbage_args');
      case 'system_err':
        this.logger.warn('rpc call failed', { xid, program: program.name, version: call.version, procedure: call.procedure, remote: source.remote.address, error: outcome.error });
        return finish([accepted(xid, ACCEPT_STAT.SYSTEM_ERR)], 'system_err');
      case 'auth_error':
        return finish([header({ xid, kind: 'auth_error', authStat: outcome.authStat })], `auth_error_${outcome.authStat}`);
    }
  }

  /** A SYSTEM_ERR reply to `message` (a UDP reply that would not fit a datagram). */
  static systemError(message: Buffer): Buffer {
    return accepted(message.readUInt32BE(0), ACCEPT_STAT.SYSTEM_ERR);
  }
}
