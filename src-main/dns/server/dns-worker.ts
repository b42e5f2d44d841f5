/**
 * Entry of a DNS worker thread: owns the sockets and answers queries, so DNS
 * never waits on the main thread (API, UI, store) and vice versa. The main
 * thread sends the answer data (a snapshot) on every change and the
 * addresses to listen on; the worker sends metric deltas back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TcpListener, UdpListener, type BindTarget } from './dns-listeners.js';
import { QueryHandler } from './query-handler.js';
import { TcpConnections } from './tcp-connections.js';
import type { BindFailure, DnsWorkerConfig, FromWorker, ToWorker } from './worker-protocol.js';

const METRICS_INTERVAL_MS = 1_000;

const config = workerData as DnsWorkerConfig;
const port = parentPort!;
const handler = new QueryHandler();
const udp = new Map<string, UdpListener>();
const tcp = new Map<string, TcpListener>();
/** One set of TCP limits for all addresses: a client cannot get more by connecting to each. */
const tcpConnections = new TcpConnections();

function post(message: FromWorker): void {
  port.postMessage(message);
}

function flushMetrics(): void {
  const delta = handler.metrics.takeDelta();
  if (delta) post({ type: 'metrics', delta });
}

const timer = setInterval(flushMetrics, METRICS_INTERVAL_MS);
timer.unref();

function where(protocol: 'udp' | 'tcp', address: string): string {
  return `${protocol} ${address.includes(':') ? `[${address}]` : address}:${config.port}`;
}

/** Opens listeners for new targets and closes the ones whose address went away. */
async function bind(targets: BindTarget[]): Promise<{ listen: string[]; failures: BindFailure[] }> {
  const wanted = new Map(targets.map((target) => [target.address, target]));
  for (const [address, listener] of udp) {
    if (wanted.get(address)?.fallbackIpv4 === listener.target.fallbackIpv4) continue;
    udp.delete(address);
    await listener.close();
  }
  for (const [address, listener] of tcp) {
    if (wanted.get(address)?.fallbackIpv4 === listener.target.fallbackIpv4) continue;
    tcp.delete(address);
    await listener.close();
  }
  const failures: BindFailure[] = [];
  for (const target of targets) {
    if (!udp.has(target.address)) {
      const listener = new UdpListener(target, handler, config.reusePort);
      try {
        await listener.bind(config.port);
        udp.set(target.address, listener);
      } catch (err) {
        await listener.close();
        failures.push({ address: target.address, message: (err as Error).message });
        continue;
      }
    }
    if (config.tcp && !tcp.has(target.address)) {
      const listener = new TcpListener(target, handler, tcpConnections);
      try {
        await listener.listen(config.port);
        tcp.set(target.address, listener);
      } catch (err) {
        failures.push({ address: target.address, message: (err as Error).message });
      }
    }
  }
  const listen = [...[...udp.keys()].map((address) => where('udp', address)), ...[...tcp.keys()].map((address) => where('tcp', address))];
  return { listen, failures };
}

async function stop(): Promise<void> {
  clearInterval(timer);
  handler.close();
  await Promise.all([...udp.values(), ...tcp.values()].map((listener) => listener.close()));
  udp.clear();
  tcp.clear();
  flushMetrics();
}

/** Requests run one after another: a bind must not interleave with a stop. */
let queue: Promise<unknown> = Promise.resolve();

port.on('message', (message: ToWorker) => {
  queue = queue.then(async () => {
    switch (message.type) {
      case 'zone':
        handler.setZone(message.snapshot);
        post({ type: 'done', seq: message.seq });
        break;
      case 'bind':
        post({ type: 'done', seq: message.seq, ...(await bind(message.targets)) });
        break;
      case 'flush':
        flushMetrics();
        post({ type: 'done', seq: message.seq });
        break;
      case 'stop':
        await stop();
        post({ type: 'done', seq: message.seq });
        port.close();
        break;
    }
  });
});

post({ type: 'ready' });
