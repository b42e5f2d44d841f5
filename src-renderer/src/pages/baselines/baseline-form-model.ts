import { BASELINE_NAME_PATTERN, MAX_BASELINE_SCRIPTS, type AssignmentRule, type Baseline, type BaselineAssignment, type BaselineCreate, type BaselineScriptInput } from '@contracts/baselines';
import type { OsFamily, Script } from '@contracts/scripts';

const NAME = new RegExp(BASELINE_NAME_PATTERN);

/** One step as the editor holds it: overrides only for variables given a value; timeout '' = the server's default. */
export interface StepForm {
  script_id: number;
  variables: Record<string, string>;
  continue_on_error: boolean;
  timeout_seconds: number | string;
}

/** Ids as strings, the way Mantine's MultiSelect holds them. */
export interface AssignForm {
  host_ids: string[];
  groups: string[];
  tags: string[];
  profile_ids: string[];
  task_ids: string[];
  is_default: boolean;
}

export interface BaselineForm {
  name: string;
  description: string;
  os_family: OsFamily;
  steps: StepForm[];
  assign: AssignForm;
}

export const RULE_LABELS: Record<AssignmentRule, string> = {
  host: 'Host',
  group: 'Group',
  tag: 'Tag',
  task: 'Install task',
  profile: 'Profile',
  default: 'Default',
  none: 'None',
};

export const OS_FAMILY_LABELS: Record<OsFamily, string> = { linux: 'Linux', windows: 'Windows', any: 'Any OS' };

export function baselineToForm(baseline: Baseline | null): BaselineForm {
  const assign = baseline?.assign;
  return {
    name: baseline?.name ?? '',
    description: baseline?.description ?? '',
    os_family: baseline?.os_family ?? 'linux',
    steps: (baseline?.scripts ?? []).map((step) => ({
      script_id: step.script_id,
      variables: { ...step.variables },
      continue_on_error: step.continue_on_error,
      timeout_seconds: step.timeout_seconds,
    })),
    assign: {
      host_ids: (assign?.host_ids ?? []).map(String),
      groups: assign?.groups ?? [],
      tags: assign?.tags ?? [],
      profile_ids: (assign?.profile_ids ?? []).map(String),
      task_ids: (assign?.task_ids ?? []).map(String),
      is_default: assign?.is_default ?? false,
    },
  };
}

function stepBody(step: StepForm): BaselineScriptInput {
  // A variable left empty follows the script's declared default rather than overriding it with ''.
  const variables = Object.fromEntries(Object.entries(step.variables).filter(([, value]) => value !== ''));
  const body: BaselineScriptInput = { script_id: step.script_id, continue_on_error: step.continue_on_error };
  if (Object.keys(variables).length > 0) body.variables = variables;
  if (step.timeout_seconds !== '' && Number.isInteger(Number(step.timeout_seconds))) body.timeout_seconds = Number(step.timeout_seconds);
  return body;
}

function assignBody(assign: AssignForm): BaselineAssignment {
  return {
    host_ids: assign.host_ids.map(Number),
    groups: assign.groups,
    tags: assign.tags,
    profile_ids: assign.profile_ids.map(Number),
    task_ids: assign.task_ids.map(Number),
    is_default: assign.is_default,
  };
}

/** The create (and full update) body: every field, so a save is exactly what the editor shows. */
export function baselineBody(form: BaselineForm): BaselineCreate {
  return {
    name: form.name.trim(),
    description: form.description,
    os_family: form.os_family,
    assign: assignBody(form.assign),
    scripts: form.steps.map(stepBody),
  };
}

/** What the editor can tell before asking the server; keyed by form path. */
export function baselineProblems(form: BaselineForm): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!NAME.test(form.name.trim())) problems.name = '1–64 characters: letters, digits, space . _ ( ) + -, starting with a letter or digit';
  if (form.steps.length > MAX_BASELINE_SCRIPTS) problems.steps = `At most ${MAX_BASELINE_SCRIPTS} scripts`;
  form.steps.forEach((step, index) => {
    const timeout = step.timeout_seconds;
    if (timeout !== '' && (!Number.isInteger(Number(timeout)) || Number(timeout) < 1 || Number(timeout) > 6 * 3600)) {
      problems[`steps.${index}.timeout_seconds`] = 'Whole seconds from 1 to 21600';
    }
  });
  return problems;
}

/**
 * An API field path (without `body.`) → the editor's path: `scripts.2.variables.x`
 * → `steps.2.variables.x`, `assign.host_ids.0` → `assign.host_ids`; null when
 * no field shows it.
 */
export function baselineErrorPath(path: string): string | null {
  const parts = path.split('.');
  const [top, second, third, fourth] = parts;
  if (top === 'name' || top === 'description' || top === 'os_family') return top;
  if (top === 'scripts') {
    if (second === undefined || !/^\d+$/.test(second)) return 'steps';
    if (third === 'variables' && fourth) return `steps.${second}.variables.${fourth}`;
    if (third === 'timeout_seconds' || third === 'continue_on_error') return `steps.${second}.${third}`;
    return `steps.${second}.script_id`;
  }
  if (top === 'assign') return second && ['host_ids', 'groups', 'tags', 'profile_ids', 'task_ids', 'is_default'].includes(second) ? `assign.${second}` : 'assign.is_default';
  return null;
}

/** Whether a script may run in a baseline of `family`: same family, or a script for any OS. */
export function scriptFits(family: OsFamily, script: Pick<Script, 'os_family'>): boolean {
  return script.os_family === 'any' || script.os_family === family;
}

/** `steps` with the step at `from` moved to `to` (bounds-checked: an impossible move changes nothing). */
export function moveStep<T>(steps: readonly T[], from: number, to: number): T[] {
  const next = [...steps];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length || from === to) return next;
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/** "2 hosts, group lab, tags rack1, rack2" — who a baseline is assigned to, in a few words. */
export function assignmentSummary(assign: BaselineAssignment): string {
  const parts: string[] = [];
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (assign.host_ids.length > 0) parts.push(count(assign.host_ids.length, 'host', 'hosts'));
  if (assign.groups.length > 0) parts.push(`${assign.groups.length === 1 ? 'group' : 'groups'} ${assign.groups.join(', ')}`);
  if (assign.tags.length > 0) parts.push(`${assign.tags.length === 1 ? 'tag' : 'tags'} ${assign.tags.join(', ')}`);
  if (assign.profile_ids.length > 0) parts.push(count(assign.profile_ids.length, 'profile', 'profiles'));
  if (assign.task_ids.length > 0) parts.push(count(assign.task_ids.length, 'install task', 'install tasks'));
  return parts.join(' · ');
}
