import { foldUnionErrors, schemaErrorMessage } from '../../core/http-kit/schema-errors.js';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { parseDocument } from 'yaml';
import { errorMessage, type FieldError } from '../../core/errors.js';
import { PROJECT_ROOT } from '../../core/version.js';
import {
  CatalogFileSchema,
  type AnswerKind,
  type CatalogArch,
  type CatalogEntry,
  type CatalogFile,
  type CatalogVersion,
  type Loader,
  type NetbootArch,
  type OsFamily,
} from '../netboot-contract.js';
import {
  ARGUMENT_NAMES,
  CMDLINE_NAMES,
  expandPlain,
  liquidNamesProblem,
  liquidUses,
  pathPlaceholderProblem,
  plainPlaceholdersIn,
  type PlainValues,
} from './placeholders.js';

/*
 * The shipped catalog file (resources/netboot/catalog.yaml): YAML read with
 * the `yaml` package, validated against CatalogFileSchema, then the checks a
 * schema cannot make (unique ids, groups that exist, one default version,
 * answer kinds that fit the loader and family, placeholders from the allowed
 * set). Every problem names the file, the entry and the field.
 */

/** Problems listed in one message at most (a broken file can have hundreds). */
const MAX_LISTED = 12;

/** A catalog file that cannot be used; `problems` name the entry and field each. */
export class CatalogFileError extends Error {
  readonly file: string;
  readonly problems: readonly FieldError[];

  constructor(file: string, problems: readonly FieldError[]) {
    const listed = problems.slice(0, MAX_LISTED).map(describeProblem).join('; ');
    const more = problems.length > MAX_LISTED ? ` (and ${problems.length - MAX_LISTED} more)` : '';
    super(`netboot catalog ${file} is invalid: ${listed}${more}`);
    this.name = 'CatalogFileError';
    this.file = file;
    this.problems = problems;
  }
}

/** Where the shipped catalog is: next to a packaged app's resources, else the repository's resources/netboot. */
export function defaultCatalogFile(): string {
  const resourcesPath = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) {
    const packaged = path.join(resourcesPath, 'netboot', 'catalog.yaml');
    if (existsSync(packaged)) return packaged;
  }
  return path.join(PROJECT_ROOT, 'resources', 'netboot', 'catalog.yaml');
}

/** Reads and checks a catalog file; throws CatalogFileError (also when it cannot be read). */
export async function loadCatalogFile(file: string): Promise<CatalogFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CatalogFileError(file, [{ field: '(the file)', message: `cannot be read: ${errorMessage(err)}` }]);
  }
  return parseCatalogText(text, file);
}

/** Parses and checks catalog YAML; `file` names it in errors. */
export function parseCatalogText(text: string, file: string): CatalogFile {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new CatalogFileError(file, document.errors.map((error) => ({ field: '(YAML)', message: error.message.split('\n', 1)[0] ?? error.message })));
  }
  // Anchors and aliases write shared architectures once; the expansion stays bounded.
  const value: unknown = document.toJS({ maxAliasCount: 1000 });
  const schema = schemaProblems(CatalogFileSchema, value);
  if (schema.length > 0) throw new CatalogFileError(file, schema);
  const catalog = value as CatalogFile;
  const problems = catalogProblems(catalog);
  if (problems.length > 0) throw new CatalogFileError(file, problems);
  return catalog;
}

/** "<field>: <message>". */
export function describeProblem(problem: FieldError): string {
  return `${problem.field}: ${problem.message}`;
}

/** Schema errors of `value`, fields named with array items by their id; `prefix` is prepended to each field. */
export function schemaProblems(schema: TSchema, value: unknown, prefix = ''): FieldError[] {
  if (Value.Check(schema, value)) return [];
  return foldUnionErrors(Value.Errors(schema, value)).map((error) => ({ field: `${prefix}${fieldName(value, error.instancePath)}` || '(the file)', message: schemaErrorMessage(error) }));
}

/** Keys that name an item of a catalog array better than its index. */
const ITEM_KEYS = ['distro', 'id', 'version', 'arch'] as const;

/** `/entries/3/versions/0/kernel` → `entries[debian].versions[12].kernel` (the ids as written, else indexes). */
export function fieldName(root: unknown, pointer: string): string {
  let node: unknown = root;
  let name = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      const item: unknown = node[Number(key)];
      name += `[${itemLabel(item) ?? key}]`;
      node = item;
    } else {
      name += name === '' ? key : `.${key}`;
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return name;
}

function itemLabel(item: unknown): string | null {
  if (item === null || typeof item !== 'object') return null;
  for (const key of ITEM_KEYS) {
    const value = (item as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length > 0 && value.length <= 64) return value;
  }
  return null;
}

/** The cross-checks of a schema-valid catalog. */
export function catalogProblems(catalog: CatalogFile): FieldError[] {
  const problems: FieldError[] = [];
  const groupIds = new Set<string>();
  for (const group of catalog.groups) {
    if (groupIds.has(group.id)) problems.push({ field: `groups[${group.id}].id`, message: `"${group.id}" is listed twice` });
    groupIds.add(group.id);
  }
  const distros = new Set<string>();
  for (const entry of catalog.entries) {
    if (distros.has(entry.distro)) problems.push({ field: `entries[${entry.distro}].distro`, message: `"${entry.distro}" is listed twice` });
    distros.add(entry.distro);
    problems.push(...entryProblems(entry, `entries[${entry.distro}]`, groupIds));
  }
  return problems;
}

/** Answer kinds each family's installers read (an empty list: no answer file). */
const FAMILY_KINDS: Record<OsFamily, readonly AnswerKind[]> = {
  debian: ['preseed'],
  ubuntu: ['autoinstall', 'preseed'],
  redhat: ['kickstart'],
  suse: ['autoyast'],
  alpine: ['alpine'],
  arch: [],
  windows: ['autounattend'],
  utility: [],
};

/** Answer kinds each loader can hand over: a kernel argument (linux) or an injected file (wimboot). */
const LOADER_KINDS: Record<Loader, readonly AnswerKind[]> = {
  linux: ['preseed', 'kickstart', 'autoinstall', 'autoyast', 'alpine'],
  wimboot: ['autounattend'],
  multiboot: [],
  efi: [],
};

/** The file name wimboot gives an injected answer file. */
const INJECTED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The checks of one entry a schema cannot make (also run on an entry with
 * its overlay applied). `label` names the entry in the problems.
 */
export function entryProblems(entry: CatalogEntry, label: string, groupIds: ReadonlySet<string>): FieldError[] {
  const problems: FieldError[] = [];
  const at = (field: string, message: string) => problems.push({ field: `${label}.${field}`, message });
  if (!groupIds.has(entry.group)) at('group', `group "${entry.group}" does not exist (groups: ${[...groupIds].join(', ')})`);

  const labels = new Set<string>();
  let defaults = 0;
  for (const version of entry.versions) {
    const where = `versions[${version.version}]`;
    if (labels.has(version.version)) at(`${where}.version`, `version "${version.version}" is listed twice`);
    labels.add(version.version);
    if (version.default === true) defaults += 1;
    versionProblems(entry, version, (field, message) => at(`${where}.${field}`, message));
  }
  if (defaults > 1) at('versions', `${defaults} versions are marked default; at most one may be`);

  answerProblems(entry, at);

  const cmdline = liquidNamesProblem(entry.cmdline, CMDLINE_NAMES);
  if (cmdline) at('cmdline', cmdline);
  for (const name of plainPlaceholdersIn(entry.cmdline)) {
    if (name === 'codename' && entry.versions.some((version) => version.codename === undefined)) {
      at('cmdline', 'uses {{ codename }} but a version has no codename');
    }
  }
  return problems;
}

function answerProblems(entry: CatalogEntry, at: (field: string, message: string) => void): void {
  const { answer, loader, family } = entry;
  if (answer === null) return;
  if (!LOADER_KINDS[loader].includes(answer.kind)) {
    at('answer.kind', `a ${loader} entry cannot take a ${answer.kind} answer file (${LOADER_KINDS[loader].join(', ') || 'none'})`);
  }
  if (!FAMILY_KINDS[family].includes(answer.kind)) {
    at('answer.kind', `the ${family} family's installers do not read ${answer.kind} files (${FAMILY_KINDS[family].join(', ') || 'none'})`);
  }
  if (loader === 'wimboot') {
    // wimboot takes no installer arguments: the answer is injected as a file of this name.
    if (!INJECTED_NAME.test(answer.argument)) at('answer.argument', 'for wimboot, the file name the answer is injected as (e.g. autounattend.xml)');
    return;
  }
  const names = liquidNamesProblem(answer.argument, ARGUMENT_NAMES);
  if (names) at('answer.argument', names);
  const url = answer.kind === 'autoinstall' ? 'answer_seed_url' : 'answer_url';
  if (!liquidUses(answer.argument, url)) at('answer.argument', `must pass {{ ${url} }} to the installer`);
  if (!liquidUses(entry.cmdline, 'answer_argument')) at('cmdline', 'must contain {{ answer_argument }}: the entry has an answer file');
}

function versionProblems(entry: CatalogEntry, version: CatalogVersion, at: (field: string, message: string) => void): void {
  const arches = new Set<NetbootArch>();
  for (const arch of version.architectures) {
    const where = `architectures[${arch.arch}]`;
    if (arches.has(arch.arch)) at(`${where}.arch`, `${arch.arch} is listed twice`);
    arches.add(arch.arch);
    const values = plainValues(entry, version, arch.arch);
    archProblems(entry, arch, values, (field, message) => at(`${where}.${field}`, message));
  }
}

function archProblems(entry: CatalogEntry, arch: CatalogArch, values: PlainValues, at: (field: string, message: string) => void): void {
  const files: [string, string][] = [['kernel', arch.kernel], ...arch.initrds.map((file, index): [string, string] => [`initrds[${index}]`, file])];
  if (arch.checksums) files.push(['checksums.file', arch.checksums.file]);
  const names = new Map<string, string>();
  for (const [field, file] of files) {
    const problem = pathProblem(file, values);
    if (problem) at(field, problem);
    if (field === 'checksums.file') continue;
    // Files are served flat, under their last path segment: two alike would overwrite each other.
    const name = lastSegment(expandPlain(file, values));
    const other = names.get(name);
    if (other !== undefined) at(field, `its file name "${name}" is also ${other}'s; files are served by name, so names must differ`);
    names.set(name, field);
  }
  for (const key of Object.keys(arch.sha256 ?? {})) {
    if (!files.some(([field, file]) => field !== 'checksums.file' && file === key)) at(`sha256["${key}"]`, 'names no file of this architecture (use the path as written for kernel or initrds)');
  }
  if ((entry.loader === 'efi' || entry.loader === 'multiboot') && arch.initrds.length > 0) {
    at('initrds', `an ${entry.loader} entry boots one image and takes no initrds`);
  }
  if (entry.loader === 'wimboot' && arch.initrds.length === 0) at('initrds', 'wimboot needs bootmgr, bcd, boot.sdi and boot.wim');
}

/** What is wrong with a catalog path (null: nothing), placeholders included. */
export function pathProblem(file: string, values: PlainValues): string | null {
  const placeholder = pathPlaceholderProblem(file);
  if (placeholder) return placeholder;
  for (const name of plainPlaceholdersIn(file)) if (values[name] === null) return `uses {{ ${name} }} but the version has no ${name}`;
  const expanded = expandPlain(file, values);
  if (expanded.startsWith('/') || expanded.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
    return `"${expanded}" must be relative to the mirror, without empty, "." or ".." segments`;
  }
  // The URL is mirror + '/' + path, and the served name a TFTP/HTTP path: nothing that ends or splits either.
  if (/[\s?#%"<>]/.test(expanded)) return `"${expanded}" must not contain spaces, ?, #, %, quotes or angle brackets`;
  return null;
}

/** The plain placeholder values of one version and architecture. */
export function plainValues(entry: Pick<CatalogEntry, 'arch_aliases'>, version: CatalogVersion, arch: NetbootArch): PlainValues {
  return { version: version.version, codename: version.codename ?? null, arch_alias: entry.arch_aliases?.[arch] ?? arch };
}

export function lastSegment(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
