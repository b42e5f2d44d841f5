import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_EVENT_KINDS } from '../../../src-main/events/event-types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

describe('event kinds catalogue', () => {
  it('lists every dotted kind emitted in src-main, and the docs list them all', async () => {
    const emitted = new Set<string>();
    for (const file of await sourceFiles(path.join(ROOT, 'src-main'))) {
      if (file.includes(`${path.sep}events${path.sep}`)) continue;
      const text = await readFile(file, 'utf8');
      // Literal kinds passed to emit: `kind: 'area.thing'` (dotted, so principal kinds like 'user' do not count).
      for (const match of text.matchAll(/\bkind: '([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)'/g)) emitted.add(match[1]!);
    }
    const known = Object.keys(KNOWN_EVENT_KINDS);
    expect([...emitted].filter((kind) => !known.includes(kind))).toEqual([]);
    const docs = await readFile(path.join(ROOT, 'docs', 'events-and-logs.md'), 'utf8');
    expect(known.filter((kind) => !docs.includes(`\`${kind}\``))).toEqual([]);
  });
});
