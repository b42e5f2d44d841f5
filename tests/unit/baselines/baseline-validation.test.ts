import { beforeEach, describe, expect, it } from 'vitest';
import { assertShape, buildCandidate, familyFits, scriptFamily } from '../../../src-main/baselines/baseline-validation.js';
import { BaselineCreateSchema, DEFAULT_SCRIPT_TIMEOUT_SECONDS, MAX_BASELINE_SCRIPTS, type BaselineCreate, type BaselineUpdate } from '../../../src-main/baselines/baselines-contract.js';
import type { BaselineRow } from '../../../src-main/baselines/baseline-types.js';
import { AppError } from '../../../src-main/core/errors.js';
import { FakeLookups, host, row } from './baseline-fixtures.js';

let lookups: FakeLookups;
let sh: number;
let ps: number;
let bat: number;
let psWindows: number;

beforeEach(async () => {
  lookups = new FakeLookups();
  sh = (await lookups.scripts.create({ name: 'Docker', kind: 'sh', content: 'echo {{ channel }}', variables: { channel: 'stable', user: 'root' } })).id;
  ps = (await lookups.scripts.create({ name: 'Portable PS', kind: 'powershell', content: 'Write-Host hi' })).id;
  bat = (await lookups.scripts.create({ name: 'Batch', kind: 'batch', content: 'echo hi' })).id;
  psWindows = (await lookups.scripts.create({ name: 'Windows PS', kind: 'powershell', os_family: 'windows', content: 'Write-Host win' })).id;
  lookups.addHost(host(1, { group: 'lab' }));
  lookups.addHost(host(2));
  lookups.addProfile(7, 'Debian');
  lookups.addTask(9, '52:54:00:00:00:01');
});

function build(input: BaselineCreate | BaselineUpdate, current: BaselineRow | null = null, others: BaselineRow[] = []) {
  return buildCandidate(current, input, lookups, others);
}

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('script families', () => {
  it('takes the kind\'s family when the kind allows only one, else the script\'s', () => {
    expect(scriptFamily({ kind: 'batch', os_family: 'any' })).toBe('windows');
    expect(scriptFamily({ kind: 'cloud-init', os_family: 'any' })).toBe('linux');
    expect(scriptFamily({ kind: 'powershell', os_family: 'windows' })).toBe('windows');
    expect(scriptFamily({ kind: 'powershell', os_family: 'any' })).toBe('any');
    expect(familyFits('linux', 'windows')).toBe(false);
    expect(familyFits('any', 'windows')).toBe(true);
    expect(familyFits('windows', 'any')).toBe(true);
  });
});

describe('buildCandidate', () => {
  it('fills defaults: linux, empty assignment, step defaults, script name and kind kept beside the id', () => {
    const candidate = build({ name: 'Web', scripts: [{ script_id: sh, variables: { channel: 'edge' } }, { script_id: ps, continue_on_error: true, timeout_seconds: 30 }] });
    expect(candidate).toEqual({
      name: 'Web',
      description: '',
      os_family: 'linux',
      assign: { host_ids: [], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false },
      scripts: [
        { script_id: sh, variables: { channel: 'edge' }, continue_on_error: false, timeout_seconds: DEFAULT_SCRIPT_TIMEOUT_SECONDS, script_name: 'Docker', kind: 'sh' },
        { script_id: ps, variables: {}, continue_on_error: true, timeout_seconds: 30, script_name: 'Portable PS', kind: 'powershell' },
      ],
    });
  });

  it('refuses a missing script, a script of the wrong family and an undeclared variable, naming each step', () => {
    const err = failure(() => build({ name: 'Bad', scripts: [{ script_id: sh }, { script_id: 99 }, { script_id: bat }, { script_id: sh, variables: { nope: 'x' } }] }));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details).toEqual([
      { field: 'body.scripts.1.script_id', message: 'step 2: script 99 does not exist' },
      { field: 'body.scripts.2.script_id', message: 'step 3: script "Batch" (batch) runs on windows, not in a linux baseline' },
      { field: 'body.scripts.3.variables.nope', message: 'step 4: script "Docker" declares no variable "nope" (it declares channel, user)' },
    ]);
  });

  it('lets a windows baseline run batch and PowerShell but not sh; an "any" baseline may not mix linux-only and windows-only', () => {
    expect(build({ name: 'Win', os_family: 'windows', scripts: [{ script_id: bat }, { script_id: ps }, { script_id: psWindows }] }).scripts).toHaveLength(3);
    expect(failure(() => build({ name: 'Win', os_family: 'windows', scripts: [{ script_id: sh }] })).details?.[0]?.field).toBe('body.scripts.0.script_id');
    const mixed = failure(() => build({ name: 'Mixed', os_family: 'any', scripts: [{ script_id: ps }, { script_id: sh }, { script_id: bat }] }));
    expect(mixed.details).toEqual([{ field: 'body.scripts.2.script_id', message: expect.stringContaining('step 2 ("Docker") runs on linux only') }]);
  });

  it('checks the kept steps when only os_family changes', async () => {
    const current = { ...row(1, 'Linux box'), scripts: build({ name: 'x', scripts: [{ script_id: ps }, { script_id: sh }] }).scripts };
    // A step whose script was force-deleted is skipped here (it fails at resolution); positions stay the stored ones.
    await lookups.scripts.remove(ps, { force: true });
    const err = failure(() => build({ os_family: 'windows' }, current));
    expect(err.details).toEqual([{ field: 'body.os_family', message: 'step 2: script "Docker" (sh) runs on linux, not in a windows baseline' }]);
    expect(build({ description: 'still linux' }, current).scripts.map((step) => step.script_name)).toEqual(['Portable PS', 'Docker']);
  });

  it('refuses assigned ids that do not exist, bad group and tag names and labels listed twice without case', () => {
    const err = failure(() => build({ name: 'A', assign: { host_ids: [1, 50], profile_ids: [8], task_ids: [10], groups: ['lab', 'LAB'], tags: ['ok', 'bad tag!'] } }));
    expect(err.details?.map((d) => d.field)).toEqual([
      'body.assign.host_ids.1',
      'body.assign.groups.1',
      'body.assign.tags.1',
      'body.assign.profile_ids.0',
      'body.assign.task_ids.0',
    ]);
    expect(err.details?.[0]?.message).toBe('host 50 does not exist');
    expect(err.details?.[4]?.message).toBe('install task 10 does not exist');
  });

  it('replaces the assignment lists given and keeps the others, dropping kept ids whose target is gone', () => {
    const current = row(3, 'Keep', { host_ids: [1, 2], profile_ids: [7], groups: ['lab'], is_default: true });
    lookups.hostRows.delete(2);
    const next = build({ assign: { tags: ['gpu'] } }, current);
    expect(next.assign).toEqual({ host_ids: [1], groups: ['lab'], tags: ['gpu'], profile_ids: [7], task_ids: [], is_default: true });
    expect(build({ assign: { host_ids: [] , is_default: false } }, current).assign).toMatchObject({ host_ids: [], is_default: false, groups: ['lab'] });
  });

  it('answers 409 for a name taken in any case, a target another baseline has, and a second default; itself is no conflict', () => {
    const other = row(5, 'Web', { host_ids: [1], groups: ['Lab'], tags: ['gpu'], profile_ids: [7], task_ids: [9], is_default: true });
    const name = failure(() => build({ name: 'WEB' }, null, [other]));
    expect(name.code).toBe('CONFLICT');
    expect(name.message).toBe('the name "WEB" is taken by baseline "Web" (id 5) (names compare without case)');
    const targets = failure(() => build({ name: 'Other', assign: { host_ids: [1], groups: ['lab'], tags: ['GPU'], profile_ids: [7], task_ids: [9], is_default: true } }, null, [other]));
    expect(targets.code).toBe('CONFLICT');
    expect(targets.message).toBe('host 1 is already assigned to baseline "Web" (id 5) (and 5 more)');
    expect(targets.details?.map((d) => d.field)).toEqual([
      'body.assign.host_ids.0',
      'body.assign.groups.0',
      'body.assign.tags.0',
      'body.assign.profile_ids.0',
      'body.assign.task_ids.0',
      'body.assign.is_default',
    ]);
    // Updating the baseline itself with its own targets is fine.
    expect(build({ description: 'same' }, other, [other]).assign.host_ids).toEqual([1]);
  });

  it('checks the request schema for callers that bypass the routes, with the routes\' field names', () => {
    const tooMany = { name: 'Long', scripts: Array.from({ length: MAX_BASELINE_SCRIPTS + 1 }, () => ({ script_id: sh })) };
    expect(failure(() => assertShape(BaselineCreateSchema, tooMany)).details?.[0]?.field).toBe('body.scripts');
    expect(failure(() => assertShape(BaselineCreateSchema, { name: 'x', extra: 1, scripts: [{ script_id: 1, retries: 2 }] })).details).toEqual([
      { field: 'body.extra', message: 'unknown field' },
      { field: 'body.scripts.0.retries', message: 'unknown field' },
    ]);
    expect(failure(() => assertShape(BaselineCreateSchema, {})).details).toEqual([{ field: 'body.name', message: 'is required' }]);
    expect(failure(() => assertShape(BaselineCreateSchema, { name: ' bad' })).details?.[0]?.field).toBe('body.name');
    expect(() => assertShape(BaselineCreateSchema, { name: 'Fine', scripts: [{ script_id: 1 }] })).not.toThrow();
  });
});
