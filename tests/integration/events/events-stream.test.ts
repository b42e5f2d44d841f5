import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';
import type { StreamMessage } from '../../../src-main/events/stream-message.js';
import { SseClient } from './sse-client.js';
import { as, stubAuthenticator } from './stub-auth.js';

let t: TestCore | null = null;

afterEach(async () => {
  await t?.close();
  t = null;
});

async function startCore(heartbeatMs = 60_000): Promise<TestCore> {
  t = await createTestCore({ authenticator: stubAuthenticator, sse: { heartbeatMs, retryMs: 1500 } });
  await t.core.start();
  return t;
}

function streamUrl(core: TestCore, query = ''): string {
  return `${core.core.url()}/api/v1/events/stream${query}`;
}

describe('GET /events/stream', () => {
  it('sends the SSE headers, a retry hint, then live events framed as id/event/data', async () => {
    const core = await startCore();
    const client = await SseClient.open(streamUrl(core));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['x-request-id']).toBeTypeOf('string');
    expect(await client.next()).toMatchObject({ retry: '1500', raw: 'retry: 1500\n\n' });

    const event = core.core.kernel.events.emit({ kind: 'dhcp.lease.granted', message: 'lease for 52:54:00:aa:bb:cc', mac: '52-54-00-AA-BB-CC', ip: '10.0.0.5' });
    const frame = await client.nextEvent();
    const data = {
      id: event.id,
      kind: 'dhcp.lease.granted',
      level: 'info',
      message: 'lease for 52:54:00:aa:bb:cc',
      mac: '52:54:00:aa:bb:cc',
      ip: '10.0.0.5',
      host_id: null,
      detail: null,
      created_at: event.created_at,
    };
    expect(frame.raw).toBe(`id: ${event.id}\nevent: dhcp.lease.granted\ndata: ${JSON.stringify(data)}\n\n`);
    client.close();
  });

  it('replays exactly the missed events in order after a reconnect with Last-Event-ID, then goes live', async () => {
    const core = await startCore();
    const events = core.core.kernel.events;
    const baseline = events.subscriberCount;
    const first = await SseClient.open(streamUrl(core, '?kind=test.'));
    const a = events.emit({ kind: 'test.a', message: 'a' });
    const b = events.emit({ kind: 'test.b', message: 'b' });
    expect((await first.nextEvent()).id).toBe(String(a.id));
    const lastSeen = await first.nextEvent();
    expect(lastSeen.id).toBe(String(b.id));

    first.close();
    await first.whenClosed();
    // The server notices the disconnect and drops the subscription.
    await vi.waitFor(() => expect(events.subscriberCount).toBe(baseline));

    const missed = [
      events.emit({ kind: 'test.c', message: 'c' }),
      events.emit({ kind: 'other.x', message: 'filtered out' }),
      events.emit({ kind: 'test.d', message: 'd', level: 'warn' }),
    ];
    const second = await SseClient.open(streamUrl(core, '?kind=test.'), { 'last-event-id': lastSeen.id! });
    expect((await second.nextEvent()).id).toBe(String(missed[0]!.id));
    const replayedD = await second.nextEvent();
    expect(replayedD).toMatchObject({ id: String(missed[2]!.id), event: 'test.d' });
    expect(JSON.parse(replayedD.data!)).toMatchObject({ kind: 'test.d', level: 'warn', message: 'd' });

    const live = events.emit({ kind: 'test.e', message: 'e' });
    expect((await second.nextEvent()).id).toBe(String(live.id));
    second.close();
  });

  it('takes the replay point from last_event_id when no header is sent', async () => {
    const core = await startCore();
    const events = core.core.kernel.events;
    const before = events.emit({ kind: 'test.before', message: 'seen' });
    const after = events.emit({ kind: 'test.after', message: 'missed' });
    const client = await SseClient.open(streamUrl(core, `?kind=test.*&last_event_id=${before.id}`));
    expect((await client.nextEvent()).id).toBe(String(after.id));
    client.close();
  });

  it('applies the list filters to the stream (kind list, minimum level, mac)', async () => {
    const core = await startCore();
    const events = core.core.kernel.events;
    const client = await SseClient.open(streamUrl(core, '?kind=boot.,auth.login_failed&level=warn&mac=525400aabbcc'));
    events.emit({ kind: 'boot.script_served', level: 'info', message: 'below the level', mac: '52:54:00:aa:bb:cc' });
    events.emit({ kind: 'dhcp.lease.granted', level: 'error', message: 'other kind', mac: '52:54:00:aa:bb:cc' });
    events.emit({ kind: 'boot.script_served', level: 'warn', message: 'other mac', mac: '52:54:00:00:00:01' });
    const wanted = events.emit({ kind: 'boot.script_failed', level: 'error', message: 'match', mac: '52:54:00:AA:BB:CC' });
    const frame = await client.nextEvent();
    // The three that do not match were emitted first: had any passed, it would have come first.
    expect(frame.id).toBe(String(wanted.id));
    const exact = events.emit({ kind: 'auth.login_failed', level: 'warn', message: 'exact kind', mac: '52:54:00:aa:bb:cc' });
    expect((await client.nextEvent()).id).toBe(String(exact.id));
    client.close();
  });

  it('sends heartbeat comments at the configured interval', async () => {
    const core = await startCore(25);
    const client = await SseClient.open(streamUrl(core));
    await client.next(); // retry hint
    const heartbeat = await client.next();
    expect(heartbeat).toMatchObject({ comment: 'heartbeat', raw: ': heartbeat\n\n' });
    expect(heartbeat.data).toBeUndefined();
    client.close();
  });

  it('ends open streams and their subscriptions when the server stops', async () => {
    // What a stopped core keeps subscribed without any stream (areas release their own subscriptions when they stop).
    const quiet = await createTestCore({ authenticator: stubAuthenticator });
    await quiet.core.start();
    await quiet.core.stop();
    const leftWithoutStreams = quiet.core.kernel.events.subscriberCount;
    await quiet.close();

    const core = await startCore();
    const events = core.core.kernel.events;
    const baseline = events.subscriberCount;
    const client = await SseClient.open(streamUrl(core));
    await client.next();
    expect(events.subscriberCount).toBe(baseline + 1);
    await core.core.stop();
    await client.whenClosed();
    expect(events.subscriberCount).toBe(leftWithoutStreams);
  });

  it('runs the retention age prune of events and audit only while the core runs', async () => {
    t = await createTestCore({ authenticator: stubAuthenticator });
    const { events, audit } = t.core.kernel;
    expect([events.agePruneRunning, audit.agePruneRunning]).toEqual([false, false]);
    await t.core.start();
    expect([events.agePruneRunning, audit.agePruneRunning]).toEqual([true, true]);
    await t.core.stop();
    expect([events.agePruneRunning, audit.agePruneRunning]).toEqual([false, false]);
  });

  it('answers bad filters and a bad Last-Event-ID with a 400 envelope, not a stream', async () => {
    const core = await startCore();
    const badKind = await fetch(streamUrl(core, '?kind=bad%20kind'));
    expect(badKind.status).toBe(400);
    expect(await badKind.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED', details: [{ field: 'querystring.kind' }] });
    const badId = await fetch(streamUrl(core), { headers: { 'last-event-id': 'abc' } });
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'headers.last-event-id' }] });
    const badMac = await fetch(streamUrl(core, '?mac=zz'));
    expect(await badMac.json()).toMatchObject({ details: [{ field: 'querystring.mac' }] });
  });

  it('answers HEAD with the stream headers and no stream', async () => {
    const core = await startCore();
    const baseline = core.core.kernel.events.subscriberCount;
    const response = await fetch(streamUrl(core), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(core.core.kernel.events.subscriberCount).toBe(baseline);
  });

  it('needs a principal', async () => {
    const core = await startCore();
    const response = await fetch(streamUrl(core), { headers: as('none') });
    expect(response.status).toBe(401);
  });

  it('is refused over IPC (the stream hub is the IPC twin)', async () => {
    const core = await startCore();
    const response = await core.core.ipc.invoke({ method: 'GET', path: '/api/v1/events/stream' });
    expect(response.status).toBe(400);
  });

  it('delivers the same messages as the IPC stream hub, including replay', async () => {
    const core = await startCore();
    const events = core.core.kernel.events;
    const seen = events.emit({ kind: 'test.seen', message: 'seen' });
    const missed = events.emit({ kind: 'test.missed', message: 'missed', detail: { n: 1 } });
    const hubMessages: StreamMessage[] = [];
    const closeHub = core.core.streams.subscribe(
      { stream: 'events', params: { kind: 'test.' }, last_event_id: seen.id },
      (message) => hubMessages.push(message),
    );
    const client = await SseClient.open(streamUrl(core, '?kind=test.'), { 'last-event-id': String(seen.id) });
    const live = events.emit({ kind: 'test.live', message: 'live', level: 'error' });
    const frames = [await client.nextEvent(), await client.nextEvent()];
    expect(hubMessages.map((message) => message.id)).toEqual([missed.id, live.id]);
    expect(frames.map((frame) => ({ id: Number(frame.id), event: frame.event, data: JSON.parse(frame.data!) as unknown }))).toEqual(
      hubMessages.map((message) => ({ id: message.id, event: message.event, data: message.data })),
    );
    closeHub();
    client.close();
  });
});
