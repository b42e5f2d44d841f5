import { randomBytes } from 'node:crypto';
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src-main/dns/server/query-parser.js';
import { QueryHandler, type ReplyChannel } from '../../../../src-main/dns/server/query-handler.js';
import { scanResponse } from '../../../../src-main/dns/server/response-scan.js';
import { rec, snapshot } from './zone-fixture.js';

/** Deterministic PRNG so a failing case can be replayed. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

const SEEDS = [
  packet.encode({ type: 'query', id: 1, flags: packet.RECURSION_DESIRED, questions: [{ type: 'A', name: 'www.bootwright.local' }] }),
  packet.encode({
    type: 'query',
    id: 2,
    questions: [{ type: 'TXT', name: 'Big.Bootwright.Local' }],
    additionals: [{ name: '.', type: 'OPT', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [{ code: 12, length: 8 }] }],
  }),
  packet.encode({ type: 'query', id: 3, questions: [{ type: 'PTR', name: '10.2.0.192.in-addr.arpa' }] }),
  packet.encode({
    type: 'response',
    id: 4,
    questions: [{ type: 'A', name: 'x.example' }],
    answers: [{ type: 'CNAME', name: 'x.example', data: 'y.example' }],
    authorities: [{ type: 'SOA', name: 'example', data: { mname: 'ns.example', rname: 'h.example', minimum: 30 } }],
  }),
];

function mutate(seed: Buffer, random: () => number): Buffer {
  const out = Buffer.from(seed);
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const kind = random();
    if (kind < 0.6) out[Math.floor(random() * out.length)] = Math.floor(random() * 256);
    else if (kind < 0.8) return out.subarray(0, Math.floor(random() * out.length));
    else return Buffer.concat([out, randomBytes(Math.floor(random() * 40))]);
  }
  return out;
}

describe('fuzz: the query handler and the response scanner', () => {
  const handler = new QueryHandler();
  handler.setZone(
    snapshot({
      records: [rec('www.bootwright.local', 'A', '{server_ip}'), rec('big.bootwright.local', 'TXT', 'z'.repeat(3000)), rec('c.bootwright.local', 'CNAME', 'www.bootwright.local')],
      derived: [{ fqdn: 'node.bootwright.local', ipv4: '192.0.2.10' }],
    }),
  );
  const replies: Buffer[] = [];
  const channel = (tcp: boolean): ReplyChannel => ({
    tcp,
    send: (message) => replies.push(message),
    viewFor: (address) => handler.currentZone()!.viewFor(address, '192.0.2.1'),
  });

  function check(input: Buffer, tcp: boolean): void {
    replies.length = 0;
    expect(() => handler.handle(input, '192.0.2.50', 5353, channel(tcp))).not.toThrow();
    expect(() => parseQuery(input)).not.toThrow();
    expect(() => scanResponse(input)).not.toThrow();
    for (const reply of replies) {
      // Every answer is a well-formed response to the packet's ID.
      expect(reply.length).toBeGreaterThanOrEqual(12);
      expect(reply[2]! & 0x80).toBe(0x80);
      expect(reply.readUInt16BE(0)).toBe(input.readUInt16BE(0));
      expect(() => packet.decode(reply)).not.toThrow();
    }
    if (input.length < 12 || (input[2]! & 0x80) !== 0) expect(replies).toEqual([]);
  }

  it('survives random packets: no throw, and a well-formed answer (FORMERR, NOTIMP, …) or nothing', () => {
    const random = prng(0xd15);
    for (let i = 0; i < 20_000; i++) {
      const input = randomBytes(Math.floor(random() * 80));
      check(input, random() < 0.2);
    }
  });

  it('survives mutated real packets', () => {
    const random = prng(0xbeef);
    for (let i = 0; i < 20_000; i++) {
      const seed = SEEDS[i % SEEDS.length]!;
      check(mutate(seed, random), random() < 0.2);
    }
  });
});
