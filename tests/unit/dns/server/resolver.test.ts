import type { Answer } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { QCLASS, QTYPE, RCODE } from '../../../../src-main/dns/server/dns-wire.js';
import { resolve, type LocalAnswer } from '../../../../src-main/dns/server/resolver.js';
import { Zone } from '../../../../src-main/dns/server/zone.js';
import { rec, snapshot } from './zone-fixture.js';

const D = 'bootwright.local';

function ask(zone: Zone, name: string, qtype: number, client = '192.0.2.50', qclass: number = QCLASS.IN) {
  return resolve(zone, name, qtype, qclass, zone.viewFor(client, null));
}

function local(result: ReturnType<typeof resolve>): LocalAnswer {
  if (result.kind !== 'answer') throw new Error('expected a local answer');
  return result;
}

const data = (answers: Answer[]) => answers.map((a) => ('data' in a ? a.data : null));

describe('resolver', () => {
  const zone = new Zone(
    snapshot({
      records: [
        rec(`www.${D}`, 'A', '10.0.0.1'),
        rec(`www.${D}`, 'A', '10.0.0.2'),
        rec(`www.${D}`, 'AAAA', '2001:db8::1'),
        rec(`alias.${D}`, 'CNAME', `www.${D}`),
        rec(`alias2.${D}`, 'CNAME', `alias.${D}`),
        rec(`loop1.${D}`, 'CNAME', `loop2.${D}`),
        rec(`loop2.${D}`, 'CNAME', `loop1.${D}`),
        rec(`dangling.${D}`, 'CNAME', `missing.${D}`),
        rec(`external.${D}`, 'CNAME', 'www.example.com'),
        rec(D, 'MX', `mail.${D}`, { priority: 10 }),
        rec(`mail.${D}`, 'A', '10.0.0.25'),
        rec(`txt.${D}`, 'TXT', 'x'.repeat(600)),
        rec(`pxe.${D}`, 'A', '{server_ip}'),
        rec(`deep.sub.${D}`, 'A', '10.0.0.9'),
        rec('loose.example.org', 'A', '10.9.9.9'),
      ],
    }),
  );

  it('answers A and AAAA sets', () => {
    const a = local(ask(zone, `www.${D}`, QTYPE.A));
    expect(a.rcode).toBe(RCODE.NOERROR);
    expect(a.authoritative).toBe(true);
    expect(data(a.answers)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(data(local(ask(zone, `www.${D}`, QTYPE.AAAA)).answers)).toEqual(['2001:db8::1']);
  });

  it('follows CNAME chains within local data and carries the chain', () => {
    const a = local(ask(zone, `alias2.${D}`, QTYPE.A));
    expect(a.answers.map((x) => x.type)).toEqual(['CNAME', 'CNAME', 'A', 'A']);
    expect(data(a.answers)).toEqual([`alias.${D}`, `www.${D}`, '10.0.0.1', '10.0.0.2']);
    // Asked for the CNAME itself: no following.
    expect(data(local(ask(zone, `alias2.${D}`, QTYPE.CNAME)).answers)).toEqual([`alias.${D}`]);
  });

  it('stops on CNAME loops and at targets outside local data', () => {
    const loop = local(ask(zone, `loop1.${D}`, QTYPE.A));
    expect(loop.answers.map((x) => x.type)).toEqual(['CNAME', 'CNAME']);
    const external = local(ask(zone, `external.${D}`, QTYPE.A));
    expect(external.rcode).toBe(RCODE.NOERROR);
    expect(data(external.answers)).toEqual(['www.example.com']);
  });

  it('gives NXDOMAIN for a dangling CNAME inside the domain (RFC 6604) and for unknown names, with the SOA', () => {
    const dangling = local(ask(zone, `dangling.${D}`, QTYPE.A));
    expect(dangling.rcode).toBe(RCODE.NXDOMAIN);
    expect(dangling.answers).toHaveLength(1);
    const unknown = local(ask(zone, `nope.${D}`, QTYPE.A));
    expect(unknown.rcode).toBe(RCODE.NXDOMAIN);
    expect(unknown.authorities.map((x) => x.type)).toEqual(['SOA']);
  });

  it('gives NODATA with the SOA for a name without the type, and for an empty non-terminal (RFC 8020)', () => {
    const nodata = local(ask(zone, `www.${D}`, QTYPE.MX));
    expect(nodata.rcode).toBe(RCODE.NOERROR);
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities[0]).toMatchObject({ type: 'SOA', name: D, data: { mname: `pxe.${D}`, minimum: 60 } });
    const ent = local(ask(zone, `sub.${D}`, QTYPE.A));
    expect(ent.rcode).toBe(RCODE.NOERROR);
    expect(ent.answers).toEqual([]);
  });

  it('answers SOA and NS at the apex, MX with the exchange address as additional data', () => {
    expect(local(ask(zone, D, QTYPE.SOA)).answers[0]).toMatchObject({ type: 'SOA', data: { serial: 1000 } });
    expect(data(local(ask(zone, D, QTYPE.NS)).answers)).toEqual([`pxe.${D}`]);
    const mx = local(ask(zone, D, QTYPE.MX));
    expect(data(mx.answers)).toEqual([{ preference: 10, exchange: `mail.${D}` }]);
    expect(data(mx.additionals)).toEqual(['10.0.0.25']);
  });

  it('splits TXT text into 255-byte strings', () => {
    const txt = local(ask(zone, `txt.${D}`, QTYPE.TXT)).answers[0] as { data: Buffer[] };
    expect(txt.data.map((chunk) => chunk.length)).toEqual([255, 255, 90]);
  });

  it('answers ANY minimally (RFC 8482) and refuses AXFR, IXFR and other classes', () => {
    expect(data(local(ask(zone, `www.${D}`, QTYPE.ANY)).answers)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(local(ask(zone, D, QTYPE.AXFR)).rcode).toBe(RCODE.REFUSED);
    expect(local(ask(zone, D, QTYPE.IXFR)).rcode).toBe(RCODE.REFUSED);
    const chaos = local(ask(zone, 'version.bind', QTYPE.TXT, '192.0.2.50', QCLASS.CH));
    expect(chaos.rcode).toBe(RCODE.REFUSED);
    expect(chaos.authoritative).toBe(false);
  });

  it('answers absolute names outside the domain from local data and calls everything else outside', () => {
    expect(data(local(ask(zone, 'loose.example.org', QTYPE.A)).answers)).toEqual(['10.9.9.9']);
    const nodata = local(ask(zone, 'loose.example.org', QTYPE.AAAA));
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities).toEqual([]);
    expect(ask(zone, 'www.example.com', QTYPE.A)).toEqual({ kind: 'outside' });
    expect(ask(zone, '10.0.0.10.in-addr.arpa', QTYPE.PTR)).toEqual({ kind: 'outside' });
  });

  it('resolves {server_ip} to our address on the client subnet, else the fallback, else omits it', () => {
    expect(data(local(ask(zone, `pxe.${D}`, QTYPE.A, '192.0.2.77')).answers)).toEqual(['192.0.2.1']);
    expect(data(local(ask(zone, `pxe.${D}`, QTYPE.A, '198.51.100.77')).answers)).toEqual(['198.51.100.1']);
    expect(data(local(ask(zone, `pxe.${D}`, QTYPE.A, '::ffff:198.51.100.77')).answers)).toEqual(['198.51.100.1']);
    const routed = zone.viewFor('203.0.113.9', '192.0.2.1');
    expect(data(local(resolve(zone, `pxe.${D}`, QTYPE.A, QCLASS.IN, routed)).answers)).toEqual(['192.0.2.1']);
    const unknown = zone.viewFor('203.0.113.9', null);
    expect(local(resolve(zone, `pxe.${D}`, QTYPE.A, QCLASS.IN, unknown)).answers).toEqual([]);
  });
});

describe('subnet-specific records', () => {
  const zone = new Zone(
    snapshot({
      records: [
        rec(`boot.${D}`, 'A', '10.0.0.1'),
        rec(`boot.${D}`, 'A', '192.0.2.10', { subnet: '192.0.2.0/24' }),
        rec(`boot.${D}`, 'A', '192.0.2.20', { subnet: '192.0.2.0/25' }),
        rec(`only-b.${D}`, 'A', '198.51.100.5', { subnet: '198.51.100.0/24' }),
      ],
    }),
  );

  it('the most specific matching subnet beats a wider one and the global record', () => {
    expect(data(local(ask(zone, `boot.${D}`, QTYPE.A, '192.0.2.5')).answers)).toEqual(['192.0.2.20']);
    expect(data(local(ask(zone, `boot.${D}`, QTYPE.A, '192.0.2.200')).answers)).toEqual(['192.0.2.10']);
    expect(data(local(ask(zone, `boot.${D}`, QTYPE.A, '198.51.100.5')).answers)).toEqual(['10.0.0.1']);
  });

  it('a name with only subnet records does not exist for other clients', () => {
    expect(data(local(ask(zone, `only-b.${D}`, QTYPE.A, '198.51.100.9')).answers)).toEqual(['198.51.100.5']);
    expect(local(ask(zone, `only-b.${D}`, QTYPE.A, '192.0.2.9')).rcode).toBe(RCODE.NXDOMAIN);
  });

  it('clients with the same view share it (and its memo)', () => {
    expect(zone.viewFor('192.0.2.200', null)).toBe(zone.viewFor('192.0.2.201', null));
    expect(zone.viewFor('192.0.2.5', null)).not.toBe(zone.viewFor('192.0.2.200', null));
  });
});

describe('derived names', () => {
  const zone = new Zone(
    snapshot({
      records: [rec(`fixed.${D}`, 'A', '10.0.0.99'), rec(`fixed.${D}`, 'TXT', 'explicit')],
      derived: [
        { fqdn: `node1.${D}`, ipv4: '192.0.2.31' },
        { fqdn: `node1.${D}`, ipv4: '192.0.2.31' },
        { fqdn: `fixed.${D}`, ipv4: '192.0.2.32' },
        { fqdn: `sub.node2.${D}`, ipv4: '192.0.2.33' },
      ],
    }),
  );

  it('answer A with PTR, deduplicated', () => {
    expect(data(local(ask(zone, `node1.${D}`, QTYPE.A)).answers)).toEqual(['192.0.2.31']);
    expect(local(ask(zone, `node1.${D}`, QTYPE.A)).answers[0]).toMatchObject({ ttl: 60 });
    expect(data(local(ask(zone, '31.2.0.192.in-addr.arpa', QTYPE.PTR)).answers)).toEqual([`node1.${D}`]);
    expect(local(ask(zone, `node2.${D}`, QTYPE.A)).rcode).toBe(RCODE.NOERROR);
  });

  it('lose to explicit records of the same name, PTR included', () => {
    expect(data(local(ask(zone, `fixed.${D}`, QTYPE.A)).answers)).toEqual(['10.0.0.99']);
    expect(local(ask(zone, '32.2.0.192.in-addr.arpa', QTYPE.PTR)).answers).toEqual([]);
  });
});
