import { describe, expect, it } from 'vitest';
import { recordFqdn, reverseName, targetFqdn, domainProblem } from '../../../src-main/dns/dns-names.js';
import { checkRecord } from '../../../src-main/dns/dns-records.js';
import { checkDnsSettings, DNS_SETTINGS_DEFAULTS } from '../../../src-main/dns/dns-settings.js';
import { parseUpstreams } from '../../../src-main/dns/upstream.js';

describe('parseUpstreams', () => {
  it('reads IPv4 and IPv6 entries with and without ports, separated by commas or whitespace', () => {
    const { servers, errors } = parseUpstreams(' 192.0.2.1, 192.0.2.2:5353\n[2001:db8::1]:53  2001:DB8::2 [::1]');
    expect(errors).toEqual([]);
    expect(servers.map((s) => s.label)).toEqual(['192.0.2.1:53', '192.0.2.2:5353', '[2001:db8::1]:53', '[2001:db8::2]:53', '[::1]:53']);
    expect(servers.map((s) => s.family)).toEqual([4, 4, 6, 6, 6]);
    expect(parseUpstreams('').servers).toEqual([]);
  });

  it('names every bad entry', () => {
    const { errors } = parseUpstreams('dns.example.com, 192.0.2.1:0, 192.0.2.1:99999, [192.0.2.1]:53, 2001:db8::1:53:x, 300.1.1.1');
    expect(errors).toHaveLength(6);
    expect(errors[0]).toContain('"dns.example.com"');
    expect(errors[0]).toContain('host names are not allowed');
    expect(errors[1]).toContain('port "0"');
    expect(errors[2]).toContain('port "99999"');
    expect(errors[3]).toContain('not an IPv6 address');
    expect(errors[5]).toContain('"300.1.1.1"');
  });
});

describe('checkDnsSettings', () => {
  it('normalises the domain and reports bad fields by name', () => {
    expect(checkDnsSettings({ ...DNS_SETTINGS_DEFAULTS, local_domain: 'Lab.Example.' }).value.local_domain).toBe('lab.example');
    const { errors } = checkDnsSettings({ ...DNS_SETTINGS_DEFAULTS, local_domain: 'bad..name', upstream: 'x' }, (f) => `body.${f}`);
    expect(errors.map((e) => e.field)).toEqual(['body.local_domain', 'body.upstream']);
    expect(errors[1]!.message).toContain('upstream entry "x"');
  });
});

describe('names', () => {
  it('makes record names and targets absolute', () => {
    expect(recordFqdn('@', 'lab.local')).toBe('lab.local');
    expect(recordFqdn('PXE', 'lab.local')).toBe('pxe.lab.local');
    expect(recordFqdn('a.b', 'lab.local')).toBe('a.b.lab.local');
    expect(recordFqdn('www.example.com.', 'lab.local')).toBe('www.example.com');
    expect(targetFqdn('pxe', 'lab.local')).toBe('pxe.lab.local');
    expect(targetFqdn('@', 'lab.local')).toBe('lab.local');
    expect(targetFqdn('www.example.com', 'lab.local')).toBe('www.example.com');
    expect(targetFqdn('www.example.com.', 'lab.local')).toBe('www.example.com');
    expect(reverseName('192.0.2.10')).toBe('10.2.0.192.in-addr.arpa');
  });

  it('checks labels', () => {
    expect(domainProblem('_acme-challenge.lab')).toBeNull();
    expect(domainProblem('-bad.lab')).toContain('hyphen');
    expect(domainProblem('a'.repeat(64))).toContain('longer than 63');
    expect(domainProblem('a b')).toContain('letters, digits');
  });
});

describe('checkRecord', () => {
  const check = (input: Parameters<typeof checkRecord>[0]) => checkRecord(input, 'lab.local');
  const fields = (input: Parameters<typeof checkRecord>[0]) => check(input).errors.map((e) => e.field);

  it('accepts each type and fills defaults', () => {
    expect(check({ name: 'pxe', type: 'A', value: '10.0.0.1' })).toEqual({
      value: { name: 'pxe', type: 'A', value: '10.0.0.1', ttl: 300, priority: null, subnet: null, enabled: true, comment: '' },
      errors: [],
    });
    expect(check({ name: '@', type: 'A', value: '{server_ip}' }).errors).toEqual([]);
    expect(check({ name: 'v6', type: 'AAAA', value: '2001:DB8:0::1' }).value.value).toBe('2001:db8::1');
    expect(check({ name: 'www', type: 'CNAME', value: 'Web.Example.com.' }).value.value).toBe('web.example.com.');
    expect(check({ name: '@', type: 'MX', value: 'mail', priority: 10 }).errors).toEqual([]);
    expect(check({ name: 'txt', type: 'TXT', value: 'x'.repeat(4000) }).errors).toEqual([]);
    expect(check({ name: 'net', type: 'A', value: '10.0.0.1', subnet: '10.1.0.0/16' }).value.subnet).toBe('10.1.0.0/16');
  });

  it('rejects bad values per type, naming the field', () => {
    expect(fields({ name: 'a', type: 'A', value: '2001:db8::1' })).toEqual(['body.value']);
    expect(fields({ name: 'a', type: 'AAAA', value: '10.0.0.1' })).toEqual(['body.value']);
    expect(fields({ name: 'a', type: 'CNAME', value: 'bad name' })).toEqual(['body.value']);
    expect(fields({ name: 'a', type: 'TXT', value: 'x'.repeat(4001) })).toEqual(['body.value']);
    expect(fields({ name: 'a', type: 'MX', value: 'mail' })).toEqual(['body.priority']);
    expect(fields({ name: 'a', type: 'A', value: '10.0.0.1', priority: 5 })).toEqual(['body.priority']);
    expect(fields({ name: 'a..b', type: 'A', value: '10.0.0.1' })).toEqual(['body.name']);
    expect(fields({ name: '@', type: 'CNAME', value: 'x.example.com' })).toEqual(['body.name']);
    expect(fields({ name: 'a', type: 'A', value: '10.0.0.1', subnet: '10.0.0.1/16' })).toEqual(['body.subnet']);
    expect(fields({ name: 'a', type: 'A', value: '10.0.0.1', ttl: 604_801 })).toEqual(['body.ttl']);
  });
});
