import type { EventEmitter } from 'node:events';
import type { EventLog } from '../events/event-log.js';

/** What a transfer report says of one boot file sent over HTTP. */
export interface HttpTransfer {
  ip: string;
  file: string;
  bytes: number;
  range: boolean;
  method: 'sendfile' | 'stream';
}

/**
 * Emits `http.transfer.completed` when the last byte of a boot file left, or
 * `http.transfer.failed` when the client went away first (the HTTP twin of
 * the TFTP transfer events; a technician sees whether a kernel or initrd
 * arrived whole). Only when someone listens or the log keeps events: always.
 */
export function reportTransfer(
  events: Pick<EventLog, 'emit'>,
  count: (bytes: number) => void,
  res: Pick<EventEmitter, 'once'>,
  delivered: () => Promise<boolean>,
  transfer: HttpTransfer,
): void {
  const started = Date.now();
  let reported = false;
  // 'close' can settle first and 'finish' follow (res.end() after the client hung up): report once.
  const completed = () => {
    if (reported) return;
    reported = true;
    count(transfer.bytes);
    events.emit({
      kind: 'http.transfer.completed',
      ip: transfer.ip,
      message: `${transfer.ip} received ${transfer.file} over HTTP (${transfer.bytes} bytes)`,
      detail: { file: transfer.file, bytes: transfer.bytes, range: transfer.range, method: transfer.method, duration_ms: Date.now() - started },
    });
  };
  res.once('finish', completed);
  res.once('close', async () => {
    if (reported) return;
    const whole = await delivered();
    if (reported) return;
    if (whole) return completed();
    reported = true;
    events.emit({
      kind: 'http.transfer.failed',
      level: 'warn',
      ip: transfer.ip,
      message: `${transfer.ip} stopped receiving ${transfer.file} over HTTP before the end`,
      detail: { file: transfer.file, bytes: transfer.bytes, range: transfer.range, method: transfer.method, duration_ms: Date.now() - started },
    });
  });
}
