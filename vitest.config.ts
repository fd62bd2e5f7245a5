import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships a CommonJS main and an ESM "module" build. Node (and so type-graphql and
    // Apollo) load the main one; tests must use the very same copy or schemas look foreign.
    alias: [
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      // The web client's name for the shared domain rules (see web/vite.config.ts).
      { find: /^@rules$/, replacement: fileURLToPath(new URL('./server/src/rules/index.ts', import.meta.url)) },
      { find: /^@rules\/(schemas|slug)$/, replacement: fileURLToPath(new URL('./server/src/rules/', import.meta.url)) + '$1.ts' },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    // Browser flows take 15-30 s on a quiet machine; a shared, busy one can take several times that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // What a page or the API shows can take seconds on a busy machine: a poll waits up to 15 s unless told otherwise.
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Each file gets its own database and app; two at a time suits a two-core machine.
    maxWorkers: 2,
  },
});
