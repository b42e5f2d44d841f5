import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The API contracts the UI imports as `@contracts/<area>` (an area's
 * `<area>-contract.ts`: TypeBox schemas and constants, importing only
 * typebox). tsconfig.contracts.json is the one list; the type checker reads
 * it through tsconfig.renderer.json and tsconfig.tests.json, Vite and Vitest here.
 */
export const RENDERER_ALIASES: Record<string, string> = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync(path.join(root, 'tsconfig.contracts.json'), 'utf8')) as { compilerOptions: { paths: Record<string, [string]> } }).compilerOptions.paths).map(
    ([alias, [file]]) => [alias, path.join(root, file)],
  ),
);

/**
 * The web UI build, shared by both hosts. `base: '/'` makes every asset URL
 * absolute (/assets/…), so deep links such as /services/dns load their
 * assets in a browser; the desktop window loads the same files through the
 * app://bootwright/ protocol, where /assets/… resolves the same way
 * (docs/desktop-and-ui.md, "One build for both hosts").
 */
export default defineConfig({
  root: path.join(root, 'src-renderer'),
  base: '/',
  plugins: [react()],
  resolve: { alias: RENDERER_ALIASES },
  build: {
    outDir: path.join(root, 'dist', 'renderer'),
    emptyOutDir: true,
    sourcemap: true,
    // Inline assets would need data: script sources the CSP refuses; keep every asset a file.
    assetsInlineLimit: 0,
  },
});
