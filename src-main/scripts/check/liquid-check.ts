import { MAX_TEMPLATE_CHARS } from '../../templates/templates-contract.js';
import { TemplateError, type TemplateData, type TemplateRenderer } from '../../templates/index.js';
import type { ScriptIssue, ScriptVariables } from '../scripts-contract.js';
import { lineAt } from './script-text.js';

/*
 * Scripts are Liquid templates (docs/scripts.md, "Variables"): a baseline
 * renders them with the script's variables (its defaults, overridden per
 * baseline) and the `host` and `server` of the machine. The check renders
 * with the declared defaults and a sample machine in the templates area's
 * sandboxed worker, and lists variables the content uses but does not
 * declare (warnings: they render empty).
 */

/** Names the renderer fills itself; a script cannot declare variables with these names. */
export const RESERVED_VARIABLES = ['host', 'server', 'baseline', 'script'] as const;

/** Whether `content` has Liquid markup at all; text without it is used as is (never rendered). */
export function hasLiquidMarkup(content: string): boolean {
  return content.includes('{{') || content.includes('{%');
}

/** The machine a check renders for (the shape baselines fill for a real one). */
export function sampleScriptData(variables: ScriptVariables): TemplateData {
  return {
    ...variables,
    host: { id: 0, known: true, mac: '52:54:00:12:34:56', hostname: 'sample-host', ip: '192.0.2.10', group: null, tags: [], description: '', arch: 'x86_64', platform: 'efi' },
    server: { ip: '192.0.2.1', http_port: 8080, base_url: 'http://192.0.2.1:8080', name: 'bootwright' },
  };
}

export interface LiquidOutcome {
  /** The text the kind check reads: the rendering, or the content itself when it has no markup; null when it did not render. */
  text: string | null;
  issues: ScriptIssue[];
}

/** Renders `content` with sample data; a TemplateError is an issue with its line, a busy renderer (503) propagates. */
export async function renderForCheck(templates: Pick<TemplateRenderer, 'render'>, content: string, variables: ScriptVariables): Promise<LiquidOutcome> {
  if (!hasLiquidMarkup(content)) return { text: content, issues: [] };
  const issues = undeclaredVariables(content, variables);
  if (content.length > MAX_TEMPLATE_CHARS) {
    issues.unshift({ severity: 'error', line: null, message: `a script with Liquid markup ({{ or {%) may be at most ${MAX_TEMPLATE_CHARS} characters (the template engine's limit); wrap literal braces in {% raw %}…{% endraw %} or split the script` });
    return { text: null, issues };
  }
  try {
    const text = await templates.render(content, sampleScriptData(variables));
    return { text, issues };
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    issues.unshift({ severity: 'error', line: err.line, message: `Liquid: ${err.reason}` });
    return { text: null, issues };
  }
}

const KEYWORDS = new Set(['true', 'false', 'nil', 'null', 'empty', 'blank', 'and', 'or', 'contains', 'in', 'reversed', 'limit', 'offset', 'cols', 'with', 'as', 'forloop', 'tablerowloop']);
const MARKUP = /\{\{-?([\s\S]*?)-?\}\}|\{%-?\s*(\w+)([\s\S]*?)-?%\}/g;
/** Strings in an expression hold no variables. */
const STRINGS = /'[^']*'|"[^"]*"/g;
/** A variable's first segment: a name not preceded by `.` (a property), a word character or `]`. */
const ROOT = /(?<![\w.\]-])([A-Za-z_][\w-]*)/g;

/** The variables an expression (with filters) reads: the expression before the first `|` and each filter's arguments. */
function expressionRoots(expression: string): string[] {
  const [head = '', ...filters] = expression.replace(STRINGS, '""').split('|');
  const parts = [head, ...filters.map((filter) => filter.slice(filter.indexOf(':') + 1 || filter.length))];
  // `key: value` named filter arguments: the key is not a variable.
  return parts.flatMap((part) => [...part.replace(/[\w-]+\s*:/g, ' ').matchAll(ROOT)].map((match) => match[1] ?? ''));
}

/**
 * Names used as variables in `{{ … }}` and in tags that are neither declared,
 * nor the renderer's own (`host`, `server`), nor made by the template
 * (assign, capture, for, increment). A lexical scan, not the engine: good
 * enough for a warning.
 */
export function undeclaredVariables(content: string, variables: ScriptVariables): ScriptIssue[] {
  const known = new Set<string>([...Object.keys(variables), ...RESERVED_VARIABLES, ...KEYWORDS]);
  const uses: { name: string; index: number }[] = [];
  let skipUntil: string | null = null;
  for (const match of content.matchAll(MARKUP)) {
    const [, output, tag, rest = ''] = match;
    if (skipUntil !== null) {
      if (tag === skipUntil) skipUntil = null;
      continue;
    }
    const record = (names: string[]): void => {
      for (const name of names) uses.push({ name, index: match.index });
    };
    if (output !== undefined) {
      record(expressionRoots(output));
      continue;
    }
    const body = rest.trim();
    switch (tag) {
      case 'raw':
      case 'comment':
        skipUntil = `end${tag}`;
        break;
      case 'assign': {
        const eq = body.indexOf('=');
        known.add(body.slice(0, eq === -1 ? body.length : eq).trim());
        if (eq !== -1) record(expressionRoots(body.slice(eq + 1)));
        break;
      }
      case 'capture':
      case 'increment':
      case 'decrement':
        known.add(body.split(/\s+/)[0] ?? '');
        break;
      case 'for':
      case 'tablerow': {
        const loop = /^([\w-]+)\s+in\s+([\s\S]*)$/.exec(body);
        if (loop) {
          known.add(loop[1] ?? '');
          record(expressionRoots(loop[2] ?? ''));
        }
        break;
      }
      case 'if':
      case 'elsif':
      case 'unless':
      case 'case':
      case 'when':
      case 'echo':
        record(expressionRoots(body.replace(/,/g, ' ')));
        break;
      default:
        break;
    }
  }
  const issues: ScriptIssue[] = [];
  const reported = new Set<string>();
  for (const use of uses) {
    if (known.has(use.name) || reported.has(use.name)) continue;
    reported.add(use.name);
    issues.push({ severity: 'warning', line: lineAt(content, use.index), message: `"${use.name}" is not a declared variable (it renders empty); declare it under variables` });
  }
  return issues;
}
