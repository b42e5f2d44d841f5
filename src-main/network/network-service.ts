import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { EventLog } from '../events/event-log.js';
import type { SettingsService } from '../settings/settings-service.js';
import { readIpAddresses, type IpAddressTable } from './ip-addresses.js';
import type { IpFamily } from './ip-math.js';
import { findIp, LinkMonitor, type LinkMonitorOptions, type MonitorState } from './link-monitor.js';
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
/** While the monitor runs, a slow poll still catches anything it could not report (it never should). */
export const SAFETY_POLL_MS = 60_000;

/** How the service learns of interface changes: `events` (rtnetlink through `ip monitor`), `poll`, or `off` (not watching). */
export type WatchState = MonitorState | { mode: 'off'; detail: null };

/** Test seams for the watcher. */
export interface NetworkWatchOptions {
  /** `ip` to run (monitor and address reads); null = none (poll only). Default: found on disk when the default reader is used. */
  ipPath?: string | null;
  /** Replaces the monitor's process (tests). */
  monitor?: Pick<LinkMonitorOptions, 'spawner' | 'backoff' | 'healthyMs'>;
  /** Replaces `ip -json address show` (tests). */
  readAddresses?: () => Promise<IpAddressTable | null>;
}

interface Snapshot {
  nics: Nic[];
  resolved: ResolvedServerAddress[];
  table: ServerAddressTable;
  /** Identity of the interface set and addresses, to detect changes cheaply. */
  key: string;
}

/**
 * The machine's network interfaces and which of them Bootwright serves. The
 * list is cached (servers ask per packet) and read again on every link or
 * address change the kernel reports (`ip monitor`, see link-monitor.ts), on
 * GET /interfaces and when the interfaces settings change; without `ip`, a
 * poll every few seconds stands in for the events.
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
  private timerMs = 0;
  private readonly ipPath: string | null;
  private readonly readAddresses: (() => Promise<IpAddressTable | null>) | null;
  private readonly monitorOptions: NetworkWatchOptions['monitor'];
  /** The kernel's addresses as `ip` last reported them: interfaces without a link have theirs only here. */
  private ipAddresses: IpAddressTable | null = null;
  private monitor: LinkMonitor | null = null;
  private watch: WatchState = { mode: 'off', detail: null };
  /** Coalesces a burst of events (link, then each address) into one re-read. */
  private reconcileScheduled = false;
  private reconcileRunning = false;
  private reconcileAgain = false;

  constructor(deps: { settings: SettingsService; events: EventLog; log: Logger; reader?: NicReader; pollMs?: number; watch?: NetworkWatchOptions }) {
    // A replaced reader (tests' fixtures) has nothing for `ip` to add or watch, unless the test says otherwise.
    this.ipPath = deps.watch?.ipPath !== undefined ? deps.watch.ipPath : deps.reader ? null : findIp();
    this.reader = deps.reader ?? (() => readNics(this.ipAddresses));
    this.readAddresses = deps.watch?.readAddresses ?? (this.ipPath !== null ? ((ip) => () => readIpAddresses(ip))(this.ipPath) : null);
    this.monitorOptions = deps.watch?.monitor;
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

  /**
   * Follows interface changes until stopWatching(): the kernel's events when
   * `ip` is there (and a slow safety poll), else a poll every `pollMs`.
   * Neither keeps the process alive.
   */
  startWatching(): void {
    if (this.watch.mode !== 'off') return;
    if (this.ipPath === null && !this.monitorOptions?.spawner) {
      this.setWatch({ mode: 'poll', detail: 'iproute2 (ip) not found' });
      return;
    }
    this.monitor = new LinkMonitor({
      ...this.monitorOptions,
      ipPath: this.ipPath,
      onEvent: () => this.scheduleReconcile(),
      // Events may have been missed while the monitor was down.
      onRestart: () => this.scheduleReconcile(),
      onState: (state) => this.setWatch(state),
      log: (level, message) => this.log[level](message),
    });
    if (this.monitor.start()) this.scheduleReconcile();
  }

  stopWatching(): void {
    this.monitor?.stop();
    this.monitor = null;
    this.setTimer(0);
    this.watch = { mode: 'off', detail: null };
  }

  /** Reads the kernel's address table once (before the servers start), so interfaces without a link show their addresses. */
  async prime(): Promise<void> {
    if (!this.readAddresses) return;
    const table = await this.readAddresses().catch(() => null);
    if (table) this.ipAddresses = table;
    this.refresh();
  }

  /** How interface changes are followed now (GET /status, the services' notices). */
  watchState(): WatchState {
    return this.watch;
  }

  /**
   * Why each named interface cannot be served yet, e.g. `br0: no link (cable
   * unplugged?)` — for a service's notice. An interface with a link and an
   * IPv4 address gives nothing.
   */
  waitingReasons(names: readonly string[]): string[] {
    const reasons: string[] = [];
    for (const name of names) {
      const nic = this.snapshot.nics.find((candidate) => candidate.name === name);
      if (!nic) reasons.push(`${name}: no such interface`);
      else if (nic.link === 'down') reasons.push(`${name}: no link (cable unplugged?)`);
      else if (!nic.addresses.some((address) => address.family === 'ipv4')) reasons.push(`${name}: no IPv4 address`);
    }
    return reasons;
  }

  /** Says so when interface changes are polled rather than reported (appended to the services' notices). */
  watchNotice(): string | null {
    return this.watch.mode === 'poll' ? `interface changes are polled every ${Math.round(this.pollMs / 1000)} s (${this.watch.detail})` : null;
  }

  /**
   * A service's notice: why the named interfaces (or, for "auto", the served
   * selection) cannot be served yet, and how changes are followed when that
   * is by a poll. Null when nothing is waited for.
   */
  noticeFor(names: readonly string[] | 'served'): string | null {
    const selection = names === 'served' ? this.settings.interfaces().served : names;
    let reasons: string[];
    if (selection === 'auto') {
      const anyAddress = this.served().some((nic) => nic.ipv4.length + nic.ipv6.length > 0);
      reasons = anyAddress ? [] : ['no interface with a link and an address to serve (cable unplugged?)'];
    } else {
      reasons = this.waitingReasons(selection);
    }
    if (reasons.length === 0) return null;
    const watch = this.watchNotice();
    return [...reasons, ...(watch ? [watch] : [])].join('; ');
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

  private setWatch(state: WatchState): void {
    const was = this.watch.mode;
    this.watch = state;
    if (state.mode === 'poll' && was !== 'poll') this.log.warn(`following interface changes by a poll every ${this.pollMs} ms: ${state.detail}`);
    if (state.mode === 'events' && was !== 'events') this.log.info('following interface changes through rtnetlink (ip monitor)');
    this.setTimer(state.mode === 'events' ? SAFETY_POLL_MS : state.mode === 'poll' ? this.pollMs : 0);
  }

  private setTimer(ms: number): void {
    if (ms === this.timerMs) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.timerMs = ms;
    if (ms === 0) return;
    this.timer = setInterval(() => this.scheduleReconcile(), ms);
    this.timer.unref();
  }

  /**
   * Re-reads the interfaces once for any number of events that arrive
   * together: the kernel reports a link coming up, then each address, in
   * quick succession. One read runs at a time; events during it cause one more.
   */
  private scheduleReconcile(): void {
    if (this.reconcileRunning) {
      this.reconcileAgain = true;
      return;
    }
    if (this.reconcileScheduled) return;
    this.reconcileScheduled = true;
    setImmediate(() => void this.reconcile());
  }

  private async reconcile(): Promise<void> {
    this.reconcileScheduled = false;
    this.reconcileRunning = true;
    this.reconcileAgain = false;
    try {
      if (this.readAddresses) {
        const table = await this.readAddresses().catch(() => null);
        if (table) this.ipAddresses = table;
      }
      this.refresh();
    } catch (err) {
      this.log.error(`re-reading the interfaces failed: ${errorMessage(err)}`);
    }
    this.reconcileRunning = false;
    if (this.reconcileAgain && this.watch.mode !== 'off') this.scheduleReconcile();
  }

  private build(nics: Nic[]): Snapshot {
    const { served, server_addresses } = this.settings.interfaces();
    const resolved = resolveServerAddresses(nics, served, server_addresses);
    const key = JSON.stringify(nics.map((nic) => [nic.name, nic.up, nic.link, nic.mac, nic.mtu, nic.addresses.map((a) => a.cidr)]));
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
