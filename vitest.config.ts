import { defineConfig } from 'vitest/config';

// Two projects: `unit` (everything but the browser) and `browser` (the explorer page in headless
// Chromium, test/browser/). `npx vitest run` runs both; `--project browser` runs the browser alone.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/browser/**'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
  },
});
