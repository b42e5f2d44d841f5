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

  it('each area contract has its @contracts/<area> alias in tsconfig.contracts.json, and each alias names a contract', () => {
    const paths = (JSON.parse(readFileSync('tsconfig.contracts.json', 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    const areaContracts = contractFiles().filter((file) => {
      const [folder, name] = file.split(path.sep);
      return name === `${folder}-contract.ts`;
    });
    const expected = Object.fromEntries(areaContracts.map((file) => [`@contracts/${file.split(path.sep)[0]!}`, [`./src-main/${file.split(path.sep).join('/')}`]]));
    expect(paths).toEqual(expected);
  });
});
