import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../../src-main/events/event-types.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import { as, stubAuthenticator } from './stub-auth.js';

let t: TestCore;
const seeded: AppEvent[] = [];

interface ListBody {
  success: boolean;
  data: (AppEvent & Record<string, unknown>)[];
  meta: { total: number; page: number; size: number };
}

async function list(query: string): Promise<ListBody> {
  const response = await t.core.http.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: as('viewer') });
  expect(response.statusCode).toBe(200);
  return response.json<ListBody>();
}

const ids = (body: ListBody) => body.data.map((event) => event.id);

beforeAll(async () => {
  t = await createTestCore({ authenticator: stubAuthenticator });
  // Emitted at known times so since/until have something to cut.
  const emit = (at: string, input: Parameters<typeof t.core.kernel.events.emit>[0]) =>
    seeded.push(t.core.kernel.events.emit(input, new Date(at)));
  emit('2024-05-01T10:00:00.000Z', { kind: 'service.started', message: 'dns started', detail: { service: 'dns' } });
  emit('2024-05-01T11:00:00.000Z', { kind: 'dhcp.lease.granted', message: 'lease', mac: '52:54:00:AA:BB:CC', ip: '10.0.0.9' });
  emit('2024-05-01T12:00:00.000Z', { kind: 'boot.script_served', message: 'ipxe script', mac: '5254.00aa.bbcc', host_id: 3 });
  emit('2024-05-01T13:00:00.000Z', { kind: 'auth.login_failed', level: 'warn', message: 'bad password for bob' });
  emit('2024-05-01T14:00:00.000Z', { kind: 'service.failed', level: 'error', message: 'tftp failed' });
});

afterAll(async () => {
  await t.close();
});

describe('GET /events', () => {
  it('lists newest first with paging meta and without updated_at', async () => {
    const body = await list('');
    expect(ids(body)).toEqual(seeded.map((event) => event.id).reverse());
    expect(body.meta).toEqual({ total: 5, page: 1, size: 50 });
    expect(body.data[0]).not.toHaveProperty('updated_at');
    expect(body.data[4]).toMatchObject({ kind: 'service.started', detail: { service: 'dns' }, created_at: '2024-05-01T10:00:00.000Z' });
  });

  it('pages', async () => {
    const second = await list('?size=2&page=2');
    expect(ids(second)).toEqual([seeded[2]!.id, seeded[1]!.id]);
    expect(second.meta).toEqual({ total: 5, page: 2, size: 2 });
    expect(ids(await list('?sort=id&size=1'))).toEqual([seeded[0]!.id]);
  });

  it('filters by kind: exact, prefix with . or *, and comma lists', async () => {
    expect(ids(await list('?kind=dhcp.lease.granted'))).toEqual([seeded[1]!.id]);
    expect(ids(await list('?kind=service.'))).toEqual([seeded[4]!.id, seeded[0]!.id]);
    expect(ids(await list('?kind=service.*'))).toEqual([seeded[4]!.id, seeded[0]!.id]);
    expect(ids(await list('?kind=boot.,auth.login_failed'))).toEqual([seeded[3]!.id, seeded[2]!.id]);
    expect(ids(await list('?kind=service'))).toEqual([]);
  });

  it('filters by minimum level', async () => {
    expect(ids(await list('?level=warn'))).toEqual([seeded[4]!.id, seeded[3]!.id]);
    expect(ids(await list('?level=error'))).toEqual([seeded[4]!.id]);
    expect((await list('?level=info')).meta.total).toBe(5);
  });

  it('filters by MAC in any spelling; stored MACs are canonical', async () => {
    const body = await list('?mac=52-54-00-aa-bb-cc');
    expect(ids(body)).toEqual([seeded[2]!.id, seeded[1]!.id]);
    expect(body.data.map((event) => event.mac)).toEqual(['52:54:00:aa:bb:cc', '52:54:00:aa:bb:cc']);
  });

  it('filters by time (since inclusive, until exclusive, any RFC 3339 offset) and after_id', async () => {
    expect(ids(await list('?since=2024-05-01T12:00:00Z&until=2024-05-01T14:00:00Z'))).toEqual([seeded[3]!.id, seeded[2]!.id]);
    expect(ids(await list(`?since=${encodeURIComponent('2024-05-01T14:30:00+02:00')}`))).toEqual([seeded[4]!.id, seeded[3]!.id]);
    expect(ids(await list(`?after_id=${seeded[2]!.id}`))).toEqual([seeded[4]!.id, seeded[3]!.id]);
  });

  it('combines filters with q search', async () => {
    expect(ids(await list('?kind=service.&q=tftp'))).toEqual([seeded[4]!.id]);
  });

  it('rejects bad filters with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['?level=debug', 'querystring.level'],
      ['?kind=not%20a%20kind', 'querystring.kind'],
      ['?mac=52:54', 'querystring.mac'],
      ['?since=yesterday', 'querystring.since'],
      ['?after_id=-1', 'querystring.after_id'],
      ['?sort=-message', 'querystring.sort'],
      ['?colour=red', 'querystring.colour'],
    ];
    for (const [query, field] of cases) {
      const response = await t.core.http.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: as('viewer') });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field }] });
    }
  });

  it('needs at least the viewer role', async () => {
    const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/events', headers: as('none') });
    expect(response.statusCode).toBe(401);
  });

  it('is the same over IPC', async () => {
    const response = await t.core.ipc.invoke({ method: 'GET', path: '/api/v1/events?level=error' });
    expect(response.status).toBe(200);
    expect((response.body as ListBody).data.map((event) => event.id)).toEqual([seeded[4]!.id]);
  });

  it('documents the stream as text/event-stream in the OpenAPI document', async () => {
    const response = await t.core.http.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const doc = response.json<{ paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> }>();
    expect(Object.keys(doc.paths['/api/v1/events/stream']!.get.responses['200']!.content)).toEqual(['text/event-stream']);
    expect(Object.keys(doc.paths['/api/v1/logs/stream']!.get.responses['200']!.content)).toEqual(['text/event-stream']);
  });
});
