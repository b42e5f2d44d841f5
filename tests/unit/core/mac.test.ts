import { describe, expect, it } from 'vitest';
import { normalizeMac } from '../../../src-main/core/mac.js';

describe('normalizeMac', () => {
  it.each([
    ['aa:bb:cc:dd:ee:ff', 'aa:bb:cc:dd:ee:ff'],
    ['AA-BB-CC-DD-EE-FF', 'aa:bb:cc:dd:ee:ff'],
    ['aabb.ccdd.eeff', 'aa:bb:cc:dd:ee:ff'],
    ['AABBCCDDEEFF', 'aa:bb:cc:dd:ee:ff'],
    [' 52:54:00:12:34:56 ', '52:54:00:12:34:56'],
  ])('accepts %s', (input, expected) => {
    expect(normalizeMac(input)).toBe(expected);
  });

  it.each(['', 'aa:bb:cc:dd:ee', 'aa:bb:cc:dd:ee:ff:00', 'gg:bb:cc:dd:ee:ff', 'aa:bb-cc:dd:ee:ff', 'aabb.ccdd.eef'])(
    'rejects %j',
    (input) => {
      expect(normalizeMac(input)).toBeNull();
    },
  );
});
