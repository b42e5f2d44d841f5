/** Reads a live pcap stream (tcpdump -U -w -): Ethernet frames with their IPv4/UDP fields. */
export interface CapturedUdp {
  ethSource: string;
  ethDestination: string;
  ipSource: string;
  ipDestination: string;
  sourcePort: number;
  destinationPort: number;
  payload: Buffer;
}

const GLOBAL_HEADER = 24;
const RECORD_HEADER = 16;

function mac(buf: Buffer): string {
  return [...buf].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

/** Collects UDP-over-IPv4 frames from pcap bytes as they arrive. */
export class PcapStream {
  readonly packets: CapturedUdp[] = [];
  private buffer = Buffer.alloc(0);
  private headerSeen = false;
  private readonly waiters: (() => void)[] = [];

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (!this.headerSeen) {
      if (this.buffer.length < GLOBAL_HEADER) return;
      if (this.buffer.readUInt32LE(0) !== 0xa1b2c3d4) throw new Error('not a little-endian microsecond pcap stream');
      if (this.buffer.readUInt32LE(20) !== 1) throw new Error('expected Ethernet link type');
      this.buffer = this.buffer.subarray(GLOBAL_HEADER);
      this.headerSeen = true;
    }
    while (this.buffer.length >= RECORD_HEADER) {
      const length = this.buffer.readUInt32LE(8);
      if (this.buffer.length < RECORD_HEADER + length) break;
      this.frame(this.buffer.subarray(RECORD_HEADER, RECORD_HEADER + length));
      this.buffer = this.buffer.subarray(RECORD_HEADER + length);
    }
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves when `count` UDP packets have been captured; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<CapturedUdp[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.packets.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`captured ${this.packets.length} UDP packets, expected ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.packets.slice(0, count);
  }

  private frame(frame: Buffer): void {
    if (frame.length < 14 + 20 + 8 || frame.readUInt16BE(12) !== 0x0800) return;
    const ip = frame.subarray(14);
    const headerLength = (ip[0]! & 0x0f) * 4;
    if (ip[9] !== 17) return;
    const udp = ip.subarray(headerLength);
    const udpLength = udp.readUInt16BE(4);
    this.packets.push({
      ethDestination: mac(frame.subarray(0, 6)),
      ethSource: mac(frame.subarray(6, 12)),
      ipSource: [...ip.subarray(12, 16)].join('.'),
      ipDestination: [...ip.subarray(16, 20)].join('.'),
      sourcePort: udp.readUInt16BE(0),
      destinationPort: udp.readUInt16BE(2),
      payload: Buffer.from(udp.subarray(8, udpLength)),
    });
  }
}
