import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Protocol tests bind real sockets; keep files in separate processes.
    pool: 'forks',
    reporters: ['default'],
  },
});
