import { Type, type Static, type TSchema } from 'typebox';

/*
 * The diagnostics API (docs/diagnostics.md): ping and traceroute run by the
 * system's own tools. Every field that reaches a command line is bounded
 * here; the target's grammar is checked in diagnostics-target.ts.
 */

export const DIAGNOSTIC_KINDS = ['ping', 'traceroute'] as const;
export type DiagnosticKind = (typeof DIAGNOSTIC_KINDS)[number];

/** How many diagnostics may run at once (a further one gets 429 with Retry-After). */
export const MAX_CONCURRENT_DIAGNOSTICS = 4;
/** A DNS name is at most 253 characters (RFC 1035 §2.3.4 less the root dot). */
export const TARGET_MAX_LENGTH = 253;

export const PING_LIMITS = {
  count: { minimum: 1, maximum: 20, default: 4 },
  timeout_seconds: { minimum: 1, maximum: 10, default: 2 },
  /** Payload bytes: 16 carries ping's timestamp; 1472 fills a 1500-byte IPv4 frame. */
  size: { minimum: 16, maximum: 1472, default: 56 },
} as const;

export const TRACEROUTE_LIMITS = {
  max_hops: { minimum: 1, maximum: 30, default: 30 },
  timeout_seconds: { minimum: 1, maximum: 10, default: 2 },
} as const;

const Target = Type.String({
  minLength: 1,
  maxLength: TARGET_MAX_LENGTH,
  description: 'An IPv4/IPv6 literal or a host name (RFC 1123)',
});
const Family = Type.Union([Type.Literal(4), Type.Literal(6)], { description: 'Force IPv4 or IPv6 (default: what the target resolves to)' });

function bounded(limits: { minimum: number; maximum: number; default: number }, description: string) {
  return Type.Optional(Type.Integer({ minimum: limits.minimum, maximum: limits.maximum, description: `${description} (default ${limits.default})` }));
}

export const PingRequestSchema = Type.Object(
  {
    target: Target,
    count: bounded(PING_LIMITS.count, 'Echo requests to send'),
    timeout_seconds: bounded(PING_LIMITS.timeout_seconds, 'Seconds to wait for each reply'),
    size: bounded(PING_LIMITS.size, 'Payload bytes per request'),
    family: Type.Optional(Family),
  },
  { additionalProperties: false },
);
export type PingRequest = Static<typeof PingRequestSchema>;

export const TracerouteRequestSchema = Type.Object(
  {
    target: Target,
    max_hops: bounded(TRACEROUTE_LIMITS.max_hops, 'Highest TTL to probe'),
    timeout_seconds: bounded(TRACEROUTE_LIMITS.timeout_seconds, 'Seconds to wait for each probe'),
    family: Type.Optional(Family),
  },
  { additionalProperties: false },
);
export type TracerouteRequest = Static<typeof TracerouteRequestSchema>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One line of ping's output about one request: a reply, or an error report (unreachable, TTL exceeded). */
export const PingReplySchema = Type.Object(
  {
    seq: Type.Integer({ minimum: 0 }),
    from: Type.Union([Type.String(), Type.Null()]),
    ttl: Nullable(Type.Integer()),
    time_ms: Nullable(Type.Number()),
    /** Why there was no reply ("Destination Host Unreachable"), or null for a reply. */
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'PingReply' },
);
export type PingReply = Static<typeof PingReplySchema>;

/** How the tool's run ended: exit code, whether the wall-time cap stopped it, and its error text. */
const RunOutcome = {
  tool: Type.String({ description: 'The program that ran (ping, traceroute, tracepath, tracert)' }),
  exit_code: Type.Union([Type.Integer(), Type.Null()]),
  timed_out: Type.Boolean({ description: 'The hard wall-time cap stopped the run' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'What the tool wrote to stderr (unknown host…), or null' }),
  lines: Type.Array(Type.String(), { description: 'The raw output lines' }),
};

export const PingResultSchema = Type.Object(
  {
    target: Type.String(),
    replies: Type.Array(PingReplySchema),
    transmitted: Type.Integer({ minimum: 0 }),
    received: Type.Integer({ minimum: 0 }),
    loss_percent: Type.Number({ minimum: 0, maximum: 100 }),
    min_ms: Nullable(Type.Number()),
    avg_ms: Nullable(Type.Number()),
    max_ms: Nullable(Type.Number()),
    ...RunOutcome,
  },
  { $id: 'PingResult' },
);
export type PingResult = Static<typeof PingResultSchema>;

/** One hop: the addresses that answered and one round trip per probe (null for a `*` timeout). */
export const TraceHopSchema = Type.Object(
  {
    hop: Type.Integer({ minimum: 1 }),
    addresses: Type.Array(Type.String()),
    rtts_ms: Type.Array(Nullable(Type.Number())),
    /** traceroute's `!H`, `!N`… annotations, tracepath's "reached" */
    notes: Type.Array(Type.String()),
  },
  { $id: 'TraceHop' },
);
export type TraceHop = Static<typeof TraceHopSchema>;

export const TracerouteResultSchema = Type.Object(
  {
    target: Type.String(),
    hops: Type.Array(TraceHopSchema),
    reached: Type.Boolean({ description: 'The last hop is the target' }),
    ...RunOutcome,
  },
  { $id: 'TracerouteResult' },
);
export type TracerouteResult = Static<typeof TracerouteResultSchema>;

/** The stream's messages: `row` (a PingReply or TraceHop) per parsed line, then `done` (the result) or `error`. */
export const DIAGNOSTIC_STREAM_EVENTS = ['row', 'done', 'error'] as const;

/**
 * One row per hop in hop order: a hop seen on several lines (tracepath prints one per probe)
 * merged. Here, beside its type, because the server's result and the live page's rows are
 * built with the same rule.
 */
export function mergeHops(rows: readonly TraceHop[]): TraceHop[] {
  const byHop = new Map<number, TraceHop>();
  for (const row of rows) {
    const seen = byHop.get(row.hop);
    if (!seen) {
      byHop.set(row.hop, { hop: row.hop, addresses: [...row.addresses], rtts_ms: [...row.rtts_ms], notes: [...row.notes] });
      continue;
    }
    for (const a of row.addresses) if (!seen.addresses.includes(a)) seen.addresses.push(a);
    seen.rtts_ms.push(...row.rtts_ms);
    for (const n of row.notes) if (!seen.notes.includes(n)) seen.notes.push(n);
  }
  return [...byHop.values()].sort((a, b) => a.hop - b.hop);
}
