import { conflict, validationError, type FieldError } from '../core/errors.js';
import { NON_PRINTABLE_CLASS, printableProblem } from '../core/printable-text.js';
import { normalizeScriptText } from './ipxe-syntax.js';
import { PROFILE_NAME_MAX } from './profiles-contract.js';
import { generateScript } from './script-generator.js';
import type { BootSource, BootType, LinuxConfig, MenuConfig, MenuInput, Profile, ProfileInput } from './profile-types.js';

/**
 * Names and menu labels appear in iPXE menu lines: printable text
 * (core/printable-text.ts) without `$` (settings expansion), braces (Liquid),
 * `#` (a comment), `;`, `&` and `|` (command separators), quotes or backslashes.
 */
export const NAME_PATTERN = '^[^' + NON_PRINTABLE_CLASS + '${}#;&|"\'\\\\]+$';
const NAME = new RegExp(NAME_PATTERN, 'u');
export const NAME_MAX = PROFILE_NAME_MAX;
export const DEFAULT_MENU_TITLE = 'Bootwright';
export const DEFAULT_MENU_TIMEOUT_SECONDS = 10;
const MAX_MENU_DEPTH = 16;

/** The profile a create or update would store, before its checks against the stored data. */
export interface ProfileCandidate extends BootSource {
  name: string;
  description: string;
  script: string;
  variables: Record<string, string>;
  default_for_groups: string[];
}

/** Read access to the stored profiles, for uniqueness, menu entries and loops. */
export interface ProfileLookup {
  all(): readonly Profile[];
  get(id: number): Profile | undefined;
}

/**
 * Merges `input` over `current` (null on create), normalises it and checks
 * every field on its own; throws one 400 listing all bad fields. Then the
 * checks against the other profiles: name taken, group already defaulted
 * (409), menu entries that do not exist or loop (400).
 */
export function buildCandidate(current: Profile | null, input: ProfileInput, lookup: ProfileLookup, selfId: number | null): ProfileCandidate {
  const errors: FieldError[] = [];
  const bootType: BootType = input.boot_type ?? current?.boot_type ?? 'local';
  const typeChanged = current === null || current.boot_type !== bootType;

  const name = (input.name ?? current?.name ?? '').trim();
  if (!isName(name)) errors.push({ field: 'body.name', message: `must be 1-${NAME_MAX} printable characters without $ { } # ; & | quotes or backslash` });

  for (const other of ['linux', 'chain', 'sanboot', 'menu'] as const) {
    if (other !== bootType && input[other] !== undefined && input[other] !== null) {
      errors.push({ field: `body.${other}`, message: `is only allowed when boot_type is "${other}" (it is "${bootType}")` });
    }
  }
  if (input.script !== undefined && bootType !== 'ipxe_script') {
    errors.push({ field: 'body.script', message: `is generated for boot_type "${bootType}"; set boot_type to "ipxe_script" to write the script by hand` });
  }

  const source: BootSource = { boot_type: bootType, linux: null, chain: null, sanboot: null, menu: null };
  const pick = <K extends 'linux' | 'chain' | 'sanboot' | 'menu'>(key: K): ProfileInput[K] | BootSource[K] | undefined => {
    if (input[key] !== undefined && input[key] !== null) return input[key];
    if (!typeChanged) return current![key];
    errors.push({ field: `body.${key}`, message: `is required when boot_type is "${key}"` });
    return undefined;
  };
  if (bootType === 'linux') {
    const linux = pick('linux');
    if (linux) source.linux = normalizeLinux(linux, errors);
  } else if (bootType === 'chain' || bootType === 'sanboot') {
    const target = pick(bootType);
    if (target) {
      checkLocation(`body.${bootType}.url`, target.url, errors);
      source[bootType] = { url: target.url.trim() };
    }
  } else if (bootType === 'menu') {
    const menu = pick('menu');
    if (menu) source.menu = normalizeMenu(menu, lookup, selfId, errors);
  }

  let script = '';
  if (bootType === 'ipxe_script') {
    // Switching to ipxe_script without a script keeps the generated one as the starting point.
    const text = input.script ?? current?.script;
    if (text === undefined) errors.push({ field: 'body.script', message: 'is required when boot_type is "ipxe_script"' });
    else script = normalizeScriptText(text);
  }

  const groups = input.default_for_groups ?? current?.default_for_groups ?? [];
  const seenGroups = new Set<string>();
  groups.forEach((group, index) => {
    const key = group.trim().toLowerCase();
    if (seenGroups.has(key)) errors.push({ field: `body.default_for_groups.${index}`, message: `"${group}" is listed twice` });
    seenGroups.add(key);
  });

  const descriptionProblem = input.description === undefined ? null : printableProblem(input.description);
  if (descriptionProblem) errors.push({ field: 'body.description', message: descriptionProblem });

  if (errors.length > 0) throw validationError(errors);
  if (bootType !== 'ipxe_script') script = generateScript(source);
  const candidate: ProfileCandidate = {
    ...source,
    name,
    description: input.description ?? current?.description ?? '',
    script,
    variables: { ...(input.variables ?? current?.variables ?? {}) },
    default_for_groups: groups.map((group) => group.trim()),
  };
  assertUnique(candidate, lookup, selfId);
  if (candidate.menu) assertNoMenuLoop(candidate.menu, lookup, selfId);
  return candidate;
}

function isName(text: string): boolean {
  return text.length >= 1 && text.length <= NAME_MAX && NAME.test(text);
}

function normalizeLinux(input: { kernel: string; initrds?: string[]; cmdline?: string }, errors: FieldError[]): LinuxConfig {
  checkLocation('body.linux.kernel', input.kernel, errors);
  const initrds = (input.initrds ?? []).map((url) => url.trim());
  initrds.forEach((url, index) => checkLocation(`body.linux.initrds.${index}`, url, errors));
  const cmdline = (input.cmdline ?? '').trim();
  if (/[\r\n]/.test(cmdline)) errors.push({ field: 'body.linux.cmdline', message: 'must be one line' });
  return { kernel: input.kernel.trim(), initrds, cmdline };
}

/**
 * A boot file path (relative to the boot root) or an absolute URL. Liquid
 * expressions may appear in it; outside them it is one iPXE word (no
 * whitespace) and never climbs out of the root with `..`.
 */
function checkLocation(field: string, value: string, errors: FieldError[]): void {
  const text = value.trim();
  const bare = text.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, 'x');
  if (text === '') errors.push({ field, message: 'must not be empty' });
  else if (/\s/.test(bare) || /[\u0000-\u001f\u007f]/.test(text)) errors.push({ field, message: 'must be one path or URL without spaces' });
  else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && text.split('/').includes('..')) {
    errors.push({ field, message: 'must stay inside the boot root (no ".." segments)' });
  }
}

function normalizeMenu(input: MenuInput | MenuConfig, lookup: ProfileLookup, selfId: number | null, errors: FieldError[]): MenuConfig {
  const title = (input.title ?? DEFAULT_MENU_TITLE).trim();
  if (!isName(title)) errors.push({ field: 'body.menu.title', message: `must be 1-${NAME_MAX} printable characters without $ { } # ; & | quotes or backslash` });
  const seen = new Set<number>();
  const entries = input.entries.map((entry, index) => {
    const target = lookup.get(entry.profile_id);
    if (entry.profile_id === selfId) errors.push({ field: `body.menu.entries.${index}.profile_id`, message: 'a menu cannot offer itself' });
    else if (!target) errors.push({ field: `body.menu.entries.${index}.profile_id`, message: `profile ${entry.profile_id} does not exist` });
    if (seen.has(entry.profile_id)) errors.push({ field: `body.menu.entries.${index}.profile_id`, message: `profile ${entry.profile_id} is listed twice` });
    seen.add(entry.profile_id);
    const label = (entry.label ?? target?.name ?? '').trim();
    if (entry.label !== undefined && !isName(label)) {
      errors.push({ field: `body.menu.entries.${index}.label`, message: `must be 1-${NAME_MAX} printable characters without $ { } # ; & | quotes or backslash` });
    }
    return { profile_id: entry.profile_id, label };
  });
  const defaultEntry = input.default_entry ?? null;
  if (defaultEntry !== null && !seen.has(defaultEntry)) {
    errors.push({ field: 'body.menu.default_entry', message: `profile ${defaultEntry} is not one of the entries (null chooses the local disk)` });
  }
  return { title, entries, default_entry: defaultEntry, timeout_seconds: input.timeout_seconds ?? DEFAULT_MENU_TIMEOUT_SECONDS };
}

function assertUnique(candidate: ProfileCandidate, lookup: ProfileLookup, selfId: number | null): void {
  const others = lookup.all().filter((profile) => profile.id !== selfId);
  const sameName = others.find((profile) => profile.name.toLowerCase() === candidate.name.toLowerCase());
  if (sameName) {
    throw conflict(`a profile named "${sameName.name}" already exists (id ${sameName.id})`, [{ field: 'body.name', message: 'is taken' }]);
  }
  for (const group of candidate.default_for_groups) {
    const owner = others.find((profile) => profile.default_for_groups.some((g) => g.toLowerCase() === group.toLowerCase()));
    if (owner) {
      throw conflict(`group "${group}" already defaults to profile "${owner.name}" (id ${owner.id})`, [
        { field: 'body.default_for_groups', message: `"${group}" belongs to profile ${owner.id}` },
      ]);
    }
  }
}

/** Menus may offer menus, but never one that leads back to this profile (the client would loop). */
function assertNoMenuLoop(menu: MenuConfig, lookup: ProfileLookup, selfId: number | null): void {
  if (selfId === null) return; // A new profile has no id yet: nothing can lead back to it.
  const visit = (profileId: number, path: number[]): number[] | null => {
    if (profileId === selfId) return path;
    if (path.length > MAX_MENU_DEPTH) return null;
    const entries = lookup.get(profileId)?.menu?.entries ?? [];
    for (const entry of entries) {
      const loop = visit(entry.profile_id, [...path, entry.profile_id]);
      if (loop) return loop;
    }
    return null;
  };
  for (const entry of menu.entries) {
    const loop = visit(entry.profile_id, [selfId, entry.profile_id]);
    if (loop) {
      const names = loop.map((id) => (id === selfId ? 'this profile' : `"${lookup.get(id)?.name ?? id}"`));
      throw validationError([{ field: 'body.menu.entries', message: `would make a loop: ${names.join(' → ')}` }]);
    }
  }
}
