import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A documentation file's text, by its path from the repository root. */
export function readDoc(relative: string): string {
  return readFileSync(path.join(ROOT, relative), 'utf8');
}

/** The text of a `## ` section (its heading line starts with `heading`), up to the next `## `. */
export function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next < 0 ? undefined : next);
}

/** The fenced code blocks of `markdown` with their info string (```sh → "sh"). */
export function codeBlocks(markdown: string): { lang: string; code: string }[] {
  const blocks: { lang: string; code: string }[] = [];
  const fence = /^```([A-Za-z0-9-]*)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) blocks.push({ lang: match[1] ?? '', code: match[2] ?? '' });
  return blocks;
}
