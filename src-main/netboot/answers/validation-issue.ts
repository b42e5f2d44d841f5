import type { ValidationIssue } from '../netboot-contract.js';

/*
 * The issues the kind-specific validators report about a RENDERED answer
 * file; answer-validation.ts maps their lines back to the template.
 */

export type { ValidationIssue } from '../netboot-contract.js';

export function error(line: number | null, message: string, column: number | null = null): ValidationIssue {
  return { line, column, severity: 'error', message };
}

export function warning(line: number | null, message: string, column: number | null = null): ValidationIssue {
  return { line, column, severity: 'warning', message };
}

/** A logical line: backslash continuations joined, with the physical line it starts on. */
export interface LogicalLine {
  line: number;
  text: string;
}

/** Splits text into lines, joining lines that end in a backslash with the next one (preseed, shell-like formats). */
export function logicalLines(text: string): LogicalLine[] {
  const physical = text.split(/\r?\n/);
  const out: LogicalLine[] = [];
  let start = 0;
  let pending: string | null = null;
  physical.forEach((raw, index) => {
    if (pending === null) start = index + 1;
    const joined: string = pending === null ? raw : `${pending} ${raw.trimStart()}`;
    if (joined.endsWith('\\')) {
      pending = joined.slice(0, -1).trimEnd();
      return;
    }
    pending = null;
    out.push({ line: start, text: joined });
  });
  if (pending !== null) out.push({ line: start, text: pending });
  return out;
}
