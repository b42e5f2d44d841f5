import { ByteReader, checkLength, checkRange, defineCodec, IpmiDecodeError } from './codec.js';

/**
 * RMCP+ session establishment messages (IPMI v2.0 §13.17–13.23): Open
 * Session Request/Response and RAKP Messages 1–4. Session ids are 32-bit
 * little-endian; randoms and the GUID are 16 bytes.
 */

export interface AlgorithmProposal {
  authentication: number;
  integrity: number;
  confidentiality: number;
}

export interface OpenSessionRequest {
  tag: number;
  /** Requested maximum privilege (0 = highest the proposed algorithms allow). */
  privilege: number;
  consoleSessionId: number;
  algorithms: AlgorithmProposal;
}

export interface OpenSessionResponse {
  tag: number;
  /** RMCP+ status code (Table 13-15). */
  status: number;
  /** Absent only in a short error response (some BMCs send just tag and status). */
  privilege?: number;
  consoleSessionId?: number;
  /** Present when status is 0. */
  bmcSessionId?: number;
  algorithms?: AlgorithmProposal;
}

export interface Rakp1 {
  tag: number;
  bmcSessionId: number;
  consoleRandom: Buffer;
  /** Requested role: privilege in bits 3:0, bit 4 set for name-only lookup (§13.31). */
  role: number;
  username: Buffer;
}

export interface Rakp2 {
  tag: number;
  status: number;
  /** Absent only in a short error response. */
  consoleSessionId?: number;
  /** Present when status is 0. */
  bmcRandom?: Buffer;
  bmcGuid?: Buffer;
  /** Key Exchange Authentication Code; empty for RAKP-none. */
  authCode?: Buffer;
}

export interface Rakp3 {
  tag: number;
  status: number;
  bmcSessionId: number;
  authCode: Buffer;
}

export interface Rakp4 {
  tag: number;
  status: number;
  /** Absent only in a short error response. */
  consoleSessionId?: number;
  /** Integrity Check Value; empty for RAKP-none or on error. */
  integrityCheck: Buffer;
}

/** Payload record types inside Open Session messages (Table 13-17). */
const RECORD_AUTH = 0x00;
const RECORD_INTEGRITY = 0x01;
const RECORD_CONFIDENTIALITY = 0x02;
const RECORD_LENGTH = 8;
const USERNAME_MAX = 16;
const RANDOM_LENGTH = 16;
const GUID_LENGTH = 16;
const MAX_AUTH_CODE = 64;

function writeRecord(buf: Buffer, at: number, type: number, algorithm: number): void {
  buf.fill(0, at, at + RECORD_LENGTH);
  buf[at] = type;
  buf[at + 3] = RECORD_LENGTH;
  buf[at + 4] = checkRange(algorithm, 0, 0x3f, 'algorithm');
}

function readRecord(reader: ByteReader, type: number, what: string): number {
  const recordType = reader.u8(`${what} payload type`);
  if (recordType !== type) throw new IpmiDecodeError(`${what} payload has type ${recordType}, expected ${type}`);
  reader.skip(2, `${what} reserved`);
  const length = reader.u8(`${what} payload length`);
  if (length !== RECORD_LENGTH) throw new IpmiDecodeError(`${what} payload length ${length}, expected 8`);
  const algorithm = reader.u8(`${what} algorithm`) & 0x3f;
  reader.skip(3, `${what} reserved`);
  return algorithm;
}

function writeAlgorithms(buf: Buffer, at: number, algorithms: AlgorithmProposal): void {
  writeRecord(buf, at, RECORD_AUTH, algorithms.authentication);
  writeRecord(buf, at + 8, RECORD_INTEGRITY, algorithms.integrity);
  writeRecord(buf, at + 16, RECORD_CONFIDENTIALITY, algorithms.confidentiality);
}

function readAlgorithms(reader: ByteReader): AlgorithmProposal {
  return {
    authentication: readRecord(reader, RECORD_AUTH, 'authentication'),
    integrity: readRecord(reader, RECORD_INTEGRITY, 'integrity'),
    confidentiality: readRecord(reader, RECORD_CONFIDENTIALITY, 'confidentiality'),
  };
}

export const openSessionRequest = defineCodec<OpenSessionRequest>({
  encodingLength: () => 32,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf[offset + 1] = checkRange(value.privilege, 0, 0x0f, 'privilege');
    buf.writeUInt16LE(0, offset + 2);
    buf.writeUInt32LE(checkRange(value.consoleSessionId, 0, 0xffffffff, 'console session id'), offset + 4);
    writeAlgorithms(buf, offset + 8, value.algorithms);
    return 32;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    const privilege = reader.u8('privilege') & 0x0f;
    reader.skip(2, 'reserved');
    const consoleSessionId = reader.u32le('console session id');
    return { tag, privilege, consoleSessionId, algorithms: readAlgorithms(reader) };
  },
});

export const openSessionResponse = defineCodec<OpenSessionResponse>({
  encodingLength: (value) => (value.consoleSessionId === undefined ? 2 : value.bmcSessionId === undefined ? 8 : 36),
  write(value, buf, offset) {
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf[offset + 1] = checkRange(value.status, 0, 0xff, 'status');
    if (value.consoleSessionId === undefined) return 2;
    buf[offset + 2] = checkRange(value.privilege ?? 0, 0, 0x0f, 'privilege');
    buf[offset + 3] = 0;
    buf.writeUInt32LE(checkRange(value.consoleSessionId, 0, 0xffffffff, 'console session id'), offset + 4);
    if (value.bmcSessionId === undefined) return 8;
    buf.writeUInt32LE(checkRange(value.bmcSessionId, 0, 0xffffffff, 'BMC session id'), offset + 8);
    writeAlgorithms(buf, offset + 12, value.algorithms ?? { authentication: 0, integrity: 0, confidentiality: 0 });
    return 36;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    const status = reader.u8('status');
    // An error response may stop after the status (OpenIPMI) or after the console session id (§13.18).
    if (status !== 0 && reader.remaining < 6) {
      reader.skip(reader.remaining, 'trailing bytes');
      return { tag, status };
    }
    const privilege = reader.u8('privilege') & 0x0f;
    reader.skip(1, 'reserved');
    const consoleSessionId = reader.u32le('console session id');
    if (status !== 0 && reader.remaining < 28) {
      reader.skip(reader.remaining, 'trailing bytes');
      return { tag, status, privilege, consoleSessionId };
    }
    const bmcSessionId = reader.u32le('BMC session id');
    return { tag, status, privilege, consoleSessionId, bmcSessionId, algorithms: readAlgorithms(reader) };
  },
});

export const rakp1 = defineCodec<Rakp1>({
  encodingLength: (value) => 28 + value.username.length,
  write(value, buf, offset) {
    checkRange(value.username.length, 0, USERNAME_MAX, 'username length');
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf.fill(0, offset + 1, offset + 4);
    buf.writeUInt32LE(checkRange(value.bmcSessionId, 0, 0xffffffff, 'BMC session id'), offset + 4);
    checkLength(value.consoleRandom, RANDOM_LENGTH, 'console random').copy(buf, offset + 8);
    buf[offset + 24] = checkRange(value.role, 0, 0xff, 'role');
    buf.writeUInt16LE(0, offset + 25);
    buf[offset + 27] = value.username.length;
    value.username.copy(buf, offset + 28);
    return 28 + value.username.length;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    reader.skip(3, 'reserved');
    const bmcSessionId = reader.u32le('BMC session id');
    const consoleRandom = reader.bytes(RANDOM_LENGTH, 'console random');
    const role = reader.u8('role');
    reader.skip(2, 'reserved');
    const length = reader.u8('username length');
    if (length > USERNAME_MAX) throw new IpmiDecodeError(`username length ${length} exceeds 16`);
    return { tag, bmcSessionId, consoleRandom, role, username: reader.bytes(length, 'username') };
  },
});

export const rakp2 = defineCodec<Rakp2>({
  encodingLength: (value) => (value.consoleSessionId === undefined ? 2 : value.bmcRandom ? 40 + (value.authCode?.length ?? 0) : 8),
  write(value, buf, offset) {
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf[offset + 1] = checkRange(value.status, 0, 0xff, 'status');
    if (value.consoleSessionId === undefined) return 2;
    buf.writeUInt16LE(0, offset + 2);
    buf.writeUInt32LE(checkRange(value.consoleSessionId, 0, 0xffffffff, 'console session id'), offset + 4);
    if (!value.bmcRandom) return 8;
    checkLength(value.bmcRandom, RANDOM_LENGTH, 'BMC random').copy(buf, offset + 8);
    checkLength(value.bmcGuid ?? Buffer.alloc(0), GUID_LENGTH, 'BMC GUID').copy(buf, offset + 24);
    const authCode = value.authCode ?? Buffer.alloc(0);
    checkRange(authCode.length, 0, MAX_AUTH_CODE, 'auth code length');
    authCode.copy(buf, offset + 40);
    return 40 + authCode.length;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    const status = reader.u8('status');
    if (status !== 0 && reader.remaining < 6) {
      reader.skip(reader.remaining, 'trailing bytes');
      return { tag, status };
    }
    reader.skip(2, 'reserved');
    const consoleSessionId = reader.u32le('console session id');
    if (status !== 0 && reader.remaining < 32) {
      reader.skip(reader.remaining, 'trailing bytes');
      return { tag, status, consoleSessionId };
    }
    const bmcRandom = reader.bytes(RANDOM_LENGTH, 'BMC random');
    const bmcGuid = reader.bytes(GUID_LENGTH, 'BMC GUID');
    if (reader.remaining > MAX_AUTH_CODE) throw new IpmiDecodeError(`RAKP 2 auth code of ${reader.remaining} bytes`);
    return { tag, status, consoleSessionId, bmcRandom, bmcGuid, authCode: reader.rest() };
  },
});

export const rakp3 = defineCodec<Rakp3>({
  encodingLength: (value) => 8 + value.authCode.length,
  write(value, buf, offset) {
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf[offset + 1] = checkRange(value.status, 0, 0xff, 'status');
    buf.writeUInt16LE(0, offset + 2);
    buf.writeUInt32LE(checkRange(value.bmcSessionId, 0, 0xffffffff, 'BMC session id'), offset + 4);
    checkRange(value.authCode.length, 0, MAX_AUTH_CODE, 'auth code length');
    value.authCode.copy(buf, offset + 8);
    return 8 + value.authCode.length;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    const status = reader.u8('status');
    reader.skip(2, 'reserved');
    const bmcSessionId = reader.u32le('BMC session id');
    if (reader.remaining > MAX_AUTH_CODE) throw new IpmiDecodeError(`RAKP 3 auth code of ${reader.remaining} bytes`);
    return { tag, status, bmcSessionId, authCode: reader.rest() };
  },
});

export const rakp4 = defineCodec<Rakp4>({
  encodingLength: (value) => (value.consoleSessionId === undefined ? 2 : 8 + value.integrityCheck.length),
  write(value, buf, offset) {
    buf[offset] = checkRange(value.tag, 0, 0xff, 'message tag');
    buf[offset + 1] = checkRange(value.status, 0, 0xff, 'status');
    if (value.consoleSessionId === undefined) return 2;
    buf.writeUInt16LE(0, offset + 2);
    buf.writeUInt32LE(checkRange(value.consoleSessionId, 0, 0xffffffff, 'console session id'), offset + 4);
    checkRange(value.integrityCheck.length, 0, MAX_AUTH_CODE, 'integrity check length');
    value.integrityCheck.copy(buf, offset + 8);
    return 8 + value.integrityCheck.length;
  },
  read(reader) {
    const tag = reader.u8('message tag');
    const status = reader.u8('status');
    if (status !== 0 && reader.remaining < 6) {
      reader.skip(reader.remaining, 'trailing bytes');
      return { tag, status, integrityCheck: Buffer.alloc(0) };
    }
    reader.skip(2, 'reserved');
    const consoleSessionId = reader.u32le('console session id');
    if (reader.remaining > MAX_AUTH_CODE) throw new IpmiDecodeError(`RAKP 4 integrity check of ${reader.remaining} bytes`);
    return { tag, status, consoleSessionId, integrityCheck: reader.rest() };
  },
});
