import http from 'node:http';

/** One parsed SSE block: fields as sent, the raw text for framing checks. */
export interface SseFrame {
  raw: string;
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/**
 * A minimal SSE reader over a real socket (node:http), for tests: it keeps
 * every block the server sent and hands them out in order.
 */
export class SseClient {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  private readonly request: http.ClientRequest;
  private readonly frames: SseFrame[] = [];
  private waiters: (() => void)[] = [];
  private buffer = '';
  private ended = false;
  private readonly closed: Promise<void>;

  private constructor(request: http.ClientRequest, response: http.IncomingMessage) {
    this.request = request;
    this.status = response.statusCode ?? 0;
    this.headers = response.headers;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.push(chunk));
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      response.on('close', done);
      response.on('error', done);
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
        resolve(new SseClient(request, response));
      });
      request.on('error', reject);
    });
  }

  /** Opens a stream that takes a JSON body (POST), like /network/ping/stream. */
  static post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const text = JSON.stringify(body);
      const request = http.request(url, { method: 'POST', headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers } }, (response) => {
        resolve(new SseClient(request, response));
      });
      request.on('error', reject);
      request.end(text);
    });
  }

  /** The next block not yet taken (waits for it); throws if the stream ends first. */
  async next(): Promise<SseFrame> {
    for (;;) {
      const frame = this.frames.shift();
      if (frame) return frame;
      if (this.ended) throw new Error('stream ended');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The next block that carries an event (skips retry hints and heartbeats). */
  async nextEvent(): Promise<SseFrame> {
    for (;;) {
      const frame = await this.next();
      if (frame.data !== undefined) return frame;
    }
  }

  /** Resolves when the server or the client has closed the stream. */
  whenClosed(): Promise<void> {
    return this.closed;
  }

  close(): void {
    this.request.destroy();
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    let end = this.buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.frames.push(parseBlock(block));
      end = this.buffer.indexOf('\n\n');
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

function parseBlock(block: string): SseFrame {
  const frame: SseFrame = { raw: `${block}\n\n` };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (field === 'id' || field === 'event' || field === 'retry') frame[field] = value;
  }
  return frame;
}
