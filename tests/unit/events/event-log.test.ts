import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../../../src-main/events/event-log.js';
import { eventMessage, openEventStream, parseEventStreamRequest } from '../../../src-main/events/event-stream.js';
import type { StreamMessage } from '../../../src-main/events/stream-message.js';
import { Store } from '../../../src-main/store/store.js';
import { tempDir } from '../../helpers/test-core.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.useRealTimers();
});

async function openLog(retention = { maxCount: 100, maxAgeDays: 30 }): Promise<EventLog> {
  const { dir, remove } = await tempDir();
  const store = await Store.open({ dataDir: dir });
  cleanups.push(async () => {
    await store.close();
    await remove();
  });
  return new EventLog(store, retention);
}

describe('EventLog', () => {
  it('returns the events after an id, oldest first', async () => {
    const log = await openLog();
    const emitted = [1, 2, 3, 4].map((n) => log.emit({ kind: 'test.n', message: String(n) }));
    expect(log.since(emitted[1]!.id).map((event) => event.message)).toEqual(['3', '4']);
    expect(log.since(0)).toHaveLength(4);
    expect(log.since(emitted[3]!.id)).toEqual([]);
  });

  it('prunes by age', async () => {
    const log = await openLog({ maxCount: 100, maxAgeDays: 1 });
    const now = new Date();
    log.emit({ kind: 'test.old', message: 'two days old' }, new Date(now.getTime() - 2 * 86_400_000));
    log.emit({ kind: 'test.new', message: 'new' }, now);
    expect(await log.prune(now)).toBe(1);
    expect(log.all().map((event) => event.message)).toEqual(['new']);
  });

  it('prunes by count, oldest first', async () => {
    const log = await openLog({ maxCount: 10, maxAgeDays: 30 });
    for (let n = 1; n <= 11; n += 1) log.emit({ kind: 'test.n', message: String(n) });
    expect(await log.prune()).toBe(1);
    expect(log.all()[0]!.message).toBe('2');
    expect(log.all()).toHaveLength(10);
  });

  it('keeps pruning by age on a timer until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const log = await openLog({ maxCount: 100, maxAgeDays: 1 });
    const prune = vi.spyOn(log, 'prune');
    log.startAgePrune(1000);
    expect(prune).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(prune).toHaveBeenCalledTimes(4);
    log.stopAgePrune();
    await vi.advanceTimersByTimeAsync(3000);
    expect(prune).toHaveBeenCalledTimes(4);
  });

  it('hands events to subscribers and isolates a failing one', async () => {
    const log = await openLog();
    const seen: string[] = [];
    log.subscribe(() => {
      throw new Error('broken subscriber');
    });
    const stop = log.subscribe((event) => seen.push(event.message));
    log.emit({ kind: 'test.a', message: 'a' });
    stop();
    log.emit({ kind: 'test.b', message: 'b' });
    expect(seen).toEqual(['a']);
  });
});

describe('event streams', () => {
  it('replays after the cursor through the filter, then delivers live events', async () => {
    const log = await openLog();
    const seen = log.emit({ kind: 'test.seen', message: 'seen' });
    log.emit({ kind: 'other.skip', message: 'skip' });
    const missed = log.emit({ kind: 'test.missed', message: 'missed' });
    const received: StreamMessage[] = [];
    const request = parseEventStreamRequest({ kind: 'test.' }, 'params', { field: 'last_event_id', value: seen.id });
    const close = openEventStream(log, request, (message) => received.push(message));
    const live = log.emit({ kind: 'test.live', message: 'live' });
    close();
    log.emit({ kind: 'test.after_close', message: 'gone' });
    expect(received.map((message) => message.id)).toEqual([missed.id, live.id]);
    expect(received[0]).toBe(eventMessage(missed));
    expect(received[0]!.data).not.toHaveProperty('updated_at');
  });

  it('takes the replay point from the header first, then last_event_id, then after_id', () => {
    expect(parseEventStreamRequest({ last_event_id: '5', after_id: '2' }, 'q', { field: 'h', value: '9' }).replayAfter).toBe(9);
    expect(parseEventStreamRequest({ last_event_id: '5', after_id: '2' }, 'q').replayAfter).toBe(5);
    expect(parseEventStreamRequest({ after_id: '2' }, 'q').replayAfter).toBe(2);
    expect(parseEventStreamRequest({}, 'q', { field: 'h', value: '' }).replayAfter).toBeNull();
  });
});
