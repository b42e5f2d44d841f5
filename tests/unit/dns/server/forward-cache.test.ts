import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { ForwardCache, replyFromCache, toCachedAnswer } from '../../../../src-main/dns/server/forward-cache.js';
import { parseQuery, type ParsedQuery } from '../../../../src-main/dns/server/query-parser.js';
import { scanResponse } from '../../../../src-main/dns/server/response-scan.js';

const OPT = { name: '.', type: 'OPT', udpPayloadSize: 4096, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] } as packet.Answer;

function upstreamAnswer(parts: Partial<packet.Packet>): Buffer {
  return packet.encode({ type: 'response', id: 7, flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE, questions: [{ type: 'A', name: 'www.example.com' }], ...parts });
}

function clientQuery(name: string, edns: boolean): { msg: Buffer; query: ParsedQuery } {
  const msg = packet.encode({ type: 'query', id: 0xabcd, flags: packet.RECURSION_DESIRED, questions: [{ type: 'A', name }], ...(edns ? { additionals: [OPT] } : {}) });
  const query = parseQuery(msg);
  if (!query.ok) throw new Error('bad query');
  return { msg, query };
}

describe('toCachedAnswer', () => {
  it('strips the upstream OPT, appends ours for EDNS clients and caches by the smallest TTL', () => {
    const raw = upstreamAnswer({
      answers: [
        { type: 'CNAME', name: 'www.example.com', ttl: 600, data: 'web.example.com' },
        { type: 'A', name: 'web.example.com', ttl: 120, data: '192.0.2.80' },
      ],
      additionals: [OPT],
    });
    const entry = toCachedAnswer(raw, scanResponse(raw)!, 0)!;
    expect(entry.ttl).toBe(120);
    expect(packet.decode(entry.plain).additionals).toEqual([]);
    expect(packet.decode(entry.edns).additionals).toMatchObject([{ type: 'OPT', udpPayloadSize: 1232 }]);
    expect(entry.ttlOffsets).toHaveLength(2);
  });

  it('caches NXDOMAIN by min(SOA TTL, MINIMUM) (RFC 2308) and not SERVFAIL', () => {
    const nx = upstreamAnswer({
      flags: 3,
      authorities: [{ type: 'SOA', name: 'example.com', ttl: 900, data: { mname: 'ns.example.com', rname: 'h.example.com', minimum: 45 } }],
    });
    expect(toCachedAnswer(nx, scanResponse(nx)!, 0)!).toMatchObject({ rcode: 3, ttl: 45 });
    const noSoa = upstreamAnswer({ flags: 3 });
    expect(toCachedAnswer(noSoa, scanResponse(noSoa)!, 0)!.ttl).toBe(0);
  });
});

describe('replyFromCache and ForwardCache', () => {
  const raw = upstreamAnswer({ answers: [{ type: 'A', name: 'www.example.com', ttl: 100, data: '192.0.2.80' }], additionals: [OPT] });
  const entry = toCachedAnswer(raw, scanResponse(raw)!, 0)!;

  it('patches the ID, echoes the question spelling and ages the TTLs', () => {
    const { msg, query } = clientQuery('WWW.Example.COM', false);
    const decoded = packet.decode(replyFromCache(entry, query, msg, false, 30_500));
    expect(decoded).toMatchObject({ id: 0xabcd, flag_rd: true, flag_ra: true });
    expect(decoded.questions![0]!.name).toBe('WWW.Example.COM');
    expect(decoded.answers![0]).toMatchObject({ ttl: 70, data: '192.0.2.80' });
    expect(decoded.additionals).toEqual([]);
  });

  it('sends TC without records when the answer does not fit the client', () => {
    const big = upstreamAnswer({ answers: Array.from({ length: 40 }, (_, i) => ({ type: 'A' as const, name: 'www.example.com', ttl: 100, data: `192.0.2.${i}` })) });
    const bigEntry = toCachedAnswer(big, scanResponse(big)!, 0)!;
    const { msg, query } = clientQuery('www.example.com', false);
    const tc = packet.decode(replyFromCache(bigEntry, query, msg, false, 0));
    expect(tc).toMatchObject({ flag_tc: true, answers: [] });
    expect(packet.decode(replyFromCache(bigEntry, query, msg, true, 0)).answers).toHaveLength(40);
  });

  it('expires entries and evicts the oldest when full', () => {
    const cache = new ForwardCache(2);
    cache.set('a', entry);
    cache.set('b', entry);
    cache.set('c', entry);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('c', 99_000)).toBe(entry);
    expect(cache.get('c', 100_000)).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
