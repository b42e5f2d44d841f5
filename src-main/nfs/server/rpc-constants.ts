/*
 * ONC RPC (RFC 5531) and portmapper (RFC 1833) numbers, as data the codecs
 * and the server read. Names follow the RFCs' XDR definitions.
 */

/** RFC 5531 §9: the only RPC protocol version there is. */
export const RPC_VERSION = 2;

/** RFC 5531 §9 msg_type. */
export const MSG_TYPE = { CALL: 0, REPLY: 1 } as const;

/** RFC 5531 §9 reply_stat. */
export const REPLY_STAT = { MSG_ACCEPTED: 0, MSG_DENIED: 1 } as const;

/** RFC 5531 §9 accept_stat. */
export const ACCEPT_STAT = {
  SUCCESS: 0,
  PROG_UNAVAIL: 1,
  PROG_MISMATCH: 2,
  PROC_UNAVAIL: 3,
  GARBAGE_ARGS: 4,
  SYSTEM_ERR: 5,
} as const;

/** RFC 5531 §9 reject_stat. */
export const REJECT_STAT = { RPC_MISMATCH: 0, AUTH_ERROR: 1 } as const;

/** RFC 5531 §9 auth_stat. */
export const AUTH_STAT = {
  AUTH_OK: 0,
  AUTH_BADCRED: 1,
  AUTH_REJECTEDCRED: 2,
  AUTH_BADVERF: 3,
  AUTH_REJECTEDVERF: 4,
  AUTH_TOOWEAK: 5,
  AUTH_INVALIDRESP: 6,
  AUTH_FAILED: 7,
} as const;

/** RFC 5531 §8.2: the body of an opaque_auth is at most 400 bytes. */
export const MAX_AUTH_BYTES = 400;
/** RFC 5531 appendix A: authsys_parms.machinename is string<255>. */
export const MAX_MACHINE_NAME = 255;
/** RFC 5531 appendix A: authsys_parms.gids is unsigned int<16>. */
export const MAX_AUTH_SYS_GIDS = 16;

/** Program numbers (RFC 1833, RFC 1813 appendix I). */
export const PROGRAM = { PORTMAP: 100000, NFS: 100003, MOUNT: 100005 } as const;

/** RFC 1833 §3.2: portmapper version 2 procedures. */
export const PMAPPROC = { NULL: 0, SET: 1, UNSET: 2, GETPORT: 3, DUMP: 4, CALLIT: 5 } as const;
export const PMAP_VERSION = 2;
export const PMAP_PORT = 111;

/** RFC 1833 §3.1: the `prot` field of a mapping (IP protocol numbers). */
export const IPPROTO = { TCP: 6, UDP: 17 } as const;

/** ISSUE 15: the largest record a TCP peer may send (1 MiB of data plus headers). */
export const MAX_RECORD_BYTES = 1024 * 1024 + 4096;
/** The largest UDP payload over IPv4 (65,535 − 8 UDP − 20 IP); a reply over it is not sent. */
export const MAX_UDP_REPLY_BYTES = 65_507;
