import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { areaList } from '../../../src-main/app/area-list.js';
import { GROUND_SERVICES } from '../core/ground-layer.js';

/**
 * The area list's order is also the import order (docs/architecture.md, "The
 * area list"): a file of an area imports only its own folder, the ground
 * (core/ and the ground services), the folders of the areas listed before it,
 * and, from its `*-routes.ts`, the HTTP app (api/). An import of a later area
 * is a hidden need the list cannot see. Static imports only, type-only ones
 * included (a type from an area is still a dependency on it); dynamic import()
 * is not checked.
 */

const SRC = path.resolve(import.meta.dirname, '../../../src-main');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function moduleSpecifier(statement: ts.Statement): string | null {
  if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier) {
    return ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : null;
  }
  if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
    const expression = statement.moduleReference.expression;
    return ts.isStringLiteral(expression) ? expression.text : null;
  }
  return null;
}

/** `file imports target` for every relative static import of the files under src-main/<folder>/ (paths relative to src-main/, posix). */
function importsOfFolder(folder: string): { file: string; target: string }[] {
  return sourceFiles(path.join(SRC, folder)).flatMap((full) => {
    const source = ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, false);
    const file = path.relative(SRC, full).split(path.sep).join('/');
    return source.statements.flatMap((statement) => {
      const specifier = moduleSpecifier(statement);
      if (specifier === null || !specifier.startsWith('.')) return [];
      return [{ file, target: path.relative(SRC, path.resolve(path.dirname(full), specifier)).split(path.sep).join('/') }];
    });
  });
}

const topFolder = (file: string): string => file.split('/')[0] ?? file;

const NAMES = areaList().map((area) => area.name);

describe('area imports follow the area list', () => {
  it.each(NAMES)('%s has its folder under src-main/', (name) => {
    expect(existsSync(path.join(SRC, name))).toBe(true);
  });

  it('reads imports across areas (the scanner is not blind)', () => {
    // boot-scripts needs profiles and hosts and imports their types.
    expect(importsOfFolder('boot-scripts').map((i) => topFolder(i.target))).toEqual(expect.arrayContaining(['core', 'profiles', 'hosts']));
  });

  it.each(NAMES.map((name, index) => [name, index] as const))('%s imports only itself, the ground, earlier areas and (from routes) api/', (name, index) => {
    const allowed = new Set([name, 'core', ...GROUND_SERVICES, ...NAMES.slice(0, index)]);
    const violations = importsOfFolder(name).filter((i) => {
      const target = topFolder(i.target);
      if (allowed.has(target)) return false;
      return !(target === 'api' && i.file.endsWith('-routes.ts'));
    });
    expect(violations.map((i) => `${i.file} imports ${i.target}`)).toEqual([]);
  });
});
