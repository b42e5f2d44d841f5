import { MAX_BLKSIZE } from '../tftp-contract.js';

/*
 * The blksize, windowsize and timeout limits the settings share live in the
 * API contract (one copy; the settings' ranges are built from them).
 */
export { MAX_BLKSIZE, MAX_TIMEOUT_S, MAX_WINDOWSIZE, MIN_TIMEOUT_S } from '../tftp-contract.js';

/**
 * TFTP protocol constants (RFC 1350 with the option extensions of RFC 2347,
 * 2348, 2349 and 7440), kept as data the codec and the server read.
 */

/** Opcodes (RFC 1350 §5, OACK from RFC 2347). */
export const TFTP_OPCODES = { rrq: 1, wrq: 2, data: 3, ack: 4, error: 5, oack: 6 } as const;
export type TftpOpName = keyof typeof TFTP_OPCODES;

/** Error codes (RFC 1350 appendix; 8 from RFC 2347) with the default messages. */
export const TFTP_ERRORS = {
  0: { name: 'not_defined', message: 'not defined' },
  1: { name: 'file_not_found', message: 'file not found' },
  2: { name: 'access_violation', message: 'access violation' },
  3: { name: 'disk_full', message: 'disk full or allocation exceeded' },
  4: { name: 'illegal_operation', message: 'illegal TFTP operation' },
  5: { name: 'unknown_tid', message: 'unknown transfer ID' },
  6: { name: 'file_exists', message: 'file already exists' },
  7: { name: 'no_such_user', message: 'no such user' },
  8: { name: 'option_refused', message: 'option negotiation failed' },
} as const;
export type TftpErrorCode = keyof typeof TFTP_ERRORS;

export const TFTP_ERROR = {
  NOT_DEFINED: 0,
  FILE_NOT_FOUND: 1,
  ACCESS_VIOLATION: 2,
  ILLEGAL_OPERATION: 4,
  UNKNOWN_TID: 5,
  OPTION_REFUSED: 8,
} as const satisfies Record<string, TftpErrorCode>;

/** RFC 1350: the block size without the blksize option. */
export const DEFAULT_BLKSIZE = 512;
/** RFC 2348's lower bound of blksize, RFC 7440's of windowsize (the upper limits are above, from the contract). */
export const MIN_BLKSIZE = 8;
export const MIN_WINDOWSIZE = 1;

/** Transfer modes of RFC 1350 (mail is obsolete and refused). */
export const TFTP_MODES = ['netascii', 'octet'] as const;
export type TftpMode = (typeof TFTP_MODES)[number];

/** Largest datagram a TFTP peer can send: a DATA packet at the largest blksize. */
export const MAX_PACKET_SIZE = MAX_BLKSIZE + 4;
/** Most option pairs a request may carry; the RFCs define five, clients send at most a handful. */
export const MAX_OPTIONS = 32;
