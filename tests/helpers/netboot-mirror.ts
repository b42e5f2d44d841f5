import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** How the mirror misbehaves for one path. */
export interface MirrorFileBehaviour {
  /** Ignore Range (answer 200 with everything), like a server without range support. */
  noRange?: boolean;
  /** Close the connection after sending this many body bytes, for the next `cutTimes` requests (default 1). */
  cutAfter?: number;
  cutTimes?: number;
  /** Send the headers and this many bytes, then nothing (a stalled mirror). */
  stallAfter?: number;
  /** Answer 302 to this Location instead. */
  redirect?: string;
  /** Hold the response until `release()` (concurrent requests share one download). */
  gate?: Promise<void>;
}

export interface MirrorRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A local HTTP "mirror" for the netboot download tests (never the internet):
 * files by path, strong ETags, single byte ranges with If-Range, and
 * per-path misbehaviour (cut connections, stalls, no range support,
 * redirects). Every request is recorded.
 */
export class NetbootMirror {
  readonly files = new Map<string, Buffer>();
  readonly behaviour = new Map<string, MirrorFileBehaviour>();
  readonly requests: MirrorRequest[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly cuts = new Map<string, number>();
  port = 0;

  constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address && typeof address === 'object') this.port = address.port;
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  url(path: string): string {
    return `${this.base}/${path}`;
  }

  requestsFor(path: string): MirrorRequest[] {
    return this.requests.filter((request) => request.path === `/${path}`);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    this.requests.push({ path, headers: req.headers });
    const key = path.slice(1);
    const behaviour = this.behaviour.get(key) ?? {};
    if (behaviour.gate) await behaviour.gate;
    if (behaviour.redirect) {
      res.writeHead(302, { location: behaviour.redirect }).end();
      return;
    }
    const content = this.files.get(key);
    if (!content) {
      res.writeHead(404).end('not found');
      return;
    }
    const etag = `"${createHash('sha256').update(content).digest('hex').slice(0, 16)}"`;
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
    const ifRange = req.headers['if-range'];
    if (range && !behaviour.noRange && (ifRange === undefined || ifRange === etag)) {
      start = Number(range[1]);
      if (start >= content.length) {
        res.writeHead(416, { 'content-range': `bytes */${content.length}` }).end();
        return;
      }
      status = 206;
    }
    const body = content.subarray(start);
    const headers: http.OutgoingHttpHeaders = { 'content-length': body.length, etag, 'accept-ranges': behaviour.noRange ? 'none' : 'bytes' };
    if (status === 206) headers['content-range'] = `bytes ${start}-${content.length - 1}/${content.length}`;
    res.writeHead(status, headers);
    if (behaviour.stallAfter !== undefined) {
      res.write(body.subarray(0, behaviour.stallAfter));
      return; // and never more: the client's stall timeout must end it
    }
    const cutsDone = this.cuts.get(key) ?? 0;
    if (behaviour.cutAfter !== undefined && cutsDone < (behaviour.cutTimes ?? 1)) {
      this.cuts.set(key, cutsDone + 1);
      res.write(body.subarray(0, behaviour.cutAfter), () => {
        // Mid-body: the client got a Content-Length it will never see fulfilled. The pause lets a
        // loaded client take some of the bytes first (what it has not read is lost with the connection).
        setTimeout(() => res.socket?.destroy(), 150);
      });
      return;
    }
    res.end(body);
  }
}

export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}
