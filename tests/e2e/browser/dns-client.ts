import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import type { Nic } from '../../../src-main/network/nic.js';

/** Our address on the one fake interface: all of 127/8 is local on Linux, so the DNS server really listens here. */
export const DNS_SERVER = '127.77.0.1';

/** A served interface with a loopback address (the core's `nicReader` test option). */
export function loopbackNic(): Nic {
  return {
    name: 'bwe2e0',
    mac: '02:00:00:e2:e0:01',
    mtu: 1500,
    up: true,
    link: 'up',
    internal: false,
    addresses: [{ address: DNS_SERVER, family: 'ipv4', prefix: 16, cidr: `${DNS_SERVER}/16`, subnet: '127.77.0.0/16' }],
  };
}

/** A port free for both UDP and TCP on `host` right now (the DNS server binds both). */
export async function freeUdpTcpPort(host: string): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, host, resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(resolve));
    const tcpFree = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (tcpFree) return port;
  }
  throw new Error('no free port found');
}

/** Asks our DNS server for the A records of `name` over UDP (dns-packet) and returns the addresses. */
export async function resolveA(name: string, port: number, server = DNS_SERVER, timeoutMs = 3000): Promise<string[]> {
  const id = Math.floor(Math.random() * 65535);
  const query = packet.encode({ type: 'query', id, flags: packet.RECURSION_DESIRED, questions: [{ name, type: 'A', class: 'IN' }] });
  const socket = dgram.createSocket('udp4');
  try {
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no DNS answer from ${server}:${port}`)), timeoutMs);
      socket.once('error', reject);
      socket.once('message', (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      socket.send(query, port, server);
    });
    const answer = packet.decode(raw);
    if (answer.id !== id) throw new Error('DNS answer ID does not match the query');
    return (answer.answers ?? []).flatMap((record) => (record.type === 'A' ? [record.data] : []));
  } finally {
    socket.close();
  }
}
