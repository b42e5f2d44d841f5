import { describe, expect, it } from 'vitest';
import { requestSource } from '../../../src-main/network/source-address.js';

describe('requestSource', () => {
  it('keeps IPv4 addresses, folds IPv6 to its /64 and IPv4-mapped IPv6 to IPv4', () => {
    expect(requestSource('192.0.2.7')).toBe('192.0.2.7');
    expect(requestSource('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(requestSource('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(requestSource('2001:db8:1:2::9')).toBe(requestSource('2001:db8:1:2:ffff::1'));
    expect(requestSource('fe80::1%eth0')).toBe('fe80::/64');
    expect(requestSource('::1')).toBe('::1');
    expect(requestSource('not an address')).toBe('not an address');
  });
});
