/**
 * `skilldex substrate read` on the example substrate (issue #6): golden files for `--yaml`,
 * `--json` and the human text, the exit codes, the default root, and refusals. One end-to-end run
 * goes through the built binary.
 */
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO, runBin, runCli, tmpDir } from '../support/cli.js';

const EXAMPLE = path.join(REPO, 'examples', 'substrate');

// The report carries the absolute root; goldens must read the same on every machine.
function portable(stdout: string): string {
  return stdout.split(JSON.stringify(EXAMPLE).slice(1, -1)).join('<root>');
}

describe('skilldex substrate read on examples/substrate', () => {
  it.each([
    ['topic', 'payment retries'],
    ['glob', 'src/payments/**'],
    ['tag', 'tag:security'],
  ])('--yaml prints exactly the hits list (%s)', async (name, query) => {
    const r = await runCli(['substrate', 'read', query, '--root', 'examples/substrate', '--yaml']);
    expect(r.code).toBe(0);
    const doc = parse(r.stdout) as { hits: Record<string, unknown>[] };
    expect(Object.keys(doc)).toEqual(['hits']);
    for (const h of doc.hits)
      expect(Object.keys(h)).toEqual(['type', 'id', 'description', 'stop_depth']);
    await expect(r.stdout).toMatchFileSnapshot(`./golden/example-${name}.yaml`);
  });

  it.each([
    ['topic', 'payment retries'],
    ['glob', 'src/db/**/*.ts'],
    ['no-hits', 'kubernetes autoscaling'],
  ])('--json --explain prints the report (%s)', async (name, query) => {
    const r = await runCli([
      'substrate',
      'read',
      query,
      '--root',
      'examples/substrate',
      '--json',
      '--explain',
    ]);
    expect(r.code).toBe(name === 'no-hits' ? 1 : 0);
    await expect(portable(r.stdout)).toMatchFileSnapshot(`./golden/example-${name}.json`);
  });

  it('prints a human summary by default', async () => {
    const r = await runCli([
      'substrate',
      'read',
      'payment retries',
      '--root',
      'examples/substrate',
      '--explain',
    ]);
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot('./golden/example-topic.txt');
  });

  it('keeps stdout pure YAML with --explain, the explanation going to stderr', async () => {
    const r = await runCli([
      'substrate',
      'read',
      'payment retries',
      '--root',
      'examples/substrate',
      '--yaml',
      '--explain',
    ]);
    const plain = await runCli([
      'substrate',
      'read',
      'payment retries',
      '--root',
      'examples/substrate',
      '--yaml',
    ]);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toContain('anti-pattern/INDEX.md');
  });

  it('limits the read to one type with --type', async () => {
    const r = await runCli([
      'substrate',
      'read',
      'payment retries',
      '--root',
      'examples/substrate',
      '--type',
      'reviewer',
      '--json',
      '--explain',
    ]);
    const report = JSON.parse(r.stdout) as {
      hits: { type: string }[];
      opened: { path: string }[];
      type_filter: string;
    };
    expect(report.type_filter).toBe('reviewer');
    expect(new Set(report.hits.map((h) => h.type))).toEqual(new Set(['reviewer']));
    expect(report.opened.map((o) => o.path)).toEqual(['reviewer/INDEX.md']);
  });

  it('finds the substrate/ folder at or above the current folder', async () => {
    for (const cwd of [path.join(REPO, 'examples'), path.join(EXAMPLE, 'adr')]) {
      const r = await runCli(['substrate', 'read', 'idempotency', '--json'], { cwd });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ root: EXAMPLE });
    }
  });

  it.each([
    [['substrate', 'read', 'x', '--json'], 'SUBSTRATE_NOT_FOUND', 'no-substrate'],
    [
      ['substrate', 'read', 'x', '--root', 'examples/substrate', '--type', 'adrs', '--json'],
      'INVALID_ARGUMENT',
      'repo',
    ],
    [
      ['substrate', 'read', 'x', '--root', 'examples/substrate', '--json', '--yaml'],
      'INVALID_ARGUMENT',
      'repo',
    ],
    [
      ['substrate', 'read', 'the', '--root', 'examples/substrate', '--json'],
      'INVALID_QUERY',
      'repo',
    ],
    [
      ['substrate', 'read', 'x', '--root', 'examples/nope', '--json'],
      'SUBSTRATE_NOT_FOUND',
      'repo',
    ],
  ])('refuses %j with %s (exit 2)', async (argv, code, where) => {
    const r = await runCli(argv, { cwd: where === 'repo' ? REPO : tmpDir() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code } });
  });

  it('runs end to end through the built binary', () => {
    const r = runBin([
      'substrate',
      'read',
      'src/payments/**',
      '--root',
      'examples/substrate',
      '--yaml',
    ]);
    expect(r.code).toBe(0);
    expect((parse(r.stdout) as { hits: { id: string }[] }).hits[0]?.id).toBe('REV-004');
  });
});
