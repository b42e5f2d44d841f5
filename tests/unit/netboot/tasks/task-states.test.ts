import { describe, expect, it } from 'vitest';
import { FINAL_TASK_STATES, TASK_STATES } from '../../../../src-main/netboot/netboot-contract.js';
import { TASK_TRANSITIONS, assertTransition, canTransition, isFinalState } from '../../../../src-main/netboot/tasks/task-states.js';

describe('install task states', () => {
  it('has a row for every state, naming only known states', () => {
    expect(Object.keys(TASK_TRANSITIONS).sort()).toEqual([...TASK_STATES].sort());
    for (const targets of Object.values(TASK_TRANSITIONS)) for (const target of targets) expect(TASK_STATES).toContain(target);
  });

  it('goes forward pending → booting → installing → done, never backwards but by a restart', () => {
    expect(canTransition('pending', 'booting')).toBe(true);
    expect(canTransition('booting', 'installing')).toBe(true);
    expect(canTransition('installing', 'done')).toBe(true);
    expect(canTransition('installing', 'booting')).toBe(false);
    expect(canTransition('installing', 'pending')).toBe(false);
    expect(canTransition('pending', 'done')).toBe(false);
  });

  it('lets every active state end as failed, cancelled or expired', () => {
    for (const state of ['pending', 'booting', 'installing'] as const) {
      for (const end of ['failed', 'cancelled', 'expired'] as const) expect(canTransition(state, end), `${state} → ${end}`).toBe(true);
    }
  });

  it('keeps done final for good and lets failed, cancelled and expired restart', () => {
    expect(TASK_TRANSITIONS.done).toEqual([]);
    for (const state of ['failed', 'cancelled', 'expired'] as const) expect(TASK_TRANSITIONS[state]).toEqual(['pending']);
    expect(FINAL_TASK_STATES.every(isFinalState)).toBe(true);
    expect(isFinalState('installing')).toBe(false);
  });

  it('refuses a transition with INVALID_STATE naming both states and what is allowed', () => {
    expect(() => assertTransition(7, 'done', 'pending')).toThrow(/install task 7 is done and cannot become pending \(done is final\)/);
    expect(() => assertTransition(7, 'installing', 'booting')).toThrow(/from installing it may become done, failed, cancelled, expired/);
    expect(() => assertTransition(7, 'pending', 'booting')).not.toThrow();
  });
});
