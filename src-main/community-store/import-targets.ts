import { Type, type Static } from 'typebox';
import { AppError, validationError } from '../core/errors.js';
import { literalUnion, StrictObject } from '../core/http-kit/common-contract.js';
import type { BaselinesFacade } from '../baselines/baselines-facade.js';
import { BASELINE_NAME_PATTERN, MAX_BASELINE_SCRIPTS, type Baseline, type BaselineScriptInput } from '../baselines/baselines-contract.js';
import type { NetbootFacade } from '../netboot/index.js';
import { ANSWER_KINDS, OverlayFieldsSchema, VariablesSchema, type AnswerTemplate, type AnswerTemplateWrite, type OverlayFields } from '../netboot/netboot-contract.js';
import type { OverlayStore } from '../netboot/catalog/overlays.js';
import type { Profile, ProfileInput, ProfileService } from '../profiles/index.js';
import { profileAsInput } from '../profiles/profile-write.js';
import { BootTypeSchema, ProfileNameSchema, ProfileWriteSchema } from '../profiles/profiles-contract.js';
import type { ScriptsFacade } from '../scripts/scripts-facade.js';
import { OsFamilySchema, ScriptCreateSchema, ScriptVariablesSchema, type Script, type ScriptCreate } from '../scripts/scripts-contract.js';
import { STORE_ITEM_ID_PATTERN, type StoreItemType } from './community-store-contract.js';
import { schemaErrors } from './item-format.js';
import { MAX_TEMPLATE_CHARS } from '../templates/templates-contract.js';
import { baselineAsWrite } from '../baselines/baseline-write.js';

/*
 * What an import does per item type (docs/store.md, "Import"): the payload's
 * schema, the local resource its name collides with, and validate / create /
 * overwrite / restore / remove through the owning area's facade, so the
 * store writes with exactly the checks (and AppErrors) of that area's API.
 */

export type TargetType = Exclude<StoreItemType, 'bundle'>;

/** Who writes and why (versions made by an import carry it as their comment). */
export interface WriteNote {
  author: string;
  comment: string;
}

export interface LocalRef {
  id: number;
  name: string;
}

/** A baseline step in a store payload: the script by its store id (mapped to the local id at import). */
const StoreBaselineStepSchema = StrictObject({
  script: Type.String({ pattern: STORE_ITEM_ID_PATTERN }),
  variables: Type.Optional(ScriptVariablesSchema),
  continue_on_error: Type.Optional(Type.Boolean()),
  timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 * 3600 })),
});

export const StoreBaselinePayloadSchema = StrictObject({
  name: Type.String({ pattern: BASELINE_NAME_PATTERN }),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  os_family: Type.Optional(OsFamilySchema),
  scripts: Type.Array(StoreBaselineStepSchema, { maxItems: MAX_BASELINE_SCRIPTS }),
});

/** An answer template from a store: name, kind and content required; never secrets (a catalog carries none). */
export const StoreTemplatePayloadSchema = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  kind: literalUnion(ANSWER_KINDS),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
  content: Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_CHARS }),
  variables: Type.Optional(VariablesSchema),
});

/** A profile from a store: name and boot_type required; no menu (its entries name local profile ids). */
const { comment: _profileComment, menu: _menu, name: _name, boot_type: _bootType, ...profileFields } = ProfileWriteSchema.properties;
export const StoreProfilePayloadSchema = StrictObject({
  ...profileFields,
  name: ProfileNameSchema,
  boot_type: BootTypeSchema,
});

export const StoreOverlayPayloadSchema = StrictObject({ distro: Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' }), ...OverlayFieldsSchema.properties });

export type StoreBaselinePayload = Static<typeof StoreBaselinePayloadSchema>;

/** The local ids of the scripts an import brought (or found, when skipped), by store id. */
export type ScriptIdMap = ReadonlyMap<string, number>;

export interface ImportTarget<P = Record<string, unknown>> {
  type: TargetType;
  /** Whether a taken name can be avoided by another name (an overlay's name is its distro: no). */
  canRename: boolean;
  /** Checks the payload's shape; throws VALIDATION_FAILED naming `payload.<field>`. */
  parse(payload: unknown, key: string): P;
  nameOf(payload: P): string;
  withName(payload: P, name: string): P;
  findByName(name: string): LocalRef | undefined;
  exists(id: number): boolean;
  /** The area's own checks (existingId: an overwrite of that resource); `scripts` maps a baseline's references. */
  validate(payload: P, existingId: number | undefined, scripts: ScriptIdMap): Promise<void>;
  create(payload: P, note: WriteNote, scripts: ScriptIdMap): Promise<LocalRef>;
  /** The resource as it is now, kept to restore it when the import is undone. */
  snapshot(id: number): unknown;
  overwrite(id: number, payload: P, note: WriteNote, scripts: ScriptIdMap): Promise<LocalRef>;
  restore(id: number, snapshot: unknown, note: WriteNote): Promise<void>;
  remove(id: number, note: WriteNote): Promise<void>;
}

function parseWith<P>(schema: Parameters<typeof schemaErrors>[0], payload: unknown, key: string): P {
  const errors = schemaErrors(schema, payload, `${key}.payload`);
  if (errors.length > 0) throw validationError(errors);
  return structuredClone(payload) as P;
}

function byName<T extends { id: number; name: string }>(rows: readonly T[], name: string): LocalRef | undefined {
  const key = name.toLowerCase();
  const row = rows.find((item) => item.name.toLowerCase() === key);
  return row ? { id: row.id, name: row.name } : undefined;
}

export function scriptTarget(scripts: ScriptsFacade): ImportTarget<ScriptCreate> {
  return {
    type: 'script',
    canRename: true,
    parse: (payload, key) => parseWith<ScriptCreate>(ScriptCreateSchema, payload, key),
    nameOf: (payload) => payload.name,
    withName: (payload, name) => ({ ...payload, name }),
    findByName: (name) => byName(scripts.list(), name),
    exists: (id) => scripts.get(id) !== undefined,
    validate: (payload, existingId) => scripts.validate(payload, existingId),
    create: async (payload, note) => ref(await scripts.create({ ...payload, comment: note.comment }, note.author)),
    snapshot: (id) => structuredClone(scripts.get(id)),
    overwrite: async (id, payload, note) => ref(await scripts.update(id, { ...payload, comment: note.comment }, note.author)),
    restore: async (id, snapshot, note) => {
      const before = snapshot as Script;
      await scripts.update(id, { name: before.name, kind: before.kind, content: before.content, os_family: before.os_family, description: before.description, variables: before.variables, comment: note.comment }, note.author);
    },
    remove: async (id) => {
      await scripts.remove(id, { force: true });
    },
  };
}

/** A baseline's steps with local script ids; a step whose script is not imported yet is left out (validation before the scripts exist). */
function baselineSteps(payload: StoreBaselinePayload, scripts: ScriptIdMap, strict: boolean): BaselineScriptInput[] {
  return payload.scripts.flatMap((step) => {
    const id = scripts.get(step.script);
    if (id === undefined) {
      if (strict) throw new AppError('VALIDATION_FAILED', `baseline "${payload.name}": script ${step.script} was not imported`);
      return [];
    }
    return [{ script_id: id, ...(step.variables ? { variables: step.variables } : {}), ...(step.continue_on_error !== undefined ? { continue_on_error: step.continue_on_error } : {}), ...(step.timeout_seconds !== undefined ? { timeout_seconds: step.timeout_seconds } : {}) }];
  });
}

export function baselineTarget(baselines: BaselinesFacade): ImportTarget<StoreBaselinePayload> {
  const body = (payload: StoreBaselinePayload, scripts: ScriptIdMap, strict: boolean) => ({
    name: payload.name,
    ...(payload.description !== undefined ? { description: payload.description } : {}),
    ...(payload.os_family !== undefined ? { os_family: payload.os_family } : {}),
    scripts: baselineSteps(payload, scripts, strict),
  });
  return {
    type: 'baseline',
    canRename: true,
    parse: (payload, key) => parseWith<StoreBaselinePayload>(StoreBaselinePayloadSchema, payload, key),
    nameOf: (payload) => payload.name,
    withName: (payload, name) => ({ ...payload, name }),
    findByName: (name) => byName(baselines.list(), name),
    exists: (id) => baselines.get(id) !== undefined,
    validate: (payload, existingId, scripts) => baselines.validate(body(payload, scripts, false), existingId),
    create: async (payload, note, scripts) => ref(await baselines.create(body(payload, scripts, true), note.author)),
    snapshot: (id) => structuredClone(baselines.get(id)),
    overwrite: async (id, payload, note, scripts) => ref(await baselines.update(id, body(payload, scripts, true), note.author)),
    restore: async (id, snapshot, note) => {
      await baselines.update(id, baselineAsWrite(snapshot as Baseline), note.author);
    },
    remove: async (id) => {
      await baselines.remove(id);
    },
  };
}

type TemplatePayload = Static<typeof StoreTemplatePayloadSchema>;

export function answerTemplateTarget(netboot: Pick<NetbootFacade, 'answers'>): ImportTarget<TemplatePayload> {
  const answers = netboot.answers;
  const all = (): AnswerTemplate[] => allTemplates(answers);
  return {
    type: 'answer-template',
    canRename: true,
    parse: (payload, key) => parseWith<TemplatePayload>(StoreTemplatePayloadSchema, payload, key),
    nameOf: (payload) => payload.name,
    withName: (payload, name) => ({ ...payload, name }),
    findByName: (name) => byName(all(), name),
    exists: (id) => all().some((row) => row.id === id),
    validate: async (payload, existingId) => {
      await answers.validateWrite(payload, existingId);
      // The kind's own checks too (preseed lines, kickstart sections, XML, YAML): a store item must be a working answer file.
      const result = await answers.validate({ kind: payload.kind, content: payload.content, ...(payload.variables ? { variables: payload.variables } : {}) });
      const errors = result.issues.filter((issue) => issue.severity === 'error');
      if (errors.length > 0) {
        throw validationError(errors.map((issue) => ({ field: 'payload.content', message: `${issue.line === null ? '' : `line ${issue.line}: `}${issue.message}` })));
      }
    },
    create: async (payload, note) => ref(await answers.create({ ...payload, comment: note.comment } satisfies AnswerTemplateWrite, note)),
    snapshot: (id) => structuredClone(answers.require(id)),
    overwrite: async (id, payload, note) => ref(await answers.update(id, { ...payload, comment: note.comment } satisfies AnswerTemplateWrite, note)),
    restore: async (id, snapshot, note) => {
      const before = snapshot as AnswerTemplate;
      await answers.update(id, { name: before.name, kind: before.kind, description: before.description, content: before.content, variables: before.variables }, note);
    },
    remove: async (id) => {
      await answers.remove(id);
    },
  };
}

/** Every stored template (the service's list is paged, at most 500 a page). */
function allTemplates(answers: NetbootFacade['answers']): AnswerTemplate[] {
  const rows: AnswerTemplate[] = [];
  for (let page = 1; ; page++) {
    const { data, meta } = answers.list({ size: 500, page });
    rows.push(...data);
    if (data.length === 0 || rows.length >= meta.total) return rows;
  }
}

export function profileTarget(profiles: ProfileService): ImportTarget<ProfileInput> {
  return {
    type: 'profile',
    canRename: true,
    parse: (payload, key) => parseWith<ProfileInput>(StoreProfilePayloadSchema, payload, key),
    nameOf: (payload) => payload.name ?? '',
    withName: (payload, name) => ({ ...payload, name }),
    findByName: (name) => byName(profiles.all(), name),
    exists: (id) => profiles.get(id) !== undefined,
    validate: (payload, existingId) => profiles.validate(payload, existingId),
    create: async (payload, note) => ref(await profiles.create(payload, note)),
    snapshot: (id) => structuredClone(profiles.get(id)),
    overwrite: async (id, payload, note) => ref(await profiles.update(id, payload, note)),
    restore: async (id, snapshot, note) => {
      await profiles.update(id, profileAsInput(snapshot as Profile), note);
    },
    remove: async (id) => {
      await profiles.remove(id);
    },
  };
}

type OverlayPayload = Static<typeof StoreOverlayPayloadSchema>;

/** Overlays are keyed by distro (their "name"); the row id is the local id. */
export function overlayTarget(netboot: Pick<NetbootFacade, 'catalog'>, rows: OverlayStore): ImportTarget<OverlayPayload> {
  const fieldsOf = ({ distro: _distro, ...fields }: OverlayPayload): OverlayFields => fields;
  const rowRef = (distro: string): LocalRef => {
    const row = rows.get(distro);
    if (!row) throw new AppError('INTERNAL', `the overlay of ${distro} was written but cannot be read back`);
    return { id: row.id, name: row.distro };
  };
  const distroOf = (id: number): string | undefined => rows.all().find((row) => row.id === id)?.distro;
  return {
    type: 'overlay',
    canRename: false,
    parse: (payload, key) => parseWith<OverlayPayload>(StoreOverlayPayloadSchema, payload, key),
    nameOf: (payload) => payload.distro,
    withName: (payload) => payload,
    findByName: (name) => {
      const row = rows.get(name);
      return row ? { id: row.id, name: row.distro } : undefined;
    },
    exists: (id) => distroOf(id) !== undefined,
    validate: async (payload) => netboot.catalog.validateOverlay(payload.distro, fieldsOf(payload)),
    create: async (payload, note) => {
      await netboot.catalog.putOverlay(payload.distro, fieldsOf(payload), note.author);
      return rowRef(payload.distro);
    },
    snapshot: (id) => structuredClone(rows.all().find((row) => row.id === id)?.fields),
    overwrite: async (_id, payload, note) => {
      await netboot.catalog.putOverlay(payload.distro, fieldsOf(payload), note.author);
      return rowRef(payload.distro);
    },
    restore: async (id, snapshot, note) => {
      const distro = distroOf(id);
      if (distro && snapshot) await netboot.catalog.putOverlay(distro, snapshot as OverlayFields, note.author);
    },
    remove: async (id, note) => {
      const distro = distroOf(id);
      if (distro) await netboot.catalog.deleteOverlay(distro, note.author);
    },
  };
}

function ref(row: { id: number; name: string }): LocalRef {
  return { id: row.id, name: row.name };
}
