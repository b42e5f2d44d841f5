import type { ConflictAction, StoreConflict, StoreItemType } from './community-store-contract.js';
import type { LocalRef, TargetType } from './import-targets.js';

/*
 * Conflict planning (docs/store.md, "Conflicts"), pure: for each item of an
 * import, what happens to the name it would take. A taken name follows the
 * item's resolution (keyed `<type>/<store id>`), else `on_conflict`; `ask`
 * leaves it unresolved, and any unresolved conflict fails the import (409).
 */

export type PlannedAction = 'created' | 'overwritten' | 'renamed' | 'skipped';

export interface PlanInput {
  key: string;
  type: TargetType;
  name: string;
  canRename: boolean;
  existing: LocalRef | undefined;
}

export interface PlanStep {
  key: string;
  type: TargetType;
  action: PlannedAction;
  /** The name the resource gets (renamed: the free one). */
  name: string;
  /** The resource overwritten or skipped for. */
  existing: LocalRef | undefined;
}

export interface Plan {
  steps: PlanStep[];
  conflicts: StoreConflict[];
  /** Items that asked to be renamed but cannot be (an overlay's name is its distro). */
  unrenamable: string[];
}

const MAX_NAME = 64;

/** `name (2)`, `name (3)`… the first not taken (case-insensitive), cut to fit 64 characters. */
export function freeName(name: string, taken: (candidate: string) => boolean): string {
  for (let n = 2; n < 10_000; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, MAX_NAME - suffix.length).trimEnd()}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name for "${name}"`);
}

export function planImport(
  items: readonly PlanInput[],
  options: { onConflict: ConflictAction; resolutions: Readonly<Record<string, 'rename' | 'skip' | 'overwrite'>>; isTaken: (type: TargetType, name: string) => boolean },
): Plan {
  const steps: PlanStep[] = [];
  const conflicts: StoreConflict[] = [];
  const unrenamable: string[] = [];
  /** Names this import takes, so two renamed items never pick the same one. */
  const claimed = new Set<string>();
  const claimKey = (type: StoreItemType, name: string) => `${type}\u0000${name.toLowerCase()}`;
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
