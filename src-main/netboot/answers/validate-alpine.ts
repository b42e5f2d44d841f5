import { error, warning, type ValidationIssue } from './validation-issue.js';

/** The variables setup-alpine reads from an answer file (setup-alpine -c writes them all). */
const KNOWN_KEYS = new Set([
  'KEYMAPOPTS', 'HOSTNAMEOPTS', 'DEVDOPTS', 'INTERFACESOPTS', 'DNSOPTS', 'TIMEZONEOPTS', 'PROXYOPTS', 'APKREPOSOPTS', 'USEROPTS',
  'USERSSHKEY', 'SSHDOPTS', 'ROOTSSHKEY', 'NTPOPTS', 'DISKOPTS', 'LBUOPTS', 'APKCACHEOPTS', 'ERASE_DISKS', 'BOOTLOADER', 'SWAP_SIZE',
]);
/** Without these setup-alpine asks (or, for DISKOPTS, installs nothing to disk). */
const EXPECTED: readonly [string, string][] = [
  ['KEYMAPOPTS', 'setup-alpine asks for the keyboard layout'],
  ['HOSTNAMEOPTS', 'setup-alpine asks for the host name'],
  ['INTERFACESOPTS', 'setup-alpine asks how to set up the network'],
  ['TIMEZONEOPTS', 'setup-alpine asks for the time zone'],
  ['APKREPOSOPTS', 'setup-alpine asks for a mirror'],
  ['DISKOPTS', 'nothing is installed to a disk (a diskless system)'],
];

/**
 * Checks a rendered setup-alpine answer file: `KEY=value` lines (a value
 * unquoted, 'single' or "double" quoted, quotes may span lines as
 * INTERFACESOPTS does), comments, known keys.
 */
export function validateAlpine(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const line = index + 1;
    const content = (lines[index] ?? '').trim();
    if (content === '' || content.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(content);
    if (!match) {
      issues.push(error(line, 'expected KEY=value (e.g. HOSTNAMEOPTS=alpine)'));
      continue;
    }
    const key = match[1] ?? '';
    let value = match[2] ?? '';
    const quote = value.startsWith('"') || value.startsWith("'") ? value[0] : null;
    if (quote) {
      // The value runs to the matching quote, possibly lines later.
      let rest = value.slice(1);
      let end = line;
      while (!closes(rest, quote) && index + 1 < lines.length) {
        index += 1;
        end = index + 1;
        rest += `\n${lines[index] ?? ''}`;
      }
      if (!closes(rest, quote)) {
        issues.push(error(line, `${key}: the ${quote === '"' ? 'double' : 'single'} quote is never closed`));
        break;
      }
      const after = rest.slice(closingIndex(rest, quote) + 1).trim();
      if (after !== '' && !after.startsWith('#')) issues.push(error(end, `${key}: unexpected text after the closing quote: ${after}`));
      value = rest;
    } else if (/\s/.test(value.trim())) {
      issues.push(error(line, `${key}: a value with spaces must be quoted ("…")`));
    }
    if (!/^[A-Z][A-Z0-9_]*$/.test(key)) issues.push(warning(line, `${key}: answer-file variables are upper case`));
    else if (!KNOWN_KEYS.has(key)) issues.push(warning(line, `unknown key ${key} (setup-alpine ignores it)`));
    seen.add(key);
  }
  for (const [key, why] of EXPECTED) if (!seen.has(key)) issues.push(warning(null, `${key} is missing: ${why}`));
  return issues;
}

function closingIndex(rest: string, quote: string): number {
  for (let i = 0; i < rest.length; i += 1) {
    if (quote === '"' && rest[i] === '\\') {
      i += 1;
      continue;
    }
    if (rest[i] === quote) return i;
  }
  return -1;
}

function closes(rest: string, quote: string): boolean {
  return closingIndex(rest, quote) >= 0;
}
