import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HANDLE_BYTES, HandleCodec, handlePathTag, pathTagOf } from '../../../../src-main/nfs/server/file-handles.js';

describe('NFS file handles', () => {
  const key = randomBytes(32);
  const codec = new HandleCodec(key);

  it('encodes the documented 24-byte layout and verifies it', () => {
    const handle = codec.encode(7, 123456789n, 'a/b/c');
    expect(HANDLE_BYTES).toBe(24);
    expect(handle.length).toBe(HANDLE_BYTES);
    expect(handle[0]).toBe(2);
    expect(handle.readUInt32BE(1)).toBe(7);
    expect(handle.readBigUInt64BE(5)).toBe(123456789n);
    expect(BigInt(handle.readUIntBE(13, 5))).toBe(pathTagOf(7, 'a/b/c'));
    expect(handlePathTag(handle)).toBe(pathTagOf(7, 'a/b/c'));
    // The mac: the first 6 bytes of HMAC-SHA-256(key, bytes 0..17).
    expect(handle.subarray(18).equals(createHmac('sha256', key).update(handle.subarray(0, 18)).digest().subarray(0, 6))).toBe(true);
    expect(codec.verify(handle)).toEqual({ exportId: 7, nodeId: 123456789n, pathTag: pathTagOf(7, 'a/b/c') });
  });

  it('path tags are 40 bits of SHA-256 over the export and the path', () => {
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(1);
    expect(pathTagOf(1, 'x')).toBe(BigInt(createHash('sha256').update(prefix).update('x').digest().readUIntBE(0, 5)));
    expect(pathTagOf(1, 'x')).not.toBe(pathTagOf(2, 'x'));
    expect(pathTagOf(1, 'x')).not.toBe(pathTagOf(1, 'y'));
    expect(pathTagOf(1, 'x')).toBe(pathTagOf(1, 'x'));
    expect(pathTagOf(5, 'some/long/path') < 2n ** 40n).toBe(true);
  });

  it('refuses a retired version-1 handle (32 bytes) even with a correct mac', () => {
    const v1 = Buffer.alloc(32);
    v1.writeUInt8(1, 0);
    v1.writeUInt32BE(7, 4);
    v1.writeBigUInt64BE(99n, 8);
    createHmac('sha256', key).update(v1.subarray(0, 24)).digest().copy(v1, 24, 0, 8);
    expect(codec.verify(v1)).toBeNull();
    // Nor does a 24-byte handle with version 1.
    const relabelled = codec.encode(7, 99n, 'a');
    relabelled[0] = 1;
    expect(codec.verify(relabelled)).toBeNull();
  });

  it('refuses every single-bit flip', () => {
    const handle = codec.encode(3, 99n, 'dir/file');
    for (let bit = 0; bit < HANDLE_BYTES * 8; bit += 1) {
      const forged = Buffer.from(handle);
      forged[bit >> 3] = (forged[bit >> 3] ?? 0) ^ (1 << (bit & 7));
      expect(codec.verify(forged), `bit ${bit}`).toBeNull();
    }
  });

  it('refuses truncated, extended, other-key and re-targeted handles', () => {
    const handle = codec.encode(3, 99n, 'dir/file');
    expect(codec.verify(handle.subarray(0, 23))).toBeNull();
    expect(codec.verify(Buffer.concat([handle, Buffer.alloc(4)]))).toBeNull();
    expect(codec.verify(Buffer.alloc(0))).toBeNull();
    expect(new HandleCodec(randomBytes(32)).verify(handle)).toBeNull();
    // Moving a valid handle to another export (rewriting the id) breaks the mac.
    const moved = Buffer.from(handle);
    moved.writeUInt32BE(4, 1);
    expect(codec.verify(moved)).toBeNull();
  });

  it('a codec with the same key (a restart) verifies old handles', () => {
    const handle = codec.encode(1_000_003, 2n ** 63n + 5n, '');
    expect(new HandleCodec(Buffer.from(key)).verify(handle)?.nodeId).toBe(2n ** 63n + 5n);
  });

  it('refuses a short key', () => {
    expect(() => new HandleCodec(Buffer.alloc(4))).toThrow(RangeError);
  });
});
