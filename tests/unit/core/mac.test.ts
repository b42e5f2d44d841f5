import { describe, expect, it } from 'vitest';
import { normalizeMac, unicastMacProblem } from '../../../src-main/core/mac.js';

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

describe('unicastMacProblem', () => {
  it.each(['52:54:00:12:34:56', '02:00:00:00:00:01', 'fe:ff:ff:ff:ff:ff', '00:00:00:00:00:01'])('accepts the unicast %s', (mac) => {
    expect(unicastMacProblem(mac)).toBeNull();
  });

  it.each([
    ['00:00:00:00:00:00', 'all-zero'],
    ['ff:ff:ff:ff:ff:ff', 'broadcast'],
    ['01:00:5e:00:00:fb', 'multicast'],
    ['33:33:00:00:00:01', 'multicast'],
    ['01:80:c2:00:00:00', 'multicast'],
  ])('refuses %s', (mac, reason) => {
    expect(unicastMacProblem(mac)).toContain(reason);
  });
});
