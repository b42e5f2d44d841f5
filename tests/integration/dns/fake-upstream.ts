import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';

/**
 * A small upstream DNS server for forwarding tests, on a loopback address:
 * answers www/multi/big/nx/fail.example.com, truncates big over UDP, and
 * counts what it was asked, by name and transport.
 */
export class FakeUpstream {
  readonly address: string;
  port = 0;
  readonly asked: { name: string; type: string; tcp: boolean }[] = [];
  private readonly udp = dgram.createSocket('udp4');
  private readonly tcp: net.Server;

  constructor(address: string) {
    this.address = address;
    this.udp.on('message', (msg, rinfo) => {
      const answer = this.answer(msg, false);
      if (answer) this.udp.send(answer, rinfo.port, rinfo.address);
    });
    this.tcp = net.createServer((socket) => {
      let pending = Buffer.alloc(0);
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
          const msg = pending.subarray(2, 2 + pending.readUInt16BE(0));
          pending = pending.subarray(2 + msg.length);
          const answer = this.answer(msg, true);
          if (answer) {
            const length = Buffer.alloc(2);
            length.writeUInt16BE(answer.length);
            socket.write(Buffer.concat([length, answer]));
          }
        }
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.udp.bind(0, this.address, resolve));
    this.port = this.udp.address().port;
    await new Promise<void>((resolve, reject) => {
      this.tcp.once('error', reject);
      this.tcp.listen(this.port, this.address, resolve);
    });
    return this;
  }

  get label(): string {
    return `${this.address}:${this.port}`;
  }

  count(name: string, tcp?: boolean): number {
    return this.asked.filter((entry) => entry.name === name && (tcp === undefined || entry.tcp === tcp)).length;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.udp.close(() => resolve()));
    await new Promise<void>((resolve) => this.tcp.close(() => resolve()));
  }

  private answer(msg: Buffer, tcp: boolean): Buffer | null {
    let query: packet.DecodedPacket;
    try {
      query = packet.decode(msg);
    } catch {
      return null;
    }
    const question = query.questions?.[0];
    if (!question) return null;
    const name = question.name.toLowerCase();
    this.asked.push({ name, type: question.type, tcp });
    const base = { type: 'response' as const, id: query.id, questions: query.questions, flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE };
    const soa = { type: 'SOA' as const, name: 'example.com', ttl: 300, data: { mname: 'ns.example.com', rname: 'h.example.com', minimum: 30 } };
    switch (name) {
      case 'www.example.com':
        return packet.encode({ ...base, answers: [{ type: 'A', name: question.name, ttl: 300, data: '192.0.2.80' }] });
      case 'big.example.com':
        if (!tcp) return packet.encode({ ...base, flags: base.flags | packet.TRUNCATED_RESPONSE });
        return packet.encode({
          ...base,
          answers: Array.from({ length: 6 }, (_, i) => ({ type: 'TXT' as const, name: question.name, ttl: 300, data: `${i}`.repeat(250) })),
        });
      case 'nx.example.com':
        return packet.encode({ ...base, flags: base.flags | 3, authorities: [soa] });
      case 'fail.example.com':
        return packet.encode({ ...base, flags: base.flags | 2 });
      default:
        return packet.encode({ ...base, flags: base.flags | 3, authorities: [soa] });
    }
  }
}

/** A UDP port on 127.0.0.1 that nothing listens on (queries there meet ICMP port unreachable). */
export async function closedPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** A UDP socket that receives and never answers: an upstream that times out. */
export async function silentUpstream(address: string): Promise<{ label: string; close: () => Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  return { label: `${address}:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
