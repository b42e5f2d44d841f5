import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaList } from '../../../src-main/app/area-list.js';
import { GROUND_SERVICES } from '../core/ground-layer.js';
import { SRC, sourceImports, topFolder } from '../core/source-imports.js';

/**
 * The area list's order is also the import order (docs/architecture.md, "The
 * area list"): a file of an area imports only its own folder, the ground
 * (core/ and the ground services), the folders of the areas listed before it,
 * and, from its `*-routes.ts`, the HTTP app (api/). An import of a later area
 * is a hidden need the list cannot see. Static imports only, type-only ones
 * included (a type from an area is still a dependency on it); dynamic import()
 * is not checked.
 */



const NAMES = areaList().map((area) => area.name);

describe('area imports follow the area list', () => {
  it.each(NAMES)('%s has its folder under src-main/', (name) => {
    expect(existsSync(path.join(SRC, name))).toBe(true);
  });

  it('reads imports across areas (the scanner is not blind)', () => {
    // boot-scripts needs profiles and hosts and imports their types.
    expect(sourceImports('boot-scripts').map((i) => topFolder(i.target))).toEqual(expect.arrayContaining(['core', 'profiles', 'hosts']));
  });

  it.each(NAMES.map((name, index) => [name, index] as const))('%s imports only itself, the ground, earlier areas and (from routes) api/', (name, index) => {
    const allowed = new Set([name, 'core', ...GROUND_SERVICES, ...NAMES.slice(0, index)]);
    const violations = sourceImports(name).filter((i) => {
      const target = topFolder(i.target);
      if (allowed.has(target)) return false;
      return !(target === 'api' && i.file.endsWith('-routes.ts'));
    });
    expect(violations.map((i) => `${i.file} imports ${i.target}`)).toEqual([]);
  });
});
