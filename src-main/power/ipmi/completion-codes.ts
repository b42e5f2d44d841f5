/** IPMI completion codes (IPMI v2.0 §5.2, Table 5-2): the first byte of every response. */
export const COMPLETION_CODES: Readonly<Record<number, string>> = {
  0x00: 'command completed normally',
  0xc0: 'node busy',
  0xc1: 'invalid command (not supported by this BMC)',
  0xc2: 'command invalid for the given LUN',
  0xc3: 'timeout while processing the command',
  0xc4: 'out of space',
  0xc5: 'reservation canceled or invalid reservation id',
  0xc6: 'request data truncated',
  0xc7: 'request data length invalid',
  0xc8: 'request data field length limit exceeded',
  0xc9: 'parameter out of range',
  0xca: 'cannot return the number of requested data bytes',
  0xcb: 'requested sensor, data or record not present',
  0xcc: 'invalid data field in request',
  0xcd: 'command illegal for the specified sensor or record type',
  0xce: 'command response could not be provided',
  0xcf: 'cannot execute duplicated request',
  0xd0: 'SDR repository in update mode',
  0xd1: 'device in firmware update mode',
  0xd2: 'BMC initialization in progress',
  0xd3: 'destination unavailable',
  0xd4: 'insufficient privilege level for this command',
  0xd5: 'command not supported in the present state',
  0xd6: 'command sub-function disabled or unavailable',
  0xff: 'unspecified error',
};

/** RMCP+ and RAKP message status codes (IPMI v2.0 §13.24, Table 13-15). */
export const RMCP_PLUS_STATUS_CODES: Readonly<Record<number, string>> = {
  0x00: 'no errors',
  0x01: 'insufficient resources to create a session',
  0x02: 'invalid session id',
  0x03: 'invalid payload type',
  0x04: 'invalid authentication algorithm',
  0x05: 'invalid integrity algorithm',
  0x06: 'no matching authentication payload',
  0x07: 'no matching integrity payload',
  0x08: 'inactive session id',
  0x09: 'invalid role',
  0x0a: 'unauthorized role or privilege level requested',
  0x0b: 'insufficient resources to create a session at the requested role',
  0x0c: 'invalid name length',
  0x0d: 'unauthorized name',
  0x0e: 'unauthorized GUID',
  0x0f: 'invalid integrity check value',
  0x10: 'invalid confidentiality algorithm',
  0x11: 'no cipher suite match with proposed security algorithms',
  0x12: 'illegal or unrecognized parameter',
};

/** Statuses that mean "this BMC does not do the proposed cipher suite". */
export const UNSUPPORTED_CIPHER_STATUSES: ReadonlySet<number> = new Set([0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11]);
/** Statuses that mean "these credentials are refused". */
export const AUTH_REFUSED_STATUSES: ReadonlySet<number> = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x0f]);

function hex(code: number): string {
  return `0x${code.toString(16).padStart(2, '0')}`;
}

export function describeCompletionCode(code: number): string {
  const text = COMPLETION_CODES[code] ?? (code >= 0x01 && code <= 0x7e ? 'device-specific (OEM) completion code' : 'unknown completion code');
  return `${text} (${hex(code)})`;
}

export function describeRmcpPlusStatus(code: number): string {
  return `${RMCP_PLUS_STATUS_CODES[code] ?? 'unknown RMCP+ status'} (${hex(code)})`;
}
