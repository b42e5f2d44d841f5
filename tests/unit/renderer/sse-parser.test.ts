import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../../src-renderer/src/api/sse-parser.js';

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
});
