import type { HostGroups, HostLabelCount } from './hosts-contract.js';

/**
 * The groups and tags in use with their host counts: what a group or tag
 * picker offers, and the numbers a filter by it would give. Keys fold case
 * the way the /hosts `group` and `tag` filters do, so "Lab" and "lab" are one
 * entry (named as first seen in id order) and each count is exactly what the
 * filter returns.
 */
export function hostGroups(hosts: readonly { group: string | null; tags: readonly string[] }[]): HostGroups {
  const groups = new Map<string, HostLabelCount>();
  const tags = new Map<string, HostLabelCount>();
  let ungrouped = 0;
  for (const host of hosts) {
    if (host.group === null) ungrouped += 1;
    else count(groups, host.group);
    // A host listing a tag twice in different case is one host with that tag.
    for (const tag of new Set(host.tags.map((t) => t.toLowerCase()))) count(tags, host.tags.find((t) => t.toLowerCase() === tag) ?? tag);
  }
  return { groups: sorted(groups), tags: sorted(tags), ungrouped, total: hosts.length };
}

function count(into: Map<string, HostLabelCount>, name: string): void {
  const key = name.toLowerCase();
  const entry = into.get(key);
  if (entry) entry.hosts += 1;
  else into.set(key, { name, hosts: 1 });
}

function sorted(entries: Map<string, HostLabelCount>): HostLabelCount[] {
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}
