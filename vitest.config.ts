import { defineConfig } from 'vitest/config';

// Four projects:
// - `unit`: the core's fast inner loop (`npm run test:unit`): everything but the suites below. It
//   needs no PostgreSQL and no Chromium.
// - `slow`: what a fast loop leaves out: `npm pack` + a global install, the load test, the
//   SIGKILL-mid-index test, the hook server's process tests (servers started, killed, left idle and
//   timed out; 23 s), the suites that need PostgreSQL, and the checks over the bench corpora.
// - `postgres`: the router contract, property and MCP tool tests again, every catalog on PostgreSQL
//   (test/catalog/support.ts newCatalogPath).
// - `browser`: the explorer page in headless Chromium (test/browser/).
// `npx vitest run` (what `npm test` runs) runs all four; `--project NAME` runs one. The slow and
// postgres projects share a throwaway PostgreSQL cluster per project (test/support/pg-global.ts).
// Before the unit and slow projects start, test/support/fresh-build.ts fails the run when a selected
// test file runs dist/ or bin/ and src/ changed since the last build; after them,
// test/support/hook-servers.ts ends the hook servers tests started under the temporary folder.
const SLOW_SUITES = [
  'test/install/**',
  'test/mcp/load.test.ts',
  'test/catalog/concurrency.test.ts',
  'test/catalog/postgres.test.ts',
  'test/catalog/pg-*.test.ts',
  'test/triggers/score-py.test.ts',
  'test/lint/corpus.test.ts',
  'test/cli/hook-server.test.ts',
  // Suites with a PostgreSQL part beside their SQLite one.
  'test/catalog/copy.test.ts',
  'test/catalog/migration.test.ts',
  'test/catalog/batch.test.ts',
];

const POSTGRES_SUITES = [
  'test/router/fetch.test.ts',
  'test/router/search.test.ts',
  'test/router/policy-v4-shared.test.ts',
  'test/router/policy-v4.test.ts',
  'test/router/property.test.ts',
  'test/router/trust-bound.test.ts',
  'test/router/author-evidence.test.ts', // issue 34 item 1
  'test/catalog/lifecycle.test.ts',
  'test/catalog/generation.test.ts',
  'test/catalog/skill-files.test.ts',
  'test/catalog/revision-texts.test.ts',
  'test/catalog/reindex-fast.test.ts',
  'test/catalog/layout.test.ts',
  'test/supply/diff.test.ts',
  'test/mcp/tools.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // One module cache per worker instead of one per file: a fresh fork re-evaluates src/ for
          // every file (about 1 s each on 2 cores). No unit test mocks modules or changes process
          // state; one that must runs its code in a child process. Measured on the shared 2-core
          // machine, the unit project in four runs: 287 s without isolation.
          isolate: false,
          exclude: ['test/browser/**', ...SLOW_SUITES],
          globalSetup: ['test/support/fresh-build.ts', 'test/support/hook-servers.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW_SUITES.map((g) => (g.endsWith('/**') ? `${g}/*.test.ts` : g)),
          globalSetup: [
            'test/support/fresh-build.ts',
            'test/support/pg-global.ts',
            'test/support/hook-servers.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          env: { SKILLDEX_TEST_BACKEND: 'pg' },
          globalSetup: ['test/support/pg-global.ts'],
        },
      },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
  },
});
