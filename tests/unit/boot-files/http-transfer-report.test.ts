import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { reportTransfer } from '../../../src-main/boot-files/http-transfer-report.js';
import type { EventLog } from '../../../src-main/events/event-log.js';

type Emitted = Parameters<EventLog['emit']>[0];
const transfer = { ip: '10.0.0.9', file: 'debian/linux', bytes: 1000, range: false, method: 'sendfile' as const };

function watch(delivered: () => Promise<boolean>) {
  const emitted: Emitted[] = [];
  const counted: number[] = [];
  const res = new EventEmitter();
  const events = { emit: (input: Emitted) => (emitted.push(input), undefined as never) };
  reportTransfer(events, (bytes) => counted.push(bytes), res, delivered, transfer);
  return { res, emitted, counted };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the report of one HTTP boot transfer', () => {
  it('reports a finished response once', async () => {
    const { res, emitted, counted } = watch(async () => true);
    res.emit('finish');
    res.emit('close');
    await settle();
    expect(emitted.map((e) => e.kind)).toEqual(['http.transfer.completed']);
    expect(counted).toEqual([1000]);
  });

  it('reports once when the client hangs up before the sender settles and the response finishes after', async () => {
    let settleSend: (whole: boolean) => void = () => undefined;
    const sending = new Promise<boolean>((resolve) => (settleSend = resolve));
    const { res, emitted, counted } = watch(() => sending);
    res.emit('close');
    settleSend(true);
    res.emit('finish');
    await settle();
    expect(emitted.map((e) => e.kind)).toEqual(['http.transfer.completed']);
    expect(counted).toEqual([1000]);
  });

  it('reports a completed transfer when the close comes first and the sender then says every byte went out', async () => {
    let settleSend: (whole: boolean) => void = () => undefined;
    const sending = new Promise<boolean>((resolve) => (settleSend = resolve));
    const { res, emitted } = watch(() => sending);
    res.emit('close');
    await settle();
    expect(emitted).toEqual([]);
    settleSend(true);
    await settle();
    expect(emitted.map((e) => e.kind)).toEqual(['http.transfer.completed']);
    res.emit('finish');
    expect(emitted).toHaveLength(1);
  });

  it('reports a failed transfer, counts nothing, and ignores a late finish', async () => {
    const { res, emitted, counted } = watch(async () => false);
    res.emit('close');
    await settle();
    res.emit('finish');
    expect(emitted.map((e) => e.kind)).toEqual(['http.transfer.failed']);
    expect(emitted[0]?.level).toBe('warn');
    expect(counted).toEqual([]);
  });
});
