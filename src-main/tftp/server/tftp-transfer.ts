import { errorMessage } from '../../core/errors.js';
import type { ByteSource } from './byte-source.js';
import { encode, type TftpOption, type TftpPacket } from './tftp-codec.js';
import { TFTP_ERROR, TFTP_OPCODES } from './tftp-constants.js';

/** Where a transfer's packets go: its own socket, connected to the client's TID. */
export interface TransferLink {
  send(parts: Buffer[]): void;
}

export interface TransferParams {
  blksize: number;
  windowsize: number;
  timeoutMs: number;
  /** Retransmissions of one window (or OACK) before giving up. */
  retries: number;
  /** The OACK to send first; empty when the client asked for no option we granted. */
  oack: TftpOption[];
}

export type TransferOutcome =
  | { result: 'completed' }
  | { result: 'failed'; error: string; /** The client ended it (ERROR packet) before any data: a tsize probe, not a failure. */ probe: boolean };

export interface TransferStats {
  /** Bytes of the file the client acknowledged. */
  bytes: number;
  /** DATA packets sent again after a timeout or a rolled-back window. */
  retransmits: number;
  durationMs: number;
}

export interface TransferHooks {
  /** The first DATA packet is about to go out (after the OACK was acknowledged). */
  onStarted(): void;
  onFinished(outcome: TransferOutcome, stats: TransferStats): void;
}

const DATA_HEADER = 4;

/**
 * One read transfer: sends windows of DATA blocks (RFC 7440; a window of one
 * is plain RFC 1350 lock-step) and advances on ACKs.
 *
 * Block numbers are 16 bits on the wire and wrap to 0 after 65535 (as
 * tftp-hpa does); internally blocks are counted without wrapping, and an ACK
 * is mapped to the one block of the current window that carries its number.
 *
 * Sorcerer's Apprentice (RFC 1123 §4.2.3.1): a duplicate ACK never triggers
 * a retransmission; only the timer does. An ACK inside the window that is
 * short of its end rolls the window back to the block after it (RFC 7440 §4).
 */
export class TftpTransfer {
  private readonly source: ByteSource;
  private readonly link: TransferLink;
  private readonly params: TransferParams;
  private readonly hooks: TransferHooks;
  /** Internal number of the last block: the first one shorter than blksize (empty when size is a multiple). */
  private readonly lastBlock: number;
  private phase: 'idle' | 'oack' | 'data' | 'done' = 'idle';
  /** Highest block the client acknowledged in order. */
  private acked = 0;
  /** Highest block sent so far; an ACK beyond it acknowledges nothing we sent. */
  private highestSent = 0;
  private attempts = 0;
  private retransmits = 0;
  /** Bumped on every new window, so a window waiting for the disk is dropped when a newer one replaced it. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;

  constructor(source: ByteSource, link: TransferLink, params: TransferParams, hooks: TransferHooks) {
    this.source = source;
    this.link = link;
    this.params = params;
    this.hooks = hooks;
    this.lastBlock = Math.floor(source.size / params.blksize) + 1;
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  start(): void {
    if (this.phase !== 'idle') return;
    this.startedAt = performance.now();
    this.timer = setTimeout(() => this.onTimeout(), this.params.timeoutMs);
    if (this.params.oack.length > 0) {
      this.phase = 'oack';
      this.sendOack();
      return;
    }
    this.beginData();
  }

  /** A packet from the client's TID. */
  handle(packet: TftpPacket): void {
    if (this.phase === 'done' || this.phase === 'idle') return;
    if (packet.op === 'error') {
      this.finish({ result: 'failed', error: `client sent error ${packet.code}: ${packet.message}`, probe: this.phase === 'oack' });
      return;
    }
    if (packet.op !== 'ack') {
      // RFC 1350: anything but ACK or ERROR from the reader is an illegal operation and ends the transfer.
      this.sendError(TFTP_ERROR.ILLEGAL_OPERATION, `unexpected ${packet.op.toUpperCase()} during a read transfer`);
      this.finish({ result: 'failed', error: `client sent ${packet.op.toUpperCase()} during a read transfer`, probe: false });
      return;
    }
    this.ack(packet.block);
  }

  /** An ACK with 16-bit block number `block` (the server reads ACKs straight off the wire). */
  ack(block: number): void {
    if (this.phase === 'oack') {
      if (block === 0) this.beginData();
      return;
    }
    if (this.phase !== 'data') return;
    const delta = (block - (this.acked & 0xffff)) & 0xffff;
    // delta 0: a duplicate of the last ACK. Answering it would double every later block (Sorcerer's Apprentice).
    if (delta === 0 || delta > this.highestSent - this.acked) return;
    this.acked += delta;
    this.attempts = 0;
    if (this.acked >= this.lastBlock) {
      this.finish({ result: 'completed' });
      return;
    }
    this.sendWindow();
  }

  /** The socket failed (the client's port is gone) or the server is stopping. */
  abort(reason: string, notifyClient: boolean): void {
    if (this.phase === 'done') return;
    if (notifyClient) this.sendError(TFTP_ERROR.NOT_DEFINED, reason);
    this.finish({ result: 'failed', error: reason, probe: false });
  }

  private beginData(): void {
    this.phase = 'data';
    this.attempts = 0;
    this.hooks.onStarted();
    this.sendWindow();
  }

  private onTimeout(): void {
    if (this.phase === 'done') return;
    this.attempts++;
    if (this.attempts > this.params.retries) {
      this.sendError(TFTP_ERROR.NOT_DEFINED, 'timed out waiting for ACK');
      this.finish({ result: 'failed', error: `no ACK after ${this.params.retries} retransmissions`, probe: false });
      return;
    }
    if (this.phase === 'oack') {
      this.sendOack();
      return;
    }
    this.sendWindow();
  }

  /** Sends blocks acked+1 … acked+windowsize (never past the last) and restarts the timer. */
  private sendWindow(): void {
    const generation = ++this.generation;
    const from = this.acked + 1;
    const to = Math.min(this.acked + this.params.windowsize, this.lastBlock);
    // Blocks sent before (after a timeout or a rolled-back window) count as retransmissions.
    if (this.highestSent >= from) this.retransmits += Math.min(to, this.highestSent) - from + 1;
    this.highestSent = Math.max(this.highestSent, to);
    this.timer?.refresh();
    this.sendBlocks(from, to, generation);
  }

  private sendBlocks(from: number, to: number, generation: number): void {
    const blksize = this.params.blksize;
    for (let block = from; block <= to; block++) {
      const data = this.source.read((block - 1) * blksize, blksize);
      if (data instanceof Promise) {
        data.then(
          (bytes) => {
            if (generation !== this.generation || this.phase !== 'data') return;
            this.sendData(block, bytes);
            this.sendBlocks(block + 1, to, generation);
          },
          (err: unknown) => {
            if (this.phase === 'done') return;
            this.sendError(TFTP_ERROR.NOT_DEFINED, 'read error on the server');
            this.finish({ result: 'failed', error: `reading the file failed: ${errorMessage(err)}`, probe: false });
          },
        );
        return;
      }
      this.sendData(block, data);
    }
  }

  private sendData(block: number, data: Buffer): void {
    const header = Buffer.allocUnsafe(DATA_HEADER);
    header.writeUInt16BE(TFTP_OPCODES.data, 0);
    header.writeUInt16BE(block & 0xffff, 2);
    this.link.send(data.length > 0 ? [header, data] : [header]);
  }

  private sendOack(): void {
    this.timer?.refresh();
    this.link.send([encode({ op: 'oack', options: this.params.oack })]);
  }

  private sendError(code: number, message: string): void {
    this.link.send([encode({ op: 'error', code, message })]);
  }

  private finish(outcome: TransferOutcome): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const bytes = Math.min(this.acked * this.params.blksize, this.source.size);
    this.hooks.onFinished(outcome, { bytes, retransmits: this.retransmits, durationMs: performance.now() - this.startedAt });
  }
}
