import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { IpFamily } from './ip-math.js';
import type { Nic, NicReader } from './nic.js';
import { readNics } from './nic-reader.js';
import {
  isServed,
  resolveServerAddresses,
  ServerAddressTable,
  type ResolvedServerAddress,
} from './server-addresses.js';

/** One subnet of a served interface and our address on it. */
export interface ServedSubnet {
  subnet: string;
  prefix: number;
  address: string;
  source: ResolvedServerAddress['source'];
}

/** A served NIC with its subnets (what the DHCP and DNS servers bind and answer on). */
export interface ServedInterface {
  name: string;
  mac: string | null;
  mtu: number | null;
  ipv4: ServedSubnet[];
  ipv6: ServedSubnet[];
}

export const DEFAULT_POLL_MS = 5_000;

interface Snapshot {
  nics: Nic[];
  resolved: ResolvedServerAddress[];
  table: ServerAddressTable;
  /** Identity of the interface set and addresses, to detect changes cheaply. */
  key: string;
}

/**
 * The machine's network interfaces and which of them Bootwright serves. The
 * list is cached (servers ask per packet) and refreshed by a poll every few
 * seconds, on GET /interfaces, and when the interfaces settings change.
 */
export class NetworkService {
  private readonly reader: NicReader;
  private readonly settings: SettingsService;
  private readonly events: EventLog;
  private readonly log: Logger;
  private readonly pollMs: number;
  private readonly listeners = new Set<() => void>();
  private snapshot: Snapshot;
  private timer: NodeJS.Timeout | null = null;

  constructor(deps: { settings: SettingsService; events: EventLog; log: Logger; reader?: NicReader; pollMs?: number }) {
    this.reader = deps.reader ?? readNics;
    this.settings = deps.settings;
    this.events = deps.events;
    this.log = deps.log.scope('network');
    this.pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
    this.snapshot = this.build(this.readSafely() ?? []);
    deps.settings.onChange('interfaces', () => {
      this.snapshot = this.build(this.snapshot.nics);
      this.notify();
    });
  }

  /** Polls for interface changes until stop(); the timer never keeps the process alive. */
  startWatching(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.refresh(), this.pollMs);
    this.timer.unref();
  }

  stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The interfaces as last read. */
  list(): Nic[] {
    return this.snapshot.nics;
  }

  /**
   * Reads the interfaces again; emits `network.interfaces_changed` and
   * notifies subscribers when the set of interfaces, their state or their
   * addresses differ from the last read. Returns the fresh list.
   */
  refresh(): Nic[] {
    const nics = this.readSafely();
    if (!nics) return this.snapshot.nics;
    const previous = this.snapshot;
    const next = this.build(nics);
    this.snapshot = next;
    if (next.key !== previous.key) {
      const before = new Set(previous.nics.map((nic) => nic.name));
      const after = new Set(nics.map((nic) => nic.name));
      const added = [...after].filter((name) => !before.has(name));
      const removed = [...before].filter((name) => !after.has(name));
      this.log.info('network interfaces changed', { added, removed });
      this.events.emit({
        kind: 'network.interfaces_changed',
        message: `network interfaces changed${added.length ? `; added ${added.join(', ')}` : ''}${removed.length ? `; removed ${removed.join(', ')}` : ''}`,
        detail: { added, removed, interfaces: nics.map((nic) => nic.name) },
      });
      this.notify();
    }
    return nics;
  }

  /** Our address per subnet of every interface (served or not) plus overrides. */
  resolvedAddresses(): ResolvedServerAddress[] {
    return this.snapshot.resolved;
  }

  /** The interfaces Bootwright serves, with their IPv4 and IPv6 subnets and our address on each. */
  served(): ServedInterface[] {
    const selection = this.settings.interfaces().served;
    const { nics, resolved } = this.snapshot;
    return nics
      .filter((nic) => isServed(nic, selection))
      .map((nic) => {
        const subnets = (family: IpFamily) =>
          resolved
            .filter((entry) => entry.interface === nic.name && (entry.subnet.includes(':') ? 'ipv6' : 'ipv4') === family)
            .map((entry) => ({
              subnet: entry.subnet,
              prefix: Number(entry.subnet.split('/')[1]),
              address: entry.address,
              source: entry.source,
            }));
        return { name: nic.name, mac: nic.mac, mtu: nic.mtu, ipv4: subnets('ipv4'), ipv6: subnets('ipv6') };
      });
  }

  /** Our address on the client's subnet (overrides first), or null when no served subnet holds `clientIp`. */
  serverAddressFor(clientIp: string): string | null {
    return this.snapshot.table.serverAddressFor(clientIp);
  }

  /** Called after the interfaces or the served selection changed (servers rebind); returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private build(nics: Nic[]): Snapshot {
    const { served, server_addresses } = this.settings.interfaces();
    const resolved = resolveServerAddresses(nics, served, server_addresses);
    const key = JSON.stringify(nics.map((nic) => [nic.name, nic.up, nic.mac, nic.mtu, nic.addresses.map((a) => a.cidr)]));
    return { nics, resolved, table: new ServerAddressTable(resolved), key };
  }

  private readSafely(): Nic[] | null {
    try {
      return this.reader();
    } catch (err) {
      this.log.warn(`reading network interfaces failed: ${errorMessage(err)}`);
      return null;
    }
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error(`network change listener failed: ${errorMessage(err)}`);
      }
    }
  }
}
