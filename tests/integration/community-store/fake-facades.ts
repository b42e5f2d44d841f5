import { createHash } from 'node:crypto';
import { Value } from 'typebox/value';
import { AppError, conflict, notFound } from '../../../src-main/core/errors.js';
import type { BaselinesFacade } from '../../../src-main/baselines/baselines-facade.js';
import type { Baseline, BaselineCreate, BaselineUpdate } from '../../../src-main/baselines/baselines-contract.js';
import type { ScriptsFacade } from '../../../src-main/scripts/scripts-facade.js';
import { KIND_FAMILY, ScriptCreateSchema, ScriptUpdateSchema, type Script, type ScriptCreate, type ScriptUpdate } from '../../../src-main/scripts/scripts-contract.js';

/*
 * Small in-memory stand-ins for the scripts and baselines facades (built in
 * parallel): the same contract, the AppErrors the real routes answer for a
 * taken name, a bad body or an unknown script, and a hook that makes a
 * write fail (all-or-nothing tests).
 */

export interface FakeScripts extends ScriptsFacade {
  rows: Map<number, Script>;
  failWrite: ((name: string) => boolean) | null;
}

export function fakeScripts(): FakeScripts {
  const rows = new Map<number, Script>();
  let next = 1;
  const at = () => new Date().toISOString();
  const nameTaken = (name: string, self?: number) => [...rows.values()].some((row) => row.id !== self && row.name.toLowerCase() === name.toLowerCase());
  const facade: FakeScripts = {
    rows,
    failWrite: null,
    get: (id) => rows.get(id),
    byName: (name) => [...rows.values()].find((row) => row.name.toLowerCase() === name.toLowerCase()),
    list: () => [...rows.values()],
    async validate(input, existingId) {
      const schema = existingId === undefined ? ScriptCreateSchema : ScriptUpdateSchema;
      if (!Value.Check(schema, input)) throw new AppError('VALIDATION_FAILED', `body: ${[...Value.Errors(schema, input)][0]?.message ?? 'invalid'}`);
      if (existingId !== undefined && !rows.has(existingId)) throw notFound('script', existingId);
      if (input.name !== undefined && nameTaken(input.name, existingId)) throw conflict(`a script named "${input.name}" exists already`);
    },
    async create(input: ScriptCreate) {
      await facade.validate(input);
      if (facade.failWrite?.(input.name)) throw new AppError('INTERNAL', `injected failure creating script "${input.name}"`);
      const row: Script = {
        id: next++,
        name: input.name,
        kind: input.kind,
        os_family: input.os_family ?? KIND_FAMILY[input.kind],
        description: input.description ?? '',
        content: input.content,
        variables: input.variables ?? {},
        version: 1,
        sha256: createHash('sha256').update(input.content).digest('hex'),
        created_at: at(),
        updated_at: at(),
      };
      rows.set(row.id, row);
      return row;
    },
    async update(id: number, input: ScriptUpdate) {
      await facade.validate(input, id);
      const current = rows.get(id);
      if (!current) throw notFound('script', id);
      if (facade.failWrite?.(input.name ?? current.name)) throw new AppError('INTERNAL', `injected failure updating script ${id}`);
      const { comment: _comment, ...fields } = input;
      const changed = fields.content !== undefined && fields.content !== current.content;
      const row: Script = { ...current, ...fields, version: changed ? current.version + 1 : current.version, updated_at: at() };
      rows.set(id, row);
      return row;
    },
    async remove(id) {
      const row = rows.get(id);
      if (!row) throw notFound('script', id);
      rows.delete(id);
      return row;
    },
    check: async () => ({ ok: true, checker: 'fake', issues: [] }),
    addUsageCheck: () => undefined,
  };
  return facade;
}

export interface FakeBaselines extends BaselinesFacade {
  rows: Map<number, Baseline>;
  failWrite: ((name: string) => boolean) | null;
}

export function fakeBaselines(scripts: ScriptsFacade): FakeBaselines {
  const rows = new Map<number, Baseline>();
  let next = 1;
  const at = () => new Date().toISOString();
  const steps = (input: BaselineCreate | BaselineUpdate) =>
    (input.scripts ?? []).map((step, index) => {
      const script = scripts.get(step.script_id);
      if (!script) throw new AppError('VALIDATION_FAILED', `body.scripts[${index}].script_id: script ${step.script_id} does not exist`);
      return { position: index + 1, script_id: script.id, script_name: script.name, kind: script.kind, variables: step.variables ?? {}, continue_on_error: step.continue_on_error ?? false, timeout_seconds: step.timeout_seconds ?? 600 };
    });
  const facade: FakeBaselines = {
    rows,
    failWrite: null,
    get: (id) => rows.get(id),
    byName: (name) => [...rows.values()].find((row) => row.name.toLowerCase() === name.toLowerCase()),
    list: () => [...rows.values()],
    async validate(input, existingId) {
      if (input.name !== undefined && [...rows.values()].some((row) => row.id !== existingId && row.name.toLowerCase() === input.name?.toLowerCase())) {
        throw conflict(`a baseline named "${input.name}" exists already`);
      }
      steps(input);
    },
    async create(input) {
      await facade.validate(input);
      if (facade.failWrite?.(input.name)) throw new AppError('INTERNAL', `injected failure creating baseline "${input.name}"`);
      const row: Baseline = {
        id: next++,
        name: input.name,
        description: input.description ?? '',
        os_family: input.os_family ?? 'any',
        assign: { host_ids: [], groups: [], tags: [], profile_ids: [], task_ids: [], is_default: false },
        scripts: steps(input),
        created_at: at(),
        updated_at: at(),
      };
      rows.set(row.id, row);
      return row;
    },
    async update(id, input) {
      await facade.validate(input, id);
      const current = rows.get(id);
      if (!current) throw notFound('baseline', id);
      const row: Baseline = {
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.os_family !== undefined ? { os_family: input.os_family } : {}),
        ...(input.scripts !== undefined ? { scripts: steps(input) } : {}),
        updated_at: at(),
      };
      rows.set(id, row);
      return row;
    },
    async remove(id) {
      const row = rows.get(id);
      if (!row) throw notFound('baseline', id);
      rows.delete(id);
      return row;
    },
    assigned: async () => {
      throw new AppError('UNAVAILABLE', 'not in the fake');
    },
  };
  return facade;
}
