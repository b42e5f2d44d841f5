import { Type, type Static } from 'typebox';
import { AppError, invalid } from '../../core/errors.js';
import { normalizeMac } from '../../core/mac.js';
import type { BaselinesFacade } from '../../baselines/baselines-facade.js';
import { BASELINE_NAME_PATTERN, MAX_BASELINE_SCRIPTS, type Baseline, type BaselineCreate } from '../../baselines/baselines-contract.js';
import type { HostService } from '../../hosts/index.js';
import type { NetbootFacade } from '../../netboot/index.js';
import { ANSWER_KINDS, NETBOOT_VARIABLE_PATTERN, VariablesSchema as AnswerVariablesSchema, type AnswerTemplate } from '../../netboot/netboot-contract.js';
import type { Profile, ProfileInput, ProfileService } from '../../profiles/index.js';
import { profileAsInput } from '../../profiles/profile-write.js';
import { ProfileFieldSchemas, ProfileNameSchema, BootTypeSchema } from '../../profiles/profiles-contract.js';
import type { ScriptsFacade } from '../../scripts/scripts-facade.js';
import { OsFamilySchema, ScriptCreateSchema, ScriptVariablesSchema, type Script, type ScriptCreate } from '../../scripts/scripts-contract.js';
import type { SecretBox } from '../../core/secret-box.js';
import { literalUnion } from '../../core/http-kit/common-contract.js';
import { MAX_TEMPLATE_CHARS } from '../../templates/templates-contract.js';
import { SealedSchema } from '../kit-file.js';
import { byName, checkShape, openSecret, refOf, type KitTarget, type RefResolver } from '../kit-target.js';
import { baselineAsWrite } from '../../baselines/baseline-write.js';

/*
 * Scripts, answer templates, profiles and baselines in a kit (docs/kit.md,
 * "Sections"), known by name (a taken name can be renamed). References
 * travel by name: a profile menu's entries, a baseline's scripts and its
 * assignment to profiles (and hosts, by MAC). An answer template's secrets
 * are sealed under the passphrase like BMC passwords. The version history
 * of profiles and answer templates is exported for reference (`versions`);
 * an import writes the current content as one new version.
 */

const { comment: _comment, ...scriptFields } = ScriptCreateSchema.properties;
const ScriptItemSchema = Type.Object(scriptFields, { additionalProperties: false });
type ScriptItem = Static<typeof ScriptItemSchema>;

function scriptItem(row: Script): ScriptItem {
  return { name: row.name, kind: row.kind, content: row.content, os_family: row.os_family, description: row.description, variables: row.variables };
}

export function scriptsTarget(scripts: ScriptsFacade): KitTarget<ScriptItem> {
  const require = (id: number) => {
    const row = scripts.get(id);
    if (!row) throw new AppError('NOT_FOUND', `script ${id} not found`);
    return row;
  };
  return {
    section: 'scripts',
    canRename: true,
    secretFields: [],
    exportAll: async () => scripts.list().map(scriptItem),
    parse: (raw, field) => checkShape<ScriptItem>(ScriptItemSchema, raw, field),
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(scripts.list(), item.name),
    lookup: (key) => byName(scripts.list(), key),
    isTaken: (name) => byName(scripts.list(), name) !== undefined,
    current: async (id) => scriptItem(require(id)),
    validate: (item, existingId) => scripts.validate(item as ScriptCreate, existingId),
    create: async (item, _refs, note) => refOf(await scripts.create({ ...item, comment: note.comment }, note.author)),
    overwrite: async (id, item, _refs, note) => refOf(await scripts.update(id, { ...item, comment: note.comment }, note.author)),
    snapshot: (id) => scriptItem(require(id)),
    restore: async (id, snapshot, note) => {
      await scripts.update(id, { ...(snapshot as ScriptItem), comment: note.comment }, note.author);
    },
    remove: async (id) => {
      await scripts.remove(id, { force: true });
    },
  };
}

const VersionSchema = Type.Object({ version: Type.Integer(), author: Type.String(), comment: Type.String(), created_at: Type.String(), content: Type.String() }, { additionalProperties: false });

const TemplateItemSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64 }),
    kind: literalUnion(ANSWER_KINDS),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    content: Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_CHARS }),
    variables: Type.Optional(AnswerVariablesSchema),
    secrets: Type.Optional(Type.Record(Type.String({ pattern: NETBOOT_VARIABLE_PATTERN }), Type.Union([SealedSchema, Type.Null()]), { maxProperties: 16 })),
    /** The history (export only; an import writes one new version). */
    versions: Type.Optional(Type.Array(VersionSchema, { maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
type TemplateFileItem = Static<typeof TemplateItemSchema>;
type TemplateItem = Omit<TemplateFileItem, 'secrets' | 'versions'> & { secrets: Record<string, string> };

const TEMPLATE_PURPOSE = 'answer_templates.secrets';
/** A template's old secrets kept for an undo: sealed under this server's key, never in clear in the pending record. */
const UNDO_PURPOSE = 'kit-undo:answer-template-secrets';

export function answerTemplatesTarget(netboot: Pick<NetbootFacade, 'answers'>, box: SecretBox): KitTarget<TemplateItem> {
  const answers = netboot.answers;
  const all = (): AnswerTemplate[] => {
    const rows: AnswerTemplate[] = [];
    for (let page = 1; ; page++) {
      const { data, meta } = answers.list({ size: 500, page });
      rows.push(...data);
      if (data.length === 0 || rows.length >= meta.total) return rows;
    }
  };
  const plainOf = async (row: AnswerTemplate): Promise<TemplateItem> => ({
    name: row.name,
    kind: row.kind,
    description: row.description,
    content: row.content,
    variables: row.variables,
    secrets: row.secret_names.length > 0 ? await answers.secretValues(row.id) : {},
  });
  /** The write: the file's secrets set, the template's other secrets removed (the kit says what it holds). */
  const write = (item: TemplateItem, existing: readonly string[]) => {
    const secrets: Record<string, string | null> = Object.fromEntries(existing.filter((name) => !(name in item.secrets)).map((name) => [name, null]));
    Object.assign(secrets, item.secrets);
    return { name: item.name, kind: item.kind, description: item.description ?? '', content: item.content, variables: item.variables ?? {}, secrets };
  };
  return {
    section: 'answer_templates',
    canRename: true,
    secretFields: ['secrets'],
    exportAll: async (secrets) =>
      Promise.all(
        all().map(async (row) => {
          const plain = await plainOf(row);
          const versions = answers.listVersions(row.id, { size: 500 }).data.map((version) => ({ version: version.version, author: version.author, comment: version.comment, created_at: version.created_at, content: version.content }));
          return { ...plain, secrets: Object.fromEntries(Object.entries(plain.secrets).map(([name, value]) => [name, secrets.seal(value, TEMPLATE_PURPOSE)])), versions };
        }),
      ),
    parse: (raw, field, secrets) => {
      const { secrets: sealed, versions: _versions, ...rest } = checkShape<TemplateFileItem>(TemplateItemSchema, raw, field);
      const plain: Record<string, string> = {};
      for (const [name, value] of Object.entries(sealed ?? {})) {
        const opened = openSecret(value, secrets, TEMPLATE_PURPOSE);
        if (opened !== undefined) plain[name] = opened;
      }
      return { ...rest, secrets: plain };
    },
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(all(), item.name),
    lookup: (key) => byName(all(), key),
    isTaken: (name) => byName(all(), name) !== undefined,
    current: async (id) => plainOf(answers.require(id)),
    validate: async (item, existingId) => answers.validateWrite(write(item, existingId === undefined ? [] : answers.require(existingId).secret_names), existingId),
    create: async (item, _refs, note) => refOf(await answers.create(write(item, []), note)),
    overwrite: async (id, item, _refs, note) => refOf(await answers.update(id, write(item, answers.require(id).secret_names), note)),
    snapshot: async (id) => {
      const plain = await plainOf(answers.require(id));
      return { ...plain, secrets: Object.fromEntries(await Promise.all(Object.entries(plain.secrets).map(async ([name, value]) => [name, await box.encrypt(value, UNDO_PURPOSE)] as const))) };
    },
    restore: async (id, snapshot, note) => {
      const before = snapshot as TemplateItem;
      const secrets = Object.fromEntries(await Promise.all(Object.entries(before.secrets).map(async ([name, value]) => [name, await box.decrypt(value, UNDO_PURPOSE)] as const)));
      await answers.update(id, write({ ...before, secrets }, answers.require(id).secret_names), note);
    },
    remove: async (id) => {
      await answers.remove(id);
    },
  };
}

const MenuItemSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    entries: Type.Array(Type.Object({ profile: ProfileNameSchema, label: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }), { minItems: 1, maxItems: 64 }),
    default_entry: Type.Optional(Type.Union([ProfileNameSchema, Type.Null()])),
    timeout_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600 })),
  },
  { additionalProperties: false },
);

const ProfileItemSchema = Type.Object(
  {
    name: ProfileNameSchema,
    boot_type: BootTypeSchema,
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    script: Type.Optional(ProfileFieldSchemas.script),
    linux: Type.Optional(Type.Union([ProfileFieldSchemas.linux, Type.Null()])),
    chain: Type.Optional(Type.Union([ProfileFieldSchemas.chain, Type.Null()])),
    sanboot: Type.Optional(Type.Union([ProfileFieldSchemas.sanboot, Type.Null()])),
    menu: Type.Optional(Type.Union([MenuItemSchema, Type.Null()])),
    variables: Type.Optional(ProfileFieldSchemas.variables),
    default_for_groups: Type.Optional(ProfileFieldSchemas.default_for_groups),
    versions: Type.Optional(Type.Array(VersionSchema, { maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
type ProfileItem = Omit<Static<typeof ProfileItemSchema>, 'versions'>;

export function profilesTarget(profiles: ProfileService): KitTarget<ProfileItem> {
  const nameOfId = (id: number) => profiles.get(id)?.name ?? `#${id}`;
  const itemOf = (row: Profile): ProfileItem => ({
    name: row.name,
    boot_type: row.boot_type,
    description: row.description,
    ...(row.boot_type === 'ipxe_script' ? { script: row.script } : {}),
    ...(row.linux ? { linux: row.linux } : {}),
    ...(row.chain ? { chain: row.chain } : {}),
    ...(row.sanboot ? { sanboot: row.sanboot } : {}),
    ...(row.menu
      ? {
          menu: {
            title: row.menu.title,
            entries: row.menu.entries.map((entry) => ({ profile: nameOfId(entry.profile_id), label: entry.label })),
            default_entry: row.menu.default_entry === null ? null : nameOfId(row.menu.default_entry),
            timeout_seconds: row.menu.timeout_seconds,
          },
        }
      : {}),
    variables: row.variables,
    default_for_groups: row.default_for_groups,
  });
  /** The API input; a menu naming profiles not written yet is checked when written (strict), not before. */
  const input = (item: ProfileItem, refs: RefResolver, strict: boolean): ProfileInput | null => {
    const { menu, linux, chain, sanboot, ...rest } = item;
    const out: ProfileInput = { ...rest, ...(linux ? { linux } : {}), ...(chain ? { chain } : {}), ...(sanboot ? { sanboot } : {}) };
    if (menu) {
      const idOf = (name: string) => {
        const id = refs.id('profiles', name);
        if (id === undefined && (strict || !refs.known('profiles', name))) throw invalid('profiles.menu', `profile "${name}" is neither in the kit nor on this server`);
        return id;
      };
      const entries = menu.entries.map((entry) => ({ profile_id: idOf(entry.profile), ...(entry.label ? { label: entry.label } : {}) }));
      const defaultEntry = menu.default_entry === undefined || menu.default_entry === null ? menu.default_entry : idOf(menu.default_entry);
      if (entries.some((entry) => entry.profile_id === undefined) || defaultEntry === undefined && menu.default_entry !== undefined) return null;
      out.menu = {
        ...(menu.title ? { title: menu.title } : {}),
        entries: entries.map((entry) => ({ ...entry, profile_id: entry.profile_id as number })),
        ...(menu.default_entry !== undefined ? { default_entry: defaultEntry ?? null } : {}),
        ...(menu.timeout_seconds !== undefined ? { timeout_seconds: menu.timeout_seconds } : {}),
      };
    }
    return out;
  };
  const strictInput = (item: ProfileItem, refs: RefResolver): ProfileInput => {
    const out = input(item, refs, true);
    if (!out) throw new AppError('INTERNAL', `profile "${item.name}": a menu entry could not be resolved`);
    return out;
  };
  return {
    section: 'profiles',
    canRename: true,
    secretFields: [],
    rank: (item) => (item.menu ? 1 : 0),
    exportAll: async () =>
      profiles.all().map((row) => ({
        ...itemOf(row),
        versions: profiles.listVersions(row.id, { size: 500 }).data.map((version) => ({ version: version.version, author: version.author, comment: version.comment, created_at: version.created_at, content: version.script })),
      })),
    parse: (raw, field) => {
      const { versions: _versions, ...item } = checkShape<Static<typeof ProfileItemSchema>>(ProfileItemSchema, raw, field);
      return item;
    },
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(profiles.all(), item.name),
    lookup: (key) => byName(profiles.all(), key),
    isTaken: (name) => byName(profiles.all(), name) !== undefined,
    current: async (id) => itemOf(profiles.require(id)),
    validate: async (item, existingId, refs) => {
      const body = input(item, refs, false);
      if (body) await profiles.validate(body, existingId);
    },
    create: async (item, refs, note) => refOf(await profiles.create(strictInput(item, refs), note)),
    overwrite: async (id, item, refs, note) => refOf(await profiles.update(id, strictInput(item, refs), note)),
    snapshot: (id) => structuredClone(profiles.require(id)),
    restore: async (id, snapshot, note) => {
      await profiles.update(id, profileAsInput(snapshot as Profile), note);
    },
    remove: async (id) => {
      await profiles.remove(id);
    },
  };
}

const BaselineItemSchema = Type.Object(
  {
    name: Type.String({ pattern: BASELINE_NAME_PATTERN }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    os_family: Type.Optional(OsFamilySchema),
    assign: Type.Optional(
      Type.Object(
        {
          hosts: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500 })),
          groups: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500 })),
          tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500 })),
          profiles: Type.Optional(Type.Array(ProfileNameSchema, { maxItems: 500 })),
          is_default: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    scripts: Type.Array(
      Type.Object(
        {
          script: Type.String({ minLength: 1, maxLength: 64 }),
          variables: Type.Optional(ScriptVariablesSchema),
          continue_on_error: Type.Optional(Type.Boolean()),
          timeout_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 * 3600 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_BASELINE_SCRIPTS },
    ),
  },
  { additionalProperties: false },
);
type BaselineItem = Static<typeof BaselineItemSchema>;

export function baselinesTarget(baselines: BaselinesFacade, hosts: Pick<HostService, 'get'>, profiles: Pick<ProfileService, 'get'>): KitTarget<BaselineItem> {
  const require = (id: number) => {
    const row = baselines.get(id);
    if (!row) throw new AppError('NOT_FOUND', `baseline ${id} not found`);
    return row;
  };
  const itemOf = (row: Baseline): BaselineItem => ({
    name: row.name,
    description: row.description,
    os_family: row.os_family,
    assign: {
      hosts: row.assign.host_ids.flatMap((id) => {
        const mac = hosts.get(id)?.mac;
        return mac ? [mac] : [];
      }),
      groups: row.assign.groups,
      tags: row.assign.tags,
      profiles: row.assign.profile_ids.flatMap((id) => {
        const name = profiles.get(id)?.name;
        return name ? [name] : [];
      }),
      is_default: row.assign.is_default,
    },
    scripts: row.scripts.map((step) => ({ script: step.script_name, variables: step.variables, continue_on_error: step.continue_on_error, timeout_seconds: step.timeout_seconds })),
  });
  /** The API body; references not written yet are left out before the writes (strict: required). */
  const body = (item: BaselineItem, refs: RefResolver, strict: boolean): BaselineCreate => {
    const resolve = (section: 'scripts' | 'hosts' | 'profiles', key: string, field: string): number[] => {
      const id = refs.id(section, key);
      if (id !== undefined) return [id];
      if (strict || !refs.known(section, key)) throw invalid(field, `${section.slice(0, -1)} "${key}" is neither in the kit nor on this server`);
      return [];
    };
    const assign = item.assign ?? {};
    return {
      name: item.name,
      ...(item.description !== undefined ? { description: item.description } : {}),
      ...(item.os_family !== undefined ? { os_family: item.os_family } : {}),
      assign: {
        ...(assign.hosts ? { host_ids: assign.hosts.flatMap((mac) => resolve('hosts', normalizeMac(mac) ?? mac.toLowerCase(), 'baselines.assign.hosts')) } : {}),
        ...(assign.groups ? { groups: assign.groups } : {}),
        ...(assign.tags ? { tags: assign.tags } : {}),
        ...(assign.profiles ? { profile_ids: assign.profiles.flatMap((name) => resolve('profiles', name, 'baselines.assign.profiles')) } : {}),
        ...(assign.is_default !== undefined ? { is_default: assign.is_default } : {}),
      },
      scripts: item.scripts.flatMap((step) =>
        resolve('scripts', step.script, 'baselines.scripts').map((id) => ({
          script_id: id,
          ...(step.variables ? { variables: step.variables } : {}),
          ...(step.continue_on_error !== undefined ? { continue_on_error: step.continue_on_error } : {}),
          ...(step.timeout_seconds !== undefined ? { timeout_seconds: step.timeout_seconds } : {}),
        })),
      ),
    };
  };
  return {
    section: 'baselines',
    canRename: true,
    secretFields: [],
    exportAll: async () => baselines.list().map(itemOf),
    parse: (raw, field) => checkShape<BaselineItem>(BaselineItemSchema, raw, field),
    keyOf: (item) => item.name,
    nameOf: (item) => item.name,
    withName: (item, name) => ({ ...item, name }),
    findExisting: (item) => byName(baselines.list(), item.name),
    lookup: (key) => byName(baselines.list(), key),
    isTaken: (name) => byName(baselines.list(), name) !== undefined,
    current: async (id) => itemOf(require(id)),
    validate: (item, existingId, refs) => baselines.validate(body(item, refs, false), existingId),
    create: async (item, refs, note) => refOf(await baselines.create(body(item, refs, true), note.author)),
    overwrite: async (id, item, refs, note) => refOf(await baselines.update(id, body(item, refs, true), note.author)),
    snapshot: (id) => structuredClone(require(id)),
    restore: async (id, snapshot, note) => {
      await baselines.update(id, baselineAsWrite(snapshot as Baseline), note.author);
    },
    remove: async (id) => {
      await baselines.remove(id);
    },
  };
}
