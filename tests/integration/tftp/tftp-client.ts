import dgram from 'node:dgram';
import { decode, encode, type TftpPacket } from '../../../src-main/tftp/server/tftp-codec.js';

/** Knobs that make the client misbehave the way real networks and clients do. */
export interface ClientBehaviour {
  /** Return true to drop (not send) this ACK; `attempt` counts ACKs of this block so far. */
  dropAck?: (block: number, attempt: number) => boolean;
  /** Return true to send this ACK twice. */
  duplicateAck?: (block: number) => boolean;
  /** Return true to ignore (lose) this DATA packet as if the network dropped it. */
  loseData?: (block: number, seen: number) => boolean;
  /** Stop after the OACK with this ERROR instead of acknowledging it (a PXE tsize probe). */
  abortAfterOack?: boolean;
  /** Resend the RRQ this many extra times right away (a client retrying too early). */
  repeatRequest?: number;
}

export interface GetOptions {
  host?: string;
  port: number;
  file: string;
  mode?: 'octet' | 'netascii';
  options?: Record<string, string>;
  behaviour?: ClientBehaviour;
  /** The client's own retransmission timeout. */
  retransmitMs?: number;
  /** Give up after this long (bounded test time). */
  limitMs?: number;
}

export interface GetResult {
  data: Buffer;
  oack: Record<string, string> | null;
  error: { code: number; message: string } | null;
  /** DATA packets received, duplicates included. */
  dataPackets: number;
  /** DATA packets for blocks already received. */
  duplicateData: number;
  /** The server's transfer port (its TID). */
  serverPort: number | null;
  /** ERROR packets received from ports other than the transfer's. */
  strayErrors: number;
}

/**
 * A small TFTP read client for tests: RFC 1350 lock-step or RFC 7440
 * windows, with knobs to drop or duplicate ACKs and lose DATA. Only talks to
 * loopback.
 */
export function tftpGet(options: GetOptions): Promise<GetResult> {
  const host = options.host ?? '127.0.0.1';
  const behaviour = options.behaviour ?? {};
  const requested = options.options ?? {};
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const chunks: Buffer[] = [];
  const result: GetResult = { data: Buffer.alloc(0), oack: null, error: null, dataPackets: 0, duplicateData: 0, serverPort: null, strayErrors: 0 };
  let blksize = 512;
  let windowsize = 1;
  let expected = 1;
  let inWindow = 0;
  let lastAck: number | null = null;
  let gapAcked = false;
  const ackAttempts = new Map<number, number>();
  const seenData = new Map<number, number>();

  return new Promise<GetResult>((resolve, reject) => {
    let retransmit: NodeJS.Timeout | null = null;
    let done = false;
    const limit = setTimeout(() => finish(new Error(`transfer of ${options.file} did not end within ${options.limitMs ?? 20_000} ms`)), options.limitMs ?? 20_000);
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      if (retransmit) clearTimeout(retransmit);
      socket.close();
      result.data = Buffer.concat(chunks);
      if (err) reject(err);
      else resolve(result);
    };
    const sendTo = (packet: TftpPacket, port: number) => socket.send(encode(packet), port, host);
    const armRetransmit = (action: () => void) => {
      if (retransmit) clearTimeout(retransmit);
      retransmit = setTimeout(() => {
        if (done) return;
        action();
        armRetransmit(action);
      }, options.retransmitMs ?? 1000);
    };
    const ack = (block: number) => {
      const wire = block & 0xffff;
      lastAck = block;
      const attempt = (ackAttempts.get(block) ?? 0) + 1;
      ackAttempts.set(block, attempt);
      if (behaviour.dropAck?.(block, attempt)) return;
      sendTo({ op: 'ack', block: wire }, result.serverPort!);
      if (behaviour.duplicateAck?.(block)) sendTo({ op: 'ack', block: wire }, result.serverPort!);
    };
    const request: TftpPacket = {
      op: 'rrq',
      filename: options.file,
      mode: options.mode ?? 'octet',
      options: Object.entries(requested).map(([name, value]) => ({ name, value })),
    };

    socket.on('message', (message, rinfo) => {
      if (done) return;
      let packet: TftpPacket;
      try {
        packet = decode(message);
      } catch {
        return;
      }
      if (result.serverPort === null) result.serverPort = rinfo.port;
      else if (rinfo.port !== result.serverPort) {
        if (packet.op === 'error') result.strayErrors++;
        // RFC 1350 §4: a packet from another TID is answered with error 5 and does not disturb the transfer.
        else sendTo({ op: 'error', code: 5, message: 'unknown transfer ID' }, rinfo.port);
        return;
      }
      switch (packet.op) {
        case 'error':
          result.error = { code: packet.code, message: packet.message };
          finish();
          return;
        case 'oack': {
          result.oack = Object.fromEntries(packet.options.map((o) => [o.name.toLowerCase(), o.value]));
          if (behaviour.abortAfterOack) {
            // Close only once sent: an unconnected send resolves its address first, and close() would cancel it.
            socket.send(encode({ op: 'error', code: 8, message: 'tsize probe only' }), rinfo.port, host, () => finish());
            return;
          }
          if (result.oack.blksize) blksize = Number(result.oack.blksize);
          if (result.oack.windowsize) windowsize = Number(result.oack.windowsize);
          ack(0);
          armRetransmit(() => ack(lastAck ?? 0));
          return;
        }
        case 'data': {
          result.dataPackets++;
          const seen = (seenData.get(packet.block) ?? 0) + 1;
          seenData.set(packet.block, seen);
          if (behaviour.loseData?.(expected, seen) && packet.block === (expected & 0xffff)) return;
          if (packet.block !== (expected & 0xffff)) {
            result.duplicateData++;
            // RFC 7440 §4: out of order, acknowledge the last block received in sequence, once.
            if (windowsize > 1 && !gapAcked && expected > 1) {
              gapAcked = true;
              inWindow = 0;
              ack(expected - 1);
            } else if (windowsize === 1 && packet.block === ((expected - 1) & 0xffff)) {
              // Lock-step: the server resent the block our ACK was for; ACK it again (RFC 1350).
              ack(expected - 1);
            }
            return;
          }
          gapAcked = false;
          chunks.push(Buffer.from(packet.data));
          expected++;
          inWindow++;
          const last = packet.data.length < blksize;
          if (last || inWindow >= windowsize) {
            inWindow = 0;
            ack(expected - 1);
          }
          if (last) {
            // Dally briefly (RFC 1350 §6) so a lost final ACK can be repeated; then done.
            if (retransmit) clearTimeout(retransmit);
            setTimeout(() => finish(), 20);
            return;
          }
          armRetransmit(() => ack(lastAck ?? 0));
          return;
        }
        default:
          return;
      }
    });
    socket.bind(0, host.includes(':') ? '::1' : '127.0.0.1', () => {
      socket.send(encode(request), options.port, host);
      for (let i = 0; i < (behaviour.repeatRequest ?? 0); i++) socket.send(encode(request), options.port, host);
      armRetransmit(() => {
        if (result.serverPort === null) socket.send(encode(request), options.port, host);
      });
    });
  });
}
