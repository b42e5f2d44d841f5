import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src-main');

/** Every file under src-main whose name ends in `-contract.ts`, relative to src-main. */
function contractFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-contract.ts'))
    .sort();
}

/** The module specifiers a file names: static imports, `export … from`, dynamic `import()` and `require()`. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

// An area's contract is read by the server and the renderer alike (docs/architecture.md, "Area folders"):
// an import of anything but typebox would drag main-process code (or its dependencies) into the UI bundle.
describe('API contracts (src-main/**/*-contract.ts)', () => {
  it('exist (DNS is the pilot)', () => {
    expect(contractFiles()).toContain(path.join('dns', 'dns-contract.ts'));
  });

  // Another contract is fine: it imports only typebox (and contracts) itself, which this test checks for it.
  it.each(contractFiles())('%s imports nothing but typebox and other contracts', (file) => {
    expect(importsOf(file).filter((specifier) => specifier !== 'typebox' && !/^\.\.?\/.*-contract\.js$/.test(specifier))).toEqual([]);
  });
});
