import { defineConfig } from 'vitest/config';

// Three projects: `unit` (everything but the browser), `postgres` (the router contract, property
// and MCP tool tests again, every catalog on PostgreSQL: test/catalog/support.ts newCatalogPath) and
// `browser` (the explorer page in headless Chromium, test/browser/). `npx vitest run` runs all three;
// `--project NAME` runs one. The unit and postgres projects share a throwaway PostgreSQL cluster
// per project (test/support/pg-global.ts). Before the unit project starts, test/support/fresh-build.ts
// fails the run when a selected test file runs dist/ or bin/ and src/ changed since the last build.
const POSTGRES_SUITES = [
  'test/router/fetch.test.ts',
  'test/router/search.test.ts',
  'test/router/policy-v3.test.ts',
  'test/router/policy-v4.test.ts',
  'test/router/property.test.ts',
  'test/router/trust-bound.test.ts',
  'test/catalog/lifecycle.test.ts',
  'test/catalog/generation.test.ts',
  'test/catalog/skill-files.test.ts',
  'test/catalog/revision-texts.test.ts',
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
          exclude: ['test/browser/**'],
          globalSetup: ['test/support/fresh-build.ts', 'test/support/pg-global.ts'],
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
