import { requestSource } from '../network/source-address.js';
import { nowIso } from '../core/time.js';
import type { Collection } from '../store/collection.js';
import type { AuditBreakdownItem, AuditEntry, UnauthenticatedRequest } from './audit-types.js';

export interface AggregatorOptions {
  /** Failed logins of one source in one minute recorded as single rows (with the username tried) before aggregating. */
  singleLoginsPerMinute?: number;
  /** How often changed aggregate rows are written (they are counted in memory in between). */
  flushMs?: number;
  /** Kinds (method, route, status) listed per aggregate; the rest only counted. */
  breakdownLimit?: number;
  /** Sources tracked per minute; requests of further sources share one row with remote_address `*`. */
  maxSources?: number;
}

export const AGGREGATE_BREAKDOWN_LIMIT = 16;
const LOGIN_ACTION = 'auth.login';
const MINUTE_MS = 60_000;

/** The running count of one source's requests of one kind (logins or anything else) in one minute. */
interface Tally {
  minute: number;
  /** Single failed-login rows written this minute. */
  singles: number;
  rowId: number | null;
  count: number;
  breakdown: Map<string, AuditBreakdownItem>;
  other: number;
  lastAt: Date;
  dirty: boolean;
}

/**
 * Folds unauthenticated requests into one audit row per source and minute
 * ("412 unauthenticated requests from 192.0.2.7 in 12:04"), so a flood adds a
 * row a minute instead of a row a request. Failed logins are security
 * evidence: the first few of a source each minute keep their own row with
 * the username tried, the rest of that minute are folded like the others.
 *
 * An aggregate row is inserted (and durable) at its first request; later
 * requests are counted in memory and the row is rewritten at most every
 * `flushMs`, at the minute's end and on flush(), so a flood costs few writes.
 */
export class UnauthenticatedAggregator {
  private readonly rows: Collection<AuditEntry>;
  private readonly onInsert: (row: AuditEntry) => void;
  private readonly singleLogins: number;
  private readonly flushMs: number;
  private readonly breakdownLimit: number;
  private readonly maxSources: number;
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;

  constructor(rows: Collection<AuditEntry>, onInsert: (row: AuditEntry) => void, options: AggregatorOptions = {}) {
    this.rows = rows;
    this.onInsert = onInsert;
    this.singleLogins = options.singleLoginsPerMinute ?? 3;
    this.flushMs = options.flushMs ?? 5_000;
    this.breakdownLimit = options.breakdownLimit ?? AGGREGATE_BREAKDOWN_LIMIT;
    this.maxSources = options.maxSources ?? 10_000;
  }

  /** Sources (times kinds) being counted now. */
  get tracked(): number {
    return this.tallies.size;
  }

  /** Counts a request; resolves when a row it created is durable (at once when it only added to a count). */
  async record(request: UnauthenticatedRequest, now: Date): Promise<void> {
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    const isLogin = request.action === LOGIN_ACTION;
    let source = request.remote_address === null ? 'ipc' : requestSource(request.remote_address);
    let key = `${isLogin ? 'login' : 'other'}|${source}`;
    let tally = this.tallies.get(key);
    if (tally && tally.minute !== minute) {
      this.writeLater(tally);
      this.tallies.delete(key);
      tally = undefined;
    }
    if (!tally && this.tallies.size >= this.maxSources) {
      this.sweep(minute);
      if (this.tallies.size >= this.maxSources) {
        source = '*';
        key = `${isLogin ? 'login' : 'other'}|*`;
        tally = this.tallies.get(key);
      }
    }
    if (!tally) {
      tally = { minute, singles: 0, rowId: null, count: 0, breakdown: new Map(), other: 0, lastAt: now, dirty: false };
      this.tallies.set(key, tally);
      this.schedule();
    }
    if (isLogin && tally.singles < this.singleLogins) {
      tally.singles += 1;
      await this.insert({ ...withoutRoute(request), count: 1, aggregate: null }, now);
      return;
    }
    this.count(tally, request, now);
    if (tally.rowId !== null) {
      tally.dirty = true;
      return;
    }
    const { row, committed } = this.stageAggregate(tally, request, source, now);
    tally.rowId = row.id;
    await committed;
  }

  /** Writes every changed aggregate now; resolves when they are durable. */
  async flush(): Promise<void> {
    await Promise.all([...this.tallies.values()].map((tally) => this.write(tally)));
  }

  stop(): void {
    this.stopTimer();
  }

  private count(tally: Tally, request: UnauthenticatedRequest, now: Date): void {
    tally.count += 1;
    tally.lastAt = now;
    const kind = `${request.method} ${request.route} ${request.status}`;
    const item = tally.breakdown.get(kind);
    if (item) item.count += 1;
    else if (tally.breakdown.size < this.breakdownLimit) tally.breakdown.set(kind, { method: request.method, route: request.route, status: request.status, count: 1 });
    else tally.other += 1;
  }

  /** The aggregate's row; method, path, status and outcome come from its counts. */
  private stageAggregate(tally: Tally, request: UnauthenticatedRequest, source: string, now: Date): { row: AuditEntry; committed: Promise<void> } {
    const staged = this.rows.stage(
      {
        user: 'anonymous',
        via: request.via,
        remote_address: source === 'ipc' ? null : source,
        action: request.action === LOGIN_ACTION ? LOGIN_ACTION : 'unauthenticated',
        resource_type: request.action === LOGIN_ACTION ? 'auth' : 'api',
        resource_id: null,
        request_id: request.request_id,
        authenticated: false,
        ...this.aggregateFields(tally),
      },
      now,
    );
    this.onInsert(staged.row);
    return staged;
  }

  private async insert(value: Omit<AuditEntry, 'id' | 'created_at' | 'updated_at'>, now: Date): Promise<void> {
    const { row, committed } = this.rows.stage(value, now);
    this.onInsert(row);
    await committed;
  }

  /** The fields an aggregate row's rewrite changes: counts, and method/path/status once they are mixed. */
  private aggregateFields(tally: Tally): Pick<AuditEntry, 'count' | 'aggregate' | 'method' | 'path' | 'status' | 'outcome'> {
    const breakdown = [...tally.breakdown.values()].sort((a, b) => b.count - a.count).map((item) => ({ ...item }));
    const top = breakdown[0]!;
    const same = (pick: (item: AuditBreakdownItem) => string | number) => tally.other === 0 && breakdown.every((item) => pick(item) === pick(top));
    return {
      count: tally.count,
      method: same((item) => item.method) ? top.method : '*',
      path: same((item) => item.route) ? top.route : '*',
      // The most frequent status stands for the row; the breakdown has the others.
      status: top.status,
      outcome: breakdown.every((item) => item.status < 400) && tally.other === 0 ? 'success' : 'failure',
      aggregate: {
        window_start: nowIso(new Date(tally.minute * MINUTE_MS)),
        last_at: nowIso(tally.lastAt),
        breakdown,
        other: tally.other,
      },
    };
  }

  private async write(tally: Tally): Promise<void> {
    if (!tally.dirty || tally.rowId === null) return;
    tally.dirty = false;
    // undefined: the row was pruned meanwhile; the count then starts a new row next time.
    const updated = await this.rows.update(tally.rowId, this.aggregateFields(tally), tally.lastAt);
    if (!updated) tally.rowId = null;
  }

  /** A write nobody waits for: when it fails the tally stays changed, so the next sweep or flush tries again. */
  private writeLater(tally: Tally): void {
    this.write(tally).catch(() => {
      tally.dirty = true;
    });
  }

  /** Writes what changed and forgets the minutes that are over. */
  private sweep(minute: number): void {
    for (const [key, tally] of this.tallies) {
      this.writeLater(tally);
      if (tally.minute !== minute) this.tallies.delete(key);
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sweep(Math.floor(Date.now() / MINUTE_MS));
      if (this.tallies.size === 0) this.stopTimer();
    }, this.flushMs);
    // Counting must never keep the process alive; flush() on stop writes the rest.
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function withoutRoute(request: UnauthenticatedRequest): Omit<UnauthenticatedRequest, 'route'> & { authenticated: false } {
  const { route: _route, ...rest } = request;
  return { ...rest, authenticated: false };
}
