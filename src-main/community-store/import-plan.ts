import { freeName, planConflicts, type PlanInput as CorePlanInput, type PlanStep as CorePlanStep, type PlannedAction } from '../core/conflict-plan.js';
import type { ConflictAction, StoreConflict } from './community-store-contract.js';
import type { TargetType } from './import-targets.js';

/*
 * Conflict planning of store imports (docs/store.md, "Conflicts"): the
 * shared planner (core/conflict-plan.ts) over the store's item types. A taken
 * name follows the item's resolution (keyed `<type>/<store id>`), else
 * `on_conflict`; `ask` leaves it unresolved, and any unresolved conflict
 * fails the import (409).
 */

export { freeName, type PlannedAction };
export type PlanInput = CorePlanInput<TargetType>;
export type PlanStep = CorePlanStep<TargetType>;

export interface Plan {
  steps: PlanStep[];
  conflicts: StoreConflict[];
  /** Items that asked to be renamed but cannot be (an overlay's name is its distro). */
  unrenamable: string[];
}

export function planImport(
  items: readonly PlanInput[],
  options: { onConflict: ConflictAction; resolutions: Readonly<Record<string, 'rename' | 'skip' | 'overwrite'>>; isTaken: (type: TargetType, name: string) => boolean },
): Plan {
  return planConflicts(items, options);
}
