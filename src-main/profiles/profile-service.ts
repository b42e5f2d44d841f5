import { AppError, notFound, type FieldError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { TextVersions } from '../core/text-versions.js';
import { paginate, type ListPage, type ListQueryInput } from '../core/http-kit/list-query.js';
import { assertRenderableScript } from './script-check.js';
import { sampleTemplateData } from './template-context.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { Collection } from '../store/collection.js';
import type { Store } from '../store/store.js';
import { buildCandidate, type ProfileCandidate } from './profile-validation.js';
import type { ProfileUsage, ScriptDiff } from './profiles-contract.js';
import { SerialQueue } from './serial-queue.js';
import {
  PROFILE_SORT_FIELDS,
  VERSION_SORT_FIELDS,
  type BootSource,
  type BootType,
  type ChangeNote,
  type Profile,
  type ProfileInput,
  type ScriptVersion,
} from './profile-types.js';

/** Who uses a profile, for the 409 of a delete. */
export interface ProfileUsers {
  hosts: { id: number; name: string }[];
  menus: { id: number; name: string }[];
  /** Set when the profile is the boot default for unknown machines (settings netboot.default_profile_id). */
  netbootDefault: boolean;
}

/** The hosts (of a later area) assigned a profile; registered with addUsageCheck. */
export type ProfileUsageCheck = (profileId: number) => { id: number; name: string }[];

export interface ProfileServiceDeps {
  store: Store;
  log: Logger;
  /** Renders the save-time check off the main thread. */
  templates: TemplateRenderer;
  /** The netboot default profile id of the settings. */
  netbootDefaultProfileId: () => number | null;
}

export interface ProfileFilter {
  boot_type?: BootType;
  group?: string;
}

export type { ScriptDiff } from './profiles-contract.js';

const MAX_NAMED_USERS = 20;

/**
 * Boot profiles and the history of their scripts. Every change of a script
 * (or of the settings it is generated from) stores a new version; versions
 * are never rewritten: a rollback is one more version.
 */
export class ProfileService {
  private readonly rows: Collection<Profile>;
  /** The script history (the versioning shared with answer templates; rows keep their stored shape, `profile_id`). */
  private readonly versions: TextVersions<ScriptVersion>;
  private readonly log: Logger;
  /**
   * The write queue of profiles and of the areas that refer to them: the hosts
   * area runs its writes on it too, so a profile delete and a host assignment
   * never interleave (the in-use check and the profile-exists check hold).
   */
  readonly queue = new SerialQueue();
  /** The renderer of the templates area: the save-time check runs in its worker. */
  private readonly templates: TemplateRenderer;
  private readonly usageChecks: ProfileUsageCheck[] = [];
  private usageCounter: (() => ReadonlyMap<number, ProfileUsage>) | null = null;
  private readonly netbootDefaultProfileId: () => number | null;

  constructor(deps: ProfileServiceDeps) {
    this.rows = deps.store.collection<Profile>('profiles');
    this.versions = new TextVersions(deps.store.collection<ScriptVersion>('profile_script_versions'), {
      ownerOf: (version) => version.profile_id,
      textOf: (version) => version.script,
    });
    this.log = deps.log.scope('profiles');
    this.templates = deps.templates;
    this.netbootDefaultProfileId = deps.netbootDefaultProfileId;
  }

  /** Sets who counts the hosts using each profile (the hosts area); without one every count is 0. */
  setUsageCounter(counter: () => ReadonlyMap<number, ProfileUsage>): void {
    this.usageCounter = counter;
  }

  /** The hosts using each profile, by profile id (profiles nobody uses are absent). */
  usage(): ReadonlyMap<number, ProfileUsage> {
    return this.usageCounter?.() ?? new Map();
  }

  /** Adds a check naming the hosts that use a profile: a delete of a profile in use fails with 409 naming them. */
  addUsageCheck(check: ProfileUsageCheck): void {
    this.usageChecks.push(check);
  }

  list(query: ListQueryInput & ProfileFilter = {}): ListPage<Profile> {
    const group = query.group?.toLowerCase();
    const rows = this.rows.filter(
      (profile) =>
        (query.boot_type === undefined || profile.boot_type === query.boot_type) &&
        (group === undefined || profile.default_for_groups.some((g) => g.toLowerCase() === group)),
    );
    return paginate(rows, query, {
      sortable: PROFILE_SORT_FIELDS,
      defaultSort: 'name',
      searchText: (profile) => [profile.name, profile.description, profile.boot_type, ...profile.default_for_groups],
    });
  }

  all(): readonly Profile[] {
    return this.rows.all();
  }

  get(id: number): Profile | undefined {
    return this.rows.get(id);
  }

  require(id: number): Profile {
    const profile = this.rows.get(id);
    if (!profile) throw notFound('profile', id);
    return profile;
  }

  /** The profile hosts of `group` boot when they have none of their own. */
  defaultForGroup(group: string): Profile | undefined {
    const key = group.toLowerCase();
    return this.rows.find((profile) => profile.default_for_groups.some((g) => g.toLowerCase() === key));
  }

  create(input: ProfileInput, note: ChangeNote): Promise<Profile> {
    return this.queue.run(async () => {
      const candidate = await this.check(null, input);
      const profile = await this.rows.insert({ ...candidate, script_version: 1 });
      await this.addVersion(profile, note, 'created');
      this.log.info(`profile ${profile.id} "${profile.name}" created by ${note.author}`);
      return profile;
    });
  }

  update(id: number, input: ProfileInput, note: ChangeNote): Promise<Profile> {
    return this.queue.run(async () => {
      const current = this.require(id);
      const candidate = await this.check(current, input);
      const scriptChanged = candidate.script !== current.script || !sameSource(candidate, current);
      const version = scriptChanged ? current.script_version + 1 : current.script_version;
      const updated = (await this.rows.update(id, { ...candidate, script_version: version }))!;
      if (scriptChanged) await this.addVersion(updated, note, 'updated');
      return updated;
    });
  }

  /**
   * Throws the AppError a create (existingId undefined) or update of this
   * input would answer, writing nothing: the store checks every item of an
   * import before it writes any (docs/store.md).
   */
  async validate(input: ProfileInput, existingId?: number): Promise<void> {
    await this.check(existingId === undefined ? null : this.require(existingId), input);
  }

  /** Deletes a profile and its script history; 409 naming whoever still uses it. */
  remove(id: number): Promise<Profile> {
    return this.queue.run(async () => {
      const profile = this.require(id);
      const users = this.usersOf(id);
      if (users.hosts.length > 0 || users.menus.length > 0 || users.netbootDefault) throw inUse(profile, users);
      await this.rows.remove(id);
      await this.versions.removeOwner(id);
      this.log.info(`profile ${id} "${profile.name}" deleted`);
      return profile;
    });
  }

  usersOf(id: number): ProfileUsers {
    return {
      hosts: this.usageChecks.flatMap((check) => check(id)),
      menus: this.rows.filter((profile) => profile.menu?.entries.some((entry) => entry.profile_id === id) ?? false).map((p) => ({ id: p.id, name: p.name })),
      netbootDefault: this.netbootDefaultProfileId() === id,
    };
  }

  /**
   * The settings check of netboot.default_profile_id: it must name an
   * existing profile whenever it is set (settings validation calls this).
   */
  netbootDefaultErrors(value: { default_profile_id: number | null }, field: (path: string) => string): FieldError[] {
    const id = value.default_profile_id;
    if (id === null || this.rows.get(id)) return [];
    return [{ field: field('default_profile_id'), message: `profile ${id} does not exist` }];
  }

  listVersions(profileId: number, query: ListQueryInput = {}): ListPage<ScriptVersion> {
    this.require(profileId);
    return this.versions.list(profileId, query, {
      sortable: VERSION_SORT_FIELDS,
      defaultSort: '-version',
      searchText: (version) => [version.author, version.comment, version.script],
    });
  }

  getVersion(profileId: number, versionId: number): ScriptVersion {
    this.require(profileId);
    const version = this.versions.byId(profileId, versionId);
    if (!version) throw notFound(`script version of profile ${profileId}:`, versionId);
    return version;
  }

  /** Unified diff from version `fromId` to version `toId` (default: the current script). */
  diff(profileId: number, fromId: number, toId?: number): ScriptDiff {
    const profile = this.require(profileId);
    const from = this.getVersion(profileId, fromId);
    const to = toId === undefined ? this.latestVersion(profile) : this.getVersion(profileId, toId);
    const { diff, additions, deletions } = this.versions.diff(`profile-${profileId}.ipxe`, from, to);
    return { profile_id: profileId, from_version: from.version, to_version: to.version, diff, additions, deletions };
  }

  /**
   * Makes version `versionId` current again as a new version: its script and
   * the settings it was generated from. The version is checked like any
   * save (a menu entry deleted since fails with 400). When the version's
   * script and settings are the current ones nothing is written and the
   * profile is returned unchanged (no duplicate version), as for scripts
   * and answer templates.
   */
  rollback(profileId: number, versionId: number, note: ChangeNote): Promise<Profile> {
    return this.queue.run(async () => {
      const current = this.require(profileId);
      const target = this.getVersion(profileId, versionId);
      const latest = this.versions.byNumber(profileId, current.script_version);
      if (latest && latest.script === target.script && JSON.stringify(latest.source) === JSON.stringify(target.source)) return current;
      const candidate = await this.check(current, inputOf(target));
      const updated = (await this.rows.update(profileId, { ...candidate, script_version: current.script_version + 1 }))!;
      await this.addVersion(updated, { author: note.author, comment: note.comment ?? `rollback to version ${target.version}` }, 'rollback');
      return updated;
    });
  }

  /** All field checks, uniqueness and the render check with sample data (in the template worker); nothing is stored. */
  private async check(current: Profile | null, input: ProfileInput): Promise<ProfileCandidate> {
    const candidate = buildCandidate(current, input, this.rows, current?.id ?? null);
    const facts = { id: current?.id ?? 0, name: candidate.name, description: candidate.description, boot_type: candidate.boot_type, variables: candidate.variables };
    await assertRenderableScript(this.templates, candidate.script, sampleTemplateData(facts), candidate.boot_type === 'ipxe_script' ? 'body.script' : `body.${candidate.boot_type}`);
    return candidate;
  }

  private async addVersion(profile: Profile, note: ChangeNote, fallbackComment: string): Promise<ScriptVersion> {
    return this.versions.add({
      profile_id: profile.id,
      version: profile.script_version,
      script: profile.script,
      source: sourceOf(profile),
      author: note.author,
      comment: note.comment ?? fallbackComment,
    });
  }

  private latestVersion(profile: Profile): ScriptVersion {
    const latest = this.versions.byNumber(profile.id, profile.script_version);
    if (!latest) throw new AppError('INTERNAL', `profile ${profile.id} has no record of its current script version ${profile.script_version}`);
    return latest;
  }
}

/** The create/update input that reproduces a version. */
function inputOf(version: ScriptVersion): ProfileInput {
  const source = version.source;
  return {
    boot_type: source.boot_type,
    ...(source.boot_type === 'ipxe_script' ? { script: version.script } : {}),
    ...(source.linux ? { linux: source.linux } : {}),
    ...(source.chain ? { chain: source.chain } : {}),
    ...(source.sanboot ? { sanboot: source.sanboot } : {}),
    ...(source.menu ? { menu: source.menu } : {}),
  };
}

function sourceOf(value: BootSource): BootSource {
  return structuredClone({ boot_type: value.boot_type, linux: value.linux, chain: value.chain, sanboot: value.sanboot, menu: value.menu });
}

function sameSource(a: BootSource, b: BootSource): boolean {
  return JSON.stringify(sourceOf(a)) === JSON.stringify(sourceOf(b));
}

function inUse(profile: Profile, users: ProfileUsers): AppError {
  const parts: string[] = [];
  if (users.hosts.length > 0) {
    const named = users.hosts.slice(0, MAX_NAMED_USERS).map((host) => `${host.name} (id ${host.id})`);
    const more = users.hosts.length > MAX_NAMED_USERS ? ` and ${users.hosts.length - MAX_NAMED_USERS} more` : '';
    parts.push(`hosts ${named.join(', ')}${more}`);
  }
  if (users.menus.length > 0) parts.push(`menu profiles ${users.menus.map((menu) => `"${menu.name}" (id ${menu.id})`).join(', ')}`);
  if (users.netbootDefault) parts.push('the netboot default for unknown machines (settings netboot.default_profile_id)');
  return new AppError('CONFLICT', `profile "${profile.name}" (id ${profile.id}) is in use by ${parts.join('; ')}`, {
    details: [
      ...users.hosts.map((host) => ({ field: 'hosts', message: `${host.name} (id ${host.id})` })),
      ...users.menus.map((menu) => ({ field: 'menus', message: `${menu.name} (id ${menu.id})` })),
      ...(users.netbootDefault ? [{ field: 'settings.netboot.default_profile_id', message: `is ${profile.id}` }] : []),
    ],
  });
}
