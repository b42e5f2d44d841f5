import { AppError } from '../../core/errors.js';
import { FINAL_TASK_STATES, type TaskState } from '../netboot-contract.js';

/*
 * The install task state machine (docs/netboot.md, "Install tasks and the PXE
 * runtime endpoints"): pending → booting → installing → done | failed, with
 * cancelled and expired reachable from every state that is not final, and a
 * restart (back to pending, with a new token) from failed, cancelled and
 * expired. `done` is never restarted: a finished install is history; a new
 * install is a new task.
 */

/** Which states each state may move to. */
export const TASK_TRANSITIONS: Readonly<Record<TaskState, readonly TaskState[]>> = {
  pending: ['booting', 'installing', 'failed', 'cancelled', 'expired'],
  // A machine may boot again before its installer calls back (a reboot, a second PXE attempt): booting → booting is allowed.
  booting: ['booting', 'installing', 'done', 'failed', 'cancelled', 'expired'],
  installing: ['done', 'failed', 'cancelled', 'expired'],
  done: [],
  failed: ['pending'],
  cancelled: ['pending'],
  expired: ['pending'],
};

export function isFinalState(state: TaskState): boolean {
  return FINAL_TASK_STATES.includes(state);
}

export function canTransition(from: TaskState, to: TaskState): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}

/** Throws INVALID_STATE naming the task, both states and what is allowed. */
export function assertTransition(taskId: number, from: TaskState, to: TaskState): void {
  if (canTransition(from, to)) return;
  const allowed = TASK_TRANSITIONS[from];
  throw new AppError(
    'INVALID_STATE',
    `install task ${taskId} is ${from} and cannot become ${to}${allowed.length > 0 ? `; from ${from} it may become ${allowed.join(', ')}` : ` (${from} is final)`}`,
  );
}
