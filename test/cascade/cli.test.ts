/**
 * The `skilldex cascade` face: exit codes per outcome (docs/integration.md §4), golden files of the human and
 * JSON crawl reports, the JSON of audit and build, refusals, and one end-to-end run of the built
 * binary on the bundled example cascade.
 */
import { describe, expect, it } from 'vitest';
import { CRAWL_EXIT_CODES } from '../../src/cascade/index.js';
import { runBin, runCli } from '../support/cli.js';

const FIX = 'test/cascade/fixtures';

describe('cascade crawl exit codes', () => {
  it.each([
    ['hit-leaf', 'forms', 0],
    ['no-match', 'kubernetes', 1],
    ['ambiguous-two-leaves', 'csv', 1],
    ['no-index-here', 'pdf', 1],
    ['shortcut-escapes-root', 'pdf', 2],
    ['broken-descent-no-index', 'pdf', 3],
    ['unreadable-node-directory', 'pdf', 3],
  ])('%s ends with exit %i', async (fixture, need, code) => {
    const r = await runCli(['cascade', 'crawl', `${FIX}/${fixture}`, need, '--json']);
    expect(r.code).toBe(code);
    const report = JSON.parse(r.stdout) as { outcome: keyof typeof CRAWL_EXIT_CODES };
    expect(CRAWL_EXIT_CODES[report.outcome]).toBe(code);
  });

  it('maps reference loop, unreadable node and broken descent to 3, subtree-escape to 2', () => {
    expect(CRAWL_EXIT_CODES).toMatchObject({
      'reference loop': 3,
      'unreadable node': 3,
      'broken descent': 3,
      'subtree-escape': 2,
    });
  });
});

describe('cascade crawl reports (golden)', () => {
  for (const [fixture, need] of [
    ['combo-entry-descends', 'security'],
    ['stamp-mismatch-overlay-ignored', 'csv'],
    ['malformed-lines-recorded', 'pdf'],
  ] as const) {
    it(`${fixture}: human and JSON`, async () => {
      const human = await runCli(['cascade', 'crawl', `${FIX}/${fixture}`, need]);
      await expect(human.stdout).toMatchFileSnapshot(`./golden/crawl-${fixture}.txt`);
      const json = await runCli(['cascade', 'crawl', `${FIX}/${fixture}`, need, '--json']);
      await expect(json.stdout).toMatchFileSnapshot(`./golden/crawl-${fixture}.json`);
      expect(json.code).toBe(human.code);
    });
  }
});

describe('cascade audit and build on the example', () => {
  it('audit prints the clean summary', async () => {
    const r = await runCli(['cascade', 'audit', 'examples/cascade']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot('./golden/audit-example.txt');
  });

  it('build --check --json prints the report object', async () => {
    const r = await runCli(['cascade', 'build', 'examples/cascade', '--check', '--json']);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot('./golden/build-check-example.json');
  });
});

describe('cascade refusals', () => {
  it('refuses an empty need and a missing root with exit 2 and a coded error', async () => {
    const empty = await runCli(['cascade', 'crawl', 'examples/cascade', ' ', '--json']);
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stdout)).toMatchObject({ error: { code: 'INVALID_QUERY' } });
    const missing = await runCli(['cascade', 'crawl', 'no/such/root', 'pdf']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error FILE_NOT_FOUND/);
  });

  it('refuses a missing argument as a usage error', async () => {
    expect((await runCli(['cascade', 'crawl', 'examples/cascade'])).code).toBe(2);
  });
});

describe('the built binary', () => {
  it('crawls the bundled example cascade', () => {
    const r = runBin(['cascade', 'crawl', 'examples/cascade', 'query-tuning']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('data/sql/query-tuning');
  });
});

describe('crawl with no match', () => {
  it('states the matching rule and lists the closest entries of the node it stopped at', async () => {
    const r = await runCli(['cascade', 'crawl', 'examples/cascade', 'tables from a pdf']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('no match in .');
    expect(r.stdout).toContain("occurs inside the entry's key or one");
    expect(r.stdout).toMatch(/entries of \., closest first:\n\s+documents\/\s+\(pdf\)/);
    const j = await runCli(['cascade', 'crawl', 'examples/cascade', 'tables from a pdf', '--json']);
    expect(JSON.parse(j.stdout).suggestions[0]).toEqual({
      key: 'documents/',
      path: 'documents',
      closest: 'pdf',
    });
  });
});
