import { describe, expect, it } from 'vitest';
import { crossOriginReason, type OriginSignals } from '../../../src-main/auth/csrf.js';

const base: OriginSignals = { method: 'POST', protocol: 'http', host: '192.168.1.5:8080', origin: undefined, secFetchSite: undefined };

describe('crossOriginReason', () => {
  it('passes requests with neither Origin nor Sec-Fetch-Site (non-browser clients)', () => {
    expect(crossOriginReason(base)).toBeNull();
  });

  it('passes safe methods whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(crossOriginReason({ ...base, method, origin: 'https://evil.example', secFetchSite: 'cross-site' })).toBeNull();
    }
  });

  it('passes a same-origin Origin', () => {
    expect(crossOriginReason({ ...base, origin: 'http://192.168.1.5:8080' })).toBeNull();
    expect(crossOriginReason({ ...base, host: 'pxe.lan', origin: 'http://PXE.lan:80' })).toBeNull();
    expect(crossOriginReason({ ...base, protocol: 'https', host: '[::1]', origin: 'https://[::1]' })).toBeNull();
  });

  it('rejects an Origin with another host, port or scheme, or an opaque one', () => {
    for (const origin of ['http://evil.example', 'http://192.168.1.5:8081', 'https://192.168.1.5:8080', 'http://192.168.1.5', 'null']) {
      expect(crossOriginReason({ ...base, origin }), origin).not.toBeNull();
    }
  });

  it('uses Sec-Fetch-Site: same-origin and none pass, others are refused', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(crossOriginReason({ ...base, method, secFetchSite: 'same-origin' })).toBeNull();
      expect(crossOriginReason({ ...base, method, secFetchSite: 'none' })).toBeNull();
      expect(crossOriginReason({ ...base, method, secFetchSite: 'same-site' })).not.toBeNull();
      expect(crossOriginReason({ ...base, method, secFetchSite: 'cross-site' })).not.toBeNull();
    }
  });

  it('refuses when either signal says cross-origin', () => {
    expect(crossOriginReason({ ...base, origin: 'http://192.168.1.5:8080', secFetchSite: 'cross-site' })).not.toBeNull();
    expect(crossOriginReason({ ...base, origin: 'http://evil.example', secFetchSite: 'same-origin' })).not.toBeNull();
  });
});
