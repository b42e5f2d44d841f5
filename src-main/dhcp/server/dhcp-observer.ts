import type { EventLog } from '../../events/event-log.js';
import type { EventLevel } from '../../events/event-types.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Counter } from 'prom-client';
import type { Archmap } from '../archmap.js';
import { MESSAGE_TYPE_NAMES, type MessageTypeName } from '../dhcp-options.js';
import type { ClientRequest } from './client-request.js';
import type { ServingContext } from './dhcp-types.js';

export const DROP_REASONS = [
  'malformed',
  'not_request',
  'denied',
  'no_subnet',
  'pool_exhausted',
  'ping_conflict',
  'not_for_us',
  'journal_error',
  'send_error',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export type DhcpEventKind =
  | 'dhcp.discover'
  | 'dhcp.offer'
  | 'dhcp.request'
  | 'dhcp.ack'
  | 'dhcp.nak'
  | 'dhcp.decline'
  | 'dhcp.release'
  | 'dhcp.inform'
  | 'dhcp.denied'
  | 'dhcp.lease.granted'
  | 'dhcp.lease.expired';

export interface DhcpEventInput {
  kind: DhcpEventKind;
  level?: EventLevel;
  message: string;
  mac: string;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Event budgets (events per second, burst). Each client has its own budget,
 * so one machine looping on DISCOVER cannot fill the log, while every
 * machine of a boot storm keeps the DHCP steps of its boot timeline. Behind
 * them, two budgets for all clients together bound a flood (random MACs,
 * perfdhcp) to what the event log's retention can hold without losing the
 * last hour to it: outcomes — refusals, NAKs, declines, leases granted or
 * expired, every warning — have their own, so the per-message chatter
 * (discover, offer, request, ack, release, inform) cannot crowd them out.
 * Beyond a budget an event is counted, not stored. (The events journal
 * writes an event in O(1), so the budgets are about what the log keeps, not
 * about the cost of writing it.)
 */
const OUTCOME_KINDS: ReadonlySet<DhcpEventKind> = new Set(['dhcp.denied', 'dhcp.nak', 'dhcp.decline', 'dhcp.lease.granted', 'dhcp.lease.expired']);
export const DHCP_EVENT_BUDGETS = {
  /** All clients' outcomes together. */
  outcomes: { rate: 20, burst: 1000 },
  /** All clients' per-message events together. */
  chatter: { rate: 50, burst: 2000 },
  /** One client (by MAC): a few boots' worth at once, then one event every 2 s. */
  perClient: { rate: 0.5, burst: 40 },
} as const;
/** Clients whose budgets are kept; past it the least recently created goes (a flood of new MACs cannot grow memory). */
const MAX_CLIENT_BUDGETS = 4096;

/** A token bucket. */
class Budget {
  private tokens: number;
  private refilledAt: number;

  constructor(private readonly limits: { rate: number; burst: number }, private readonly clock: () => number) {
    this.tokens = limits.burst;
    this.refilledAt = clock();
  }

  take(): boolean {
    const now = this.clock();
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.limits.rate);
      this.refilledAt = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One budget per key, at most `max` of them (the oldest go first). */
class KeyedBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(private readonly limits: { rate: number; burst: number }, private readonly clock: () => number, private readonly max: number) {}

  take(key: string): boolean {
    let budget = this.budgets.get(key);
    if (!budget) {
      if (this.budgets.size >= this.max) {
        const oldest = this.budgets.keys().next();
        if (!oldest.done) this.budgets.delete(oldest.value);
      }
      budget = new Budget(this.limits, this.clock);
      this.budgets.set(key, budget);
    }
    return budget.take();
  }
}

/**
 * Counts by label kept in plain numbers on the packet path and handed to a
 * prom-client counter when metrics are scraped (a labelled inc per packet
 * costs more than the rest of the bookkeeping).
 */
class LabelCounts {
  private readonly counts = new Map<string, number>();
  private readonly reported = new Map<string, number>();

  add(label: string): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }

  /** Increments `counter` by what was counted since the last scrape. */
  report(counter: Counter<string>, labelName: string): void {
    for (const [label, count] of this.counts) {
      const delta = count - (this.reported.get(label) ?? 0);
      if (delta > 0) counter.inc({ [labelName]: label }, delta);
      this.reported.set(label, count);
    }
  }
}

/**
 * Counters per message type and drop reason, and the server's events —
 * rate-limited per client and overall (see DHCP_EVENT_BUDGETS): a busy
 * network (or a benchmark) would otherwise write tens of thousands of events
 * a second into the event log. Events that do not
 * fit the budget are counted in `bootwright_dhcp_events_suppressed_total`,
 * and their event objects are never built.
 */
export class DhcpObserver {
  private readonly events: EventLog;
  private readonly receivedCounts = new LabelCounts();
  private readonly sentCounts = new LabelCounts();
  private readonly droppedCounts = new LabelCounts();
  private readonly suppressed = { count: 0, reported: 0 };
  private readonly outcomes: Budget;
  private readonly chatter: Budget;
  private readonly clients: KeyedBudgets;

  constructor(deps: { events: EventLog; metrics: Metrics; clock?: () => number }) {
    this.events = deps.events;
    const clock = deps.clock ?? Date.now;
    this.outcomes = new Budget(DHCP_EVENT_BUDGETS.outcomes, clock);
    this.chatter = new Budget(DHCP_EVENT_BUDGETS.chatter, clock);
    this.clients = new KeyedBudgets(DHCP_EVENT_BUDGETS.perClient, clock, MAX_CLIENT_BUDGETS);
    const received = this.receivedCounts;
    const sent = this.sentCounts;
    const dropped = this.droppedCounts;
    deps.metrics.counter({
      name: 'bootwright_dhcp_messages_received_total',
      help: 'DHCP messages received, by message type',
      labelNames: ['type'] as const,
      collect() {
        received.report(this, 'type');
      },
    });
    deps.metrics.counter({
      name: 'bootwright_dhcp_messages_sent_total',
      help: 'DHCP messages sent, by message type',
      labelNames: ['type'] as const,
      collect() {
        sent.report(this, 'type');
      },
    });
    deps.metrics.counter({
      name: 'bootwright_dhcp_dropped_total',
      help: 'DHCP packets dropped without a reply, by reason',
      labelNames: ['reason'] as const,
      collect() {
        dropped.report(this, 'reason');
      },
    });
    const suppressed = this.suppressed;
    deps.metrics.counter({
      name: 'bootwright_dhcp_events_suppressed_total',
      help: 'DHCP events not stored because of the event rate limit',
      collect() {
        const delta = suppressed.count - suppressed.reported;
        if (delta > 0) this.inc(delta);
        suppressed.reported = suppressed.count;
      },
    });
  }

  received(type: number): void {
    this.receivedCounts.add(MESSAGE_TYPE_NAMES[type] ?? 'unknown');
  }

  sent(type: MessageTypeName): void {
    this.sentCounts.add(type);
  }

  dropped(reason: DropReason): void {
    this.droppedCounts.add(reason);
  }

  /**
   * True when an event of `kind` about client `mac` fits its budgets now
   * (warnings count as outcomes; without a MAC only the shared budget
   * applies); call before building it.
   */
  wantsEvent(kind: DhcpEventKind, level: EventLevel = 'info', mac: string | null = null): boolean {
    const outcome = level !== 'info' || OUTCOME_KINDS.has(kind);
    // The client's own budget first: a looping client spends its tokens, not everyone's.
    if ((mac === null || this.clients.take(mac)) && (outcome ? this.outcomes : this.chatter).take()) return true;
    this.suppressed.count += 1;
    return false;
  }

  /** Emits an event when the budget allows (callers that built it already used wantsEvent()). */
  event(input: DhcpEventInput): void {
    this.events.emit({
      kind: input.kind,
      level: input.level ?? 'info',
      message: input.message,
      mac: input.mac,
      ...(input.ip ? { ip: input.ip } : {}),
      ...(input.detail ? { detail: input.detail } : {}),
    });
  }
}

/** The detail every DHCP event about a client carries: what it is (architecture, iPXE, vendor class) and where and how it was served. */
export function clientEventDetail(client: ClientRequest, context: ServingContext, archmap: Archmap, mode: 'server' | 'proxy'): Record<string, unknown> {
  const entry = client.arch === null ? undefined : archmap.lookup(client.arch);
  return {
    arch: client.arch,
    arch_name: entry?.name ?? null,
    vendor_class: client.vendorClass,
    ipxe: client.ipxe,
    hostname: client.hostname,
    interface: context.interfaceName,
    // A proxy answers beside another server's addressing: it serves no subnet of its own.
    ...(mode === 'server' ? { subnet: context.subnet?.subnet.cidr ?? null } : {}),
    mode,
  };
}
