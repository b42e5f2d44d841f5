import type { XdrReader, XdrWriter } from './xdr.js';

/*
 * The seam between the ONC RPC transport (RFC 5531: record marking, call and
 * reply headers, authentication, program/version dispatch; rpc-server.ts)
 * and the programs it serves (portmapper, MOUNT v3, NFS v3). A program sees
 * a decoded call and answers with its results or a refusal the transport
 * turns into the matching reply; it never touches a socket.
 */

/** RFC 5531 §8.2 / §14: the authentication flavors we take. */
export const AUTH_NONE = 0;
export const AUTH_SYS = 1;

/** AUTH_SYS credentials (RFC 5531 appendix A). Read for logs; reads are served whatever they say. */
export interface AuthSysCredentials {
  stamp: number;
  machineName: string;
  uid: number;
  gid: number;
  gids: number[];
}

export interface RpcCredentials {
  flavor: number;
  /** Parsed when the flavor is AUTH_SYS; null otherwise. */
  sys: AuthSysCredentials | null;
}

export interface RpcPeer {
  /** The peer's address as Node reports it (IPv4-mapped IPv6 addresses already unmapped to dotted IPv4). */
  address: string;
  port: number;
}

export interface RpcCallContext {
  transport: 'tcp' | 'udp';
  remote: RpcPeer;
  /** The local address and port the call arrived on. */
  local: RpcPeer;
  credentials: RpcCredentials;
  /** The call's transaction id (logs). */
  xid: number;
  /** Whether the transport can send a reply's FileTail (TCP with the sendfile addon); a program answers with bytes otherwise. */
  sendsFiles: boolean;
}

/**
 * The last bytes of a reply as stretches of open files (a READ's data), sent
 * by the kernel (sendfile) after the results, then `pad` zero bytes (XDR
 * padding). The results must end where these bytes belong (an opaque's
 * length word). `release` is called once, when the bytes went out or could
 * not: the descriptors may close then.
 */
export interface FileTail {
  pieces: ReadonlyArray<{ fd: number; offset: number; length: number }>;
  /** Bytes of all pieces. */
  length: number;
  pad: number;
  release(): void;
}

/**
 * What a program answers. `success` carries the procedure's results (which
 * may themselves be a protocol-level error such as NFS3ERR_ROFS); the other
 * outcomes are RPC-level refusals (RFC 5531 §9, accept_stat / auth_stat).
 */
export type RpcOutcome =
  | { status: 'success'; results: XdrWriter; tail?: FileTail }
  /** The procedure number is not one this version has (PROC_UNAVAIL). */
  | { status: 'proc_unavail' }
  /** The arguments did not decode (GARBAGE_ARGS); a program throwing XdrError means the same. */
  | { status: 'garbage_args' }
  /** The server failed doing it (SYSTEM_ERR); logged by the transport. */
  | { status: 'system_err'; error: string }
  /** Refused for its credentials (MSG_DENIED / AUTH_ERROR with this auth_stat, e.g. AUTH_TOOWEAK = 5). */
  | { status: 'auth_error'; authStat: number };

export interface RpcProgram {
  /** RFC 5531 program number: 100000 portmapper, 100005 MOUNT, 100003 NFS. */
  readonly program: number;
  /** For logs and metrics: 'portmap', 'mount', 'nfs'. */
  readonly name: string;
  /** The versions served, e.g. [3]; a call for another gets PROG_MISMATCH with their lowest and highest. */
  readonly versions: readonly number[];
  /**
   * Runs one call. `args` is positioned at the procedure's arguments. Throwing
   * an XdrError answers GARBAGE_ARGS; throwing anything else answers SYSTEM_ERR.
   */
  call(version: number, procedure: number, args: XdrReader, context: RpcCallContext): RpcOutcome | Promise<RpcOutcome>;
}

export type { RpcCallObserver, RpcCallRecord } from '../export-table.js';
