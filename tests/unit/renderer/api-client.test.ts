import { describe, expect, it, vi } from 'vitest';
import { ApiClient, toApiError } from '../../../src-renderer/src/api/api-client.js';
import { ApiError } from '../../../src-renderer/src/api/api-error.js';
import { importConflicts } from '../../../src-renderer/src/api/clients/store-client.js';
import type { RawResponse, Transport } from '../../../src-renderer/src/api/transport.js';

function transportAnswering(raw: RawResponse): Transport & { send: ReturnType<typeof vi.fn> } {
  return { kind: 'http', send: vi.fn(async () => raw), subscribe: () => () => undefined, postStream: () => () => undefined };
}

describe('ApiClient', () => {
  it('prefixes paths with /api/v1 and passes the body', async () => {
    const transport = transportAnswering({ status: 200, body: { success: true, data: { ok: 1 } } });
    await expect(new ApiClient(transport).put('/services/dns/auto-start', { auto_start: true })).resolves.toEqual({ ok: 1 });
    expect(transport.send).toHaveBeenCalledWith('PUT', '/api/v1/services/dns/auto-start', { auto_start: true });
  });

  it('turns the error envelope into an ApiError with code, details and Retry-After', async () => {
    const transport = transportAnswering({
      status: 429,
      body: { success: false, error: 'too many attempts', code: 'RATE_LIMITED', details: [{ field: 'username', message: 'locked' }] },
      retryAfterSeconds: 30,
    });
    const error = await new ApiClient(transport).post('/auth/login', {}).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'too many attempts', details: [{ field: 'username', message: 'locked' }], retryAfterSeconds: 30 });
  });

  it('calls onUnauthenticated for a 401, except for the login call itself', async () => {
    const ended = vi.fn();
    const client = new ApiClient(transportAnswering({ status: 401, body: { success: false, error: 'log in', code: 'UNAUTHENTICATED' } }), { onUnauthenticated: ended });
    await expect(client.post('/auth/login', { username: 'a', password: 'b' })).rejects.toMatchObject({ status: 401 });
    expect(ended).not.toHaveBeenCalled();
    await expect(client.get('/services')).rejects.toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('rejects a list answer without meta as BAD_RESPONSE', async () => {
    const client = new ApiClient(transportAnswering({ status: 200, body: { success: true, data: [] } }));
    await expect(client.list('/events')).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('toApiError', () => {
  it('reports a body that is not the envelope as BAD_RESPONSE with the status', () => {
    expect(toApiError({ status: 502, body: '<html>Bad Gateway</html>' }, 'GET', '/services')).toMatchObject({
      status: 502,
      code: 'BAD_RESPONSE',
      message: 'GET /api/v1/services answered HTTP 502 without the API\'s JSON envelope',
    });
  });

  it('treats a 2xx without success:true as BAD_RESPONSE too', async () => {
    const client = new ApiClient(transportAnswering({ status: 200, body: { data: 1 } }));
    await expect(client.get('/x')).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
  });

  it('drops malformed details', () => {
    expect(toApiError({ status: 400, body: { success: false, error: 'bad', code: 'VALIDATION_FAILED', details: 'nope' } }, 'PUT', '/x').details).toEqual([]);
  });

  it('keeps details that are not field errors as sent (a store import\'s conflicts), apart from the field errors', () => {
    const conflicts = [{ key: 'script/ntp', type: 'script', name: 'ntp', existing_id: 3 }];
    const error = toApiError({ status: 409, body: { success: false, error: '1 item already exists', code: 'CONFLICT', details: conflicts } }, 'POST', '/store/import');
    expect(error.details).toEqual([]);
    expect(error.rawDetails).toEqual(conflicts);
    expect(importConflicts(error)).toEqual(conflicts);
    // Not a 409, or details of another shape: no conflicts to ask about.
    expect(importConflicts(toApiError({ status: 400, body: { success: false, error: 'bad', code: 'VALIDATION_FAILED', details: conflicts } }, 'POST', '/x'))).toBeNull();
    expect(importConflicts(toApiError({ status: 409, body: { success: false, error: 'taken', code: 'CONFLICT', details: [{ field: 'body.name', message: 'taken' }] } }, 'POST', '/x'))).toBeNull();
  });
});
