import { AppError, conflict, invalid, isAppError, notFound, validationError, type FieldError } from '../core/errors.js';
import { normalizeMac, unicastMacProblem } from '../core/mac.js';
import { intToIpv4, isHostIn, parseIpv4 } from '../network/ip-math.js';
import { notOneMachineProblem } from '../network/special-addresses.js';
import type { Collection, NewRow, Row, RowPatch } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { bootPathProblem } from './archmap.js';
import { customOptionProblem } from './dhcp-options.js';
import type { CustomOption, DhcpReservation, ImportMode, ReservationImportRow, ReservationInput, ReservationPatch } from './dhcp-contract.js';
import type { DhcpSettings } from './dhcp-settings.js';
import { definedOnly } from '../core/defined-only.js';

export type { DhcpReservation, ReservationInput, ReservationPatch } from './dhcp-contract.js';

/** What the hosts area hands over: a host and the address it should always get. */
export interface HostReservationInput {
  id: number;
  mac: string;
  ip: string | null;
  hostname: string | null;
}

/** A problem of one row of a batch: its index in the batch, the field (without `body.`) and what is wrong. */
export interface BatchProblem {
  index: number;
  field: string | null;
  message: string;
}

export type ReservationImportInput = ReservationImportRow;
export interface ReservationImportResult {
  problems: BatchProblem[];
  created: number;
  updated: number;
}

const HOST_FIELDS = { mac: 'mac', ip: 'ip', hostname: 'hostname' };
const ROW_FIELDS = HOST_FIELDS;

/** The problems an AppError of check() names, as problems of row `index`. */
function problemsOf(err: unknown, index: number): BatchProblem[] {
  if (!isAppError(err)) throw err;
  const details = err.details ?? [];
  if (details.length === 0) return [{ index, field: null, message: err.message }];
  // A conflict's detail says only "duplicate MAC"; its message names the other reservation.
  return details.map((detail) => ({ index, field: detail.field.replace(/^body\./, ''), message: err.code === 'CONFLICT' ? err.message : detail.message }));
}

function normalizeIpv4(text: string): string {
  const ip = parseIpv4(text);
  return ip === null ? text : intToIpv4(ip);
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

  /** The checks of create (existingId undefined) or of an update of that reservation, writing nothing (the kit import checks everything first). */
  validate(input: ReservationInput, existingId?: number): void {
    const current = existingId === undefined ? undefined : this.get(existingId);
    this.check({ hostname: null, boot_file: null, options: [], ...current, ...input }, existingId ?? null);
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

  /**
   * Checks the reservations of many hosts at once without writing: every
   * problem with the index of its host in `hosts`. The hosts must not repeat
   * a MAC or an address among themselves (the caller reports those).
   */
  checkForHosts(hosts: readonly HostReservationInput[]): BatchProblem[] {
    const problems: BatchProblem[] = [];
    hosts.forEach((host, index) => {
      if (host.ip === null) return;
      const target = this.targetForHost(host);
      try {
        this.check({ mac: host.mac, ip: host.ip, hostname: host.hostname, boot_file: target?.boot_file ?? null, options: target?.options ?? [] }, target?.id ?? null, HOST_FIELDS);
      } catch (err) {
        problems.push(...problemsOf(err, index));
      }
    });
    return problems;
  }

  /**
   * Writes the reservations of many hosts (those with an address) after the
   * same checks as checkForHosts; any problem throws before anything is
   * written. New reservations go to disk in one commit.
   */
  setForHosts(hosts: readonly HostReservationInput[]): Promise<void> {
    return this.serial(async () => {
      const problems = this.checkForHosts(hosts);
      if (problems.length > 0) throw validationError(problems.map((p) => ({ field: `hosts.${p.index}.${p.field ?? 'ip'}`, message: p.message })));
      const inserts: NewRow<DhcpReservation>[] = [];
      const updates: { id: number; patch: RowPatch<DhcpReservation> }[] = [];
      for (const host of hosts) {
        if (host.ip === null) continue;
        const target = this.targetForHost(host);
        const value = { mac: normalizeMac(host.mac)!, ip: normalizeIpv4(host.ip), hostname: host.hostname, host_id: host.id };
        if (target) updates.push({ id: target.id, patch: value });
        else inserts.push({ ...value, boot_file: null, options: [] });
      }
      // One journal record for all of them (a crash keeps all or none).
      await this.rows.writeMany(inserts, updates);
      this.changed();
    });
  }

  /** Removes the reservations linked to these hosts (one commit). */
  removeForHosts(hostIds: readonly number[]): Promise<void> {
    const ids = new Set(hostIds);
    return this.serial(async () => {
      const removed = await this.rows.removeWhere((row) => row.host_id !== null && ids.has(row.host_id));
      if (removed.length > 0) this.changed();
    });
  }

  /**
   * The bulk import of reservations (docs/dhcp.md): every row is checked,
   * against the stored reservations and the other rows, before anything is
   * written; with problems or `dryRun` nothing is. `upsert` updates the
   * stored reservation of a row's MAC, unless a host owns it.
   */
  importRows(rows: readonly ReservationImportInput[], options: { mode: ImportMode; dryRun: boolean }): Promise<ReservationImportResult> {
    return this.serial(async () => {
      const problems: BatchProblem[] = [];
      const inserts: NewRow<DhcpReservation>[] = [];
      const updates: { id: number; value: Omit<DhcpReservation, keyof Row | 'host_id'> }[] = [];
      const macs = new Map<string, number>();
      const ips = new Map<string, number>();
      rows.forEach((row, index) => {
        const mac = normalizeMac(row.mac);
        const stored = mac ? this.byMacIndex.get(mac) : undefined;
        if (stored && options.mode === 'create') {
          problems.push({ index, field: 'mac', message: `${mac} already has reservation ${stored.id} (${stored.ip}); use mode=upsert to update it` });
          return;
        }
        if (stored && stored.host_id !== null) {
          problems.push({ index, field: 'mac', message: `reservation ${stored.id} of ${mac} belongs to host ${stored.host_id}; change it through the host` });
          return;
        }
        let value: Omit<DhcpReservation, keyof Row | 'host_id'>;
        try {
          // A field the row leaves out keeps the stored value (upsert) or its default.
          const base = { hostname: stored?.hostname ?? null, boot_file: stored?.boot_file ?? null, options: stored?.options ?? [] };
          value = this.check({ ...base, ...definedOnly(row), mac: row.mac, ip: row.ip }, stored?.id ?? null, ROW_FIELDS);
        } catch (err) {
          problems.push(...problemsOf(err, index));
          return;
        }
        const macRow = macs.get(value.mac);
        if (macRow !== undefined) problems.push({ index, field: 'mac', message: `${value.mac} is also on row ${macRow + 1}` });
        const ipRow = ips.get(value.ip);
        if (ipRow !== undefined) problems.push({ index, field: 'ip', message: `${value.ip} is also on row ${ipRow + 1}` });
        macs.set(value.mac, index);
        ips.set(value.ip, index);
        if (stored) updates.push({ id: stored.id, value });
        else inserts.push({ ...value, host_id: null });
      });
      const result = { problems, created: inserts.length, updated: updates.length };
      if (problems.length > 0 || options.dryRun) return result;
      await this.rows.writeMany(inserts, updates.map((u) => ({ id: u.id, patch: u.value })));
      this.changed();
      return result;
    });
  }

  /** The reservation a host's address goes to: the one linked to it, or an unlinked one of its MAC (adopted). */
  private targetForHost(host: HostReservationInput): DhcpReservation | undefined {
    const linked = this.rows.find((row) => row.host_id === host.id);
    if (linked) return linked;
    const mac = normalizeMac(host.mac);
    const adoptable = mac ? this.byMacIndex.get(mac) : undefined;
    return adoptable && adoptable.host_id === null ? adoptable : undefined;
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
    if (!subnet) {
      // Name the subnets there are, so the fix is in the message (issue 18: "IP outside subnet" should say which subnets exist).
      const configured = this.settings.current().subnets.map((candidate) => candidate.subnet);
      throw invalid(names.ip, configured.length === 0 ? `${input.ip}: no DHCP subnet is configured yet (Services → DHCP)` : `${input.ip} is outside every configured DHCP subnet (${configured.join(', ')})`);
    }
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
