import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSignature, parseEd25519PublicKey, verifyEd25519 } from '../../../src-main/community-store/feed-signature.js';
import { feedUrlProblem, isLoopbackHost } from '../../../src-main/community-store/feed-http.js';
import { signatureUrl } from '../../../src-main/community-store/feed-client.js';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const raw = publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');

describe('feed signatures', () => {
  const data = Buffer.from('{"schema_version":1,"items":[]}');
  const signature = sign(null, data, privateKey);

  it('verifies a good signature with a PEM or a raw base64 key, raw or base64 signature bytes', () => {
    expect(verifyEd25519(data, signature, parseEd25519PublicKey(pem))).toBe(true);
    expect(verifyEd25519(data, signature, parseEd25519PublicKey(raw))).toBe(true);
    expect(decodeSignature(signature)).toEqual(signature);
    expect(decodeSignature(Buffer.from(`${signature.toString('base64')}\n`))).toEqual(signature);
  });

  it('refuses a changed index, a changed signature and another key', () => {
    expect(verifyEd25519(Buffer.from(`${data.toString()} `), signature, parseEd25519PublicKey(pem))).toBe(false);
    const bad = Buffer.from(signature);
    bad[0] = (bad[0] ?? 0) ^ 1;
    expect(verifyEd25519(data, bad, parseEd25519PublicKey(pem))).toBe(false);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(verifyEd25519(data, signature, parseEd25519PublicKey(other))).toBe(false);
    expect(decodeSignature(Buffer.from('not a signature'))).toBeNull();
  });

  it('refuses keys that are not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => parseEd25519PublicKey(rsa)).toThrow(/not Ed25519/);
    expect(() => parseEd25519PublicKey('AAAA')).toThrow(/raw 32-byte/);
  });
});

describe('feed URLs', () => {
  it('allows https anywhere and http only to loopback', () => {
    expect(feedUrlProblem('https://store.example.org/index.json')).toBeNull();
    expect(feedUrlProblem('http://127.0.0.1:8080/index.json')).toBeNull();
    expect(feedUrlProblem('http://[::1]:8080/index.json')).toBeNull();
    expect(feedUrlProblem('http://store.example.org/index.json')).toMatch(/https/);
    expect(feedUrlProblem('ftp://127.0.0.1/index.json')).toMatch(/https/);
    expect(feedUrlProblem('https://user:pw@store.example.org/')).toMatch(/credentials/);
    expect(isLoopbackHost('127.8.9.1')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(signatureUrl('https://store.example.org/feed/index.json?channel=stable')).toBe('https://store.example.org/feed/index.json.sig?channel=stable');
  });
});
