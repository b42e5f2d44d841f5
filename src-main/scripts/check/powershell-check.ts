import type { ScriptIssue } from '../scripts-contract.js';

/*
 * A well-formedness check of PowerShell, not a parser (docs/scripts.md,
 * "Checks"): braces, parentheses and brackets pair up outside strings and
 * comments; strings ('…', "…" with its `$( )` subexpressions), here-strings
 * (@'…'@, @"…"@, closed at the start of a line) and block comments (<# #>)
 * are closed. No PowerShell runs on the server, so a misspelt cmdlet or a
 * wrong parameter passes.
 */

type Frame = { open: '{' | '(' | '[' | '$('; line: number } | { open: '"'; line: number };

const CLOSER_OF: Record<'{' | '(' | '[' | '$(', string> = { '{': '}', '(': ')', '[': ']', '$(': ')' };
const MAX_ISSUES = 20;

export function checkPowerShell(content: string): ScriptIssue[] {
  const issues: ScriptIssue[] = [];
  const stack: Frame[] = [];
  let line = 1;
  let i = 0;
  const n = content.length;
  const error = (at: number, message: string): void => {
    if (issues.length < MAX_ISSUES) issues.push({ severity: 'error', line: at, message });
  };
  /** Index of the end of the line holding `from` (the \n, or n). */
  const endOfLine = (from: number): number => {
    const at = content.indexOf('\n', from);
    return at === -1 ? n : at;
  };
  const countLines = (from: number, to: number): void => {
    for (let k = content.indexOf('\n', from); k !== -1 && k < to; k = content.indexOf('\n', k + 1)) line += 1;
  };

  while (i < n) {
    const top = stack.at(-1);
    const c = content[i];
    if (top?.open === '"') {
      // Inside a double-quoted string: only its end, escapes and subexpressions matter.
      if (c === '\n') {
        line += 1;
        i += 1;
      } else if (c === '`') {
        if (content[i + 1] === '\n') line += 1;
        i += 2;
      } else if (c === '"' && content[i + 1] === '"') i += 2;
      else if (c === '"') {
        stack.pop();
        i += 1;
      } else if (c === '$' && content[i + 1] === '(') {
        stack.push({ open: '$(', line });
        i += 2;
      } else i += 1;
      continue;
    }
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if (c === '`') {
      // An escape or a line continuation: the next character is literal.
      if (content[i + 1] === '\n') line += 1;
      i += 2;
    } else if (c === '<' && content[i + 1] === '#') {
      const end = content.indexOf('#>', i + 2);
      if (end === -1) {
        error(line, 'block comment <# is never closed with #>');
        break;
      }
      countLines(i, end);
      i = end + 2;
    } else if (c === '#') {
      i = endOfLine(i);
    } else if (c === '@' && (content[i + 1] === '"' || content[i + 1] === "'") && content.slice(i + 2, endOfLine(i)).trim() === '') {
      const quote = content[i + 1];
      const start = line;
      const terminator = new RegExp(`\\n${quote}@`, 'g');
      terminator.lastIndex = endOfLine(i);
      const end = terminator.exec(content);
      if (!end) {
        error(start, `here-string @${quote} is never closed (${quote}@ must start a line)`);
        break;
      }
      countLines(i, end.index + 1);
      i = end.index + 3;
    } else if (c === "'") {
      const start = line;
      let j = i + 1;
      for (;;) {
        const close = content.indexOf("'", j);
        if (close === -1) {
          j = -1;
          break;
        }
        if (content[close + 1] === "'") {
          j = close + 2;
          continue;
        }
        j = close;
        break;
      }
      if (j === -1) {
        error(start, "string ' is never closed");
        break;
      }
      countLines(i, j);
      i = j + 1;
    } else if (c === '"') {
      stack.push({ open: '"', line });
      i += 1;
    } else if (c === '{' || c === '(' || c === '[') {
      stack.push({ open: c, line });
      i += 1;
    } else if (c === '}' || c === ')' || c === ']') {
      const frame = stack.at(-1);
      if (!frame || frame.open === '"') error(line, `"${c}" closes nothing`);
      else if (CLOSER_OF[frame.open] !== c) error(line, `"${c}" does not match "${frame.open}" opened on line ${frame.line}`);
      else stack.pop();
      i += 1;
    } else i += 1;
  }
  for (const frame of stack.reverse()) {
    error(frame.line, frame.open === '"' ? 'string " is never closed' : `"${frame.open}" is never closed`);
  }
  return issues;
}
