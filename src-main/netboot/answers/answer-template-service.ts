import { AppError, conflict, invalid, notFound } from '../../core/errors.js';
import { paginate, type ListPage, type ListQueryInput } from '../../core/http-kit/list-query.js';
import type { Logger } from '../../core/logger.js';
import { normalizeMac } from '../../core/mac.js';
import type { SecretBox } from '../../core/secret-box.js';
import { TextVersions } from '../../core/text-versions.js';
import type { Host } from '../../hosts/index.js';
import { SerialQueue } from '../../profiles/index.js';
import type { Collection } from '../../store/collection.js';
import type { Store } from '../../store/store.js';
import { TemplateError, type TemplateRenderer } from '../../templates/index.js';
import type {
  AnswerKind,
  AnswerPreset,
  AnswerPreview,
  AnswerTemplate,
  AnswerTemplateVersion,
  AnswerTemplateWrite,
  PreviewBody,
  ValidateBody,
  ValidationResult,
} from '../netboot-contract.js';
import type { AnswerContext, AnswerRenderer, RenderedAnswer } from '../netboot-ports.js';
import { answerTemplateData, CONTENT_TYPES, sampleAnswerContext } from './answer-data.js';
import { RenderedAnswers } from './rendered-answers.js';
import { applySecretChanges, maskedSecrets, openSecrets, scrubSecrets, secretNames } from './answer-secrets.js';
import {
  TEMPLATE_SORT_FIELDS,
  TEMPLATE_VERSION_SORT_FIELDS,
  TEMPLATES_COLLECTION,
  VERSIONS_COLLECTION,
  type AnswerChangeNote,
  type AnswerTemplateRow,
  type AnswerTemplateVersionRow,
} from './answer-template-types.js';
import { validateTemplate } from './answer-validation.js';
import { presetDefaults, type PresetCatalog } from './preset-catalog.js';

/** The install tasks (a later part) that use a template and are not final: a delete is refused while there is one. */
export type AnswerTemplateUsageCheck = (templateId: number) => { id: number; name: string }[];
/** The answer context of an install task, for a preview "as this task" (the tasks part provides it). */
export type AnswerTaskLookup = (taskId: number) => Promise<AnswerContext | undefined>;

export interface AnswerTemplateServiceDeps {
  store: Store;
  log: Logger;
  secrets: SecretBox;
  templates: TemplateRenderer;
  presets: PresetCatalog;
  hosts: { get(id: number): Host | undefined; findByMac(mac: string): Host | undefined };
  /** Where a machine at `clientIp` (null: unknown) reaches this server (preview URLs). */
  server: (clientIp: string | null) => AnswerContext['server'];
}

export interface AnswerTemplateFilter {
  kind?: AnswerKind;
}

const MAX_NAMED_USERS = 20;
/** Secrets one template keeps (a write sends at most 16 too: the contract's maxProperties). */
const MAX_SECRETS = 16;

/**
 * Answer-file templates (docs/netboot.md, "Answer templates"): CRUD with a
 * content history, secrets sealed at rest, validation, preview, and the
 * AnswerRenderer the install tasks serve answer files with. Writes run one
 * at a time (name uniqueness, the id a new template's secrets are bound to).
 */
export class AnswerTemplateService implements AnswerRenderer {
  private readonly deps: AnswerTemplateServiceDeps;
  private readonly rows: Collection<AnswerTemplateRow>;
  private readonly versions: TextVersions<AnswerTemplateVersionRow>;
  private readonly queue = new SerialQueue();
  private readonly usageChecks: AnswerTemplateUsageCheck[] = [];
  private readonly rendered = new RenderedAnswers();
  private taskLookup: AnswerTaskLookup | null = null;
  private readonly log: Logger;

  constructor(deps: AnswerTemplateServiceDeps) {
    this.deps = deps;
    this.rows = deps.store.collection<AnswerTemplateRow>(TEMPLATES_COLLECTION);
    this.versions = new TextVersions(deps.store.collection<AnswerTemplateVersionRow>(VERSIONS_COLLECTION), {
      ownerOf: (version) => version.template_id,
      textOf: (version) => version.content,
    });
    this.log = deps.log.scope('netboot');
  }

  /** Adds a check naming the active install tasks that use a template (a delete then fails with 409 naming them). */
  addUsageCheck(check: AnswerTemplateUsageCheck): void {
    this.usageChecks.push(check);
  }

  /** Lets previews render "as task N" (the tasks part registers it). */
  setTaskLookup(lookup: AnswerTaskLookup): void {
    this.taskLookup = lookup;
  }

  presets(): readonly AnswerPreset[] {
    return this.deps.presets.list();
  }

  list(query: ListQueryInput & AnswerTemplateFilter = {}): ListPage<AnswerTemplate> {
    const rows = this.rows.filter((row) => query.kind === undefined || row.kind === query.kind).map(view);
    return paginate(rows, query, { sortable: TEMPLATE_SORT_FIELDS, defaultSort: 'name', searchText: (row) => [row.name, row.description, row.kind, row.preset] });
  }

  require(id: number): AnswerTemplate {
    return view(this.requireRow(id));
  }

  /**
   * The plain values of a template's secrets by name (not the derived hashes):
   * the kit export re-encrypts them under its passphrase (docs/kit.md). The
   * API never returns them.
   */
  async secretValues(id: number): Promise<Record<string, string>> {
    const row = this.requireRow(id);
    const opened = await openSecrets(this.deps.secrets, row.id, row.secrets);
    return Object.fromEntries(Object.keys(row.secrets).flatMap((name) => (opened[name] === undefined ? [] : [[name, opened[name]]])));
  }

  create(input: AnswerTemplateWrite, note: AnswerChangeNote): Promise<AnswerTemplate> {
    return this.queue.run(async () => {
      const { preset, kind, content, name } = await this.checkCreate(input);
      const id = this.rows.nextId();
      const secrets = await applySecretChanges(this.deps.secrets, id, {}, input.secrets ?? {});
      const row = await this.rows.insert({
        name,
        kind,
        description: input.description ?? preset?.description ?? '',
        content,
        variables: { ...(preset ? presetDefaults(preset) : {}), ...(input.variables ?? {}) },
        secrets,
        preset: preset?.id ?? null,
        version: 1,
      });
      if (row.id !== id) throw new AppError('INTERNAL', `answer template got id ${row.id}, its secrets were sealed for ${id}`);
      await this.addVersion(row, note, preset ? `created from preset ${preset.id}` : 'created');
      this.log.info(`answer template ${row.id} "${row.name}" (${row.kind}) created by ${note.author}`);
      return view(row);
    });
  }

  /**
   * Throws the AppError a create (existingId undefined) or update of this
   * input would answer, writing nothing (the store checks a whole import
   * before writing any of it).
   */
  async validateWrite(input: AnswerTemplateWrite, existingId?: number): Promise<void> {
    if (existingId === undefined) await this.checkCreate(input);
    else await this.checkUpdate(this.requireRow(existingId), input);
  }

  update(id: number, input: AnswerTemplateWrite, note: AnswerChangeNote): Promise<AnswerTemplate> {
    return this.queue.run(async () => {
      const current = this.requireRow(id);
      const content = await this.checkUpdate(current, input);
      const secrets = input.secrets ? await applySecretChanges(this.deps.secrets, id, current.secrets, input.secrets) : current.secrets;
      if (secretNames(secrets).length > MAX_SECRETS) throw invalid('body.secrets', `a template keeps at most ${MAX_SECRETS} secrets; remove some with null values`);
      const changed = content !== current.content;
      const updated = await this.rows.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.variables !== undefined ? { variables: { ...input.variables } } : {}),
        content,
        secrets,
        version: changed ? current.version + 1 : current.version,
      });
      this.rendered.clear();
      if (!updated) throw notFound('answer template', id);
      if (changed) await this.addVersion(updated, note, 'updated');
      return view(updated);
    });
  }

  private async checkCreate(input: AnswerTemplateWrite): Promise<{ preset: AnswerPreset | null; kind: AnswerKind; content: string; name: string }> {
    const preset = input.preset === undefined ? null : (this.deps.presets.get(input.preset) ?? null);
    if (input.preset !== undefined && !preset) throw invalid('body.preset', `no preset "${input.preset}" (GET /netboot/answer-templates/presets lists them)`);
    const kind = input.kind ?? preset?.kind;
    if (!kind) throw invalid('body.kind', 'is required without a preset');
    if (preset && preset.kind !== kind) throw invalid('body.kind', `preset "${preset.id}" is a ${preset.kind} template, not ${kind}`);
    const content = input.content ?? preset?.content;
    if (content === undefined) throw invalid('body.content', 'is required without a preset');
    const name = input.name ?? preset?.name;
    if (name === undefined) throw invalid('body.name', 'is required without a preset');
    this.assertNameFree(name, null);
    await this.assertParses(content);
    return { preset, kind, content, name };
  }

  /** The checks of an update; returns the content it leaves. */
  private async checkUpdate(current: AnswerTemplateRow, input: AnswerTemplateWrite): Promise<string> {
    if (input.preset !== undefined) throw invalid('body.preset', 'is accepted on create only');
    if (input.name !== undefined) this.assertNameFree(input.name, current.id);
    const content = input.content ?? current.content;
    if (content !== current.content) await this.assertParses(content);
    return content;
  }

  /** Deletes a template and its history; 409 naming the install tasks that still use it. */
  remove(id: number): Promise<AnswerTemplate> {
    return this.queue.run(async () => {
      const row = this.requireRow(id);
      const users = this.usageChecks.flatMap((check) => check(id));
      if (users.length > 0) {
        const named = users.slice(0, MAX_NAMED_USERS).map((task) => `${task.name} (id ${task.id})`);
        const more = users.length > MAX_NAMED_USERS ? ` and ${users.length - MAX_NAMED_USERS} more` : '';
        throw conflict(`answer template "${row.name}" (id ${id}) is used by install tasks ${named.join(', ')}${more}; cancel or finish them first`, users.map((task) => ({ field: 'tasks', message: `${task.name} (id ${task.id})` })));
      }
      await this.rows.remove(id);
      this.rendered.clear();
      await this.versions.removeOwner(id);
      this.log.info(`answer template ${id} "${row.name}" deleted`);
      return view(row);
    });
  }

  listVersions(id: number, query: ListQueryInput = {}): ListPage<AnswerTemplateVersion> {
    this.requireRow(id);
    const page = this.versions.list(id, query, {
      sortable: TEMPLATE_VERSION_SORT_FIELDS,
      defaultSort: '-version',
      searchText: (version) => [version.author, version.comment, version.content],
    });
    return { data: page.data.map(versionView), meta: page.meta };
  }

  /** One version by number, with the unified diff from it to the current content. */
  getVersion(id: number, version: number): AnswerTemplateVersion {
    const row = this.requireRow(id);
    const found = this.requireVersion(row, version);
    const { diff } = this.versions.diff(`answer-template-${id}`, found, { version: `${row.version} (current)`, text: row.content });
    return { ...versionView(found), diff_to_current: diff };
  }

  /**
   * Makes version `version`'s content current again as a new version. When it
   * already is the current content nothing is written and the template is
   * returned unchanged (no duplicate version).
   */
  rollback(id: number, version: number, note: AnswerChangeNote): Promise<AnswerTemplate> {
    return this.queue.run(async () => {
      const current = this.requireRow(id);
      const target = this.requireVersion(current, version);
      if (target.content === current.content) return view(current);
      const updated = await this.rows.update(id, { content: target.content, version: current.version + 1 });
      this.rendered.clear();
      if (!updated) throw notFound('answer template', id);
      await this.addVersion(updated, { author: note.author, comment: note.comment ?? `rollback to version ${target.version}` }, 'rollback');
      return view(updated);
    });
  }

  /** Validates an unsaved template (syntax, then the rendered output with sample data and masked secrets). */
  async validate(body: ValidateBody): Promise<ValidationResult> {
    const preset = this.deps.presets.defaultFor(body.kind);
    const variables = { ...presetDefaults(preset), ...(body.variables ?? {}) };
    const data = answerTemplateData(sampleAnswerContext(), variables, maskedSecrets({}, secretVariables(preset)));
    return (await validateTemplate(this.deps.templates, body.kind, body.content, data)).result;
  }

  async validateStored(id: number): Promise<ValidationResult> {
    const row = this.requireRow(id);
    const data = answerTemplateData(sampleAnswerContext(), this.defaultsOf(row), maskedSecrets(row.secrets, this.presetSecretNames(row)));
    return (await validateTemplate(this.deps.templates, row.kind, row.content, data)).result;
  }

  /**
   * Renders a template for a host, a MAC or an install task (or a sample
   * machine), secrets masked, and validates the output.
   */
  async preview(id: number, body: PreviewBody): Promise<AnswerPreview> {
    const row = this.requireRow(id);
    const context = await this.previewContext(body);
    const variables = { ...this.defaultsOf(row), ...context.variables, ...(body.variables ?? {}) };
    const data = answerTemplateData(context, variables, maskedSecrets(row.secrets, this.presetSecretNames(row)));
    const { result, rendered } = await validateTemplate(this.deps.templates, row.kind, row.content, data);
    return { content: rendered ?? '', content_type: CONTENT_TYPES[row.kind], validation: result };
  }

  /**
   * AnswerRenderer: renders template `templateId` (null: the kind's default
   * preset) for an installing machine. Secrets are decrypted here, for this
   * render only; a failure's message has them masked.
   */
  render(templateId: number | null, kind: AnswerKind, context: AnswerContext): Promise<RenderedAnswer> {
    return this.rendered.get(JSON.stringify([templateId, kind, context]), () => this.renderNow(templateId, kind, context));
  }

  private async renderNow(templateId: number | null, kind: AnswerKind, context: AnswerContext): Promise<RenderedAnswer> {
    if (templateId === null) {
      const preset = this.deps.presets.defaultFor(kind);
      const data = answerTemplateData(context, { ...presetDefaults(preset), ...context.variables }, {});
      const content = await this.renderOrExplain(`preset ${preset.id}`, preset.content, data, {});
      return { content, content_type: CONTENT_TYPES[kind], template_version: null };
    }
    const row = this.requireRow(templateId);
    if (row.kind !== kind) {
      throw new AppError('INVALID_STATE', `answer template ${row.id} "${row.name}" is a ${row.kind} template; this entry's installer reads ${kind}`);
    }
    const secrets = await openSecrets(this.deps.secrets, row.id, row.secrets);
    const data = answerTemplateData(context, { ...this.defaultsOf(row), ...context.variables }, secrets);
    const content = await this.renderOrExplain(`answer template ${row.id} "${row.name}"`, row.content, data, secrets);
    return { content, content_type: CONTENT_TYPES[kind], template_version: row.version };
  }

  private async renderOrExplain(what: string, source: string, data: Record<string, unknown>, secrets: Record<string, string>): Promise<string> {
    try {
      return await this.deps.templates.render(source, data);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      throw new AppError('INVALID_STATE', scrubSecrets(`${what} does not render: ${err.message}`, secrets));
    }
  }

  private async previewContext(body: PreviewBody): Promise<AnswerContext> {
    const given = [body.task_id, body.host_id, body.mac].filter((value) => value !== undefined).length;
    if (given > 1) throw invalid('body', 'give one of task_id, host_id or mac');
    const sample = sampleAnswerContext();
    if (body.task_id !== undefined) {
      if (!this.taskLookup) throw new AppError('UNAVAILABLE', 'install tasks are not available for previews');
      const context = await this.taskLookup(body.task_id);
      if (!context) throw notFound('install task', body.task_id);
      return context;
    }
    let host: Host | undefined;
    let mac: string | null = null;
    if (body.host_id !== undefined) {
      host = this.deps.hosts.get(body.host_id);
      if (!host) throw notFound('host', body.host_id);
    } else if (body.mac !== undefined) {
      mac = normalizeMac(body.mac);
      if (!mac) throw invalid('body.mac', `"${body.mac}" is not a MAC address`);
      host = this.deps.hosts.findByMac(mac);
    } else {
      return sample;
    }
    const ip = host?.ip ?? host?.last_seen_ip ?? null;
    const server = this.deps.server(ip);
    const base = `${server.http_url}/api/v1/netboot`;
    return {
      host: host
        ? { id: host.id, mac: host.mac, hostname: host.hostname, ip, group: host.group, arch: host.arch }
        : { id: null, mac: mac ?? sample.host.mac, hostname: null, ip: null, group: null, arch: null },
      // A preview has no task: id 0 and a masked token in the URLs.
      task: { id: 0, distro: 'preview', version: '0', arch: host?.arch ?? 'x86_64' },
      urls: { mirror: null, callback: `${base}/callback/0/********`, answer: `${base}/answer/0?token=********` },
      server,
      variables: {},
      // Whether a baseline applies is known per task; a preview shows the step as it would look, token masked.
      baseline: { run_sh: `${server.http_url}/api/v1/baselines/runtime/********/run.sh`, run_ps1: `${server.http_url}/api/v1/baselines/runtime/********/run.ps1` },
    };
  }

  private defaultsOf(row: AnswerTemplateRow): Record<string, string> {
    const preset = row.preset === null ? undefined : this.deps.presets.get(row.preset);
    return { ...(preset ? presetDefaults(preset) : {}), ...row.variables };
  }

  private presetSecretNames(row: AnswerTemplateRow): string[] {
    const preset = row.preset === null ? undefined : this.deps.presets.get(row.preset);
    return preset ? secretVariables(preset) : secretVariables(this.deps.presets.defaultFor(row.kind));
  }

  private requireRow(id: number): AnswerTemplateRow {
    const row = this.rows.get(id);
    if (!row) throw notFound('answer template', id);
    return row;
  }

  private requireVersion(row: AnswerTemplateRow, version: number): AnswerTemplateVersionRow {
    const found = this.versions.byNumber(row.id, version);
    if (!found) throw notFound(`version of answer template ${row.id}:`, version);
    return found;
  }

  private assertNameFree(name: string, selfId: number | null): void {
    const key = name.toLowerCase();
    const other = this.rows.find((row) => row.id !== selfId && row.name.toLowerCase() === key);
    if (other) throw conflict(`an answer template named "${other.name}" exists already (id ${other.id})`, [{ field: 'body.name', message: 'is taken' }]);
  }

  /** Saving needs the Liquid to parse (in the sandbox worker); kind-specific checks are the validate endpoints'. */
  private async assertParses(content: string): Promise<void> {
    try {
      await this.deps.templates.check(content);
    } catch (err) {
      if (err instanceof TemplateError) throw invalid('body.content', err.message);
      throw err;
    }
  }

  private addVersion(row: AnswerTemplateRow, note: AnswerChangeNote, fallbackComment: string): Promise<AnswerTemplateVersionRow> {
    return this.versions.add({ template_id: row.id, version: row.version, content: row.content, author: note.author, comment: note.comment ?? fallbackComment });
  }
}

function secretVariables(preset: AnswerPreset): string[] {
  return preset.variables.filter((variable) => variable.secret).map((variable) => variable.name);
}

/** The API view: never the sealed secrets, only their names. */
function view(row: AnswerTemplateRow): AnswerTemplate {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    content: row.content,
    variables: { ...row.variables },
    secret_names: secretNames(row.secrets),
    preset: row.preset,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function versionView(row: AnswerTemplateVersionRow): AnswerTemplateVersion {
  return { id: row.id, template_id: row.template_id, version: row.version, content: row.content, author: row.author, comment: row.comment, created_at: row.created_at };
}
