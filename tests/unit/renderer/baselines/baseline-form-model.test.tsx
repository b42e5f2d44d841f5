import { describe, expect, it } from 'vitest';
import { assignmentSummary, baselineBody, baselineErrorPath, baselineProblems, baselineToForm, moveStep, scriptFits } from '../../../../src-renderer/src/pages/baselines/baseline-form-model.js';
import { BASELINE } from './baselines-fixtures.js';

describe('baseline form model', () => {
  it('maps API field paths to the editor fields (steps and assignment lists), none for unknown ones', () => {
    expect(baselineErrorPath('name')).toBe('name');
    expect(baselineErrorPath('scripts.3.variables.user')).toBe('steps.3.variables.user');
    expect(baselineErrorPath('scripts.0.timeout_seconds')).toBe('steps.0.timeout_seconds');
    expect(baselineErrorPath('scripts.1.script_id')).toBe('steps.1.script_id');
    expect(baselineErrorPath('scripts')).toBe('steps');
    expect(baselineErrorPath('assign.host_ids.2')).toBe('assign.host_ids');
    expect(baselineErrorPath('assign')).toBe('assign.is_default');
    expect(baselineErrorPath('something_else')).toBeNull();
  });

  it('round-trips a baseline, leaving out empty overrides (they follow the script default)', () => {
    const form = baselineToForm(BASELINE);
    form.steps[0]!.variables.key_url = '';
    form.steps[1]!.timeout_seconds = '';
    expect(baselineBody(form).scripts).toEqual([
      { script_id: 1, continue_on_error: false, variables: { user: 'admin' }, timeout_seconds: 600 },
      { script_id: 2, continue_on_error: true },
    ]);
    expect(baselineBody(form).assign).toEqual(BASELINE.assign);
  });

  it('catches a bad name and timeout before the server does', () => {
    const form = baselineToForm(BASELINE);
    form.name = ' -x';
    form.steps[0]!.timeout_seconds = 0;
    expect(Object.keys(baselineProblems(form))).toEqual(['name', 'steps.0.timeout_seconds']);
  });

  it('moves steps within bounds only; fits scripts by family', () => {
    expect(moveStep(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveStep(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveStep(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
    expect(scriptFits('linux', { os_family: 'any' })).toBe(true);
    expect(scriptFits('linux', { os_family: 'windows' })).toBe(false);
    expect(scriptFits('any', { os_family: 'linux' })).toBe(false);
  });

  it('summarises an assignment in a few words', () => {
    expect(assignmentSummary({ host_ids: [1, 2], groups: [], tags: ['rack1'], profile_ids: [3], task_ids: [], is_default: false })).toBe('2 hosts · tag rack1 · 1 profile');
    expect(assignmentSummary({ host_ids: [], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: true })).toBe('');
  });
});
