import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BmcError } from '../../../src-main/power/bmc-error.js';
import { redfishRequest, type RedfishHttpOptions } from '../../../src-main/power/redfish/redfish-http.js';
import { encodePath, MAX_SERVICE_PATH, servicePath } from '../../../src-main/power/redfish/redfish-path.js';

/*
 * The Redfish request must never leave a throw for the event loop: input
 * Node refuses synchronously (a NUL in the host, '€' in the path, a newline
 * in a header) rejects with a BmcError at once and leaves no timer behind.
 * Before the fix the request's 10 s timer was armed first and then called
 * destroy() on a request that never existed: an uncaught ReferenceError
 * that ended the process.
 */
const options: RedfishHttpOptions = { address: '127.0.0.1', port: 9, credentials: null, verifyTls: false, timeoutMs: 10_000 };

async function rejection(promise: Promise<unknown>): Promise<BmcError> {
  const err = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(BmcError);
  return err as BmcError;
}

describe('redfishRequest with input Node refuses', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rejects a NUL in the address with a BmcError and arms no timer', async () => {
    const err = await rejection(redfishRequest({ ...options, address: 'a\u0000b' }, 'GET', '/redfish/v1'));
    expect(err.reason).toBe('unreachable');
    expect(vi.getTimerCount()).toBe(0);
    // Nothing fires later either (the old code threw here, 10 s on).
    expect(() => vi.advanceTimersByTime(60_000)).not.toThrow();
  });

  it('rejects a path http.request throws on synchronously (unescaped €) with a BmcError and no timer', async () => {
    const err = await rejection(redfishRequest(options, 'GET', '/redfish/v1/Systems/€1'));
    expect(err.reason).toBe('protocol');
    expect(err.message).toMatch(/cannot be sent \(ERR_UNESCAPED_CHARACTERS\)/);
    expect(vi.getTimerCount()).toBe(0);
    expect(() => vi.advanceTimersByTime(60_000)).not.toThrow();
  });

  it('rejects a header value with a newline (a hostile ETag echoed in If-Match) the same way', async () => {
    const err = await rejection(redfishRequest(options, 'PATCH', '/redfish/v1/Systems/1', {}, { 'if-match': 'W/"1"\r\nX-Evil: 1' }));
    expect(err.message).toMatch(/ERR_INVALID_CHAR/);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the operation deadline has already passed', async () => {
    const controller = new AbortController();
    controller.abort(new BmcError('timeout', 'operation deadline'));
    const err = await rejection(redfishRequest(options, 'GET', '/redfish/v1', undefined, {}, controller.signal));
    expect(err.message).toBe('operation deadline');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('paths taken from a BMC', () => {
  const take = (value: unknown) => servicePath(value, 'Systems member', 'bmc:443');

  it('percent-encodes what may not stand in a path and keeps existing escapes', () => {
    expect(take('/redfish/v1/Systems/€1')).toBe('/redfish/v1/Systems/%E2%82%AC1');
    expect(take('/redfish/v1/Systems/System.Embedded.1')).toBe('/redfish/v1/Systems/System.Embedded.1');
    expect(take('/redfish/v1/Systems/a%20b')).toBe('/redfish/v1/Systems/a%20b');
    expect(encodePath('/x/100%/"q"/😀')).toBe('/x/100%25/%22q%22/%F0%9F%98%80');
  });

  it.each([
    ['not a string', 42],
    ['missing', undefined],
    ['another service', 'https://evil.example/redfish/v1/Systems/1'],
    ['outside the service root', '/admin/reboot'],
    ['the bare prefix without a slash', '/redfish/v1Systems'],
    ['a dot-dot segment', '/redfish/v1/../../etc/passwd'],
    ['an encoded dot-dot segment', '/redfish/v1/%2e%2E/x'],
    ['a control character', '/redfish/v1/Systems/1\u0000'],
    ['a C1 control character', '/redfish/v1/Systems/\u00851'],
    ['a query', '/redfish/v1/Systems?$expand=*'],
    ['a fragment', '/redfish/v1/Systems#x'],
    ['a backslash', '/redfish/v1/Systems\\1'],
    ['a lone surrogate', '/redfish/v1/Systems/\ud8001'],
    ['an overlong path', `/redfish/v1/${'a'.repeat(MAX_SERVICE_PATH)}`],
  ])('refuses %s with a protocol BmcError', (_what, value) => {
    let thrown: unknown;
    try {
      take(value);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(BmcError);
    expect((thrown as BmcError).reason).toBe('protocol');
  });
});
