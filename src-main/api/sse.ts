import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import type { SseSettings } from '../core/http-kit/sse-settings.js';
import type { StreamClose, StreamMessage } from '../events/stream-message.js';

/**
 * Server-sent events (WHATWG HTML, "Server-sent events", §9.2): the framing
 * and connection handling that /events/stream and /logs/stream share.
 */

export { DEFAULT_SSE_SETTINGS, type SseSettings } from '../core/http-kit/sse-settings.js';

/**
 * Marks an IPC request injected by `IpcBridge.stream` (which reads the
 * response as it is written). It only counts together with the per-process
 * IPC secret, so an HTTP client cannot use it.
 */
export const IPC_STREAM_HEADER = 'x-bootwright-ipc-stream';

/** The OpenAPI description of a stream route's 200 (the body is not JSON). */
export const SSE_RESPONSE = {
  description: 'A stream of server-sent events (see docs/events-and-logs.md for the framing)',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
} as const;

// Frames are cached per message object, and the sources share one message per
// event among their subscribers: a JSON.stringify per event, not per client.
const frames = new WeakMap<StreamMessage, string>();

/** One message as SSE text: `id:`, `event:`, one `data:` line per line of JSON, blank line. */
export function formatSseMessage(message: StreamMessage): string {
  let frame = frames.get(message);
  if (frame === undefined) {
    let text = '';
    if (message.id !== undefined) text += `id: ${message.id}\n`;
    // A line break would end the field early (§9.2.6); event names never need one.
    text += `event: ${message.event.replace(/[\r\n]/g, '')}\n`;
    for (const line of JSON.stringify(message.data).split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
    frame = `${text}\n`;
    frames.set(message, frame);
  }
  return frame;
}

/** One open stream to one client. */
export class SseStream {
  private readonly raw: ServerResponse;
  private readonly settings: SseSettings;
  private readonly cleanups: StreamClose[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(raw: ServerResponse, settings: SseSettings) {
    this.raw = raw;
    this.settings = settings;
    raw.on('close', () => this.finish());
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes the stream's head: status, headers and the `retry:` hint. */
  start(headers: OutgoingHttpHeaders, headOnly: boolean): void {
    // The client may have gone before the handler ran; its 'close' came and went.
    if (!this.raw.socket || this.raw.socket.destroyed) {
      this.finish();
      return;
    }
    this.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // nginx buffers proxied responses unless told not to; events would arrive in bursts.
      'x-accel-buffering': 'no',
    });
    if (headOnly) {
      this.close();
      return;
    }
    // The IPC bridge's injected response has a stand-in socket without Nagle to turn off.
    const socket = this.raw.socket as { setNoDelay?: unknown } | null;
    if (typeof socket?.setNoDelay === 'function') this.raw.socket?.setNoDelay(true);
    this.raw.write(`retry: ${this.settings.retryMs}\n\n`);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  send(message: StreamMessage): void {
    if (this.ended) return;
    if (this.raw.writableLength > this.settings.maxBufferedBytes) {
      this.raw.destroy();
      return;
    }
    this.write(formatSseMessage(message));
  }

  /** Runs `cleanup` when the stream ends, whoever ends it. */
  onClose(cleanup: StreamClose): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  close(): void {
    if (!this.ended) this.raw.end();
    this.finish();
  }

  private write(text: string): void {
    if (!this.ended && !this.raw.writableEnded) this.raw.write(text);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}

/**
 * The open streams of one route plugin: opens them on a request and ends
 * them all when the server closes (an open stream would otherwise hold
 * `close()` until the sockets are forced shut).
 */
export class SseStreams {
  private readonly open = new Set<SseStream>();
  private readonly settings: SseSettings;

  constructor(app: FastifyInstance, settings: SseSettings) {
    this.settings = settings;
    app.addHook('preClose', async () => {
      for (const stream of [...this.open]) stream.close();
    });
  }

  /**
   * Takes the response over from fastify and starts the stream. Over IPC a
   * stream needs the bridge's streaming call (`IpcBridge.stream`, the
   * one-shot POST streams); `invoke` answers whole responses, and the
   * renderer's GET streams (events, logs) go through the stream hub.
   */
  start(request: FastifyRequest, reply: FastifyReply): SseStream {
    if (request.viaIpc && request.headers[IPC_STREAM_HEADER] !== '1') {
      throw new AppError('BAD_REQUEST', 'streams are not available through bootwright:invoke; subscribe through the stream hub (bootwright:stream) or open a request stream (bootwright:request-stream)');
    }
    reply.hijack();
    const stream = new SseStream(reply.raw, this.settings);
    this.open.add(stream);
    stream.onClose(() => this.open.delete(stream));
    stream.start(reply.getHeaders() as OutgoingHttpHeaders, request.method === 'HEAD');
    return stream;
  }
}
