import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpConnections, type TcpLimits } from '../../../../src-main/dns/server/tcp-connections.js';

/**
 * The limiter alone, behind a plain TCP server on loopback: clients are
 * 127.0.0.x source addresses. Idle timeouts are long here so that what the
 * tests see is the caps and the eviction, never a timer.
 */

interface Harness {
  server: net.Server;
  port: number;
  connections: TcpConnections;
  /** Server-side sockets in arrival order, admitted or not. */
  accepted: net.Socket[];
  clients: net.Socket[];
}

let harness: Harness | null = null;

afterEach(async () => {
  if (!harness) return;
  for (const socket of harness.clients) socket.destroy();
  harness.connections.closeAll();
  await new Promise<void>((resolve) => harness!.server.close(() => resolve()));
  harness = null;
});

async function start(limits: Partial<TcpLimits>): Promise<Harness> {
  const connections = new TcpConnections({ idleMs: 60_000, busyIdleMs: 30_000, ...limits });
  const accepted: net.Socket[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    accepted.push(socket);
    if (!connections.admit(socket)) return;
    // A whole "query" (a line) marks the connection as used.
    socket.on('data', () => connections.touch(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  harness = { server, port, connections, accepted, clients: [] };
  return harness;
}

/** Opens a connection from `from`; resolves once the server has dealt with it (admitted or closed it). */
async function connect(h: Harness, from: string): Promise<{ socket: net.Socket; closed: () => boolean }> {
  const before = h.accepted.length;
  let closed = false;
  const socket = net.connect({ host: '127.0.0.1', port: h.port, localAddress: from });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
  });
  h.clients.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  await until(() => h.accepted.length > before);
  return { socket, closed: () => closed };
}

async function until(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('DNS-over-TCP connection limits', () => {
  it('closes a client\'s connections beyond its cap and lets other clients in', async () => {
    const h = await start({ maxConnections: 64, maxPerClient: 4 });
    const greedy: Awaited<ReturnType<typeof connect>>[] = [];
    for (let i = 0; i < 10; i++) greedy.push(await connect(h, '127.0.0.2'));
    await until(() => greedy.filter((c) => c.closed()).length === 6);
    expect(greedy.slice(0, 4).every((c) => !c.closed())).toBe(true);
    expect(h.connections.size).toBe(4);
    const other = await connect(h, '127.0.0.3');
    expect(h.connections.size).toBe(5);
    expect(other.closed()).toBe(false);
  });

  it('at the global cap closes the least recently active connection to admit a new one', async () => {
    const h = await start({ maxConnections: 6, maxPerClient: 2 });
    const conns: Awaited<ReturnType<typeof connect>>[] = [];
    for (let i = 0; i < 6; i++) conns.push(await connect(h, `127.0.0.${10 + Math.floor(i / 2)}`));
    // The first connection asks something: now the second is the least recently active.
    conns[0]!.socket.write('query\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const newcomer = await connect(h, '127.0.0.20');
    await until(() => conns[1]!.closed());
    expect(newcomer.closed()).toBe(false);
    expect(conns[0]!.closed()).toBe(false);
    expect(conns.slice(2).every((c) => !c.closed())).toBe(true);
    expect(h.connections.size).toBe(6);
  });

  it('gives every connection the short idle timeout once more than half the cap is open', async () => {
    const h = await start({ maxConnections: 4, maxPerClient: 4, idleMs: 60_000, busyIdleMs: 200 });
    const first = await connect(h, '127.0.0.30');
    const second = await connect(h, '127.0.0.31');
    expect(h.accepted[0]!.timeout).toBe(60_000);
    // The third passes half of 4: all three now time out after 200 ms of silence.
    const third = await connect(h, '127.0.0.32');
    expect(h.accepted.map((socket) => socket.timeout)).toEqual([200, 200, 200]);
    await until(() => first.closed() && second.closed() && third.closed());
    expect(h.connections.size).toBe(0);
  });
});
