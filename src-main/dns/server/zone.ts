import { inDomain, reverseName } from '../dns-names.js';
import { SERVER_IP_MARKER } from '../dns-contract.js';
import { ipFamily, parseSubnet, subnetContains, unmapIpv4, type Subnet } from '../../network/ip-math.js';
import { ServerAddressTable } from '../../network/server-addresses.js';
import type { SnapshotRecord, ZoneSnapshot } from './zone-snapshot.js';

/** TTL of derived names and PTRs: leases come and go, so resolvers should not keep them long. */
export const DERIVED_TTL = 60;
/** SOA TTL and MINIMUM: how long resolvers cache our negative answers (RFC 2308 §5). */
export const NEGATIVE_TTL = 60;

export interface IndexedRecord extends SnapshotRecord {
  /** Index into `Zone.subnets`, or -1 for a record every client gets. */
  subnetIndex: number;
  prefix: number;
}

/** What the zone asks of a client view; answers computed without asking are the same for every client. */
export interface ViewLike {
  /** True when the client is inside zone.subnets[index]. */
  matchesSubnet(index: number): boolean;
  /** Our IPv4 address for `{server_ip}`, or null. */
  serverAddress(): string | null;
}

/**
 * What one group of clients sees: our address for `{server_ip}` and which
 * record subnets hold them. Clients with equal views share one memo of
 * encoded answers for the names whose answer depends on the view.
 */
export class ClientView implements ViewLike {
  readonly zone: Zone;
  readonly serverIpv4: string | null;
  /** matches[i]: the client is inside zone.subnets[i]. */
  readonly matches: readonly boolean[];
  /** Encoded answers by query key, for names whose answer depends on the view (see query-handler.ts). */
  readonly memo = new Map<string, unknown>();

  constructor(zone: Zone, serverIpv4: string | null, matches: boolean[]) {
    this.zone = zone;
    this.serverIpv4 = serverIpv4;
    this.matches = matches;
  }

  matchesSubnet(index: number): boolean {
    return this.matches[index] === true;
  }

  serverAddress(): string | null {
    return this.serverIpv4;
  }
}

/** A view that notes whether the zone asked it anything: if not, the answer is the same for every client. */
export class TrackedView implements ViewLike {
  readonly inner: ViewLike;
  used = false;

  constructor(inner: ViewLike) {
    this.inner = inner;
  }

  matchesSubnet(index: number): boolean {
    this.used = true;
    return this.inner.matchesSubnet(index);
  }

  serverAddress(): string | null {
    this.used = true;
    return this.inner.serverAddress();
  }
}

/**
 * The answer data of one snapshot, indexed for lookups: explicit records and
 * derived names by owner name, PTRs by reverse name, and the empty
 * non-terminals of the local domain (names that exist only because a name
 * below them does; they answer NODATA, not NXDOMAIN: RFC 8020).
 */
export class Zone {
  readonly snapshot: ZoneSnapshot;
  readonly localDomain: string;
  readonly records = new Map<string, IndexedRecord[]>();
  readonly derived = new Map<string, string[]>();
  /** reverse name → the derived names with that address. */
  readonly ptr = new Map<string, string[]>();
  readonly nonTerminals = new Set<string>();
  readonly subnets: Subnet[] = [];
  /** Encoded answers by query key that are the same for every client (see query-handler.ts). */
  readonly memo = new Map<string, unknown>();
  private readonly addressTable: ServerAddressTable;
  private readonly views = new Map<string, ClientView>();

  constructor(snapshot: ZoneSnapshot) {
    this.snapshot = snapshot;
    this.localDomain = snapshot.localDomain;
    this.addressTable = new ServerAddressTable(snapshot.addresses);
    const subnetIndex = new Map<string, number>();
    for (const record of snapshot.records) {
      let index = -1;
      let prefix = -1;
      if (record.subnet !== null) {
        const known = subnetIndex.get(record.subnet);
        if (known === undefined) {
          index = this.subnets.push(parseSubnet(record.subnet)) - 1;
          subnetIndex.set(record.subnet, index);
        } else {
          index = known;
        }
        prefix = this.subnets[index]!.prefix;
      }
      push(this.records, record.fqdn, { ...record, subnetIndex: index, prefix });
      this.addAncestors(record.fqdn);
    }
    for (const { fqdn, ipv4 } of snapshot.derived) {
      const list = this.derived.get(fqdn) ?? [];
      if (!list.includes(ipv4)) list.push(ipv4);
      this.derived.set(fqdn, list);
      const reverse = reverseName(ipv4);
      const names = this.ptr.get(reverse) ?? [];
      if (!names.includes(fqdn)) names.push(fqdn);
      this.ptr.set(reverse, names);
      this.addAncestors(fqdn);
    }
  }

  /**
   * The view of a client at `clientIp`: our address on its subnet, else the
   * IPv4 address of the interface the query arrived on (`fallbackIpv4`), and
   * the record subnets holding it. Views are shared between equal clients.
   */
  viewFor(clientIp: string, fallbackIpv4: string | null): ClientView {
    const client = unmapIpv4(clientIp);
    const resolved = this.addressTable.serverAddressFor(client);
    const serverIpv4 = resolved !== null && ipFamily(resolved) === 'ipv4' ? resolved : fallbackIpv4;
    const matches = this.subnets.map((subnet) => subnetContains(subnet, client));
    const key = `${serverIpv4 ?? ''}|${matches.map((hit) => (hit ? 1 : 0)).join('')}`;
    let view = this.views.get(key);
    if (!view) {
      view = new ClientView(this, serverIpv4, matches);
      this.views.set(key, view);
    }
    return view;
  }

  inLocalDomain(name: string): boolean {
    return inDomain(name, this.localDomain);
  }

  /** Explicit records of `type` at `name` that this view gets: the most specific matching subnet wins, else the global ones. */
  visible(name: string, type: SnapshotRecord['type'], view: ViewLike): IndexedRecord[] {
    const all = this.records.get(name);
    if (!all) return [];
    let best = -1;
    let chosen: IndexedRecord[] = [];
    for (const record of all) {
      if (record.type !== type || record.subnetIndex < 0 || !view.matchesSubnet(record.subnetIndex)) continue;
      if (record.prefix > best) {
        best = record.prefix;
        chosen = [record];
      } else if (record.prefix === best) {
        chosen.push(record);
      }
    }
    if (best >= 0) return chosen;
    return all.filter((record) => record.type === type && record.subnetIndex < 0);
  }

  /** Derived addresses of `name`, unless an explicit A or CNAME record answers for it in this view (explicit records win). */
  derivedFor(name: string, view: ViewLike): string[] {
    const addresses = this.derived.get(name);
    if (!addresses) return [];
    if (this.visible(name, 'A', view).length > 0 || this.visible(name, 'CNAME', view).length > 0) return [];
    return addresses;
  }

  /** The value of an A record for this view: `{server_ip}` becomes our address, or null when we have none for the client. */
  addressOf(record: IndexedRecord, view: ViewLike): string | null {
    return record.value === SERVER_IP_MARKER ? view.serverAddress() : record.value;
  }

  /** True when `name` has anything this view can see, or exists as the apex or an empty non-terminal. */
  exists(name: string, view: ViewLike): boolean {
    if (name === this.localDomain || this.nonTerminals.has(name) || this.ptr.has(name)) return true;
    if (this.derived.has(name)) return true;
    const all = this.records.get(name);
    if (!all) return false;
    return all.some((record) => record.subnetIndex < 0 || view.matchesSubnet(record.subnetIndex));
  }

  /** True when a name outside the local domain still has local data (an absolute record name or a PTR). */
  hasLocalData(name: string): boolean {
    return this.records.has(name) || this.ptr.has(name) || this.derived.has(name);
  }

  private addAncestors(fqdn: string): void {
    if (!this.inLocalDomain(fqdn)) return;
    let name = fqdn;
    while (name !== this.localDomain) {
      const dot = name.indexOf('.');
      name = name.slice(dot + 1);
      if (name !== this.localDomain) this.nonTerminals.add(name);
    }
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
