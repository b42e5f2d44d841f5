import type { ScriptIssue } from '../scripts-contract.js';
import { capped } from './script-text.js';

/** cmd.exe reads at most 8191 characters of one command line; it cuts longer lines (KB 830473). */
export const CMD_MAX_LINE = 8191;

/**
 * Windows batch files: text only (script-text.ts refuses NUL and controls);
 * CRLF or LF endings both work, a mix is a warning (an editor changed part
 * of the file); lines longer than cmd.exe reads are warnings.
 */
export function checkBatch(content: string): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  const lines = content.split('\n');
  const crlf = lines.slice(0, -1).filter((line) => line.endsWith('\r')).length;
  const lf = lines.length - 1 - crlf;
  if (crlf > 0 && lf > 0) {
    issues.push({ severity: 'warning', line: null, message: `mixes CRLF (${crlf} lines) and LF (${lf} lines) line endings; cmd.exe reads both, but save with one` });
  }
  const long: ScriptIssue[] = [];
  lines.forEach((text, index) => {
    const length = text.endsWith('\r') ? text.length - 1 : text.length;
    if (length > CMD_MAX_LINE) long.push({ severity: 'warning', line: index + 1, message: `is ${length} characters long; cmd.exe reads at most ${CMD_MAX_LINE} per line` });
  });
  capped(issues, long, 'lines longer than cmd.exe reads');
  return issues;
}
