import { describe, expect, it } from 'vitest';
import { negotiate, WINDOW_BYTES_BUDGET } from '../../../../src-main/tftp/server/tftp-options.js';

const LIMITS = { maxBlksize: 1468, maxWindowsize: 64, defaultTimeoutMs: 2000 };
const opts = (pairs: Record<string, string>) => Object.entries(pairs).map(([name, value]) => ({ name, value }));

describe('TFTP option negotiation', () => {
  it('sends no OACK and uses RFC 1350 defaults when nothing is asked', () => {
    expect(negotiate([], 1000, LIMITS)).toEqual({ blksize: 512, windowsize: 1, timeoutMs: 2000, tsize: null, oack: [] });
  });

  it('grants blksize up to the cap (RFC 2348) and answers tsize with the size (RFC 2349)', () => {
    const result = negotiate(opts({ blksize: '9000', tsize: '0' }), 123456, LIMITS);
    expect(result).toMatchObject({ blksize: 1468, tsize: 123456 });
    expect(result.oack).toEqual(opts({ blksize: '1468', tsize: '123456' }));
    expect(negotiate(opts({ blksize: '1024' }), 1, LIMITS).blksize).toBe(1024);
  });

  it('answers tsize whatever value the client sent, and only when the size is known', () => {
    expect(negotiate(opts({ tsize: 'enable' }), 42, LIMITS).oack).toEqual(opts({ tsize: '42' }));
    expect(negotiate(opts({ tsize: '0' }), null, LIMITS).oack).toEqual([]);
  });

  it('echoes a valid timeout unchanged and ignores invalid ones', () => {
    expect(negotiate(opts({ timeout: '5' }), 1, LIMITS)).toMatchObject({ timeoutMs: 5000, oack: opts({ timeout: '5' }) });
    for (const bad of ['0', '256', '-1', '1.5', 'x', '']) {
      expect(negotiate(opts({ timeout: bad }), 1, LIMITS)).toMatchObject({ timeoutMs: 2000, oack: [] });
    }
  });

  it('grants windowsize up to the cap (RFC 7440) and within the byte budget of one window', () => {
    expect(negotiate(opts({ blksize: '1468', windowsize: '16' }), 1, LIMITS).windowsize).toBe(16);
    expect(negotiate(opts({ blksize: '1468', windowsize: '500' }), 1, LIMITS).windowsize).toBe(64);
    expect(negotiate(opts({ windowsize: '64', blksize: '1468' }), 1, { ...LIMITS, maxWindowsize: 8 }).oack).toEqual(opts({ windowsize: '8', blksize: '1468' }));
    const big = negotiate(opts({ windowsize: '64', blksize: '65464' }), 1, { ...LIMITS, maxBlksize: 65464 });
    expect(big.windowsize).toBe(Math.max(1, Math.floor(WINDOW_BYTES_BUDGET / 65464)));
    expect(big.oack.find((o) => o.name === 'windowsize')?.value).toBe(String(big.windowsize));
    expect(negotiate(opts({ windowsize: '0' }), 1, LIMITS).oack).toEqual([]);
  });

  it('ignores unknown options, bad numbers, and repeats; names are case-insensitive', () => {
    const result = negotiate(opts({ BlkSize: '1000', multicast: '', blksize: '600', rollover: '0' }), 1, LIMITS);
    expect(result.blksize).toBe(1000);
    expect(result.oack).toEqual(opts({ blksize: '1000' }));
    for (const bad of ['7', '0x10', '1e3', ' 512', '99999999999', '']) {
      expect(negotiate(opts({ blksize: bad }), 1, LIMITS).oack).toEqual([]);
    }
  });
});
