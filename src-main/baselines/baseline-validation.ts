import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, validationError, type FieldError } from '../core/errors.js';
import { printableProblem } from '../core/printable-text.js';
import { GROUP_PATTERN, TAG_PATTERN } from '../hosts/hosts-contract.js';
import { KIND_FAMILY, type OsFamily, type Script } from '../scripts/scripts-contract.js';
import type { NewRow } from '../store/collection.js';
import {
  DEFAULT_SCRIPT_TIMEOUT_SECONDS,
  type BaselineAssignment,
  type BaselineCreate,
  type BaselineScriptInput,
  type BaselineUpdate,
} from './baselines-contract.js';
import type { BaselineLookups, BaselineRow, BaselineStep } from './baseline-types.js';
import { foldUnionErrors, schemaErrorMessage } from '../core/http-kit/schema-errors.js';

/** A baseline without an os_family says it is for Linux (the common case; PowerShell scripts fit it too). */
export const DEFAULT_OS_FAMILY: OsFamily = 'linux';
const MAX_NAMED_ERRORS = 20;
const GROUP = new RegExp(GROUP_PATTERN);
const TAG = new RegExp(TAG_PATTERN);

export type BaselineCandidate = NewRow<BaselineRow>;

/**
 * The request schema's checks for callers that do not come through a route
 * (the store's import): the same field names (`body.…`) the API answers with.
 */
export function assertShape(schema: TSchema, input: unknown): void {
  if (Value.Check(schema, input)) return;
  const errors: FieldError[] = [];
  for (const error of foldUnionErrors(Value.Errors(schema, input))) {
    const field = `body${error.instancePath.replace(/\//g, '.')}`;
    // Named like the API's error handler names ajv's: "unknown field" at the field, "is required" per missing one.
    if (error.keyword === 'additionalProperties') continue;
    if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) errors.push({ field, message: 'unknown field' });
    else if (error.keyword === 'required' && Array.isArray(error.params.requiredProperties)) {
      for (const name of error.params.requiredProperties) errors.push({ field: `${field}.${String(name)}`, message: 'is required' });
    } else errors.push({ field, message: schemaErrorMessage(error) });
    if (errors.length >= MAX_NAMED_ERRORS) break;
  }
  throw validationError(errors.length > 0 ? errors : [{ field: 'body', message: 'does not match the schema' }]);
}

/** The family a script runs on: its kind's when the kind allows one only (batch, sh), else what the script says. */
export function scriptFamily(script: Pick<Script, 'kind' | 'os_family'>): OsFamily {
  const byKind = KIND_FAMILY[script.kind];
  return byKind === 'any' ? script.os_family : byKind;
}

/** Whether a script of `family` can run in a baseline for `baseline`. */
export function familyFits(baseline: OsFamily, family: OsFamily): boolean {
  return family === 'any' || baseline === 'any' || baseline === family;
}

/**
 * The row a create (current null) or update would store: `input` merged over
 * `current`, defaults filled in. Throws one 400 listing every bad field, then
 * a 409 for a taken name, a target another baseline already has, or a second
 * default. Assigned ids the input names must exist; ids kept from `current`
 * whose host, profile or task is gone since are dropped (ids are never
 * reused, so such an id could never match again).
 */
export function buildCandidate(
  current: BaselineRow | null,
  input: BaselineCreate | BaselineUpdate,
  lookups: BaselineLookups,
  others: readonly BaselineRow[],
): BaselineCandidate {
  const errors: FieldError[] = [];
  const name = input.name ?? current?.name ?? '';
  const description = input.description ?? current?.description ?? '';
  const descriptionProblem = printableProblem(description);
  if (input.description !== undefined && descriptionProblem) errors.push({ field: 'body.description', message: descriptionProblem });
  const osFamily = input.os_family ?? current?.os_family ?? DEFAULT_OS_FAMILY;

  const scripts =
    input.scripts !== undefined
      ? checkSteps(input.scripts, osFamily, lookups, errors)
      : keepSteps(current?.scripts ?? [], osFamily, input.os_family !== undefined && input.os_family !== current?.os_family, lookups, errors);
  const assign = mergeAssignment(current?.assign ?? null, input.assign ?? {}, lookups, errors);
  if (errors.length > 0) throw validationError(errors);

  const self = current?.id ?? null;
  assertNoConflicts({ name, assign }, others.filter((row) => row.id !== self));
  return { name, description, os_family: osFamily, assign, scripts };
}

/** Checks the steps a request sends (the whole ordered list) and fills in their defaults. */
export function checkSteps(steps: readonly BaselineScriptInput[], osFamily: OsFamily, lookups: Pick<BaselineLookups, 'scripts'>, errors: FieldError[]): BaselineStep[] {
  const result: BaselineStep[] = [];
  // A baseline for "any" family still runs on one machine: it cannot mix Linux-only and Windows-only scripts.
  let firstOnly: { family: OsFamily; position: number; name: string } | null = null;
  steps.forEach((step, index) => {
    const field = `body.scripts.${index}`;
    const position = index + 1;
    const script = lookups.scripts.get(step.script_id);
    if (!script) {
      errors.push({ field: `${field}.script_id`, message: `step ${position}: script ${step.script_id} does not exist` });
      return;
    }
    const family = scriptFamily(script);
    if (!familyFits(osFamily, family)) {
      errors.push({ field: `${field}.script_id`, message: `step ${position}: script "${script.name}" (${script.kind}) runs on ${family}, not in a ${osFamily} baseline` });
    } else if (osFamily === 'any' && family !== 'any') {
      if (firstOnly && firstOnly.family !== family) {
        errors.push({
          field: `${field}.script_id`,
          message: `step ${position}: script "${script.name}" runs on ${family} only, but step ${firstOnly.position} ("${firstOnly.name}") runs on ${firstOnly.family} only; one baseline runs on one machine`,
        });
      } else firstOnly ??= { family, position, name: script.name };
    }
    const variables = step.variables ?? {};
    const declared = Object.keys(script.variables);
    for (const variable of Object.keys(variables)) {
      if (!Object.hasOwn(script.variables, variable)) {
        const known = declared.length > 0 ? `it declares ${declared.join(', ')}` : 'it declares none';
        errors.push({ field: `${field}.variables.${variable}`, message: `step ${position}: script "${script.name}" declares no variable "${variable}" (${known})` });
      }
    }
    result.push({
      script_id: script.id,
      variables: { ...variables },
      continue_on_error: step.continue_on_error ?? false,
      timeout_seconds: step.timeout_seconds ?? DEFAULT_SCRIPT_TIMEOUT_SECONDS,
      script_name: script.name,
      kind: script.kind,
    });
  });
  return result;
}

/**
 * The stored steps an update keeps, their script names refreshed. When the
 * os_family changes, every step whose script still exists must fit it (a step
 * whose script was force-deleted fails at resolution, not here).
 */
function keepSteps(steps: readonly BaselineStep[], osFamily: OsFamily, familyChanged: boolean, lookups: Pick<BaselineLookups, 'scripts'>, errors: FieldError[]): BaselineStep[] {
  if (familyChanged) {
    // Checked as if the steps were sent again (positions kept), so the messages are the same; reported on os_family.
    const problems: FieldError[] = [];
    const present = steps.flatMap((step, index) => (lookups.scripts.get(step.script_id) ? [{ index, step }] : []));
    checkSteps(present.map(({ step }) => ({ script_id: step.script_id, variables: step.variables })), osFamily, lookups, problems);
    for (const problem of problems) {
      const position = /^body\.scripts\.(\d+)\./.exec(problem.field);
      const original = present[Number(position?.[1] ?? 0)]?.index ?? 0;
      errors.push({ field: 'body.os_family', message: problem.message.replace(/^step \d+:/, `step ${original + 1}:`) });
    }
  }
  return steps.map((step) => {
    const script = lookups.scripts.get(step.script_id);
    return script ? { ...step, script_name: script.name, kind: script.kind } : { ...step };
  });
}

/** Lists given replace the stored ones; the rest stay (without targets that are gone). */
function mergeAssignment(current: BaselineAssignment | null, input: Partial<BaselineAssignment>, lookups: BaselineLookups, errors: FieldError[]): BaselineAssignment {
  const exists = {
    host_ids: (id: number) => lookups.hosts.get(id) !== undefined,
    profile_ids: (id: number) => lookups.profiles.get(id) !== undefined,
    task_ids: (id: number) => lookups.tasks.get(id) !== undefined,
  };
  const what = { host_ids: 'host', profile_ids: 'profile', task_ids: 'install task' } as const;
  const ids = (key: 'host_ids' | 'profile_ids' | 'task_ids'): number[] => {
    const given = input[key];
    if (given === undefined) return (current?.[key] ?? []).filter(exists[key]);
    given.forEach((id, index) => {
      if (!exists[key](id)) errors.push({ field: `body.assign.${key}.${index}`, message: `${what[key]} ${id} does not exist` });
    });
    return [...given];
  };
  const labels = (key: 'groups' | 'tags', pattern: RegExp): string[] => {
    const given = input[key];
    if (given === undefined) return [...(current?.[key] ?? [])];
    const seen = new Set<string>();
    given.forEach((label, index) => {
      const field = `body.assign.${key}.${index}`;
      if (!pattern.test(label)) errors.push({ field, message: `"${label}" is not a host ${key === 'groups' ? 'group' : 'tag'} name` });
      const folded = label.toLowerCase();
      if (seen.has(folded)) errors.push({ field, message: `"${label}" is listed twice (names compare without case)` });
      seen.add(folded);
    });
    return [...given];
  };
  return {
    host_ids: ids('host_ids'),
    groups: labels('groups', GROUP),
    tags: labels('tags', TAG),
    profile_ids: ids('profile_ids'),
    task_ids: ids('task_ids'),
    is_default: input.is_default ?? current?.is_default ?? false,
  };
}

/** 409 when the name is taken or a target (or the default) belongs to another baseline; every clash in `details`. */
function assertNoConflicts(candidate: { name: string; assign: BaselineAssignment }, others: readonly BaselineRow[]): void {
  const clashes: FieldError[] = [];
  const label = (row: BaselineRow) => `baseline "${row.name}" (id ${row.id})`;
  const folded = candidate.name.toLowerCase();
  for (const other of others) {
    if (other.name.toLowerCase() === folded) clashes.push({ field: 'body.name', message: `the name "${candidate.name}" is taken by ${label(other)} (names compare without case)` });
    const ids = (key: 'host_ids' | 'profile_ids' | 'task_ids', what: string) => {
      const theirs = new Set(other.assign[key]);
      candidate.assign[key].forEach((id, index) => {
        if (theirs.has(id)) clashes.push({ field: `body.assign.${key}.${index}`, message: `${what} ${id} is already assigned to ${label(other)}` });
      });
    };
    const labels = (key: 'groups' | 'tags', what: string) => {
      const theirs = new Set(other.assign[key].map((value) => value.toLowerCase()));
      candidate.assign[key].forEach((value, index) => {
        if (theirs.has(value.toLowerCase())) clashes.push({ field: `body.assign.${key}.${index}`, message: `${what} "${value}" is already assigned to ${label(other)}` });
      });
    };
    ids('host_ids', 'host');
    labels('groups', 'group');
    labels('tags', 'tag');
    ids('profile_ids', 'profile');
    ids('task_ids', 'install task');
    if (candidate.assign.is_default && other.assign.is_default) clashes.push({ field: 'body.assign.is_default', message: `${label(other)} is already the default` });
  }
  if (clashes.length === 0) return;
  const [first] = clashes;
  const more = clashes.length > 1 ? ` (and ${clashes.length - 1} more)` : '';
  throw new AppError('CONFLICT', `${first?.message ?? 'conflict'}${more}`, { details: clashes.slice(0, MAX_NAMED_ERRORS * 5) });
}
