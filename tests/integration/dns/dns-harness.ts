import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import { promisify } from 'node:util';
import packet, { type Packet, type Question } from 'dns-packet';
import type { Nic } from '../../../src-main/network/nic.js';
import { createTestCore, type TestCore } from '../../helpers/test-core.js';

const run = promisify(execFile);

/** Our addresses on two fake served interfaces (all of 127/8 is local on Linux), and a client address in each subnet. */
export const SUBNET_A = { server: '127.1.0.1', client: '127.1.0.50', subnet: '127.1.0.0/16' };
export const SUBNET_B = { server: '127.2.0.1', client: '127.2.0.50', subnet: '127.2.0.0/16' };

function nic(name: string, index: number, address: string): Nic {
  return {
    name,
    mac: `02:00:00:00:00:0${index}`,
    mtu: 1500,
    up: true,
    link: 'up',
    internal: false,
    addresses: [{ address, family: 'ipv4', prefix: 16, cidr: `${address}/16`, subnet: `${address.split('.').slice(0, 2).join('.')}.0.0/16` }],
  };
}

export function twoSubnetNics(): Nic[] {
  return [nic('bwdns1', 1, SUBNET_A.server), nic('bwdns2', 2, SUBNET_B.server)];
}

/** A port free for UDP and TCP on both server addresses right now. */
export async function freeDnsPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, SUBNET_A.server, resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(resolve));
    if (await tcpFree(SUBNET_A.server, port) && (await tcpFree(SUBNET_B.server, port))) return port;
  }
  throw new Error('no free port found');
}

function tcpFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export interface DnsCore extends TestCore {
  port: number;
}

/**
 * A core with two fake served interfaces (127.1.0.1/16, 127.2.0.1/16) whose
 * DNS server runs on a free high port. Only the DNS service is started.
 * `workers` pins the worker count (where the runtime allows more than one,
 * each worker has its own forward cache).
 */
export async function startDnsCore(
  options: { upstream?: string; localDomain?: string; serverName?: string; start?: boolean; workers?: number } = {},
): Promise<DnsCore> {
  const t = await createTestCore({ nicReader: twoSubnetNics, ...(options.workers ? { dnsWorkers: options.workers } : {}) });
  const port = await freeDnsPort();
  await t.core.area('dns').settings.update({ port, upstream: options.upstream ?? '', ...(options.localDomain ? { local_domain: options.localDomain } : {}) });
  if (options.serverName) await t.core.kernel.settings.update({ general: { server_name: options.serverName } });
  if (options.start !== false) {
    const status = await t.core.kernel.services.start('dns');
    if (status.state !== 'running') {
      await t.close();
      throw new Error(`dns did not start: ${status.last_error ?? status.state}`);
    }
  }
  return { ...t, port };
}

let nextId = 1;

export interface QueryOptions {
  server?: string;
  port: number;
  /** Source address of the query (a client in one of the subnets). */
  from?: string;
  edns?: number | null;
  id?: number;
  timeoutMs?: number;
}

/** Sends one query over UDP and returns the raw answer. */
export async function udpExchange(message: Buffer, options: QueryOptions): Promise<Buffer> {
  const socket = dgram.createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, options.from ?? SUBNET_A.client, () => resolve());
    });
    return await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer over UDP')), options.timeoutMs ?? 3000);
      socket.once('message', (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      socket.send(message, options.port, options.server ?? SUBNET_A.server);
    });
  } finally {
    socket.close();
  }
}

/** Sends raw bytes over UDP; resolves null when nothing comes back in time. */
export async function udpMaybe(message: Buffer, options: QueryOptions): Promise<Buffer | null> {
  try {
    return await udpExchange(message, { ...options, timeoutMs: options.timeoutMs ?? 300 });
  } catch {
    return null;
  }
}

/** Sends one query over TCP (RFC 7766 framing) and returns the raw answer. */
export async function tcpExchange(message: Buffer, options: QueryOptions): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect({ host: options.server ?? SUBNET_A.server, port: options.port, localAddress: options.from ?? SUBNET_A.client });
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer over TCP'));
    }, options.timeoutMs ?? 3000);
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('connect', () => {
      const framed = Buffer.alloc(message.length + 2);
      framed.writeUInt16BE(message.length, 0);
      message.copy(framed, 2);
      socket.write(framed);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.subarray(2, 2 + received.readUInt16BE(0)));
      }
    });
  });
}

export function encodeQuery(name: string, type: Question['type'], options: { id?: number; edns?: number | null; rd?: boolean; klass?: Question['class'] } = {}): Buffer {
  const id = options.id ?? (nextId++ & 0xffff);
  const query: Packet = {
    type: 'query',
    id,
    flags: options.rd === false ? 0 : packet.RECURSION_DESIRED,
    questions: [{ name, type, class: options.klass ?? 'IN' }],
  };
  if (options.edns) {
    query.additionals = [{ name: '.', type: 'OPT', udpPayloadSize: options.edns, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }];
  }
  return packet.encode(query);
}

export type Decoded = ReturnType<typeof packet.decode>;

/** Asks over UDP (or TCP) with dns-packet and decodes the answer. */
export async function query(name: string, type: Question['type'], options: QueryOptions & { tcp?: boolean; klass?: Question['class'] }): Promise<Decoded> {
  const message = encodeQuery(name, type, { edns: options.edns ?? null, ...(options.klass ? { klass: options.klass } : {}) });
  const raw = options.tcp ? await tcpExchange(message, options) : await udpExchange(message, options);
  const decoded = packet.decode(raw);
  if (decoded.id !== message.readUInt16BE(0)) throw new Error('answer ID does not match');
  return decoded;
}

/** Runs dig and returns its stdout (+short or full output as asked). */
export async function dig(args: string[], options: { port: number; server?: string; from?: string }): Promise<string> {
  const { stdout } = await run('dig', [`@${options.server ?? SUBNET_A.server}`, '-p', String(options.port), '-b', options.from ?? SUBNET_A.client, '+time=2', '+tries=1', ...args]);
  return stdout;
}

export async function haveDig(): Promise<boolean> {
  try {
    await run('dig', ['-v']);
    return true;
  } catch {
    return false;
  }
}

export function rcodeOf(decoded: Decoded): string {
  return (decoded as unknown as { rcode: string }).rcode;
}

export function flagOf(decoded: Decoded, flag: 'flag_aa' | 'flag_tc' | 'flag_ra' | 'flag_rd'): boolean {
  return (decoded as unknown as Record<string, boolean>)[flag] === true;
}
