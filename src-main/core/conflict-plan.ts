/*
 * Conflict planning shared by the imports that write named resources (the
 * store's, docs/store.md "Conflicts"; the kit's, docs/kit.md "Conflicts"),
 * pure: for each item, what happens to the name it would take. A taken name
 * follows the item's resolution (by its key), else `onConflict`; `ask`
 * leaves it unresolved, and the caller refuses an import with unresolved
 * conflicts (409) — never resolved silently.
 */

export type PlannedAction = 'created' | 'overwritten' | 'renamed' | 'skipped';
export type ConflictChoice = 'rename' | 'skip' | 'overwrite';

export interface ExistingRef {
  id: number;
  name: string;
}

export interface PlanInput<T extends string> {
  key: string;
  type: T;
  name: string;
  canRename: boolean;
  existing: ExistingRef | undefined;
}

export interface PlanStep<T extends string> {
  key: string;
  type: T;
  action: PlannedAction;
  /** The name the resource gets (renamed: the free one). */
  name: string;
  /** The resource overwritten or skipped for. */
  existing: ExistingRef | undefined;
}

export interface PlanConflict<T extends string> {
  key: string;
  type: T;
  name: string;
  existing_id: number;
}

export interface Plan<T extends string> {
  steps: PlanStep<T>[];
  conflicts: PlanConflict<T>[];
  /** Items that asked to be renamed but cannot be (their name is their identity: a distro, a MAC). */
  unrenamable: string[];
}

const MAX_NAME = 64;

/** `name (2)`, `name (3)`… the first not taken (case-insensitive), cut to fit `maxLength` characters. */
export function freeName(name: string, taken: (candidate: string) => boolean, maxLength = MAX_NAME): string {
  for (let n = 2; n < 10_000; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, maxLength - suffix.length).trimEnd()}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name for "${name}"`);
}

export function planConflicts<T extends string>(
  items: readonly PlanInput<T>[],
  options: { onConflict: ConflictChoice | 'ask'; resolutions: Readonly<Record<string, ConflictChoice>>; isTaken: (type: T, name: string) => boolean },
): Plan<T> {
  const steps: PlanStep<T>[] = [];
  const conflicts: PlanConflict<T>[] = [];
  const unrenamable: string[] = [];
  /** Names this import takes, so two renamed items never pick the same one. */
  const claimed = new Set<string>();
  const claimKey = (type: T, name: string) => `${type}\u0000${name.toLowerCase()}`;
  for (const item of items) {
    if (!item.existing) {
      steps.push({ key: item.key, type: item.type, action: 'created', name: item.name, existing: undefined });
      claimed.add(claimKey(item.type, item.name));
      continue;
    }
    const action = options.resolutions[item.key] ?? options.onConflict;
    if (action === 'ask') {
      conflicts.push({ key: item.key, type: item.type, name: item.name, existing_id: item.existing.id });
      continue;
    }
    if (action === 'skip') {
      steps.push({ key: item.key, type: item.type, action: 'skipped', name: item.existing.name, existing: item.existing });
    } else if (action === 'overwrite') {
      steps.push({ key: item.key, type: item.type, action: 'overwritten', name: item.name, existing: item.existing });
    } else if (!item.canRename) {
      unrenamable.push(item.key);
    } else {
      const name = freeName(item.name, (candidate) => options.isTaken(item.type, candidate) || claimed.has(claimKey(item.type, candidate)));
      claimed.add(claimKey(item.type, name));
      steps.push({ key: item.key, type: item.type, action: 'renamed', name, existing: item.existing });
    }
  }
  return { steps, conflicts, unrenamable };
}
