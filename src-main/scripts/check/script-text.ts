import type { ScriptIssue, ScriptKind } from '../scripts-contract.js';

/*
 * The encoding and text rules every script kind shares (docs/scripts.md,
 * "Checks"). A script travels as JSON (a JS string here) and is stored and
 * served as UTF-8: what cannot survive that round trip, or what an
 * interpreter would read differently from what the editor shows, is refused.
 */

const BOM = '\ufeff';
/** Kinds whose interpreter accepts a UTF-8 byte order mark (Windows tools write one). */
const BOM_KINDS: ReadonlySet<ScriptKind> = new Set(['powershell', 'batch']);
/** Kinds run by a POSIX shell, which reads a CR as part of the word before it. */
const CR_SENSITIVE: ReadonlySet<ScriptKind> = new Set(['sh', 'bash']);
/** C0 controls but tab, LF and CR, and DEL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** The most issues of one rule listed; the rest are counted in one more issue. */
const MAX_PER_RULE = 5;

export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 1-based line of character offset `index`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Pushes at most MAX_PER_RULE issues of one rule, then one that counts the rest. */
export function capped(issues: ScriptIssue[], found: readonly ScriptIssue[], what: string): void {
  issues.push(...found.slice(0, MAX_PER_RULE));
  const first = found[0];
  if (first && found.length > MAX_PER_RULE) issues.push({ severity: first.severity, line: null, message: `${found.length - MAX_PER_RULE} more with ${what}` });
}

/**
 * Text-level issues of `content` for `kind`: lone surrogates and U+FFFD (the
 * bytes sent were not UTF-8), NUL and other control characters, a byte
 * order mark where the interpreter would choke on it, CR line endings for a
 * shell. Errors make a save fail; warnings are shown.
 */
export function textIssues(kind: ScriptKind, content: string): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  // With the u flag a valid surrogate pair is one character: only lone halves match.
  const lone = content.search(/[\ud800-\udfff]/u);
  if (lone !== -1) {
    issues.push({ severity: 'error', line: lineAt(content, lone), message: 'contains a lone UTF-16 surrogate: the text is not valid Unicode and has no UTF-8 form' });
  }
  const replacement = content.indexOf('\ufffd');
  if (replacement !== -1) {
    issues.push({ severity: 'error', line: lineAt(content, replacement), message: 'contains U+FFFD (replacement character): the text was not valid UTF-8 when it was read; re-save it as UTF-8' });
  }

  const controls: ScriptIssue[] = [];
  for (const match of content.matchAll(CONTROL)) {
    const name = match[0] === '\u0000' ? 'NUL' : codePoint(match[0]);
    controls.push({ severity: 'error', line: lineAt(content, match.index), message: `contains the control character ${name} (only tab, CR and LF are allowed)` });
  }
  capped(issues, controls, 'control characters');

  const bomAt = content.indexOf(BOM);
  if (bomAt === 0) {
    if (kind === 'batch') {
      issues.push({ severity: 'warning', line: 1, message: 'starts with a UTF-8 byte order mark: cmd.exe reads it as part of the first command; start the file with a blank line or REM' });
    } else if (!BOM_KINDS.has(kind)) {
      issues.push({ severity: 'error', line: 1, message: `starts with a UTF-8 byte order mark: ${kind === 'cloud-init' ? 'cloud-init reads the first line as "#cloud-config" only without it' : 'the interpreter reads it as part of the first line (a #! line stops working)'}` });
    }
  }
  if (content.indexOf(BOM, 1) !== -1) {
    issues.push({ severity: 'warning', line: lineAt(content, content.indexOf(BOM, 1)), message: 'contains U+FEFF (a byte order mark or zero-width no-break space) after the start' });
  }

  const crlf = content.includes('\r\n');
  const loneCr = /\r(?!\n)/.exec(content);
  if (loneCr) {
    issues.push({ severity: 'error', line: lineAt(content, loneCr.index), message: 'contains a carriage return (CR) without a line feed: old Mac line endings are read as one line' });
  }
  if (crlf && CR_SENSITIVE.has(kind)) {
    issues.push({ severity: 'error', line: lineAt(content, content.indexOf('\r\n')), message: 'has Windows (CRLF) line endings: the shell reads the CR as part of each line ("then\\r" is not "then"); save with LF endings' });
  }
  return issues;
}
