import { PING_LIMITS, PingRequestSchema, TRACEROUTE_LIMITS, TracerouteRequestSchema, type PingRequest, type TracerouteRequest } from '@contracts/diagnostics';
import { Value } from 'typebox/value';

export type Tool = 'ping' | 'traceroute';
export type Family = '' | '4' | '6';

/** The form as typed: numbers stay as the inputs hold them ('' when cleared) until checked. */
export interface DiagnosticsForm {
  tool: Tool;
  target: string;
  count: number | string;
  timeout: number | string;
  size: number | string;
  maxHops: number | string;
  family: Family;
}

export const INITIAL_FORM: DiagnosticsForm = {
  tool: 'ping',
  target: '',
  count: PING_LIMITS.count.default,
  timeout: PING_LIMITS.timeout_seconds.default,
  size: PING_LIMITS.size.default,
  maxHops: TRACEROUTE_LIMITS.max_hops.default,
  family: '',
};

export type FormProblems = Partial<Record<'target' | 'count' | 'timeout' | 'size' | 'maxHops', string>>;

export type CheckedRequest = { tool: 'ping'; body: PingRequest } | { tool: 'traceroute'; body: TracerouteRequest };

const range = (limits: { minimum: number; maximum: number }) => `A whole number ${limits.minimum}–${limits.maximum}`;

/**
 * The request body, or what is wrong with the fields: each field checked
 * against the contract's own schema (Value.Check), so the form refuses what
 * the route would. The target's grammar (no leading "-", no spaces…) is
 * checked by the server, whose 400 the page shows by field.
 */
export function checkForm(form: DiagnosticsForm): { request: CheckedRequest } | { problems: FormProblems } {
  const problems: FormProblems = {};
  const target = form.target.trim();
  const family = form.family === '' ? {} : { family: Number(form.family) as 4 | 6 };
  const number = (value: number | string) => (value === '' ? NaN : Number(value));
  if (!Value.Check(PingRequestSchema.properties.target, target)) problems.target = 'An IP address or host name (at most 253 characters)';
  const timeout = number(form.timeout);
  if (form.tool === 'ping') {
    const count = number(form.count);
    const size = number(form.size);
    if (!Value.Check(PingRequestSchema.properties.count, count)) problems.count = range(PING_LIMITS.count);
    if (!Value.Check(PingRequestSchema.properties.timeout_seconds, timeout)) problems.timeout = range(PING_LIMITS.timeout_seconds);
    if (!Value.Check(PingRequestSchema.properties.size, size)) problems.size = range(PING_LIMITS.size);
    const body: PingRequest = { target, count, timeout_seconds: timeout, size, ...family };
    if (Object.keys(problems).length > 0 || !Value.Check(PingRequestSchema, body)) return { problems };
    return { request: { tool: 'ping', body } };
  }
  const maxHops = number(form.maxHops);
  if (!Value.Check(TracerouteRequestSchema.properties.max_hops, maxHops)) problems.maxHops = range(TRACEROUTE_LIMITS.max_hops);
  if (!Value.Check(TracerouteRequestSchema.properties.timeout_seconds, timeout)) problems.timeout = range(TRACEROUTE_LIMITS.timeout_seconds);
  const body: TracerouteRequest = { target, max_hops: maxHops, timeout_seconds: timeout, ...family };
  if (Object.keys(problems).length > 0 || !Value.Check(TracerouteRequestSchema, body)) return { problems };
  return { request: { tool: 'traceroute', body } };
}

/** The server's field errors (body.count…) on the form's fields. */
export function serverProblems(details: readonly { field: string; message: string }[]): FormProblems {
  const fields: Record<string, keyof FormProblems> = {
    'body.target': 'target',
    'body.count': 'count',
    'body.timeout_seconds': 'timeout',
    'body.size': 'size',
    'body.max_hops': 'maxHops',
  };
  const problems: FormProblems = {};
  for (const detail of details) {
    const field = fields[detail.field];
    if (field) problems[field] ??= detail.message;
  }
  return problems;
}
