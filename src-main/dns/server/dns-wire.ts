/** DNS wire constants (RFC 1035 §4.1, RFC 6891 for EDNS). */

export const HEADER_LENGTH = 12;

/** Resource record types by number (RFC 1035 §3.2.2, RFC 3596, RFC 6891). */
export const QTYPE = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  OPT: 41,
  IXFR: 251,
  AXFR: 252,
  ANY: 255,
} as const;

export const QCLASS = { IN: 1, CH: 3, HS: 4, NONE: 254, ANY: 255 } as const;

export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  /** Extended RCODE (RFC 6891 §6.1.3): upper 8 bits go in the OPT record. */
  BADVERS: 16,
} as const;

export const RCODE_NAMES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  16: 'BADVERS',
};

/** Header bits of the third byte. */
export const FLAG_QR = 0x80;
export const FLAG_AA = 0x04;
export const FLAG_TC = 0x02;
export const FLAG_RD = 0x01;
/** Header bits of the fourth byte. */
export const FLAG_RA = 0x80;
export const FLAG_CD = 0x10;

/** Largest UDP answer without EDNS (RFC 1035 §4.2.1). */
export const CLASSIC_UDP_SIZE = 512;
/** The UDP payload size we advertise and honour at most (DNS Flag Day 2020: avoids IP fragmentation). */
export const ADVERTISED_UDP_SIZE = 1232;
/** A DNS message over TCP has a two-byte length prefix (RFC 1035 §4.2.2). */
export const MAX_TCP_MESSAGE = 65_535;

const TYPE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(QTYPE).map(([name, code]) => [code, name]));

/** "A", "AAAA", … or "TYPE123" (RFC 3597 §5) for types without a mnemonic here. */
export function typeName(code: number): string {
  return TYPE_NAMES[code] ?? `TYPE${code}`;
}

export function rcodeName(code: number): string {
  return RCODE_NAMES[code] ?? `RCODE${code}`;
}
