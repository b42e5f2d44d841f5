import type { Host } from '../hosts/host-types.js';
import type { AssignmentRule } from './baselines-contract.js';
import type { BaselineRow, TaskFacts } from './baseline-types.js';

/** What is known of the machine asking: its host record (null for an unknown MAC), MAC, install task and profile's name. */
export interface MachineFacts {
  host: Host | null;
  mac: string;
  task: TaskFacts | null;
  /** The host's profile name for the reason (null when it has none or it is gone). */
  profileName: string | null;
}

export interface BaselineChoice {
  row: BaselineRow | null;
  rule: AssignmentRule;
  /** The rule in words, e.g. `group "lab" of host "web01" (id 5)`. */
  reason: string;
}

/**
 * Which baseline applies, strongest rule first: the host itself, its group,
 * its tags (in the host's own tag order: the first tag that has a baseline
 * wins), its install task, its profile, the default. One target belongs to at
 * most one baseline (the writes refuse a second), so a rule matches at most
 * one row; should the store hold two anyway, the lowest id wins so the answer
 * is stable. An unknown MAC has no host, so only the task and default rules
 * can match. Ids of hosts, profiles or tasks that are gone match nothing:
 * ids are never reused.
 */
export function chooseBaseline(rows: readonly BaselineRow[], facts: MachineFacts): BaselineChoice {
  const ordered = [...rows].sort((a, b) => a.id - b.id);
  const first = (match: (row: BaselineRow) => boolean) => ordered.find(match) ?? null;
  const { host, task } = facts;
  const who = host ? `host ${host.hostname !== null ? `"${host.hostname}" ` : ''}(id ${host.id}, ${host.mac})` : `the unknown machine ${facts.mac}`;

  if (host) {
    const direct = first((row) => row.assign.host_ids.includes(host.id));
    if (direct) return { row: direct, rule: 'host', reason: `${who} is assigned to it directly` };
    if (host.group !== null) {
      const group = host.group.toLowerCase();
      const byGroup = first((row) => row.assign.groups.some((value) => value.toLowerCase() === group));
      if (byGroup) return { row: byGroup, rule: 'group', reason: `group "${host.group}" of ${who}` };
    }
    for (const [index, tag] of host.tags.entries()) {
      const folded = tag.toLowerCase();
      const byTag = first((row) => row.assign.tags.some((value) => value.toLowerCase() === folded));
      if (byTag) {
        const skipped = host.tags.slice(0, index).map((t) => `"${t}"`);
        const note = skipped.length > 0 ? ` (its first tag with a baseline; ${skipped.join(', ')} ${skipped.length === 1 ? 'has' : 'have'} none)` : '';
        return { row: byTag, rule: 'tag', reason: `tag "${tag}" of ${who}${note}` };
      }
    }
  }
  if (task) {
    const byTask = first((row) => row.assign.task_ids.includes(task.id));
    if (byTask) return { row: byTask, rule: 'task', reason: `install task ${task.id} of ${who}` };
  }
  if (host && host.profile_id !== null) {
    const profileId = host.profile_id;
    const byProfile = first((row) => row.assign.profile_ids.includes(profileId));
    if (byProfile) {
      const named = facts.profileName !== null ? `"${facts.profileName}" (id ${profileId})` : `${profileId}`;
      return { row: byProfile, rule: 'profile', reason: `profile ${named} of ${who}` };
    }
  }
  const fallback = first((row) => row.assign.is_default);
  if (fallback) return { row: fallback, rule: 'default', reason: `the default baseline: no host, group, tag, task or profile rule matched ${who}` };
  return { row: null, rule: 'none', reason: `no host, group, tag, task, profile or default matched ${who}` };
}
