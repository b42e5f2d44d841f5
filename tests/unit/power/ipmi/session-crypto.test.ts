import { describe, expect, it } from 'vitest';
import { IpmiDecodeError } from '../../../../src-main/power/ipmi/codec.js';
import { md5AuthCode } from '../../../../src-main/power/ipmi/lan15-session.js';
import { cipherSuite } from '../../../../src-main/power/ipmi/cipher-suites.js';
import { codesMatch, decryptPayload, deriveSessionKeys, encryptPayload, packetAuthCode, userKey } from '../../../../src-main/power/ipmi/session-crypto.js';

describe('RMCP+ confidentiality (AES-CBC-128, IPMI v2.0 §13.29)', () => {
  const key = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');

  it('pads with 01h, 02h, … and the pad length to whole blocks, and reverses it', () => {
    for (let length = 0; length <= 40; length += 1) {
      const data = Buffer.alloc(length, length);
      const sealed = encryptPayload(key, data);
      expect((sealed.length - 16) % 16).toBe(0);
      expect(decryptPayload(key, sealed).equals(data)).toBe(true);
    }
  });

  it('fails cleanly with the wrong key or a cut payload', () => {
    const sealed = encryptPayload(key, Buffer.from('get chassis status'));
    expect(() => decryptPayload(Buffer.alloc(16, 9), sealed)).toThrow(IpmiDecodeError);
    expect(() => decryptPayload(key, sealed.subarray(0, 20))).toThrow(/whole AES blocks/);
  });

  it('uses a fresh IV per packet', () => {
    const data = Buffer.from('same data');
    expect(encryptPayload(key, data).equals(encryptPayload(key, data))).toBe(false);
  });
});

describe('keys and codes', () => {
  it('pads the user key to 20 bytes and refuses longer passwords', () => {
    expect(userKey(Buffer.from('pw'))).toEqual(Buffer.concat([Buffer.from('pw'), Buffer.alloc(18)]));
    expect(() => userKey(Buffer.alloc(21, 1))).toThrow(/20 bytes/);
  });

  it('compares codes in constant time and never matches different lengths', () => {
    expect(codesMatch(Buffer.from([1, 2]), Buffer.from([1, 2]))).toBe(true);
    expect(codesMatch(Buffer.from([1, 2]), Buffer.from([1, 2, 3]))).toBe(false);
  });

  it('computes the IPMI v1.5 MD5 AuthCode over password, session id, message, sequence, password', () => {
    // MD5("pw" padded to 16 | 01 00 00 00 | "msg" | 02 00 00 00 | "pw" padded), computed independently with Python hashlib.
    expect(md5AuthCode(Buffer.from('pw'), 1, Buffer.from('msg'), 2).toString('hex')).toBe(EXPECTED_MD5);
  });
});

const EXPECTED_MD5 = '444619b58472bbbc943f334bed74fed5';

describe('cipher suite 17 key derivation, known answers from ipmitool 1.8.19 (-vvvv)', () => {
  // Values printed by ipmitool -I lanplus -C 17 -vvvv while logging in (tests/integration/power/ipmi-cipher17.test.ts).
  const sik = Buffer.from('127d181385b6967f823bc06335530b1791e650c704d76cc4660ffb166ca4e419', 'hex');

  it('derives K1 and K2 with 20-byte constants, as ipmitool does', () => {
    const suite = cipherSuite(17);
    const keys = deriveSessionKeys(suite, sik);
    expect(keys.k1.toString('hex')).toBe('09e3e1a606b3986d06d6abcb4f5cbde317a83eba5de110ee96d3b526c569424b');
    expect(keys.aesKey.toString('hex')).toBe('3dd151a6b9d7909c677ab810796c62fd');
    // ipmitool's "authcode input" and "authcode output" for its Set Session Privilege Level request.
    const covered = Buffer.from('06c092d897700300000020006eb23288518432b299f7320889d64c7e4bfc57d4145742dd4b11fb554d0854c4ffff0207', 'hex');
    expect(packetAuthCode(suite, keys.k1, covered).toString('hex')).toBe('513e87348cb165ddfd41b22a591e7fcd');
  });
});
