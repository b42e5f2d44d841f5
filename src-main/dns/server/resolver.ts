import type { Answer } from 'dns-packet';
import { QCLASS, QTYPE, RCODE } from './dns-wire.js';
import { DERIVED_TTL, NEGATIVE_TTL, type ViewLike, type Zone } from './zone.js';

/** A local answer, ready to encode. */
export interface LocalAnswer {
  kind: 'answer';
  rcode: number;
  /** Authoritative (AA): set for everything answered from local data. */
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
}

/** The name is outside local data: forward it when upstreams are configured, else REFUSED. */
export interface OutsideLocalData {
  kind: 'outside';
}

export type Resolution = LocalAnswer | OutsideLocalData;

export const OUTSIDE: OutsideLocalData = { kind: 'outside' };

/** CNAME chains longer than this stop (RFC 1034 §3.6.2 asks servers to guard against loops). */
const MAX_CHAIN = 8;

/** RRset order of a minimal ANY answer (RFC 8482 §4.1: one RRset is enough). */
const ANY_ORDER = [QTYPE.A, QTYPE.AAAA, QTYPE.CNAME, QTYPE.MX, QTYPE.TXT, QTYPE.SOA, QTYPE.NS, QTYPE.PTR];

function answer(rcode: number, answers: Answer[] = [], authorities: Answer[] = [], additionals: Answer[] = [], authoritative = true): LocalAnswer {
  return { kind: 'answer', rcode, authoritative, answers, authorities, additionals };
}

/** A non-authoritative answer with only an RCODE (REFUSED for AXFR or other classes). */
export function bareAnswer(rcode: number): LocalAnswer {
  return answer(rcode, [], [], [], false);
}

/**
 * Answers one question from local data (RFC 1034 §4.3.2, simplified for a
 * single authoritative zone plus loose local names):
 * - AXFR/IXFR and classes other than IN/ANY are REFUSED;
 * - a name with local data answers its records, following CNAMEs within
 *   local data (the answer carries the chain; RFC 6604: the RCODE is that of
 *   the last name);
 * - a name in the local domain without records of the type is NODATA, an
 *   unknown one NXDOMAIN, both with the SOA in the authority section;
 * - anything else is outside local data.
 */
export function resolve(zone: Zone, name: string, qtype: number, qclass: number, view: ViewLike): Resolution {
  if (qclass !== QCLASS.IN && qclass !== QCLASS.ANY) return bareAnswer(RCODE.REFUSED);
  if (qtype === QTYPE.AXFR || qtype === QTYPE.IXFR) return bareAnswer(RCODE.REFUSED);
  if (!zone.inLocalDomain(name) && !zone.hasLocalData(name)) return OUTSIDE;

  const answers: Answer[] = [];
  const visited = new Set<string>([name]);
  let current = name;
  for (let depth = 0; depth <= MAX_CHAIN; depth++) {
    if (!zone.exists(current, view)) {
      // The chain left local data: the client's resolver follows it from here.
      if (!zone.inLocalDomain(current)) return answer(RCODE.NOERROR, answers);
      return answer(RCODE.NXDOMAIN, answers, [soa(zone)]);
    }
    if (qtype !== QTYPE.CNAME) {
      const cname = zone.visible(current, 'CNAME', view)[0];
      if (cname) {
        answers.push({ name: current, type: 'CNAME', ttl: cname.ttl, data: cname.value });
        if (visited.has(cname.value)) return answer(RCODE.NOERROR, answers);
        visited.add(cname.value);
        current = cname.value;
        continue;
      }
    }
    const rrset = qtype === QTYPE.ANY ? minimalAny(zone, current, view) : rrsetOf(zone, current, qtype, view);
    if (rrset.length > 0) {
      answers.push(...rrset);
      return answer(RCODE.NOERROR, answers, [], additionalsFor(zone, rrset, view));
    }
    return answer(RCODE.NOERROR, answers, zone.inLocalDomain(current) ? [soa(zone)] : []);
  }
  return answer(RCODE.NOERROR, answers);
}

/** The records of one type at one name for this view. */
function rrsetOf(zone: Zone, name: string, qtype: number, view: ViewLike): Answer[] {
  switch (qtype) {
    case QTYPE.A: {
      const out: Answer[] = [];
      const seen = new Set<string>();
      for (const record of zone.visible(name, 'A', view)) {
        const address = zone.addressOf(record, view);
        if (address === null || seen.has(address)) continue;
        seen.add(address);
        out.push({ name, type: 'A', ttl: record.ttl, data: address });
      }
      for (const address of zone.derivedFor(name, view)) {
        if (!seen.has(address)) out.push({ name, type: 'A', ttl: DERIVED_TTL, data: address });
      }
      return out;
    }
    case QTYPE.AAAA:
      return zone.visible(name, 'AAAA', view).map((record) => ({ name, type: 'AAAA', ttl: record.ttl, data: record.value }));
    case QTYPE.CNAME:
      return zone.visible(name, 'CNAME', view).map((record) => ({ name, type: 'CNAME', ttl: record.ttl, data: record.value }));
    case QTYPE.MX:
      return zone
        .visible(name, 'MX', view)
        .map((record) => ({ name, type: 'MX', ttl: record.ttl, data: { preference: record.priority ?? 0, exchange: record.value } }));
    case QTYPE.TXT:
      return zone.visible(name, 'TXT', view).map((record) => ({ name, type: 'TXT', ttl: record.ttl, data: txtStrings(record.value) }));
    case QTYPE.SOA:
      return name === zone.localDomain ? [soa(zone)] : [];
    case QTYPE.NS:
      return name === zone.localDomain ? [{ name, type: 'NS', ttl: NEGATIVE_TTL, data: serverFqdn(zone) }] : [];
    case QTYPE.PTR:
      return (zone.ptr.get(name) ?? [])
        .filter((target) => zone.derivedFor(target, view).length > 0)
        .map((target) => ({ name, type: 'PTR', ttl: DERIVED_TTL, data: target }));
    default:
      return [];
  }
}

function minimalAny(zone: Zone, name: string, view: ViewLike): Answer[] {
  for (const type of ANY_ORDER) {
    const rrset = rrsetOf(zone, name, type, view);
    if (rrset.length > 0) return rrset;
  }
  return [];
}

/** Addresses of local MX targets, so the client need not ask again (RFC 1035 §3.3.9). */
function additionalsFor(zone: Zone, rrset: Answer[], view: ViewLike): Answer[] {
  const out: Answer[] = [];
  for (const record of rrset) {
    if (record.type !== 'MX') continue;
    const target = record.data.exchange;
    if (!zone.exists(target, view)) continue;
    out.push(...rrsetOf(zone, target, QTYPE.A, view), ...rrsetOf(zone, target, QTYPE.AAAA, view));
  }
  return out;
}

/** TXT text as 255-byte character-strings (RFC 1035 §3.3.14); clients concatenate them. */
export function txtStrings(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 255) out.push(bytes.subarray(offset, offset + 255));
  return out.length > 0 ? out : [Buffer.alloc(0)];
}

function serverFqdn(zone: Zone): string {
  return `${zone.snapshot.serverName}.${zone.localDomain}`;
}

/** The synthesised SOA of the local domain; its MINIMUM is the negative-caching TTL (RFC 2308 §4). */
export function soa(zone: Zone): Answer {
  return {
    name: zone.localDomain,
    type: 'SOA',
    ttl: NEGATIVE_TTL,
    data: {
      mname: serverFqdn(zone),
      rname: `hostmaster.${zone.localDomain}`,
      serial: zone.snapshot.serial,
      refresh: 3600,
      retry: 600,
      expire: 86_400,
      minimum: NEGATIVE_TTL,
    },
  };
}
