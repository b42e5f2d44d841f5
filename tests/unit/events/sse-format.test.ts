import { describe, expect, it } from 'vitest';
import { formatSseMessage } from '../../../src-main/api/sse.js';

describe('SSE framing', () => {
  it('writes id, event and data lines and ends with a blank line', () => {
    expect(formatSseMessage({ id: 7, event: 'service.started', data: { a: 1 } })).toBe('id: 7\nevent: service.started\ndata: {"a":1}\n\n');
  });

  it('omits id when the message has none (log lines)', () => {
    expect(formatSseMessage({ event: 'log', data: { message: 'x' } })).toBe('event: log\ndata: {"message":"x"}\n\n');
  });

  it('keeps line breaks inside data escaped on one line and strips them from the event name', () => {
    const frame = formatSseMessage({ id: 1, event: 'bad\nname', data: { text: 'two\nlines\r\n' } });
    expect(frame).toBe('id: 1\nevent: badname\ndata: {"text":"two\\nlines\\r\\n"}\n\n');
    expect(frame.split('\n\n')).toHaveLength(2);
  });

  it('serialises a message once however many clients receive it', () => {
    const message = { id: 2, event: 'x.y', data: { n: 1 } };
    const first = formatSseMessage(message);
    message.data.n = 2; // the cache is per message object: the stored event never changes
    expect(formatSseMessage(message)).toBe(first);
  });
});
