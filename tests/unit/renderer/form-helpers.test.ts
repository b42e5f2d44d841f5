import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-renderer/src/api/api-error.js';
import { segment, withQuery } from '../../../src-renderer/src/api/query-string.js';
import { applyServerErrors, fieldPath } from '../../../src-renderer/src/components/form-errors.js';
import { isHostname, isIPv4, isIPv6, isMac, isNetworkCidr, splitUpstream, upstreamEntryProblem } from '../../../src-renderer/src/validators.js';

function target() {
  const errors: Record<string, string> = {};
  return { errors, setFieldError: (path: string, message: string) => (errors[path] = message) };
}

const validation = (details: { field: string; message: string }[]) =>
  new ApiError({ status: 400, code: 'VALIDATION_FAILED', message: `${details[0]?.field}: ${details[0]?.message}`, details });

describe('fieldPath', () => {
  it('strips the body prefix and reads both index spellings', () => {
    expect(fieldPath('body.port')).toBe('port');
    expect(fieldPath('body.subnets[0].ranges[1].start')).toBe('subnets.0.ranges.1.start');
    expect(fieldPath('body.subnets.0.ranges.1.start')).toBe('subnets.0.ranges.1.start');
    expect(fieldPath('body')).toBe('');
    expect(fieldPath('querystring.sort')).toBeNull();
    expect(fieldPath('csv.line3.name', 'csv')).toBe('line3.name');
  });
});

describe('applyServerErrors', () => {
  it('puts each detail on its field and returns nothing more to say', () => {
    const form = target();
    const rest = applyServerErrors(form, validation([{ field: 'body.value', message: 'is not an IPv4 address' }, { field: 'body.priority', message: 'is required for MX' }]), { fields: ['value', 'priority'] });
    expect(form.errors).toEqual({ value: 'Is not an IPv4 address', priority: 'Is required for MX' });
    expect(rest).toBeNull();
  });

  it('returns what found no field, and the whole message when nothing did', () => {
    const form = target();
    expect(applyServerErrors(form, validation([{ field: 'body.value', message: 'bad' }, { field: 'body.other', message: 'odd' }]), { fields: ['value'] })).toBe('body.other: odd');
    expect(applyServerErrors(target(), validation([{ field: 'body.zzz', message: 'odd' }]), { fields: ['value'] })).toBe('body.zzz: odd');
    expect(applyServerErrors(target(), new ApiError({ status: 409, code: 'CONFLICT', message: 'name is taken' }), { fields: ['name'] })).toBe('name is taken');
    expect(applyServerErrors(target(), new Error('network down'))).toBe('network down');
  });

  it('uses a custom mapping', () => {
    const form = target();
    applyServerErrors(form, validation([{ field: 'body.linux.kernel', message: 'is required' }]), { map: (path) => (path === 'linux.kernel' ? 'kernel' : null) });
    expect(form.errors).toEqual({ kernel: 'Is required' });
  });
});

describe('withQuery and segment', () => {
  it('leaves out empty parameters and encodes the rest', () => {
    expect(withQuery('/hosts', { page: 2, size: 50, q: 'web 01', sort: '', group: undefined, enabled: false, tag: null })).toBe('/hosts?page=2&size=50&q=web+01&enabled=false');
    expect(withQuery('/hosts')).toBe('/hosts');
    expect(segment('52:54:00:aa:bb:cc')).toBe('52%3A54%3A00%3Aaa%3Abb%3Acc');
  });
});

describe('validators', () => {
  it('checks addresses, subnets, MACs and host names like the API', () => {
    expect(isIPv4('192.168.1.10')).toBe(true);
    expect(isIPv4('192.168.1')).toBe(false);
    expect(isIPv4('300.1.1.1')).toBe(false);
    expect(isIPv6('2001:db8::1')).toBe(true);
    expect(isIPv6('192.168.1.1')).toBe(false);
    expect(isNetworkCidr('192.168.10.0/24')).toBe(true);
    expect(isNetworkCidr('192.168.10.5/24')).toBe(false);
    expect(isNetworkCidr('fd00:10::/64')).toBe(true);
    expect(isNetworkCidr('nonsense')).toBe(false);
    for (const mac of ['52:54:00:AB:CD:EF', '52-54-00-ab-cd-ef', '5254.00ab.cdef', '525400abcdef']) expect(isMac(mac)).toBe(true);
    for (const mac of ['52:54:00:ab:cd', '52:54:00:ab:cd:ef:01', 'zz:54:00:ab:cd:ef']) expect(isMac(mac)).toBe(false);
    expect(isHostname('web01.lab.example')).toBe(true);
    expect(isHostname('-bad')).toBe(false);
    expect(isHostname('under_score')).toBe(false);
  });

  it('checks each upstream DNS entry and names the problem', () => {
    expect(splitUpstream('1.1.1.1, 9.9.9.9:53  [2001:db8::53]:5353')).toEqual(['1.1.1.1', '9.9.9.9:53', '[2001:db8::53]:5353']);
    expect(upstreamEntryProblem('1.1.1.1')).toBeNull();
    expect(upstreamEntryProblem('1.1.1.1:5353')).toBeNull();
    expect(upstreamEntryProblem('2001:db8::53')).toBeNull();
    expect(upstreamEntryProblem('[2001:db8::53]:53')).toBeNull();
    expect(upstreamEntryProblem('dns.example.com')).toContain('not an IP address');
    expect(upstreamEntryProblem('1.1.1.1:99999')).toContain('1–65535');
    expect(upstreamEntryProblem('[1.1.1.1]:53')).toContain('not an IPv6 address');
    expect(upstreamEntryProblem(' ')).toBe('Enter an address');
  });
});
