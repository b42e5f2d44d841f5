import { defineConfig } from 'vitest/config';
import { RENDERER_ALIASES } from './vite.renderer.config.js';

export default defineConfig({
  // The renderer's imports of the API contracts (@contracts/…), for the renderer tests.
  resolve: { alias: RENDERER_ALIASES },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Protocol tests bind real sockets; keep files in separate processes.
    pool: 'forks',
    reporters: ['default'],
  },
});
