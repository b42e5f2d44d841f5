import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** src-main/, the root the layering tests read. */
export const SRC = path.resolve(import.meta.dirname, '../../../src-main');

export interface SourceImport {
  /** The importing file, relative to src-main/ (posix). */
  file: string;
  /** The imported file, relative to src-main/ (posix), `.js` as written. */
  target: string;
}

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

/**
 * The static imports between files under src-main/`folder` (all of src-main
 * by default) and other files of src-main/: type-only imports count (a type
 * from an area is still a dependency on it); package imports and dynamic
 * import() are not layering.
 */
export function sourceImports(folder = ''): SourceImport[] {
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

/** The top folder under src-main/ (`core`, `auth`…), or the file name for the entries at its root. */
export function topFolder(file: string): string {
  return file.split('/')[0] ?? file;
}
