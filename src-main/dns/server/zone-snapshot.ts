import type { DnsRecordType } from '../dns-contract.js';
import type { UpstreamServer } from '../upstream.js';
import type { ResolvedServerAddress } from '../../network/server-addresses.js';

/**
 * Everything the DNS workers answer from, as plain data the main thread
 * builds on every change and posts to them (structured clone). Names are
 * absolute, lowercase, without the trailing dot.
 */
export interface ZoneSnapshot {
  version: number;
  /** SOA serial: seconds since the epoch of the last change (RFC 1982 arithmetic is not needed for a zone nobody transfers). */
  serial: number;
  localDomain: string;
  /** The server's host name in the local domain (SOA MNAME, NS target). */
  serverName: string;
  records: SnapshotRecord[];
  derived: DerivedName[];
  /** Our address per subnet: subnet awareness of `{server_ip}`. */
  addresses: ResolvedServerAddress[];
  upstreams: UpstreamServer[];
}

/** An enabled explicit record, with its name and target made absolute. */
export interface SnapshotRecord {
  fqdn: string;
  type: DnsRecordType;
  /** A: dotted quad or `{server_ip}`; AAAA: address; CNAME/MX: absolute target; TXT: text. */
  value: string;
  ttl: number;
  priority: number | null;
  subnet: string | null;
}

/** A name from a name source (hosts, DHCP leases). */
export interface DerivedName {
  fqdn: string;
  ipv4: string;
}
