import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { Collection, Row } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import type { WolHistoryView, WolResult, WolTrigger } from '../power-contract.js';

export { WOL_RESULTS, WOL_TRIGGERS, type WolHistoryView, type WolResult, type WolTrigger } from '../power-contract.js';

/**
 * One wake attempt, as stored: the API's shape (contract) plus the row's
 * updated_at. `mac` is null when the attempt failed before there was a MAC;
 * `interface` null when nothing was sent; `user` is a user name, "local" over
 * IPC, "schedule:<name>" for a schedule.
 */
export interface WolHistoryEntry extends WolHistoryView, Row {}

export interface WolHistoryFilter {
  mac?: string;
  host_id?: number;
  trigger?: WolTrigger;
  result?: WolResult;
  since?: string;
  until?: string;
}

export const WOL_HISTORY_SORT_FIELDS = ['id', 'created_at', 'mac', 'host_id', 'trigger', 'result', 'user'] as const;

/** Oldest entries are dropped past this many (the history is a log, not a ledger). */
export const WOL_HISTORY_MAX = 10_000;

export function historyView(entry: WolHistoryEntry): WolHistoryView {
  const { updated_at: _updated, ...view } = entry;
  return view;
}

/** The wake history, in the events store file (log-like churn stays out of the configuration). */
export class WolHistory {
  private readonly rows: Collection<WolHistoryEntry>;
  private readonly max: number;

  constructor(store: Store, max = WOL_HISTORY_MAX) {
    this.rows = store.collection<WolHistoryEntry>('wol_history', 'events');
    this.max = max;
  }

  async record(entry: Omit<WolHistoryEntry, 'id' | 'created_at' | 'updated_at'>, now: Date = new Date()): Promise<WolHistoryEntry> {
    const row = await this.rows.insert(entry, now);
    if (this.rows.size > this.max) {
      const overflow = this.rows.size - this.max;
      const oldest = new Set(this.rows.all().slice(0, overflow));
      await this.rows.removeWhere((candidate) => oldest.has(candidate));
    }
    return row;
  }

  list(query: ListQueryInput & WolHistoryFilter): ListPage<WolHistoryView> {
    const sinceMs = query.since === undefined ? null : Date.parse(query.since);
    const untilMs = query.until === undefined ? null : Date.parse(query.until);
    const rows = this.rows.filter((row) => {
      if (query.mac !== undefined && row.mac !== query.mac) return false;
      if (query.host_id !== undefined && row.host_id !== query.host_id) return false;
      if (query.trigger !== undefined && row.trigger !== query.trigger) return false;
      if (query.result !== undefined && row.result !== query.result) return false;
      const at = Date.parse(row.created_at);
      if (sinceMs !== null && at < sinceMs) return false;
      if (untilMs !== null && at >= untilMs) return false;
      return true;
    });
    const page = paginate(rows, query, {
      sortable: WOL_HISTORY_SORT_FIELDS,
      defaultSort: '-id',
      searchText: (row) => [row.mac, row.interface, row.user, row.error, row.trigger, row.result],
    });
    return { data: page.data.map(historyView), meta: page.meta };
  }

  get(id: number): WolHistoryEntry | undefined {
    return this.rows.get(id);
  }

  remove(id: number): Promise<WolHistoryEntry | undefined> {
    return this.rows.remove(id);
  }

  /** Removes every entry; returns how many there were. */
  async clear(): Promise<number> {
    return (await this.rows.removeWhere(() => true)).length;
  }
}
