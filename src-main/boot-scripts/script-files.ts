/**
 * Which files a rendered iPXE script would fetch, for the boot-config
 * preview: the first argument of the commands that download an image
 * (https://ipxe.org/cmd). Best effort: a script may build URLs at run time
 * from settings, which stay as `${…}` unless the caller knows their values.
 */

import type { BootFilePresence } from '../boot-files/boot-files.js';
import type { ProfileFileState } from '../boot-files/boot-files-contract.js';
import type { ScriptFile } from './boot-scripts-contract.js';

export type { ScriptFile };

/** A file a script fetches, before anyone looked whether it is there. */
export type FetchedFile = Omit<ScriptFile, 'state'>;

/** Commands whose first non-option argument is an image URI. */
const FETCH_COMMANDS = new Set(['kernel', 'initrd', 'imgfetch', 'module', 'chain', 'imgexec', 'imgload', 'imgselect', 'sanboot', 'sanhook']);
/** Options that take a value as the next word (`--name initrd0`). */
const VALUE_OPTIONS = new Set(['--name', '-n', '--timeout', '-t', '--drive', '-d', '--filename', '-f', '--extra', '-e']);
const MAX_FILES = 256;

export function scriptFiles(script: string, known: Readonly<Record<string, string | null>> = {}): FetchedFile[] {
  const files: FetchedFile[] = [];
  for (const rawLine of script.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(':')) continue;
    // `a && b || c`: each part is a command of its own.
    for (const part of line.split(/\s*(?:&&|\|\|)\s*/)) {
      const words = part.split(/\s+/).filter((word) => word !== '');
      const command = words[0];
      if (command === undefined || !FETCH_COMMANDS.has(command)) continue;
      const url = firstArgument(words.slice(1));
      if (url !== null) files.push({ command, url: expandSettings(url, known) });
      if (files.length >= MAX_FILES) return files;
    }
  }
  return files;
}

function firstArgument(words: string[]): string | null {
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (!word.startsWith('-')) return word;
    if (VALUE_OPTIONS.has(word)) index += 1;
  }
  return null;
}

/**
 * Replaces `${name}` and `${name:type}` with known values (`:uristring`
 * percent-encoded, as iPXE would); unknown settings stay as written.
 */
export function expandSettings(text: string, known: Readonly<Record<string, string | null>>): string {
  return text.replace(/\$\{([A-Za-z0-9_/.-]+)(?::([a-z0-9]+))?\}/g, (all, name: string, type: string | undefined) => {
    const value = known[name];
    if (value === undefined || value === null) return all;
    return type === 'uristring' ? encodeURIComponent(value) : value;
  });
}

/**
 * Adds whether this server has each file: URLs under its boot URL
 * (`http://<server>:<port>/boot/`) are looked up in the boot root, other
 * URLs are remote, and URLs still holding `${…}` are built at boot time.
 */
export async function withFileStates(files: readonly FetchedFile[], bootUrl: string, presence: (path: string) => Promise<BootFilePresence>): Promise<ScriptFile[]> {
  const prefix = `${bootUrl.replace(/\/+$/, '')}/`;
  const result: ScriptFile[] = [];
  for (const file of files) result.push({ ...file, state: await stateOf(file.url, prefix, presence) });
  return result;
}

async function stateOf(url: string, prefix: string, presence: (path: string) => Promise<BootFilePresence>): Promise<ProfileFileState> {
  if (url.includes('${')) return 'templated';
  if (!url.startsWith(prefix)) return 'remote';
  const relative = url.slice(prefix.length).split(/[?#]/, 1)[0] ?? '';
  let path: string;
  try {
    path = decodeURIComponent(relative);
  } catch {
    return 'refused';
  }
  const found = await presence(path);
  return found === 'file' ? 'present' : found === 'virtual' ? 'served' : found;
}
