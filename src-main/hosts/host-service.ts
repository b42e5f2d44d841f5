import { AppError, conflict, errorMessage, invalid, notFound, validationError, type FieldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { normalizeMac } from '../core/mac.js';
import { nowIso } from '../core/time.js';
import type { EventLog } from '../events/event-log.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import type { Collection, RowPatch } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { DISCOVERY_LIMITS, DiscoveryLimiter, type DiscoveryLimits, type DiscoveryRefusal, type RefusalCounts } from './discovery-limiter.js';
import { HOST_SORT_FIELDS, type BootObservation, type Host, type HostBootSummary, type HostFilter, type HostInput, type HostReservationLink, type HostView } from './host-types.js';
import { hostLifecycle } from './host-lifecycle.js';
import { newHostRow, normalizeHostInput } from './host-validation.js';
import { ImportProgress, removeReservations, writeReservations, type HostImportResult } from './host-import-writes.js';
import { planHostImport } from './host-import.js';
import { MAX_HOST_TAGS, type HostBatchAssign, type HostImportRow, type ImportMode } from './hosts-contract.js';
import type { SerialQueue } from '../profiles/serial-queue.js';
import type { ProfileUsage } from '../profiles/profiles-contract.js';
import { definedOnly } from '../core/defined-only.js';

export interface HostServiceDeps {
  store: Store;
  events: EventLog;
  log: Logger;
  /** Shared with the profiles so cross-checks (profile exists, profile in use) never race. */
  queue: SerialQueue;
  profileExists: (profileId: number) => boolean;
  /** A profile's id by its name (imports name profiles); default: no names known. */
  profileIdByName?: (name: string) => number | undefined;
  /** The DHCP reservations, looked up at call time; undefined while the DHCP area is absent. */
  reservations: () => HostReservationLink | undefined;
  /** The clock of boot records and their limits (tests pass a manual one); default the system clock. */
  now?: () => Date;
  /** Bounds on recording unknown machines; default DISCOVERY_LIMITS. */
  discoveryLimits?: Partial<DiscoveryLimits>;
}

/**
 * A boot of a known host that changes nothing but `last_boot_at` is written
 * at most once per this interval: each write is a durable rewrite of the
 * configuration file, and the boot request is unauthenticated.
 */
export const BOOT_RECORD_INTERVAL_MS = 60_000;

type HostListener = () => void;

/**
 * The hosts: machines known by MAC, with the profile they boot, their fixed
 * address (kept in step with a DHCP reservation) and what their last boot
 * taught us. Every write runs on the shared queue.
 */
export class HostService {
  private readonly rows: Collection<Host>;
  private readonly events: EventLog;
  private readonly log: Logger;
  private readonly queue: SerialQueue;
  private readonly profileExists: (profileId: number) => boolean;
  private readonly profileIdByName: (name: string) => number | undefined;
  private readonly reservations: () => HostReservationLink | undefined;
  private readonly byMac = new Map<string, number>();
  private readonly listeners = new Set<HostListener>();
  private readonly now: () => Date;
  private bootSummary: HostBootSummary | null = null;
  private readonly discovery: DiscoveryLimiter;
  /** Discovered hosts not yet adopted; recounted after any change (null = stale). */
  private pendingDiscovered: number | null = null;

  constructor(deps: HostServiceDeps) {
    this.rows = deps.store.collection<Host>('hosts');
    this.events = deps.events;
    this.log = deps.log.scope('hosts');
    this.queue = deps.queue;
    this.profileExists = deps.profileExists;
    this.profileIdByName = deps.profileIdByName ?? (() => undefined);
    this.reservations = deps.reservations;
    this.now = deps.now ?? (() => new Date());
    this.discovery = new DiscoveryLimiter({ ...DISCOVERY_LIMITS, ...deps.discoveryLimits }, this.now().getTime());
    for (const host of this.rows.all()) this.byMac.set(host.mac, host.id);
  }

  /**
   * Lets a later area say what each host boots next and where it is in its
   * life (the netboot area, which knows boot decisions and install tasks);
   * read on every host read, so it must answer from memory.
   */
  setBootSummary(summary: HostBootSummary | null): void {
    this.bootSummary = summary;
  }

  /** A host as the API reads it: the record, its effective boot and its lifecycle state. */
  view(host: Host): HostView {
    const summary = this.bootSummary?.(host) ?? { effective_boot: null, lifecycle: hostLifecycle(host, undefined, undefined) };
    return { ...host, ...summary };
  }

  list(query: ListQueryInput & HostFilter = {}): ListPage<HostView> {
    const rows = this.rows
      .filter(
        (host) =>
          (query.group === undefined || host.group?.toLowerCase() === query.group.toLowerCase()) &&
          (query.tag === undefined || host.tags.some((tag) => tag.toLowerCase() === query.tag!.toLowerCase())) &&
          (query.profile_id === undefined || host.profile_id === query.profile_id) &&
          (query.discovered === undefined || host.discovered === query.discovered) &&
          (query.enabled === undefined || host.enabled === query.enabled),
      )
      .map((host) => this.view(host))
      .filter((host) => query.lifecycle === undefined || host.lifecycle === query.lifecycle);
    return paginate(rows, query, {
      sortable: HOST_SORT_FIELDS,
      defaultSort: 'id',
      // MACs match in the spellings people type: 52:54:00, 52-54-00, 525400.
      searchText: (host) => [
        host.mac,
        host.mac.replaceAll(':', '-'),
        host.mac.replaceAll(':', ''),
        host.hostname,
        host.ip,
        host.last_seen_ip,
        host.group,
        host.description,
        ...host.tags,
      ],
    });
  }

  all(): readonly Host[] {
    return this.rows.all();
  }

  get(id: number): Host | undefined {
    return this.rows.get(id);
  }

  /** The host, or a 404 AppError. */
  require(id: number): Host {
    const host = this.rows.get(id);
    if (!host) throw notFound('host', id);
    return host;
  }

  /** Accepts any MAC spelling; undefined when no host has it. */
  findByMac(mac: string): Host | undefined {
    const canonical = normalizeMac(mac);
    const id = canonical === null ? undefined : this.byMac.get(canonical);
    return id === undefined ? undefined : this.rows.get(id);
  }

  /** Per profile id, the hosts assigned it and those booting it as their group default (their effective boot). */
  profileUsage(): Map<number, ProfileUsage> {
    const usage = new Map<number, ProfileUsage>();
    const count = (profileId: number, key: keyof ProfileUsage) => {
      const row = usage.get(profileId) ?? { assigned: 0, by_group: 0 };
      row[key] += 1;
      usage.set(profileId, row);
    };
    for (const host of this.rows.all()) {
      if (host.profile_id !== null) count(host.profile_id, 'assigned');
      else {
        const boot = this.bootSummary?.(host).effective_boot;
        if (boot?.source === 'group' && boot.profile_id !== null) count(boot.profile_id, 'by_group');
      }
    }
    return usage;
  }

  usingProfile(profileId: number): Host[] {
    return this.rows.filter((host) => host.profile_id === profileId);
  }

  /** Subscribes to any change of the host set; returns the unsubscribe function. */
  onChange(listener: HostListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The checks of create (existingId undefined) or of an update of that host,
   * writing nothing (the kit import checks everything first): the input, a
   * free MAC, the profile, and the DHCP reservation its address makes.
   */
  validate(input: HostInput, existingId?: number): void {
    const current = existingId === undefined ? undefined : this.require(existingId);
    const value = normalizeHostInput(input);
    const mac = value.mac ?? current?.mac;
    if (mac === undefined) throw invalid('body.mac', 'is required');
    this.assertMacFree(mac, existingId ?? null);
    if (value.profile_id !== undefined && value.profile_id !== current?.profile_id) this.assertProfile(value.profile_id);
    const ip = value.ip !== undefined ? value.ip : (current?.ip ?? null);
    const problems = this.reservations()?.checkForHosts?.([{ id: existingId ?? this.rows.nextId(), mac, ip, hostname: value.hostname !== undefined ? value.hostname : (current?.hostname ?? null) }]) ?? [];
    if (problems.length > 0) throw validationError(problems.map((problem) => ({ field: `body.${problem.field ?? 'ip'}`, message: problem.message })));
  }

  create(input: HostInput): Promise<Host> {
    return this.queue.run(async () => {
      const value = normalizeHostInput(input);
      if (value.mac === undefined) throw invalid('body.mac', 'is required');
      this.assertMacFree(value.mac, null);
      this.assertProfile(value.profile_id);
      // The reservation first, under the id the host will get (inserts run one at a time in this queue): when it
      // refuses the address, nothing is written, not even a used-up host id.
      const id = this.rows.nextId();
      if (value.ip !== undefined && value.ip !== null) {
        await this.reservations()?.setForHost({ id, mac: value.mac, ip: value.ip, hostname: value.hostname ?? null });
      }
      let host: Host;
      try {
        host = await this.rows.insert(newHostRow({ ...value, mac: value.mac }));
      } catch (err) {
        // The host could not be written: its reservation must not outlive it.
        if (value.ip !== undefined && value.ip !== null) await this.reservations()?.removeForHost(id).catch(() => undefined);
        throw err;
      }
      this.byMac.set(host.mac, host.id);
      this.notify();
      return host;
    });
  }

  update(id: number, input: HostInput): Promise<Host> {
    return this.queue.run(async () => {
      const current = this.require(id);
      const value = normalizeHostInput(input);
      if (value.mac !== undefined) this.assertMacFree(value.mac, id);
      if (value.profile_id !== undefined && value.profile_id !== current.profile_id) this.assertProfile(value.profile_id);
      const next = { ...current, ...definedOnly(value) };
      // The reservation first: when it refuses the address, the host is left as it was.
      const link = this.reservations();
      if (link && next.ip !== null && (next.ip !== current.ip || next.mac !== current.mac || next.hostname !== current.hostname)) {
        await link.setForHost({ id, mac: next.mac, ip: next.ip, hostname: next.hostname });
      } else if (link && next.ip === null && current.ip !== null) {
        await link.removeForHost(id);
      }
      const updated = (await this.rows.update(id, definedOnly(value)))!;
      if (updated.mac !== current.mac) {
        this.byMac.delete(current.mac);
        this.byMac.set(updated.mac, id);
      }
      this.notify();
      return updated;
    });
  }

  remove(id: number): Promise<Host> {
    return this.queue.run(async () => {
      const current = this.require(id);
      if (current.ip !== null) await this.reservations()?.removeForHost(id);
      await this.rows.remove(id);
      this.byMac.delete(current.mac);
      this.notify();
      return current;
    });
  }

  /**
   * Imports many hosts in one transaction (docs/hosts-and-profiles.md, "Bulk
   * operations"): every row and every DHCP reservation is checked before
   * anything is written; with a problem, or `dryRun`, nothing is. Then the
   * reservations, then the hosts, each in one commit; when the hosts cannot
   * be written the new reservations are taken back.
   */
  importHosts(rows: readonly HostImportRow[], options: { mode: ImportMode; dryRun: boolean }): Promise<HostImportResult> {
    return this.queue.run(async () => {
      const progress = new ImportProgress(this.events, rows.length, options.dryRun);
      const plan = planHostImport(rows, options.mode, {
        findByMac: (mac) => this.findByMac(mac),
        profileExists: this.profileExists,
        profileIdByName: this.profileIdByName,
      });
      progress.step('checked');
      // The ids the new hosts get (inserts run one at a time in this queue), so their reservations can be checked now.
      const firstId = this.rows.nextId();
      const links: { index: number; id: number; mac: string; ip: string | null; hostname: string | null }[] = [];
      plan.creates.forEach(({ index, value }, k) => {
        if (value.ip !== null) links.push({ index, id: firstId + k, mac: value.mac, ip: value.ip, hostname: value.hostname });
      });
      const unlink: number[] = [];
      for (const { index, id, patch } of plan.updates) {
        const current = this.require(id);
        const next = { ...current, ...patch };
        if (next.ip !== null && (next.ip !== current.ip || next.hostname !== current.hostname)) links.push({ index, id, mac: next.mac, ip: next.ip, hostname: next.hostname });
        else if (next.ip === null && current.ip !== null) unlink.push(id);
      }
      const link = this.reservations();
      const reservationProblems = link?.checkForHosts?.(links) ?? [];
      const problems = [...plan.problems, ...reservationProblems.map((p) => ({ index: links[p.index]!.index, field: p.field, message: p.message }))];
      const result: HostImportResult = { problems, created: plan.creates.length, updated: plan.updates.length };
      if (problems.length > 0 || options.dryRun) return result;
      if (link) await writeReservations(link, links, unlink);
      progress.step('reservations_written');
      try {
        // New and updated hosts in one journal record: all of the import's hosts or none survive a crash.
        const { inserted } = await this.rows.writeMany(
          plan.creates.map((c) => c.value),
          plan.updates.map((u) => ({ id: u.id, patch: u.patch })),
        );
        for (const host of inserted) this.byMac.set(host.mac, host.id);
      } catch (err) {
        if (link) await removeReservations(link, links.filter((l) => l.id >= firstId).map((l) => l.id)).catch(() => undefined);
        throw err;
      }
      this.notify();
      progress.done(result);
      return result;
    });
  }

  /** Deletes every host named, or none: an unknown id is a 404 naming each (docs/hosts-and-profiles.md). */
  removeMany(ids: readonly number[]): Promise<Host[]> {
    return this.queue.run(async () => {
      const hosts = this.requireAll(ids);
      const link = this.reservations();
      const linked = hosts.filter((host) => host.ip !== null).map((host) => host.id);
      if (link && linked.length > 0) await removeReservations(link, linked);
      const gone = new Set(ids);
      await this.rows.removeWhere((host) => gone.has(host.id));
      for (const host of hosts) this.byMac.delete(host.mac);
      this.notify();
      return hosts;
    });
  }

  /**
   * Sets a profile, group, enabled flag or tags on every host named, or on
   * none: every id and the result for every host is checked first.
   */
  assignMany(change: HostBatchAssign): Promise<Host[]> {
    return this.queue.run(async () => {
      const hosts = this.requireAll(change.ids);
      this.assertProfile(change.profile_id);
      const group = change.group === undefined || change.group === null ? change.group : normalizeHostInput({ group: change.group }).group;
      const remove = new Set((change.tags?.remove ?? []).map((tag) => tag.toLowerCase()));
      const errors: FieldError[] = [];
      const patches = hosts.map((host, index) => {
        const patch: RowPatch<Host> = {};
        if (change.profile_id !== undefined) patch.profile_id = change.profile_id;
        if (group !== undefined) patch.group = group;
        if (change.enabled !== undefined) patch.enabled = change.enabled;
        if (change.tags) {
          const tags = host.tags.filter((tag) => !remove.has(tag.toLowerCase()));
          for (const tag of change.tags.add ?? []) if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
          if (tags.length > MAX_HOST_TAGS) errors.push({ field: `body.ids.${index}`, message: `host ${host.id} would have ${tags.length} tags (at most ${MAX_HOST_TAGS})` });
          patch.tags = tags;
        }
        return { id: host.id, patch };
      });
      if (errors.length > 0) throw validationError(errors);
      // One journal record: the batch is applied to every host or, after a crash, to none.
      const { updated } = await this.rows.writeMany([], patches);
      this.notify();
      return updated;
    });
  }

  /** Every host named, or one 404 listing each missing id. */
  private requireAll(ids: readonly number[]): Host[] {
    const missing: FieldError[] = [];
    const hosts: Host[] = [];
    ids.forEach((id, index) => {
      const host = this.rows.get(id);
      if (host) hosts.push(host);
      else missing.push({ field: `body.ids.${index}`, message: `host ${id} not found` });
    });
    if (missing.length > 0) {
      throw new AppError('NOT_FOUND', `${missing.length} of ${ids.length} hosts not found (${missing.slice(0, 5).map((m) => m.message.split(' ')[1]).join(', ')}${missing.length > 5 ? ', …' : ''}); nothing was changed`, { details: missing });
    }
    return hosts;
  }

  /**
   * Notes a boot: last_boot_at, last_seen_ip and what iPXE told about the
   * machine. A boot that changes nothing but last_boot_at within
   * BOOT_RECORD_INTERVAL_MS of the recorded one is not written (a changed
   * address, arch or platform always is). An unknown MAC is recorded as a
   * discovered host when `discover` is set (settings
   * netboot.record_unknown_hosts) and the discovery limits allow; else
   * nothing is stored and the result is null. The machine boots either way.
   */
  recordBoot(mac: string, seen: BootObservation, options: { discover: boolean }): Promise<Host | null> {
    return this.queue.run(async () => {
      const canonical = normalizeMac(mac);
      if (canonical === null) return null;
      const at = seen.at ?? this.now();
      const known = this.findByMac(canonical);
      if (known) return this.recordKnownBoot(known, seen, at);
      if (!options.discover) return null;
      const verdict = this.discovery.admit(seen.ip, this.pendingCount(), at.getTime());
      if (!verdict.admitted) {
        if (verdict.warn) this.warnLimited(verdict.reason, verdict.warn, seen.ip);
        return null;
      }
      const host = await this.rows.insert(
        {
          mac: canonical,
          hostname: null,
          ip: null,
          profile_id: null,
          group: null,
          tags: [],
          description: '',
          arch: seen.arch,
          platform: seen.platform,
          enabled: true,
          boot_loader: null,
          discovered: true,
          last_boot_at: nowIso(at),
          last_seen_ip: seen.ip,
        },
        at,
      );
      this.byMac.set(host.mac, host.id);
      this.log.info(`discovered host ${host.mac} at ${seen.ip}`);
      this.events.emit({
        kind: 'host.discovered',
        message: `unknown machine ${host.mac} booted from ${seen.ip}; recorded as discovered host #${host.id}`,
        mac: host.mac,
        ip: seen.ip,
        host_id: host.id,
        detail: { arch: seen.arch, platform: seen.platform },
      });
      this.notify();
      return host;
    });
  }

  private async recordKnownBoot(known: Host, seen: BootObservation, at: Date): Promise<Host | null> {
    const changes: Partial<Pick<Host, 'last_seen_ip' | 'arch' | 'platform'>> = {};
    if (seen.ip !== known.last_seen_ip) changes.last_seen_ip = seen.ip;
    if (seen.arch !== null && seen.arch !== known.arch) changes.arch = seen.arch;
    if (seen.platform !== null && seen.platform !== known.platform) changes.platform = seen.platform;
    const since = known.last_boot_at === null ? null : at.getTime() - Date.parse(known.last_boot_at);
    // A clock stepped back (since < 0) writes, so the stored time follows the clock again.
    if (Object.keys(changes).length === 0 && since !== null && since >= 0 && since < BOOT_RECORD_INTERVAL_MS) return known;
    const updated = await this.rows.update(known.id, { ...changes, last_boot_at: nowIso(at) }, at);
    this.notify();
    return updated ?? null;
  }

  /** Discovered hosts not yet adopted, counted once per change of the host set. */
  private pendingCount(): number {
    this.pendingDiscovered ??= this.rows.filter((host) => host.discovered).length;
    return this.pendingDiscovered;
  }

  private warnLimited(reason: DiscoveryRefusal, counts: RefusalCounts, ip: string): void {
    const limits = this.discovery.limits;
    const refused = counts.pending_cap + counts.rate_global + counts.rate_source;
    const pending = this.pendingCount();
    const why =
      reason === 'pending_cap'
        ? `${pending} discovered hosts await adoption (limit ${limits.maxPending})`
        : reason === 'rate_source'
          ? `more than ${limits.perSourcePerMinute} new machines a minute from ${ip}`
          : `more than ${limits.perMinute} new machines a minute`;
    const message = `discovery limited: ${refused} boot(s) of unknown machines not recorded as hosts since the last warning (${why}); they still got their boot script`;
    this.log.warn(message);
    this.events.emit({
      kind: 'host.discovery_limited',
      level: 'warn',
      message,
      ip,
      detail: {
        reason,
        refused,
        ...counts,
        pending,
        max_pending: limits.maxPending,
        per_minute: limits.perMinute,
        per_source_per_minute: limits.perSourcePerMinute,
      },
    });
  }

  private assertMacFree(mac: string, selfId: number | null): void {
    const owner = this.byMac.get(mac);
    if (owner !== undefined && owner !== selfId) {
      throw conflict(`a host with MAC ${mac} already exists (id ${owner})`, [{ field: 'body.mac', message: `${mac} belongs to host ${owner}` }]);
    }
  }

  private assertProfile(profileId: number | null | undefined): void {
    if (profileId !== undefined && profileId !== null && !this.profileExists(profileId)) {
      throw invalid('body.profile_id', `profile ${profileId} does not exist`);
    }
  }

  private notify(): void {
    this.pendingDiscovered = null;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.log.warn(`host change listener failed: ${errorMessage(err)}`);
      }
    }
  }
}
