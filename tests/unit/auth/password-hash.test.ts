import { describe, expect, it } from 'vitest';
import { hashPassword, spendDummyVerification, verifyPassword } from '../../../src-main/auth/password-hash.js';

describe('password hashing (scrypt)', () => {
  it('encodes the algorithm, its parameters, salt and hash', async () => {
    const encoded = await hashPassword('s3cret-password');
    const parts = encoded.split('$');
    expect(parts).toHaveLength(6);
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(parts[4]!, 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64')).toHaveLength(64);
    expect(encoded).not.toContain('s3cret-password');
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const encoded = await hashPassword('s3cret-password');
    expect(await verifyPassword('s3cret-password', encoded)).toBe(true);
    expect(await verifyPassword('s3cret-passworD', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password', a)).toBe(true);
    expect(await verifyPassword('same password', b)).toBe(true);
  });

  it('verifies with the parameters stored in the hash', async () => {
    const cheap = await hashPassword('another password', { N: 1024, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('another password', cheap)).toBe(true);
    expect(await verifyPassword('wrong password', cheap)).toBe(false);
  });

  it('treats Unicode-equivalent spellings as the same password (NFC)', async () => {
    const encoded = await hashPassword('caf\u00e9-password');
    expect(await verifyPassword('cafe\u0301-password', encoded)).toBe(true);
  });

  it('never matches a malformed or tampered hash', async () => {
    const encoded = await hashPassword('password-one');
    const tampered = encoded.slice(0, -4) + (encoded.endsWith('AAA=') ? 'BBB=' : 'AAA=');
    for (const bad of ['', 'plain', 'bcrypt$1$2$3$4$5', 'scrypt$x$8$1$c2FsdA==$aGFzaA==', 'scrypt$1073741824$8$1$c2FsdA==$aGFzaA==', tampered]) {
      expect(await verifyPassword('password-one', bad)).toBe(false);
    }
  });

  it('spends a verification for unknown users without failing', async () => {
    await expect(spendDummyVerification('whatever-password')).resolves.toBeUndefined();
  });
});
