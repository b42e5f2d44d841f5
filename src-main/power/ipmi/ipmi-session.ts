import { BmcError } from '../bmc-error.js';
import { Command } from './commands.js';
import { describeCompletionCode } from './completion-codes.js';

/** What every IPMI LAN session (v2.0 RMCP+ or v1.5) offers once it is active. */
export interface IpmiSession {
  /** "IPMI v2.0, cipher suite 17" or "IPMI v1.5, MD5". */
  readonly description: string;
  /** The cipher suite of an RMCP+ session; null for v1.5. */
  readonly cipherSuite: number | null;
  /** Sends a command; resolves with the response data after a zero completion code. */
  request(netFn: number, cmd: number, data?: Buffer): Promise<Buffer>;
  /** Closes the session on the BMC (best effort) and the socket. */
  close(): Promise<void>;
}

/** How long to wait and how often to resend. */
export interface IpmiTiming {
  /** Budget of one request including its retries. */
  timeoutMs: number;
  retries: number;
}

export const DEFAULT_IPMI_TIMING: IpmiTiming = { timeoutMs: 6_000, retries: 2 };

export function exchangeOptions(timing: IpmiTiming): { attemptMs: number; retries: number } {
  return { attemptMs: Math.max(50, Math.floor(timing.timeoutMs / (timing.retries + 1))), retries: timing.retries };
}

/** Splits a response into completion code and data; a non-zero code becomes a BmcError. */
export function checkCompletion(data: Buffer, what: string, target: string): Buffer {
  const code = data[0];
  if (code === undefined) throw new BmcError('protocol', `${target}: ${what}: empty response`);
  if (code !== 0) throw new BmcError(code === 0xd4 ? 'auth_failed' : 'command_failed', `${target}: ${what}: ${describeCompletionCode(code)}`);
  return Buffer.from(data.subarray(1));
}

/** A random non-zero 32-bit id (session ids of zero mean "no session"). */
export function randomSessionId(bytes: Buffer): number {
  const id = bytes.readUInt32LE(0);
  return id === 0 ? 1 : id;
}

/** The per-message send of a session, with its own attempt timing. */
/**
 * Set Session Privilege Level (§22.18): a session starts at User level;
 * power control needs Operator. On failure the session is closed on the
 * BMC (it would otherwise hold a slot until its timeout) and the error
 * says that the user lacks the privilege.
 */
export async function raisePrivilege(session: IpmiSession, privilege: number): Promise<void> {
  try {
    await session.request(Command.SET_SESSION_PRIVILEGE_LEVEL.netFn, Command.SET_SESSION_PRIVILEGE_LEVEL.cmd, Buffer.from([privilege]));
  } catch (err) {
    await session.close().catch(() => undefined);
    if (err instanceof BmcError && err.reason === 'command_failed') {
      throw new BmcError('auth_failed', `the user may not have the requested privilege: ${err.message}`, { cause: err });
    }
    throw err;
  }
}
