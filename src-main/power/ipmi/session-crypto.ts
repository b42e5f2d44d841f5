import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { IpmiDecodeError } from './codec.js';
import type { CipherSuite } from './cipher-suites.js';

/**
 * RAKP key exchange and RMCP+ packet protection (IPMI v2.0 §13.28–13.32).
 * Inputs are the bytes as they appear on the wire: session ids are 4 bytes
 * little-endian, randoms and the GUID 16 bytes.
 */

/** IPMI v2.0 user passwords are at most 20 bytes; the key Kuid is the password zero-padded to 20 (§13.31). */
export const PASSWORD_MAX_BYTES = 20;
export const USERNAME_MAX_BYTES = 16;

export interface RakpInputs {
  consoleSessionId: number;
  bmcSessionId: number;
  consoleRandom: Buffer;
  bmcRandom: Buffer;
  bmcGuid: Buffer;
  /** The role byte sent in RAKP 1 (privilege | name-only lookup bit). */
  role: number;
  username: Buffer;
}

/** The session keys after a successful RAKP exchange. */
export interface SessionKeys {
  sik: Buffer;
  /** Integrity key (K1). */
  k1: Buffer;
  /** AES-CBC-128 key: the first 16 bytes of K2. */
  aesKey: Buffer;
}

export function userKey(password: Buffer): Buffer {
  if (password.length > PASSWORD_MAX_BYTES) throw new Error(`IPMI passwords are at most ${PASSWORD_MAX_BYTES} bytes`);
  const key = Buffer.alloc(PASSWORD_MAX_BYTES);
  password.copy(key);
  return key;
}

function u32le(value: number): Buffer {
  const buf = Buffer.alloc(4);
  buf.writeUInt32LE(value >>> 0);
  return buf;
}

function hmac(suite: CipherSuite, key: Buffer, ...parts: Buffer[]): Buffer {
  const mac = createHmac(suite.digest, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function nameFields(inputs: RakpInputs): Buffer[] {
  return [Buffer.from([inputs.role, inputs.username.length]), inputs.username];
}

/** RAKP 2 Key Exchange Authentication Code: HMAC_Kuid(SIDm, SIDc, Rm, Rc, GUIDc, ROLEm, ULENGTHm, UNAMEm) (§13.21). */
export function rakp2AuthCode(suite: CipherSuite, kuid: Buffer, inputs: RakpInputs): Buffer {
  return hmac(
    suite,
    kuid,
    u32le(inputs.consoleSessionId),
    u32le(inputs.bmcSessionId),
    inputs.consoleRandom,
    inputs.bmcRandom,
    inputs.bmcGuid,
    ...nameFields(inputs),
  );
}

/** RAKP 3 Key Exchange Authentication Code: HMAC_Kuid(Rc, SIDm, ROLEm, ULENGTHm, UNAMEm) (§13.22). */
export function rakp3AuthCode(suite: CipherSuite, kuid: Buffer, inputs: RakpInputs): Buffer {
  return hmac(suite, kuid, inputs.bmcRandom, u32le(inputs.consoleSessionId), ...nameFields(inputs));
}

/** Session Integrity Key: HMAC_Kg(Rm, Rc, ROLEm, ULENGTHm, UNAMEm), Kg = Kuid unless a BMC key is set (§13.31). */
export function sessionIntegrityKey(suite: CipherSuite, kg: Buffer, inputs: RakpInputs): Buffer {
  return hmac(suite, kg, inputs.consoleRandom, inputs.bmcRandom, ...nameFields(inputs));
}

/** RAKP 4 Integrity Check Value: HMAC_SIK(Rm, SIDc, GUIDc), truncated (§13.23). */
export function rakp4IntegrityCheck(suite: CipherSuite, sik: Buffer, inputs: RakpInputs): Buffer {
  return hmac(suite, sik, inputs.consoleRandom, u32le(inputs.bmcSessionId), inputs.bmcGuid).subarray(0, suite.integrityLength);
}

/**
 * K1 = HMAC_SIK(const1), K2 = HMAC_SIK(const2) (§13.32). The constants are
 * 20 bytes of 01h and 02h for every suite: SHA-256 suites keep the 160-bit
 * constants of the original SHA-1 text (as ipmitool and FreeIPMI do, and
 * as BMCs expect; the cipher suite 17 test checks it against ipmitool).
 */
const KEY_CONSTANT_LENGTH = 20;

export function deriveSessionKeys(suite: CipherSuite, sik: Buffer): SessionKeys {
  const k1 = hmac(suite, sik, Buffer.alloc(KEY_CONSTANT_LENGTH, 0x01));
  const k2 = hmac(suite, sik, Buffer.alloc(KEY_CONSTANT_LENGTH, 0x02));
  return { sik, k1, aesKey: Buffer.from(k2.subarray(0, 16)) };
}

/** The packet AuthCode: HMAC_K1 over auth type … next header, truncated (§13.28.4). */
export function packetAuthCode(suite: CipherSuite, k1: Buffer, covered: Buffer): Buffer {
  return hmac(suite, k1, covered).subarray(0, suite.integrityLength);
}

/** Constant-time comparison of two codes (different lengths never match). */
export function codesMatch(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const AES_BLOCK = 16;

/**
 * AES-CBC-128 payload (§13.29): a random IV, then the data followed by pad
 * bytes 01h, 02h, … and the pad length, encrypted without further padding.
 */
export function encryptPayload(aesKey: Buffer, data: Buffer, iv: Buffer = randomBytes(AES_BLOCK)): Buffer {
  const pad = (AES_BLOCK - ((data.length + 1) % AES_BLOCK)) % AES_BLOCK;
  const plain = Buffer.alloc(data.length + pad + 1);
  data.copy(plain);
  for (let i = 0; i < pad; i += 1) plain[data.length + i] = i + 1;
  plain[plain.length - 1] = pad;
  const cipher = createCipheriv('aes-128-cbc', aesKey, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
}

/** Reverses encryptPayload; throws IpmiDecodeError on a malformed payload. */
export function decryptPayload(aesKey: Buffer, payload: Buffer): Buffer {
  if (payload.length < AES_BLOCK * 2 || payload.length % AES_BLOCK !== 0) {
    throw new IpmiDecodeError(`encrypted payload of ${payload.length} bytes is not an IV plus whole AES blocks`);
  }
  const decipher = createDecipheriv('aes-128-cbc', aesKey, payload.subarray(0, AES_BLOCK));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(payload.subarray(AES_BLOCK)), decipher.final()]);
  const pad = plain[plain.length - 1]!;
  if (pad >= AES_BLOCK || pad + 1 > plain.length) throw new IpmiDecodeError(`confidentiality pad length ${pad} is invalid`);
  // The pad bytes must read 01h, 02h, … (§13.29); anything else means a wrong key or a forged packet.
  for (let i = 0; i < pad; i += 1) {
    if (plain[plain.length - 1 - pad + i] !== i + 1) throw new IpmiDecodeError('confidentiality pad bytes are wrong');
  }
  return Buffer.from(plain.subarray(0, plain.length - 1 - pad));
}
