import type { StreamMessage } from './transport.js';

/** One dispatched server-sent event, before its data is interpreted. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Incremental parser of the `text/event-stream` format (WHATWG HTML
 * §9.2.6 "Interpreting an event stream"): feed decoded text in any chunking,
 * get each event when its blank line arrives. `retry:` is ignored (the
 * caller owns reconnection).
 */
export class SseParser {
  private buffer = '';
  private afterCr = false;
  private data: string[] = [];
  private event = '';
  private id: string | null = null;
  /** The last id seen, kept across events as the spec's "last event ID buffer". */
  lastEventId: string | null = null;
  private readonly onEvent: (event: SseEvent) => void;

  constructor(onEvent: (event: SseEvent) => void) {
    this.onEvent = onEvent;
  }

  push(text: string): void {
    // A CR that ended the previous chunk already ended its line; a LF right after it is the CRLF's second half.
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    this.buffer += text;
    // Lines end in CRLF, LF or CR.
    for (;;) {
      const match = /\r\n|\n|\r/.exec(this.buffer);
      if (!match) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (match[0] === '\r' && this.buffer === '') this.afterCr = true;
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }

  private dispatch(): void {
    if (this.id !== null) this.lastEventId = this.id;
    const hasData = this.data.length > 0;
    const event: SseEvent = { id: this.id, event: this.event || 'message', data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    this.id = null;
    if (hasData) this.onEvent(event);
  }
}

/** An event as a stream message: JSON data parsed (other data stays text), a numeric id kept. */
export function toStreamMessage(event: SseEvent): StreamMessage {
  let data: unknown = event.data;
  try {
    data = JSON.parse(event.data);
  } catch {
    // Non-JSON data stays text.
  }
  const message: StreamMessage = { event: event.event, data };
  const id = event.id === null ? NaN : Number(event.id);
  if (Number.isInteger(id)) message.id = id;
  return message;
}
