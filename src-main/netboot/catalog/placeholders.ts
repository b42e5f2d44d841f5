import { Liquid } from 'liquidjs';

/*
 * The two kinds of placeholder in catalog entries (docs/netboot.md, "Catalog
 * and overlays"): plain ones the catalog replaces itself ({{ version }},
 * {{ codename }}, {{ arch_alias }}: in paths, the command line and the answer
 * argument), and the Liquid of the command line, rendered per task by the
 * tasks part through the templates sandbox. Here only the names are checked.
 */

/** The placeholders the catalog expands itself, by plain substitution. */
export const PLAIN_PLACEHOLDERS = ['version', 'codename', 'arch_alias'] as const;
export type PlainPlaceholder = (typeof PLAIN_PLACEHOLDERS)[number];
export type PlainValues = Record<PlainPlaceholder, string | null>;

/** The names a command line may use (Liquid roots, besides the plain placeholders). */
export const CMDLINE_NAMES: readonly string[] = ['answer_argument', 'answer_url', 'answer_seed_url', 'mirror', 'version', 'codename', 'arch', 'host', 'variables', 'server'];
/** The names an answer argument may use: the URLs the tasks part renders into it. */
export const ARGUMENT_NAMES: readonly string[] = ['answer_url', 'answer_seed_url'];

const PLAIN = /\{\{\s*(version|codename|arch_alias)\s*\}\}/g;
/** Any `{{ … }}` or `{% … %}`: in a path, whatever is left after the plain ones is a mistake. */
const ANY_MARKUP = /\{\{|\}\}|\{%|%\}/;

/** The plain placeholders `text` uses. */
export function plainPlaceholdersIn(text: string): Set<PlainPlaceholder> {
  return new Set([...text.matchAll(PLAIN)].map((match) => match[1] as PlainPlaceholder));
}

/** Replaces the plain placeholders; one without a value (a version with no codename) is left as written. */
export function expandPlain(text: string, values: PlainValues): string {
  return text.replace(PLAIN, (whole, name: PlainPlaceholder) => values[name] ?? whole);
}

/** What is wrong with the placeholders of a catalog path (null: nothing). */
export function pathPlaceholderProblem(path: string): string | null {
  if (ANY_MARKUP.test(path.replace(PLAIN, ''))) return 'uses a placeholder other than {{ version }}, {{ codename }} and {{ arch_alias }}';
  return null;
}

// Static analysis only (parse, never render): the templates area renders; a
// catalog line is at most 4 KB, checked at start-up and on overlay writes.
const analyser = new Liquid({ strictFilters: false, cache: false, parseLimit: 8192 });

/**
 * What is wrong with the Liquid of `source` (null: nothing): it must parse
 * and use only `allowed` root names (the plain placeholders always pass:
 * they are gone before Liquid sees the text).
 */
export function liquidNamesProblem(source: string, allowed: readonly string[]): string | null {
  let names: string[];
  try {
    names = analyser.globalVariablesSync(source.replace(PLAIN, 'x'));
  } catch (err) {
    return `does not parse as Liquid: ${err instanceof Error ? err.message : String(err)}`;
  }
  const unknown = [...new Set(names.filter((name) => !allowed.includes(name)))];
  if (unknown.length === 0) return null;
  return `uses ${unknown.map((name) => `"${name}"`).join(', ')}; allowed: ${[...allowed, 'arch_alias'].join(', ')}`;
}

/** Whether the Liquid `source` outputs `name` (e.g. the command line outputs answer_argument). */
export function liquidUses(source: string, name: string): boolean {
  try {
    return analyser.globalVariablesSync(source.replace(PLAIN, 'x')).includes(name);
  } catch {
    return false;
  }
}
