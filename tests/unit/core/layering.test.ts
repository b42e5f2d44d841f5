import { describe, expect, it } from 'vitest';
import { GROUND_SERVICES } from './ground-layer.js';
import { sourceImports, topFolder, type SourceImport } from './source-imports.js';

/**
 * The layering rules of issue 12, checked on the static imports of
 * src-main/ (type-only imports count: a type from an area is still a
 * dependency on it). Dynamic import() is not a static dependency and is not
 * checked.
 *
 * - The ground does not import the areas: files under core/ import only
 *   core/ and the ground services; the ground services import only core/ and
 *   each other (their own `*-routes.ts`, the HTTP face of a ground service,
 *   may also reach the HTTP app, as any routes file may).
 * - The HTTP app (api/) is built from the areas, so the areas do not import
 *   it: they use core/http-kit/. Only routes, the transports and shell that
 *   carry the app, and the composition root may.
 */



/**
 * The composition root (app/): the area list names every area and the app core
 * builds the HTTP app from them. It lives outside core/, which has no exemption.
 */
const isCompositionRoot = (file: string): boolean => file.startsWith('app/');

/** Who may import api/ besides api/ itself and the composition root. */
const API_IMPORTERS: readonly { rule: string; matches: (file: string) => boolean }[] = [
  { rule: 'an area\'s routes (<area>-routes.ts)', matches: (file) => file.endsWith('-routes.ts') },
  { rule: 'the IPC bridge, which injects into the route table', matches: (file) => file.startsWith('ipc/') },
  { rule: 'the desktop shell, which serves the web UI under the API\'s CSP', matches: (file) => file.startsWith('desktop/') },
];

const IMPORTS = sourceImports();
const describeImport = (i: SourceImport): string => `${i.file} imports ${i.target}`;

describe('layering (issue 12)', () => {
  it('reads the imports of the composition root, which reaches into the areas and api/', () => {
    // Guards the scanner: an empty import list would pass every rule.
    const targets = IMPORTS.filter((i) => isCompositionRoot(i.file)).map((i) => topFolder(i.target));
    expect(targets).toEqual(expect.arrayContaining(['dns', 'dhcp', 'hosts', 'power', 'api']));
  });

  it('core/ imports only core/ and the ground services', () => {
    const allowed = new Set(['core', ...GROUND_SERVICES]);
    const violations = IMPORTS.filter((i) => i.file.startsWith('core/') && !allowed.has(topFolder(i.target)));
    expect(violations.map(describeImport)).toEqual([]);
  });

  it('the ground services import only core/ and each other', () => {
    const allowed = new Set(['core', ...GROUND_SERVICES]);
    const isRoutesReachingApi = (i: SourceImport) => i.file.endsWith('-routes.ts') && i.target.startsWith('api/');
    const violations = IMPORTS.filter((i) => GROUND_SERVICES.includes(topFolder(i.file)) && !allowed.has(topFolder(i.target)) && !isRoutesReachingApi(i));
    expect(violations.map(describeImport)).toEqual([]);
  });

  it('no area imports api/: areas use core/http-kit/, and only routes, transports and the composition root reach the HTTP app', () => {
    const violations = IMPORTS.filter(
      (i) =>
        i.target.startsWith('api/') &&
        !i.file.startsWith('api/') &&
        !isCompositionRoot(i.file) &&
        !API_IMPORTERS.some((importer) => importer.matches(i.file)),
    );
    expect(violations.map(describeImport)).toEqual([]);
  });
});
