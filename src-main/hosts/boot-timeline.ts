import type { AppEvent } from '../events/event-types.js';
import type { BootOutcome, BootRecord, BootStep } from './hosts-contract.js';

/**
 * Per-boot timelines built from the event log (docs/hosts-and-profiles.md,
 * "Boot timeline"). Nothing is stored for them: the events are the record,
 * and a timeline is one pass over the log (at most 20,000 events by default).
 */

/** A `dhcp.discover` (or another boot start) after this much silence of a MAC begins a new boot. */
export const BOOT_GAP_MS = 5 * 60_000;
/** A boot with no decisive step and no step for this long is over (booted when it got its script). */
export const BOOT_QUIET_MS = 2 * 60_000;
/** "Booting now": boots with a step in this window. */
export const BOOTING_NOW_MS = 10 * 60_000;

/** Events without a MAC (the TFTP and HTTP servers see addresses only), attributed by IP to the MAC last seen with it. */
const BY_IP_KINDS: ReadonlySet<string> = new Set([
  'tftp.transfer.started',
  'tftp.transfer.completed',
  'tftp.transfer.failed',
  'http.transfer.completed',
  'http.transfer.failed',
]);

/** Kinds that can begin a boot after silence: what a machine does when it powers on. */
const BOOT_START_KINDS: ReadonlySet<string> = new Set([
  'wol.sent',
  'dhcp.discover',
  'host.discovered',
  'boot.script_served',
  'boot.script_failed',
  'boot.denied',
  ...BY_IP_KINDS,
]);

/**
 * Lease upkeep: after silence it is a running system renewing its lease, not a
 * boot, and is left out (inside a boot it is a step like any other).
 */
const UPKEEP_KINDS: ReadonlySet<string> = new Set(['dhcp.request', 'dhcp.ack', 'dhcp.nak', 'dhcp.lease.granted', 'dhcp.release', 'dhcp.inform', 'dhcp.lease.expired']);

/** Kinds that are steps of a boot (besides every `dhcp.*` with a MAC): install and baseline steps attach to the boot under way. */
const STEP_KINDS: ReadonlySet<string> = new Set([
  ...BOOT_START_KINDS,
  'netboot.task.state',
  'netboot.task.firmware_unsupported',
  'netboot.answer_fetched',
  'netboot.callback',
  'baseline.run.started',
  'baseline.run.finished',
]);

function isStepKind(kind: string): boolean {
  return STEP_KINDS.has(kind) || (kind.startsWith('dhcp.') && kind !== 'dhcp.foreign_server');
}

/**
 * The step events of each MAC, oldest first, from the whole log in one pass.
 * TFTP and HTTP transfer events carry only the client's IP: they go to the
 * MAC that event last showed with that IP (its DHCP offer or ACK, its boot
 * script request). `wanted` limits the MACs kept.
 */
export function stepEventsByMac(events: Iterable<AppEvent>, wanted: (mac: string) => boolean = () => true): Map<string, AppEvent[]> {
  const ipOwner = new Map<string, string>();
  const byMac = new Map<string, AppEvent[]>();
  for (const event of events) {
    if (event.mac !== null && event.ip !== null) ipOwner.set(event.ip, event.mac);
    const mac = event.mac ?? (event.ip !== null && BY_IP_KINDS.has(event.kind) ? ipOwner.get(event.ip) : undefined);
    if (mac === undefined || !isStepKind(event.kind) || !wanted(mac)) continue;
    let list = byMac.get(mac);
    if (!list) {
      list = [];
      byMac.set(mac, list);
    }
    list.push(event);
  }
  return byMac;
}

export interface SplitOptions {
  now: Date;
  gapMs?: number;
  quietMs?: number;
}

/** Cuts one MAC's step events (oldest first) into boots, oldest first. */
export function splitBoots(events: readonly AppEvent[], options: SplitOptions): BootRecord[] {
  const gap = options.gapMs ?? BOOT_GAP_MS;
  const boots: { events: AppEvent[]; lastMs: number }[] = [];
  for (const event of events) {
    const at = Date.parse(event.created_at);
    const current = boots.at(-1);
    const silent = current === undefined || at - current.lastMs >= gap;
    if (current === undefined || (silent && BOOT_START_KINDS.has(event.kind))) {
      boots.push({ events: [event], lastMs: at });
    } else if (silent && UPKEEP_KINDS.has(event.kind)) {
      continue;
    } else {
      current.events.push(event);
      current.lastMs = Math.max(current.lastMs, at);
    }
  }
  return boots.map((boot) => bootRecord(boot.events, boot.lastMs, options));
}

function bootRecord(events: readonly AppEvent[], lastMs: number, options: SplitOptions): BootRecord {
  const first = events[0];
  return {
    started_at: first ? first.created_at : options.now.toISOString(),
    last_at: new Date(lastMs).toISOString(),
    outcome: bootOutcome(events, options.now.getTime() - lastMs < (options.quietMs ?? BOOT_QUIET_MS)),
    steps: events.map(bootStep),
  };
}

type Verdict = { outcome: 'failed' | 'installing' | 'booted'; family: string } | { outcome: 'progress'; family: string };

/** What one step says about the boot's outcome, and the family of steps a later success clears its failure in. */
function verdict(event: AppEvent): Verdict {
  const detail = event.detail ?? {};
  const family = BY_IP_KINDS.has(event.kind) ? 'transfer' : event.kind.startsWith('dhcp.') ? 'dhcp' : event.kind;
  switch (event.kind) {
    case 'tftp.transfer.failed':
    case 'http.transfer.failed':
    case 'dhcp.denied':
    case 'boot.denied':
    case 'boot.script_failed':
    case 'netboot.task.firmware_unsupported':
      return { outcome: 'failed', family };
    case 'dhcp.offer':
      // A warn OFFER is one that could not be made (pool exhausted, ping conflict).
      return { outcome: event.level === 'info' ? 'progress' : 'failed', family };
    case 'netboot.answer_fetched':
    case 'baseline.run.started':
      return { outcome: 'installing', family };
    case 'netboot.task.state':
      return taskVerdict(detail['to'], family);
    case 'netboot.callback':
      return taskVerdict(detail['state'], family);
    case 'baseline.run.finished':
      return { outcome: detail['status'] === 'failed' ? 'failed' : 'booted', family };
    default:
      return { outcome: 'progress', family };
  }
}

function taskVerdict(state: unknown, family: string): Verdict {
  if (state === 'done') return { outcome: 'booted', family };
  if (state === 'failed' || state === 'expired') return { outcome: 'failed', family };
  if (state === 'cancelled' || state === 'pending') return { outcome: 'progress', family };
  return { outcome: 'installing', family };
}

/**
 * The latest decisive step decides: a failure, an install under way, an
 * install or baseline finished. A failed transfer or DHCP step that a later
 * success of the same family follows is not a failure (PXE firmware aborts a
 * TFTP transfer after learning the size, then fetches the file again).
 * Without a decisive step: in progress while steps keep coming, then booted
 * when the machine got its boot script, else unknown.
 */
export function bootOutcome(events: readonly AppEvent[], recent: boolean): BootOutcome {
  let decided: Verdict | null = null;
  let served = false;
  for (const event of events) {
    if (event.kind === 'boot.script_served') served = true;
    const next = verdict(event);
    if (next.outcome !== 'progress') decided = next;
    else if (decided?.outcome === 'failed' && decided.family === next.family && event.kind !== 'dhcp.discover') decided = null;
  }
  if (decided) return decided.outcome;
  if (recent) return 'in_progress';
  return served ? 'booted' : 'unknown';
}

function bootStep(event: AppEvent): BootStep {
  const detail = { ...(event.detail ?? {}), ...(event.ip !== null ? { ip: event.ip } : {}) };
  return {
    at: event.created_at,
    kind: event.kind,
    summary: stepSummary(event),
    ...(Object.keys(detail).length > 0 ? { detail } : {}),
  };
}

/** A line a technician reads at a glance; the event's own message where there is nothing shorter to say. */
export function stepSummary(event: AppEvent): string {
  const d = event.detail ?? {};
  const ip = event.ip ?? '';
  switch (event.kind) {
    case 'dhcp.discover': {
      const what = [text(d['arch_name']), d['ipxe'] === true ? 'iPXE' : ''].filter((part) => part !== '').join(', ');
      return `DHCP DISCOVER${what !== '' ? ` (${what})` : ''}${d['mode'] === 'proxy' ? ' [proxy]' : ''}`;
    }
    case 'dhcp.offer':
      return event.level === 'info' ? `DHCP OFFER ${ip}`.trim() : event.message;
    case 'dhcp.request':
      return `DHCP REQUEST ${ip}`.trim();
    case 'dhcp.ack':
      return `DHCP ACK ${ip}`.trim();
    case 'tftp.transfer.started':
      return `TFTP ${text(d['file'])} started${typeof d['size'] === 'number' ? ` (${formatBytes(d['size'])})` : ''}`;
    case 'tftp.transfer.completed':
    case 'http.transfer.completed':
      return `${event.kind.startsWith('tftp') ? 'TFTP' : 'HTTP'} ${text(d['file'])}: ${formatBytes(d['bytes'])} in ${formatMs(d['duration_ms'])}`;
    case 'boot.script_served': {
      const decision = [text(d['action']), text(d['profile'])].filter((part) => part !== '').join(' ');
      const reason = text(d['reason']);
      const what = d['loader'] === 'grub' ? 'GRUB configuration served' : 'Boot script served';
      return `${what}${decision !== '' ? `: ${decision}` : ''}${reason !== '' ? ` (${reason})` : ''}`;
    }
    case 'netboot.answer_fetched':
      return `Installer fetched ${text(d['file']) || 'its answer file'}`;
    case 'netboot.callback':
      return `Installer reports ${text(d['state'])}${text(d['message']) !== '' ? `: ${text(d['message'])}` : ''}`;
    case 'netboot.task.state':
      return `Install task ${text(d['from'])} → ${text(d['to'])}`;
    default:
      return event.message;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function formatBytes(value: unknown): string {
  if (typeof value !== 'number') return '? bytes';
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MiB`;
}

function formatMs(value: unknown): string {
  if (typeof value !== 'number') return '? ms';
  return value < 10_000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}
