import { foldName, type TreeLookup } from './tree-lookup.js';

/*
 * The boot menus an ISO carries: ISOLINUX/SYSLINUX configs (BIOS) and GRUB
 * configs (UEFI, often BIOS too). Detection reads them for the kernel
 * command line the medium's own menu passes, and to find a kernel when the
 * distro is not recognised by its files. Only the handful of statements
 * that name a kernel, its initrds and its arguments are understood; the
 * rest (themes, help texts, GRUB scripting) is skipped.
 *
 * Everything is bounded: a config's bytes (TreeLookup caps reads), the
 * number of config files followed through INCLUDE/CONFIG/source/configfile
 * (MAX_CONFIG_FILES, so include loops end), the entries kept and the
 * length of a line considered.
 */

export interface MenuEntry {
  /** 'syslinux' (isolinux/syslinux/extlinux configs) or 'grub'. */
  loader: 'syslinux' | 'grub';
  /** The config file (tree path) that holds the entry. */
  file: string;
  /** The menu's text, or the label name. */
  title: string;
  /** The kernel as a tree path without a leading slash, or null when the entry boots no kernel. */
  kernel: string | null;
  initrds: string[];
  /** The kernel's arguments as written, without syslinux's `initrd=` (its files are in `initrds`). */
  args: string;
  /** The menu marks it as the default (DEFAULT/MENU DEFAULT, GRUB `set default`). */
  isDefault: boolean;
}

/** Most config files read while following includes (Debian's isolinux menu spans about a dozen). */
export const MAX_CONFIG_FILES = 32;
/** Most entries kept over all menus. */
export const MAX_MENU_ENTRIES = 512;
/** Longer lines are cut before parsing: real menus stay far below, garbage does not. */
const MAX_LINE = 4096;

/** Where the medium's menus start (the first found of each list is read, with what it includes). */
const SYSLINUX_ROOTS = ['isolinux/isolinux.cfg', 'boot/isolinux/isolinux.cfg', 'isolinux.cfg', 'syslinux/syslinux.cfg', 'boot/syslinux/syslinux.cfg', 'syslinux.cfg', 'boot/x86_64/loader/isolinux.cfg', 'boot/i386/loader/isolinux.cfg'];
const GRUB_ROOTS = ['boot/grub/grub.cfg', 'EFI/BOOT/grub.cfg', 'boot/grub2/grub.cfg', 'EFI/fedora/grub.cfg', 'EFI/redhat/grub.cfg', 'boot/grub/loopback.cfg'];

export interface BootMenus {
  entries: MenuEntry[];
  /** The config files read (tree paths), in order. */
  files: string[];
}

/** Reads the medium's ISOLINUX/SYSLINUX and GRUB menus. */
export async function readBootMenus(lookup: TreeLookup): Promise<BootMenus> {
  const budget = { files: [] as string[], entries: [] as MenuEntry[] };
  for (const root of SYSLINUX_ROOTS) {
    const file = await lookup.file(root);
    if (!file) continue;
    await readSyslinux(lookup, file, budget, parentOf(file));
    break;
  }
  for (const root of GRUB_ROOTS) {
    const file = await lookup.file(root);
    if (!file || budget.files.includes(file)) continue;
    await readGrub(lookup, file, budget);
  }
  return { entries: budget.entries, files: budget.files };
}

interface Budget {
  files: string[];
  entries: MenuEntry[];
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** A path as a menu writes it, as a tree path: GRUB device prefixes and leading slashes dropped, relative paths taken from `base`. */
export function menuPath(raw: string, base: string): string | null {
  // GRUB's "(device)/path" and PXELINUX's "::/path" (absolute on the server) name the same tree path.
  let path = raw.trim().replace(/^\([^)]*\)/, '').replace(/^::/, '/');
  if (path === '' || path.includes('$') || path.includes('\\')) return null;
  const absolute = path.startsWith('/');
  path = path.replace(/^\/+/, '');
  const joined = absolute || base === '' ? path : `${base}/${path}`;
  const segments: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments.length > 0 ? segments.join('/') : null;
}

function lines(text: string): string[] {
  return text.split(/\r?\n|\r/).map((line) => (line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line));
}

/** Splits syslinux's `initrd=a,b` out of an APPEND line. */
function splitInitrdArg(args: string, base: string): { args: string; initrds: string[] } {
  const initrds: string[] = [];
  const kept: string[] = [];
  for (const word of args.split(/\s+/).filter((part) => part !== '')) {
    const match = /^initrd=(.*)$/i.exec(word);
    if (!match) {
      kept.push(word);
      continue;
    }
    for (const part of (match[1] ?? '').split(',')) {
      const path = menuPath(part, base);
      if (path) initrds.push(path);
    }
  }
  return { args: kept.join(' '), initrds };
}

async function readSyslinux(lookup: TreeLookup, file: string, budget: Budget, base: string): Promise<void> {
  if (budget.files.length >= MAX_CONFIG_FILES || budget.files.includes(file)) return;
  budget.files.push(file);
  const text = await lookup.text(file);
  if (text === null) return;
  let defaultLabel: string | null = null;
  let current: (MenuEntry & { label: string; appendInitrds: string[] }) | null = null;
  const found: (MenuEntry & { label: string; appendInitrds: string[] })[] = [];
  let inText = false;
  for (const rawLine of lines(text)) {
    const line = rawLine.trim();
    if (inText) {
      if (/^endtext\b/i.test(line)) inText = false;
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const [keywordRaw = '', ...rest] = line.split(/\s+/);
    const keyword = keywordRaw.toLowerCase();
    const value = rest.join(' ');
    if (keyword === 'text' && /^help\b/i.test(value)) {
      inText = true;
      continue;
    }
    if (keyword === 'label') {
      current = { loader: 'syslinux', file, title: value, label: value, kernel: null, initrds: [], appendInitrds: [], args: '', isDefault: false };
      found.push(current);
      continue;
    }
    if (keyword === 'default' || keyword === 'ontimeout') {
      if (keyword === 'default' || defaultLabel === null) defaultLabel = value.split(/\s+/)[0] ?? null;
      continue;
    }
    if (keyword === 'include' || (keyword === 'menu' && /^include\b/i.test(value))) {
      const target = keyword === 'include' ? rest[0] : rest[1];
      const path = target ? menuPath(target, base) : null;
      if (path) {
        const resolved = await lookup.file(path);
        if (resolved) await readSyslinux(lookup, resolved, budget, base);
      }
      continue;
    }
    if (keyword === 'config') {
      // CONFIG switches to another file; its own directory becomes the working directory (or the one given).
      const path = rest[0] ? menuPath(rest[0], base) : null;
      const resolved = path ? await lookup.file(path) : null;
      if (resolved) await readSyslinux(lookup, resolved, budget, rest[1] ? (menuPath(rest[1], base) ?? parentOf(resolved)) : parentOf(resolved));
      continue;
    }
    if (!current) continue;
    if (keyword === 'kernel' || keyword === 'linux') {
      current.kernel = rest[0] ? menuPath(rest[0], base) : null;
      // KERNEL may carry arguments after the file on one line.
      if (rest.length > 1 && current.args === '') current.args = rest.slice(1).join(' ');
    } else if (keyword === 'append') {
      const split = splitInitrdArg(value === '-' ? '' : value, base);
      current.args = split.args;
      current.appendInitrds = split.initrds;
    } else if (keyword === 'initrd') {
      current.initrds = value.split(',').map((part) => menuPath(part, base)).filter((path): path is string => path !== null);
    } else if (keyword === 'menu') {
      const [sub = '', ...words] = rest;
      if (sub.toLowerCase() === 'label') current.title = words.join(' ').replace(/\^/g, '');
      else if (sub.toLowerCase() === 'default') current.isDefault = true;
    }
  }
  for (const entry of found) {
    if (budget.entries.length >= MAX_MENU_ENTRIES) break;
    if (defaultLabel !== null && entry.label === defaultLabel) entry.isDefault = true;
    // Entries name their initrds with INITRD or with initrd= in APPEND; real menus use one of the two.
    const { loader, file: source, title, kernel, args, isDefault } = entry;
    budget.entries.push({ loader, file: source, title, kernel, args, isDefault, initrds: entry.initrds.length > 0 ? entry.initrds : entry.appendInitrds });
  }
}

/** GRUB words: whitespace-separated, with '…' and "…" quoting. */
export function grubWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | null = null;
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = null;
      else word += char;
      continue;
    }
    if (char === '"' || char === '\'') {
      quote = char;
      started = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) words.push(word);
      word = '';
      started = false;
      continue;
    }
    word += char;
    started = true;
  }
  if (started) words.push(word);
  return words;
}

/** A menuentry's title: its first word that is not an option (`--hotkey=g`, `--class os`) nor an option's value. */
function grubEntryTitle(words: string[]): string {
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (word === '{') break;
    if (word.startsWith('--')) {
      if (/^--(class|users|hotkey|id)$/.test(word)) index += 1;
      continue;
    }
    return word;
  }
  return '';
}

const GRUB_KERNEL_COMMANDS = new Set(['linux', 'linuxefi', 'linux16']);
const GRUB_INITRD_COMMANDS = new Set(['initrd', 'initrdefi', 'initrd16']);

async function readGrub(lookup: TreeLookup, file: string, budget: Budget): Promise<void> {
  const vars = new Map<string, string>();
  await readGrubFile(lookup, file, budget, vars);
}

function expandGrubVars(word: string, vars: Map<string, string>): string {
  return word.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => vars.get(name) ?? whole);
}

async function readGrubFile(lookup: TreeLookup, file: string, budget: Budget, vars: Map<string, string>): Promise<void> {
  if (budget.files.length >= MAX_CONFIG_FILES || budget.files.includes(file)) return;
  budget.files.push(file);
  const text = await lookup.text(file);
  if (text === null) return;
  const base = parentOf(file);
  if (!vars.has('prefix')) vars.set('prefix', `/${base}`);
  let defaultRef: string | null = null;
  // Top-level entries (and submenus) in order, for `set default=N`.
  const topLevel: (MenuEntry | 'submenu')[] = [];
  const mine: MenuEntry[] = [];
  let depth = 0;
  let current: MenuEntry | null = null;
  let currentDepth = -1;
  for (const rawLine of lines(text)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const words = grubWords(line);
    const command = (words[0] ?? '').toLowerCase();
    if (command === 'menuentry' || command === 'submenu') {
      if (command === 'menuentry') {
        // Options (--class, --hotkey=…, --id) may come before or after the title.
        const title = grubEntryTitle(words);
        current = { loader: 'grub', file, title, kernel: null, initrds: [], args: '', isDefault: false };
        currentDepth = depth;
        mine.push(current);
        if (depth === 0) topLevel.push(current);
      } else if (depth === 0) {
        topLevel.push('submenu');
      }
      if (line.endsWith('{')) depth += 1;
      continue;
    }
    if (line === '}' || line.startsWith('}')) {
      depth = Math.max(0, depth - 1);
      if (current && depth <= currentDepth) current = null;
      continue;
    }
    if (line.endsWith('{')) depth += 1; // if/function blocks
    if (command === 'set' && words[1]) {
      const eq = words[1].indexOf('=');
      if (eq > 0) {
        const name = words[1].slice(0, eq);
        const value = expandGrubVars(words[1].slice(eq + 1), vars);
        if (name === 'default' && depth === 0) defaultRef = value;
        else vars.set(name, value);
      }
      continue;
    }
    if ((command === 'source' || command === 'configfile') && words[1]) {
      const path = menuPath(expandGrubVars(words[1], vars), base);
      const resolved = path ? await lookup.file(path) : null;
      if (resolved) await readGrubFile(lookup, resolved, budget, vars);
      continue;
    }
    if (!current) continue;
    if (GRUB_KERNEL_COMMANDS.has(command) && words[1]) {
      current.kernel = menuPath(expandGrubVars(words[1], vars), base);
      current.args = words.slice(2).join(' ');
    } else if (GRUB_INITRD_COMMANDS.has(command)) {
      current.initrds = words
        .slice(1)
        .map((word) => menuPath(expandGrubVars(word, vars), base))
        .filter((path): path is string => path !== null);
    }
  }
  if (defaultRef !== null) {
    const index = /^\d+$/.test(defaultRef) ? Number(defaultRef) : -1;
    const chosen = index >= 0 ? topLevel[index] : mine.find((entry) => entry.title === defaultRef);
    if (chosen && chosen !== 'submenu') chosen.isDefault = true;
  }
  for (const entry of mine) {
    if (budget.entries.length >= MAX_MENU_ENTRIES) break;
    budget.entries.push(entry);
  }
}

/** Menu titles and arguments that mark an entry nobody wants by default over the network. */
const UNWANTED = /rescue|recovery|expert|memtest|memory test|hdt|hardware|check|test this|troubleshoot|safe graphics|failsafe|firmware setup|boot from (first|next|local)|local (disk|drive)|shell|speech|accessib/i;

function kernelKey(path: string): string {
  return path.split('/').map(foldName).join('/');
}

/**
 * The entry a network boot should copy its arguments from: among the
 * entries that boot a kernel (that kernel, when given), the menu's default
 * unless it is a rescue/check/expert entry, else the first entry that is
 * none of those, else the first.
 */
export function chooseEntry(entries: readonly MenuEntry[], kernel?: string | null): MenuEntry | null {
  let candidates = entries.filter((entry) => entry.kernel !== null && !/\.(c32|com|bin|efi)$/i.test(entry.kernel));
  if (kernel) {
    const wanted = kernelKey(kernel);
    const same = candidates.filter((entry) => entry.kernel !== null && kernelKey(entry.kernel) === wanted);
    if (same.length > 0) candidates = same;
  }
  const wanted = (entry: MenuEntry): boolean => !UNWANTED.test(entry.title) && !/rd\.live\.check|mediacheck|checkisomd5/i.test(entry.args);
  return candidates.find((entry) => entry.isDefault && wanted(entry)) ?? candidates.find(wanted) ?? candidates[0] ?? null;
}
