import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Each file gets its own database and app; two at a time suits a two-core machine.
    fileParallelism: true,
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
