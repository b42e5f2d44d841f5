import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemorySource, type ByteSource } from '../../../../src-main/tftp/server/byte-source.js';
import { decode, type TftpPacket } from '../../../../src-main/tftp/server/tftp-codec.js';
import { TftpTransfer, type TransferOutcome, type TransferParams, type TransferStats } from '../../../../src-main/tftp/server/tftp-transfer.js';

interface Harness {
  transfer: TftpTransfer;
  sent: TftpPacket[];
  started: number;
  finished: { outcome: TransferOutcome; stats: TransferStats } | null;
}

function harness(content: Buffer | ByteSource, params: Partial<TransferParams> = {}): Harness {
  const source = Buffer.isBuffer(content) ? new MemorySource(content) : content;
  const h: Harness = { transfer: null as unknown as TftpTransfer, sent: [], started: 0, finished: null };
  h.transfer = new TftpTransfer(
    source,
    { send: (parts) => h.sent.push(decode(Buffer.concat(parts))) },
    { blksize: 512, windowsize: 1, timeoutMs: 1000, retries: 3, oack: [], ...params },
    { onStarted: () => h.started++, onFinished: (outcome, stats) => (h.finished = { outcome, stats }) },
  );
  return h;
}

const dataBlocks = (packets: TftpPacket[]) => packets.filter((p): p is Extract<TftpPacket, { op: 'data' }> => p.op === 'data').map((p) => p.block);
const ack = (block: number): TftpPacket => ({ op: 'ack', block });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TFTP transfer state machine', () => {
  it('sends lock-step blocks and completes on the ACK of the short last block', () => {
    const h = harness(Buffer.alloc(1300, 1));
    h.transfer.start();
    expect(dataBlocks(h.sent)).toEqual([1]);
    h.transfer.handle(ack(1));
    h.transfer.handle(ack(2));
    expect(dataBlocks(h.sent)).toEqual([1, 2, 3]);
    expect(h.finished).toBeNull();
    h.transfer.handle(ack(3));
    expect(h.finished?.outcome).toEqual({ result: 'completed' });
    expect(h.finished?.stats).toMatchObject({ bytes: 1300, retransmits: 0 });
    expect(h.started).toBe(1);
  });

  it('never answers a duplicate ACK (no Sorcerer\'s Apprentice): every block goes out exactly once', () => {
    const h = harness(Buffer.alloc(512 * 10 + 1, 2));
    h.transfer.start();
    for (let block = 1; block <= 11; block++) {
      h.transfer.handle(ack(block));
      h.transfer.handle(ack(block));
      h.transfer.handle(ack(block - 1));
    }
    expect(dataBlocks(h.sent)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(h.finished?.outcome.result).toBe('completed');
  });

  it('retransmits after a lost ACK on the timer, and gives up after the retry limit', () => {
    const h = harness(Buffer.alloc(2000, 3), { retries: 2 });
    h.transfer.start();
    h.transfer.handle(ack(1));
    expect(dataBlocks(h.sent)).toEqual([1, 2]);
    vi.advanceTimersByTime(1000);
    expect(dataBlocks(h.sent)).toEqual([1, 2, 2]);
    h.transfer.handle(ack(2));
    expect(dataBlocks(h.sent)).toEqual([1, 2, 2, 3]);
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(1000);
    expect(h.finished).toBeNull();
    vi.advanceTimersByTime(1000);
    expect(h.finished?.outcome).toMatchObject({ result: 'failed', probe: false });
    expect(h.finished?.stats.retransmits).toBe(3);
    expect(h.sent.at(-1)).toMatchObject({ op: 'error', code: 0 });
  });

  it('sends OACK first, starts data on ACK 0, and resends the OACK when that ACK is lost', () => {
    const h = harness(Buffer.alloc(100), { oack: [{ name: 'tsize', value: '100' }] });
    h.transfer.start();
    expect(h.sent).toEqual([{ op: 'oack', options: [{ name: 'tsize', value: '100' }] }]);
    vi.advanceTimersByTime(1000);
    expect(h.sent.filter((p) => p.op === 'oack')).toHaveLength(2);
    expect(h.started).toBe(0);
    h.transfer.handle(ack(0));
    expect(h.started).toBe(1);
    expect(dataBlocks(h.sent)).toEqual([1]);
    h.transfer.handle(ack(1));
    expect(h.finished?.outcome.result).toBe('completed');
  });

  it('reports a client that stops after the OACK as a probe, not a failure', () => {
    const h = harness(Buffer.alloc(100), { oack: [{ name: 'tsize', value: '100' }] });
    h.transfer.start();
    h.transfer.handle({ op: 'error', code: 8, message: 'tsize only' });
    expect(h.finished?.outcome).toMatchObject({ result: 'failed', probe: true });
    expect(h.started).toBe(0);
  });

  it('sends windows (RFC 7440), advances on the window\'s last ACK and rolls back on a short ACK', () => {
    const h = harness(Buffer.alloc(512 * 9 + 10, 4), { windowsize: 4, oack: [{ name: 'windowsize', value: '4' }] });
    h.transfer.start();
    h.transfer.handle(ack(0));
    expect(dataBlocks(h.sent)).toEqual([1, 2, 3, 4]);
    h.transfer.handle(ack(4));
    expect(dataBlocks(h.sent)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Block 7 was lost: the client acknowledges 6, the window restarts at 7.
    h.transfer.handle(ack(6));
    expect(dataBlocks(h.sent).slice(8)).toEqual([7, 8, 9, 10]);
    // A stale ACK from before the rollback and a repeat of 6 change nothing.
    h.transfer.handle(ack(5));
    h.transfer.handle(ack(6));
    expect(dataBlocks(h.sent)).toHaveLength(12);
    h.transfer.handle(ack(10));
    expect(h.finished?.outcome.result).toBe('completed');
    expect(h.finished?.stats.retransmits).toBe(2);
  });

  it('ignores ACKs for blocks it has not sent', () => {
    const h = harness(Buffer.alloc(5000), { windowsize: 2 });
    h.transfer.start();
    h.transfer.handle(ack(7));
    h.transfer.handle(ack(40000));
    expect(dataBlocks(h.sent)).toEqual([1, 2]);
    expect(h.finished).toBeNull();
  });

  it('wraps block numbers past 65535 to 0 and maps ACKs across the wrap', () => {
    const blocks = 65540;
    const h = harness(Buffer.alloc(8 * blocks + 3, 5), { blksize: 8, windowsize: 8 });
    h.transfer.start();
    let wire = 0;
    for (let acked = 0; !h.finished; ) {
      acked = Math.min(acked + 8, blocks + 1);
      wire = acked & 0xffff;
      h.transfer.handle(ack(wire));
    }
    const sent = dataBlocks(h.sent);
    expect(sent).toHaveLength(blocks + 1);
    expect(sent[65534]).toBe(65535);
    expect(sent[65535]).toBe(0);
    expect(sent.at(-1)).toBe((blocks + 1) & 0xffff);
    expect(h.finished?.stats.bytes).toBe(8 * blocks + 3);
  });

  it('ends with illegal operation on a DATA packet from the reader', () => {
    const h = harness(Buffer.alloc(10));
    h.transfer.start();
    h.transfer.handle({ op: 'data', block: 1, data: Buffer.alloc(1) });
    expect(h.sent.at(-1)).toMatchObject({ op: 'error', code: 4 });
    expect(h.finished?.outcome.result).toBe('failed');
  });

  it('waits for blocks that come from disk and drops a window a rollback replaced', async () => {
    vi.useRealTimers();
    const content = Buffer.alloc(512 * 5 + 10, 6);
    const slow: ByteSource = {
      size: content.length,
      read: (offset, length) => new Promise((resolve) => setTimeout(() => resolve(content.subarray(offset, offset + length)), 5)),
      close: async () => undefined,
    };
    const h = harness(slow, { windowsize: 3 });
    h.transfer.start();
    // The client acknowledges block 1 while the first window still waits for the disk: the window restarts at 2.
    h.transfer.handle(ack(1));
    await vi.waitFor(() => expect(dataBlocks(h.sent)).toEqual([2, 3, 4]));
    h.transfer.handle(ack(4));
    await vi.waitFor(() => expect(dataBlocks(h.sent)).toEqual([2, 3, 4, 5, 6]));
    h.transfer.handle(ack(6));
    expect(h.finished?.outcome.result).toBe('completed');
    expect(h.finished?.stats.bytes).toBe(content.length);
  });
});
