import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests mirror the source (docs/architecture.md, "How to add an area"): the
 * unit test of src-main/<dir>/<name>.ts is tests/unit/<dir>/<name>.test.ts.
 * A unit test named after a source module must sit at that module's place.
 */

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(suffix));
}

const sourceDirs = new Map<string, string[]>();
for (const file of filesUnder('src-main', '.ts')) {
  const name = path.basename(file, '.ts');
  sourceDirs.set(name, [...(sourceDirs.get(name) ?? []), path.dirname(file)]);
}

// The renderer's tests mirror src-renderer/ under tests/unit/renderer/; helpers are not tests of a module.
const unitTests = filesUnder(path.join('tests', 'unit'), '.test.ts').filter((file) => !file.startsWith(`renderer${path.sep}`) && !file.startsWith(`helpers${path.sep}`));

describe('test layout', () => {
  it('finds the unit tests and the sources', () => {
    expect(unitTests.length).toBeGreaterThan(50);
    expect(sourceDirs.get('dhcp-engine')).toEqual([path.join('dhcp', 'server')]);
  });

  it('puts every unit test named after a source module at that module\'s relative path', () => {
    const misplaced = unitTests.flatMap((file) => {
      const dirs = sourceDirs.get(path.basename(file, '.test.ts'));
      return dirs && !dirs.includes(path.dirname(file)) ? [`${file} (source in ${dirs.join(', ')})`] : [];
    });
    expect(misplaced).toEqual([]);
  });
});
