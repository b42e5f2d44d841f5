import { AppError, conflict, invalid, notFound, type FieldError } from '../core/errors.js';
import { normalizeMac, unicastMacProblem } from '../core/mac.js';
import { intToIpv4, isHostIn, parseIpv4 } from '../network/ip-math.js';
import { notOneMachineProblem } from '../network/special-addresses.js';
import type { Collection, Row } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { bootPathProblem } from './archmap.js';
import { customOptionProblem } from './dhcp-options.js';
import type { CustomOption, DhcpReservation, ReservationInput, ReservationPatch } from './dhcp-contract.js';
import type { DhcpSettings } from './dhcp-settings.js';

export type { DhcpReservation, ReservationInput, ReservationPatch } from './dhcp-contract.js';

/** What the hosts area hands over: a host and the address it should always get. */
export interface HostReservationInput {
  id: number;
  mac: string;
  ip: string | null;
  hostname: string | null;
}

const HOSTNAME = /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * DHCP reservations: CRUD for `/dhcp/reservations` and the link to host
 * records (`setForHost`/`removeForHost`, called by the hosts area). Writes run
 * one at a time so two requests cannot both pass the duplicate checks.
 */
export class Reservations {
  private readonly rows: Collection<DhcpReservation>;
  private readonly settings: DhcpSettings;
  private readonly ownAddresses: () => string[];
  private readonly listeners = new Set<() => void>();
  private readonly byMacIndex = new Map<string, DhcpReservation>();
  private readonly byIpIndex = new Map<number, DhcpReservation>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deps: { store: Store; settings: DhcpSettings; ownAddresses: () => string[] }) {
    this.rows = deps.store.collection<DhcpReservation>('dhcp_reservations');
    this.settings = deps.settings;
    this.ownAddresses = deps.ownAddresses;
    this.reindex();
  }

  list(): readonly DhcpReservation[] {
    return this.rows.all();
  }

  get(id: number): DhcpReservation {
    const row = this.rows.get(id);
    if (!row) throw notFound('reservation', id);
    return row;
  }

  /** The reservation of a canonical MAC (per packet). */
  byMac(mac: string): DhcpReservation | undefined {
    return this.byMacIndex.get(mac);
  }

  /** The reservation of an address given as uint32 (per packet). */
  byIp(ip: number): DhcpReservation | undefined {
    return this.byIpIndex.get(ip);
  }

  forHost(hostId: number): DhcpReservation | undefined {
    return this.rows.find((row) => row.host_id === hostId);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  create(input: ReservationInput): Promise<DhcpReservation> {
    return this.serial(async () => {
      const value = this.check({ hostname: null, boot_file: null, options: [], ...input }, null);
      const row = await this.rows.insert({ ...value, host_id: null });
      this.changed();
      return row;
    });
  }

  update(id: number, patch: ReservationPatch): Promise<DhcpReservation> {
    return this.serial(async () => {
      const current = this.get(id);
      const value = this.check({ ...current, ...patch }, id);
      const row = await this.rows.update(id, value);
      if (!row) throw notFound('reservation', id);
      this.changed();
      return row;
    });
  }

  remove(id: number): Promise<DhcpReservation> {
    return this.serial(async () => {
      const removed = await this.rows.remove(id);
      if (!removed) throw notFound('reservation', id);
      this.changed();
      return removed;
    });
  }

  /**
   * Creates or updates the reservation linked to a host; removes it when the
   * host has no address. A reservation of the same MAC that belongs to no
   * host is adopted. Throws 400 for an address outside every subnet, 409 when
   * another reservation holds the MAC or the address.
   */
  setForHost(host: HostReservationInput): Promise<void> {
    if (host.ip === null) return this.removeForHost(host.id);
    const ip = host.ip;
    return this.serial(async () => {
      const mac = normalizeMac(host.mac);
      const linked = this.rows.find((row) => row.host_id === host.id);
      const adoptable = mac ? this.byMacIndex.get(mac) : undefined;
      const target = linked ?? (adoptable && adoptable.host_id === null ? adoptable : undefined);
      const base = target ?? { boot_file: null, options: [] };
      const value = this.check(
        { mac: host.mac, ip, hostname: host.hostname, boot_file: base.boot_file, options: base.options },
        target?.id ?? null,
        { mac: 'mac', ip: 'ip', hostname: 'hostname' },
      );
      if (target) await this.rows.update(target.id, { ...value, host_id: host.id });
      else await this.rows.insert({ ...value, host_id: host.id });
      this.changed();
    });
  }

  /** Removes the reservation linked to a host, if any. */
  removeForHost(hostId: number): Promise<void> {
    return this.serial(async () => {
      const removed = await this.rows.removeWhere((row) => row.host_id === hostId);
      if (removed.length > 0) this.changed();
    });
  }

  private check(
    input: { mac: string; ip: string; hostname?: string | null; boot_file?: string | null; options?: CustomOption[] },
    selfId: number | null,
    names: { mac: string; ip: string; hostname: string } = { mac: 'body.mac', ip: 'body.ip', hostname: 'body.hostname' },
  ): Omit<DhcpReservation, keyof Row | 'host_id'> {
    const mac = normalizeMac(input.mac);
    if (!mac) throw invalid(names.mac, `"${input.mac}" is not a MAC address`);
    const unicast = unicastMacProblem(mac);
    if (unicast) throw invalid(names.mac, unicast);
    const ip = parseIpv4(input.ip);
    if (ip === null) throw invalid(names.ip, `"${input.ip}" is not an IPv4 address`);
    const special = notOneMachineProblem(intToIpv4(ip));
    if (special) throw invalid(names.ip, special);
    const subnet = this.settings.subnetFor(ip);
    if (!subnet) throw invalid(names.ip, `${input.ip} is outside every configured DHCP subnet`);
    if (!isHostIn(subnet.subnet, ip)) throw invalid(names.ip, `${input.ip} is not a host address of ${subnet.subnet.cidr}`);
    if (this.ownAddresses().includes(intToIpv4(ip))) throw invalid(names.ip, `${input.ip} is this server's own address`);
    const hostname = input.hostname ?? null;
    if (hostname !== null && !HOSTNAME.test(hostname)) throw invalid(names.hostname, `"${hostname}" is not a valid host name (RFC 1123)`);
    const bootFile = input.boot_file ?? null;
    if (bootFile !== null) {
      const problem = bootPathProblem(bootFile);
      if (problem) throw invalid('body.boot_file', problem);
    }
    const options = input.options ?? [];
    const errors: FieldError[] = [];
    const codes = new Set<number>();
    options.forEach((option, i) => {
      if (codes.has(option.code)) errors.push({ field: `body.options[${i}].code`, message: `option ${option.code} is set twice` });
      codes.add(option.code);
      const problem = customOptionProblem(option);
      if (problem) errors.push({ field: `body.options[${i}].${problem.field}`, message: problem.message });
    });
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', `${errors[0]!.field}: ${errors[0]!.message}`, { details: errors });
    const sameMac = this.byMacIndex.get(mac);
    if (sameMac && sameMac.id !== selfId) {
      throw conflict(`${mac} already has reservation ${sameMac.id} (${sameMac.ip})`, [{ field: names.mac, message: 'duplicate MAC' }]);
    }
    const sameIp = this.byIpIndex.get(ip);
    if (sameIp && sameIp.id !== selfId) {
      throw conflict(`${intToIpv4(ip)} is already reserved for ${sameIp.mac}`, [{ field: names.ip, message: 'duplicate IP' }]);
    }
    return { mac, ip: intToIpv4(ip), hostname, boot_file: bootFile, options: options.map((o) => ({ ...o })) };
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.catch(() => undefined).then(work);
    this.queue = run;
    return run;
  }

  private changed(): void {
    this.reindex();
    for (const listener of this.listeners) listener();
  }

  private reindex(): void {
    this.byMacIndex.clear();
    this.byIpIndex.clear();
    for (const row of this.rows.all()) {
      this.byMacIndex.set(row.mac, row);
      const ip = parseIpv4(row.ip);
      if (ip !== null) this.byIpIndex.set(ip, row);
    }
  }
}
