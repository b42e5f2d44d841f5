import { describe, expect, it } from 'vitest';
import { SseParser, toStreamMessage, type SseEvent } from '../../../src-renderer/src/api/sse-parser.js';

function parse(chunks: string[]): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return { events, parser };
}

describe('SseParser', () => {
  it('parses id, event and multi-line data, dispatching on the blank line', () => {
    const { events, parser } = parse(['id: 4\nevent: service.started\ndata: {"a":\ndata: 1}\n\n']);
    expect(events).toEqual([{ id: '4', event: 'service.started', data: '{"a":\n1}' }]);
    expect(parser.lastEventId).toBe('4');
  });

  it('handles any chunking, CRLF and lone CR line ends', () => {
    const text = 'event: x\r\ndata: one\r\n\r\nevent: y\rdata: two\r\r';
    const whole = parse([text]).events;
    const bytewise = parse([...text]).events;
    expect(whole).toEqual([
      { id: null, event: 'x', data: 'one' },
      { id: null, event: 'y', data: 'two' },
    ]);
    expect(bytewise).toEqual(whole);
  });

  it('ignores comments (heartbeats), unknown fields and events without data', () => {
    const { events } = parse([': heartbeat\n\nretry: 3000\nfoo: bar\n\nevent: empty\n\ndata:x\n\n']);
    expect(events).toEqual([{ id: null, event: 'message', data: 'x' }]);
  });

  it('keeps the last event id across events and ignores ids containing NUL', () => {
    const { parser } = parse(['id: 7\ndata: a\n\ndata: b\n\nid: 8\0\ndata: c\n\n']);
    expect(parser.lastEventId).toBe('7');
  });

  it('does not dispatch an event whose blank line has not arrived yet', () => {
    expect(parse(['data: pending\n']).events).toEqual([]);
  });

  it('reads a diagnostics stream cut anywhere: mid-field, mid-JSON, between CR and LF, with heartbeats in between', () => {
    // What POST /network/ping/stream writes (src-main/api/sse.ts): retry hint, rows, a heartbeat, done.
    const text =
      'retry: 3000\n\nevent: row\ndata: {"seq":1,"time_ms":0.026}\n\n: heartbeat\n\nevent: row\r\ndata: {"seq":2,\ndata: "time_ms":0.034}\r\n\r\nevent: done\ndata: {"received":2}\n\n';
    const expected = [
      { id: null, event: 'row', data: '{"seq":1,"time_ms":0.026}' },
      { id: null, event: 'row', data: '{"seq":2,\n"time_ms":0.034}' },
      { id: null, event: 'done', data: '{"received":2}' },
    ];
    // Every split into two chunks, and three-character chunks, give the same events.
    for (let at = 0; at <= text.length; at += 1) expect(parse([text.slice(0, at), text.slice(at)]).events, `split at ${at}`).toEqual(expected);
    const threes = Array.from({ length: Math.ceil(text.length / 3) }, (_, i) => text.slice(i * 3, i * 3 + 3));
    expect(parse(threes).events).toEqual(expected);
  });

  it('delivers each event as soon as its blank line arrives, not at the end of the stream', () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((event) => events.push(event));
    parser.push('event: row\ndata: {"seq":1}\n');
    expect(events).toHaveLength(0);
    parser.push('\nevent: row\nda');
    expect(events.map((event) => event.data)).toEqual(['{"seq":1}']);
  });
});

describe('toStreamMessage', () => {
  it('parses JSON data, keeps other data as text and a numeric id', () => {
    expect(toStreamMessage({ id: null, event: 'row', data: '{"seq":1,"from":null}' })).toEqual({ event: 'row', data: { seq: 1, from: null } });
    expect(toStreamMessage({ id: '12', event: 'log', data: 'plain text' })).toEqual({ id: 12, event: 'log', data: 'plain text' });
    expect(toStreamMessage({ id: 'x', event: 'log', data: '"quoted"' })).toEqual({ event: 'log', data: 'quoted' });
  });
});
