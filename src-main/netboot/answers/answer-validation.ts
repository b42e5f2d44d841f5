import { TemplateError, type TemplateData, type TemplateRenderer } from '../../templates/index.js';
import type { AnswerKind, ValidationIssue, ValidationResult } from '../netboot-contract.js';
import { validateAlpine } from './validate-alpine.js';
import { validateAutoinstall } from './validate-autoinstall.js';
import { validateKickstart } from './validate-kickstart.js';
import { validatePreseed } from './validate-preseed.js';
import { validateAutounattend, validateAutoyast } from './validate-xml.js';
import { error } from './validation-issue.js';

/** The kind-specific check of a rendered answer file; issues carry lines of the rendered text. */
export const RENDERED_VALIDATORS: Readonly<Record<AnswerKind, (text: string) => ValidationIssue[]>> = {
  preseed: validatePreseed,
  kickstart: validateKickstart,
  autoinstall: validateAutoinstall,
  autoyast: validateAutoyast,
  alpine: validateAlpine,
  autounattend: validateAutounattend,
};

export function resultOf(issues: ValidationIssue[]): ValidationResult {
  return { valid: !issues.some((issue) => issue.severity === 'error'), issues };
}

/**
 * Validates a template: its Liquid syntax (parse in the sandbox worker, with
 * the line), then renders it with `data` (same sandbox and limits as a real
 * install) and checks the output for `kind`. Lines of the output map back to
 * the template line they came from where that is unambiguous; otherwise the
 * message says "in the rendered output, line N". Callers pass masked
 * secrets in `data`, so no secret value can appear in an issue.
 */
export async function validateTemplate(
  renderer: TemplateRenderer,
  kind: AnswerKind,
  source: string,
  data: TemplateData,
): Promise<{ result: ValidationResult; rendered: string | null }> {
  try {
    await renderer.check(source);
    const rendered = await renderer.render(source, data);
    return { result: resultOf(mapIssues(RENDERED_VALIDATORS[kind](rendered), source, rendered)), rendered };
  } catch (err) {
    if (err instanceof TemplateError) return { result: resultOf([templateIssue(err)]), rendered: null };
    throw err;
  }
}

/** A Liquid fault or an exceeded sandbox bound (time, output size, memory) as an issue. */
export function templateIssue(err: TemplateError): ValidationIssue {
  return error(err.line, `template: ${err.reason}`, err.column);
}

/** Lines longer than this are not matched back to the template (bounded regex work). */
const MAX_MATCH_CHARS = 2000;
/** Above this many line comparisons the mapping gives up (every issue says "in the rendered output"). */
const MAX_COMPARISONS = 2_000_000;

export function mapIssues(issues: ValidationIssue[], source: string, rendered: string): ValidationIssue[] {
  if (issues.every((issue) => issue.line === null)) return issues;
  const map = lineMap(source, rendered);
  return issues.map((issue) => {
    if (issue.line === null) return issue;
    const target = map.get(issue.line);
    if (!target) return { ...issue, line: null, column: null, message: `in the rendered output, line ${issue.line}: ${issue.message}` };
    return { ...issue, line: target.line, column: target.literal ? issue.column : null };
  });
}

interface TemplateLine {
  line: number;
  pattern: RegExp;
  /** Has text of its own beyond Liquid output: a match is evidence. */
  informative: boolean;
  /** No Liquid at all: columns carry over. */
  literal: boolean;
}

/**
 * Rendered line → template line, by walking both in order: each rendered
 * line goes to the first template line at or after the previous match whose
 * literal text (Liquid output as wildcards) matches it. Lines made only of
 * Liquid output match anything and are used only when no informative line
 * does. Tag-only lines ({% if %}) produce no line of their own.
 */
export function lineMap(source: string, rendered: string): Map<number, { line: number; literal: boolean }> {
  const templateLines: TemplateLine[] = [];
  source.split(/\r?\n/).forEach((text, index) => {
    const trimmed = text.trim();
    const withoutTags = trimmed.replace(/{%-?[\s\S]*?-?%}/g, '');
    if (trimmed !== '' && withoutTags.trim() === '') return;
    const parts = trimmed.split(/({{-?[\s\S]*?-?}}|{%-?[\s\S]*?-?%})/);
    const literalText = parts.filter((_, i) => i % 2 === 0).join('');
    const pattern = parts.map((part, i) => (i % 2 === 0 ? escapeRegex(part) : '.*?')).join('');
    templateLines.push({ line: index + 1, pattern: new RegExp(`^${pattern}$`, 's'), informative: literalText.trim() !== '', literal: parts.length === 1 });
  });
  const renderedLines = rendered.split(/\r?\n/);
  const map = new Map<number, { line: number; literal: boolean }>();
  if (renderedLines.length * templateLines.length > MAX_COMPARISONS) return map;
  let cursor = 0;
  renderedLines.forEach((text, index) => {
    const trimmed = text.trim();
    if (trimmed.length > MAX_MATCH_CHARS) return;
    let fallback = -1;
    for (let i = cursor; i < templateLines.length; i += 1) {
      const candidate = templateLines[i];
      if (!candidate || !candidate.pattern.test(trimmed)) continue;
      if (candidate.informative || trimmed === '') {
        map.set(index + 1, { line: candidate.line, literal: candidate.literal });
        cursor = i;
        return;
      }
      if (fallback < 0) fallback = i;
    }
    const chosen = fallback >= 0 ? templateLines[fallback] : undefined;
    if (chosen) {
      map.set(index + 1, { line: chosen.line, literal: chosen.literal });
      cursor = fallback;
    }
  });
  return map;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
