import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The API contracts the UI reads (an area's `<area>-contract.ts`: TypeBox
 * schemas and constants, importing only typebox); tsconfig.renderer.json
 * and vitest.config.ts name the same files (docs/architecture.md, "Area folders").
 */
export const RENDERER_ALIASES = {
  '@contracts/events': path.join(root, 'src-main', 'events', 'events-contract.ts'),
  '@contracts/audit': path.join(root, 'src-main', 'audit', 'audit-contract.ts'),
  '@contracts/logs': path.join(root, 'src-main', 'logs', 'logs-contract.ts'),
  '@contracts/auth': path.join(root, 'src-main', 'auth', 'auth-contract.ts'),
  '@contracts/services': path.join(root, 'src-main', 'services', 'services-contract.ts'),
  '@contracts/settings': path.join(root, 'src-main', 'settings', 'settings-contract.ts'),
  '@contracts/network': path.join(root, 'src-main', 'network', 'network-contract.ts'),
  '@contracts/system': path.join(root, 'src-main', 'system', 'system-contract.ts'),
  '@contracts/dns': path.join(root, 'src-main', 'dns', 'dns-contract.ts'),
  '@contracts/boot-files': path.join(root, 'src-main', 'boot-files', 'boot-files-contract.ts'),
  '@contracts/tftp': path.join(root, 'src-main', 'tftp', 'tftp-contract.ts'),
  '@contracts/profiles': path.join(root, 'src-main', 'profiles', 'profiles-contract.ts'),
  '@contracts/hosts': path.join(root, 'src-main', 'hosts', 'hosts-contract.ts'),
  '@contracts/boot-scripts': path.join(root, 'src-main', 'boot-scripts', 'boot-scripts-contract.ts'),
  '@contracts/power': path.join(root, 'src-main', 'power', 'power-contract.ts'),
  '@contracts/dhcp': path.join(root, 'src-main', 'dhcp', 'dhcp-contract.ts'),
};

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
