import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HANDLE_BYTES, HandleCodec, pathTagOf } from '../../../../src-main/nfs/server/file-handles.js';

describe('NFS file handles', () => {
  const key = randomBytes(32);
  const codec = new HandleCodec(key);

  it('encodes the documented 32-byte layout and verifies it', () => {
    const handle = codec.encode(7, 123456789n, 'a/b/c');
    expect(handle.length).toBe(HANDLE_BYTES);
    expect(handle[0]).toBe(1);
    expect([...handle.subarray(1, 4)]).toEqual([0, 0, 0]);
    expect(handle.readUInt32BE(4)).toBe(7);
    expect(handle.readBigUInt64BE(8)).toBe(123456789n);
    expect(handle.readBigUInt64BE(16)).toBe(pathTagOf(7, 'a/b/c'));
    expect(codec.verify(handle)).toEqual({ exportId: 7, nodeId: 123456789n, pathTag: pathTagOf(7, 'a/b/c') });
  });

  it('path tags depend on the export and the path', () => {
    expect(pathTagOf(1, 'x')).not.toBe(pathTagOf(2, 'x'));
    expect(pathTagOf(1, 'x')).not.toBe(pathTagOf(1, 'y'));
    expect(pathTagOf(1, 'x')).toBe(pathTagOf(1, 'x'));
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
    expect(codec.verify(handle.subarray(0, 31))).toBeNull();
    expect(codec.verify(Buffer.concat([handle, Buffer.alloc(4)]))).toBeNull();
    expect(codec.verify(Buffer.alloc(0))).toBeNull();
    expect(new HandleCodec(randomBytes(32)).verify(handle)).toBeNull();
    // Moving a valid handle to another export (rewriting the id) breaks the mac.
    const moved = Buffer.from(handle);
    moved.writeUInt32BE(4, 4);
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
