import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** One PostgreSQL for the run, a database per file copied from a migrated template (see the file). */
const DATABASE = ['tests/helpers/global-setup.ts'];
/**
 * Unit files that assert on the process as a whole: its module cache (another file's imports would
 * show up there) and its memory (another file's leftovers, freed meanwhile, would be counted).
 */
const ALONE = ['tests/unit/mjml-thread.test.ts', 'tests/unit/read-cache-memory.test.ts'];

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
    environment: 'node',
    // Browser flows take 15-30 s on a quiet machine; a shared, busy one can take several times that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // What a page or the API shows can take seconds on a busy machine: a poll waits up to 15 s unless
    // told otherwise, and looks every 200 ms (vitest's 50 ms made the browser files' polls, each a
    // round trip into the page and a walk of its accessibility tree, a fifth of their CPU).
    expect: { poll: { timeout: 15_000, interval: 200 } },
    // Three files at a time keep a two-core machine busy: browser and process files spend part of
    // their time waiting (a page's timers, a process starting), which a third file fills (with two
    // the run took 455 s, with three 380 s; the cores were busy all the same).
    maxWorkers: 3,
    // A worker keeps the modules it loaded for its next file: the server's code (about 2 s to load)
    // is loaded once per worker, not once per file. Each file still boots its own app on its own
    // database; nothing a file keeps at module level is shared (no mocks, no stubbed globals).
    isolate: false,
    reporters: ['default', './tests/helpers/slowest-files-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: ALONE } },
      // Files that look at what the whole process has loaded get a worker of their own.
      { extends: true, test: { name: 'unit-alone', include: ALONE, isolate: true } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], globalSetup: DATABASE } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], globalSetup: DATABASE } },
    ],
  },
});
