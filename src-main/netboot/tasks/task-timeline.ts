import type { AppEvent } from '../../events/event-types.js';
import type { TaskTimelineItem } from '../netboot-contract.js';
import type { TaskRow } from './task-types.js';

/** Items a timeline holds at most (the newest). */
export const TIMELINE_LIMIT = 200;

/** What a machine does on its way to an installed system, as the event log records it. */
const MAC_KINDS = new Set([
  'dhcp.discover',
  'dhcp.offer',
  'dhcp.request',
  'dhcp.ack',
  'dhcp.nak',
  'boot.script_served',
  'boot.script_failed',
  'boot.denied',
  'netboot.answer_fetched',
  'netboot.callback',
  'netboot.task.firmware_unsupported',
  // The installed system running its baseline (the baselines area's runtime; its events carry the host's MAC).
  'baseline.run.started',
  'baseline.run.finished',
]);
/** File transfers carry only the client's address: matched by the addresses the machine had. */
const IP_KINDS = new Set(['tftp.transfer.started', 'tftp.transfer.completed', 'tftp.transfer.failed', 'http.transfer.completed', 'http.transfer.failed']);

/**
 * A task's timeline: its own transitions, plus the events of its MAC (and of
 * the addresses that MAC had) since the task was created or restarted, in
 * time order, the newest `limit`. `events` are the log's events after the
 * task's `events_after_id`, oldest first; `knownIps` the machine's addresses
 * known elsewhere (its lease, the host's last seen address).
 */
export function taskTimeline(row: TaskRow, events: readonly AppEvent[], knownIps: readonly string[], limit = TIMELINE_LIMIT): TaskTimelineItem[] {
  const ips = new Set(knownIps);
  for (const event of events) if (event.mac === row.mac && event.ip !== null) ips.add(event.ip);
  const items: TaskTimelineItem[] = row.transitions.map((transition) => ({
    at: transition.at,
    kind: 'netboot.task.state',
    state: transition.to,
    message: transition.message === '' ? `${transition.from ?? 'new'} → ${transition.to}` : `${transition.from ?? 'new'} → ${transition.to}: ${transition.message}`,
  }));
  for (const event of events) {
    const mine = event.mac === row.mac ? MAC_KINDS.has(event.kind) : event.mac === null && event.ip !== null && ips.has(event.ip) && IP_KINDS.has(event.kind);
    if (mine) items.push({ at: event.created_at, kind: event.kind, state: null, message: event.message });
  }
  // Stable: a transition and an event of the same instant keep the transition first.
  items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return items.slice(-limit);
}
