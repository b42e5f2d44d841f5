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
 * Event budgets (events per second, burst). Outcomes — refusals, NAKs,
 * declines, leases granted or expired — get more than the per-message
 * chatter (discover, offer, request, ack, release, inform), so a busy network
 * cannot crowd them out. Beyond its budget an event is counted, not stored.
 */
const OUTCOME_KINDS: ReadonlySet<DhcpEventKind> = new Set(['dhcp.denied', 'dhcp.nak', 'dhcp.decline', 'dhcp.lease.granted', 'dhcp.lease.expired']);
const OUTCOME_BUDGET = { rate: 5, burst: 200 };
const CHATTER_BUDGET = { rate: 2, burst: 100 };

/** A token bucket. */
class Budget {
  private tokens: number;
  private refilledAt = Date.now();

  constructor(private readonly limits: { rate: number; burst: number }) {
    this.tokens = limits.burst;
  }

  take(): boolean {
    const now = Date.now();
    if (now > this.refilledAt) {
      this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.limits.rate);
      this.refilledAt = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
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
 * rate-limited: a busy network (or a benchmark) would otherwise write tens
 * of thousands of events a second into the events file. Events that do not
 * fit the budget are counted in `bootwright_dhcp_events_suppressed_total`,
 * and their event objects are never built.
 */
export class DhcpObserver {
  private readonly events: EventLog;
  private readonly receivedCounts = new LabelCounts();
  private readonly sentCounts = new LabelCounts();
  private readonly droppedCounts = new LabelCounts();
  private readonly suppressed = { count: 0, reported: 0 };
  private readonly outcomes = new Budget(OUTCOME_BUDGET);
  private readonly chatter = new Budget(CHATTER_BUDGET);

  constructor(deps: { events: EventLog; metrics: Metrics }) {
    this.events = deps.events;
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

  /** True when an event of `kind` fits its budget now (warnings count as outcomes); call before building it. */
  wantsEvent(kind: DhcpEventKind, level: EventLevel = 'info'): boolean {
    const outcome = level !== 'info' || OUTCOME_KINDS.has(kind);
    if ((outcome ? this.outcomes : this.chatter).take()) return true;
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
