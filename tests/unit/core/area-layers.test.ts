import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GROUND_SERVICES } from './ground-layer.js';

const SRC = path.resolve('src-main');

/** The files a file imports by relative path (packages left out), relative to src-main. */
function localImportsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
  return info.importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), specifier)));
}

// The folders of the ground layer as they stand; they move into core/ in later steps of issue 12.
const GROUND = ['core', ...GROUND_SERVICES];

describe('area layering (docs/architecture.md, "Area folders")', () => {
  it('core/area.ts imports only the ground layer and packages, never an area', () => {
    const imports = localImportsOf(path.join('core', 'area.ts'));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((target) => !GROUND.includes(target.split(path.sep)[0]!))).toEqual([]);
  });

  // Areas with a wire server: the server may use the domain, the domain never the server (only index.ts, the module object, wires both).
  const areas = readdirSync(SRC).filter((area) => existsSync(path.join(SRC, area, 'server')));
  it('finds the areas with a server folder (DNS is the pilot)', () => {
    expect(areas).toContain('dns');
  });

  it.each(areas)("%s: the domain files do not import the area's server/", (area) => {
    const domainFiles = readdirSync(path.join(SRC, area)).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
    const offending = domainFiles.flatMap((file) =>
      localImportsOf(path.join(area, file))
        .filter((target) => target.startsWith(path.join(area, 'server') + path.sep))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
