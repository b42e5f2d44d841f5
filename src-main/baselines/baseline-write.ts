import type { Baseline, BaselineUpdate } from './baselines-contract.js';

/** The update that writes `baseline` back as it was (an import undoing its overwrite restores a snapshot with it). */
export function baselineAsWrite(baseline: Baseline): BaselineUpdate {
  return {
    name: baseline.name,
    description: baseline.description,
    os_family: baseline.os_family,
    assign: baseline.assign,
    scripts: baseline.scripts.map((step) => ({ script_id: step.script_id, variables: step.variables, continue_on_error: step.continue_on_error, timeout_seconds: step.timeout_seconds })),
  };
}
