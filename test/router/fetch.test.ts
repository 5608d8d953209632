/**
 * skill_fetch (src/router/served/fetch.ts, docs/integration.md): a pinned fetch returns the body after the
 * frontmatter with the identity fields; every contract error has its code (library and CLI exit 3);
 * a drifted file's body is never returned; a missing field is INVALID_ARGUMENT.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Router,
  changeLifecycle,
  type FetchRequest,
  type SearchResult,
} from '../../src/internal.js';
import { runCli, tmpTree, writeTree } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath, skillText } from '../catalog/support.js';

const BODY = '# Charts\n\nDraw charts from csv columns.\n\n- step one\n- step two\n';
const TEXT = skillText('charts', {
  description: 'Draw charts from csv data.',
  keywords: ['charts', 'csv'],
  version: '1.0.0',
  body: BODY,
});

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function setup(): { root: string; catalog: string; router: Router; pin: FetchRequest } {
  const root = tmpTree({
    'charts/SKILL.md': TEXT,
    'tables/SKILL.md': skillText('tables', {
      description: 'Clean csv tables.',
      keywords: ['tables'],
    }),
  });
  const catalog = newCatalogPath();
  indexTree(catalog, root);
  const router = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(router);
  const c = router.search({ query: 'charts' }).candidates.find((x) => x.skill_id === 'charts')!;
  return {
    root,
    catalog,
    router,
    pin: {
      skill_id: c.skill_id,
      expected_revision: c.revision_id,
      catalog_generation: c.catalog_generation,
      context: 'a chart',
    },
  };
}

const cliPins = (p: FetchRequest, catalog: string): string[] => [
  'fetch',
  p.skill_id,
  '--revision',
  p.expected_revision,
  '--generation',
  p.catalog_generation,
  '--catalog',
  catalog,
  '--no-telemetry',
];

describe('a pinned fetch', () => {
  it('returns the identity fields and the body after the frontmatter', () => {
    const { root, router, pin } = setup();
    const r = router.fetch(pin);
    expect(Object.keys(r)).toEqual([
      'skill_id',
      'skill_version',
      'revision_id',
      'catalog_generation',
      'path',
      'body',
    ]);
    expect(r).toMatchObject({
      skill_id: 'charts',
      skill_version: '1.0.0',
      revision_id: pin.expected_revision,
      catalog_generation: pin.catalog_generation,
    });
    expect(r.path).toBe(path.join(root, 'charts', 'SKILL.md'));
    expect(r.body).toBe('\n' + BODY);
    expect(r.body).not.toContain('description:');
  });

  it('prints the body in human mode and the contract object with --json (exit 0)', async () => {
    const { catalog, pin } = setup();
    const human = await runCli(cliPins(pin, catalog));
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Draw charts from csv columns.');
    expect(human.stdout).not.toContain('---');
    const json = await runCli([...cliPins(pin, catalog), '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      skill_id: 'charts',
      revision_id: pin.expected_revision,
      body: '\n' + BODY,
    });
  });
});

describe('contract errors (library code, CLI exit 3, no body)', () => {
  async function expectCli(catalog: string, p: FetchRequest, code: string): Promise<void> {
    const human = await runCli(cliPins(p, catalog));
    expect(human.code).toBe(3);
    expect(human.stdout).toBe('');
    expect(human.stderr).toContain(code);
    const json = await runCli([...cliPins(p, catalog), '--json']);
    expect(json.code).toBe(3);
    const out = JSON.parse(json.stdout) as { error: { code: string }; body?: string };
    expect(out.error.code).toBe(code);
    expect(json.stdout).not.toContain('Draw charts from csv columns.');
  }

  it('CATALOG_GENERATION_MISMATCH after a new generation is published', async () => {
    const { root, catalog, router, pin } = setup();
    writeTree(root, { 'extra/SKILL.md': skillText('extra', { description: 'Something new.' }) });
    indexTree(catalog, root);
    expect(codeOf(() => router.fetch(pin))).toBe('CATALOG_GENERATION_MISMATCH');
    await expectCli(catalog, pin, 'CATALOG_GENERATION_MISMATCH');
    // Searching again gives pins that work.
    const fresh = router.search({ query: 'charts' }).candidates[0]!;
    expect(router.fetch({ ...pin, catalog_generation: fresh.catalog_generation }).body).toBe(
      '\n' + BODY,
    );
  });

  it('CATALOG_GENERATION_MISMATCH for a made-up generation', async () => {
    const { catalog, router, pin } = setup();
    const p = { ...pin, catalog_generation: `sha256:${'f'.repeat(64)}` };
    expect(codeOf(() => router.fetch(p))).toBe('CATALOG_GENERATION_MISMATCH');
    await expectCli(catalog, p, 'CATALOG_GENERATION_MISMATCH');
  });

  it('REVISION_MISMATCH when the pinned revision is not the catalog one', async () => {
    const { catalog, router, pin } = setup();
    const p = { ...pin, expected_revision: `sha256:${'a'.repeat(64)}` };
    expect(codeOf(() => router.fetch(p))).toBe('REVISION_MISMATCH');
    await expectCli(catalog, p, 'REVISION_MISMATCH');
  });

  it('REVISION_MISMATCH for a revision of another skill', () => {
    const { router, pin } = setup();
    const other = router
      .search({ query: 'tables' })
      .candidates.find((c) => c.skill_id === 'tables')!;
    expect(codeOf(() => router.fetch({ ...pin, expected_revision: other.revision_id }))).toBe(
      'REVISION_MISMATCH',
    );
  });

  it('INDEX_DRIFT for a file modified since indexing', async () => {
    const { root, catalog, router, pin } = setup();
    writeFileSync(path.join(root, 'charts/SKILL.md'), TEXT.replace('step two', 'step two, edited'));
    let err: unknown;
    try {
      router.fetch(pin);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'INDEX_DRIFT' });
    expect(JSON.stringify((err as { details: unknown }).details)).not.toContain('step two');
    await expectCli(catalog, pin, 'INDEX_DRIFT');
  });

  it('INDEX_DRIFT for a file deleted since indexing, or replaced by a folder', async () => {
    const { root, catalog, router, pin } = setup();
    rmSync(path.join(root, 'charts/SKILL.md'));
    expect(codeOf(() => router.fetch(pin))).toBe('INDEX_DRIFT');
    await expectCli(catalog, pin, 'INDEX_DRIFT');
    mkdirSync(path.join(root, 'charts/SKILL.md'));
    expect(codeOf(() => router.fetch(pin))).toBe('INDEX_DRIFT');
  });

  it('a file touched but with the same bytes still fetches', () => {
    const { root, router, pin } = setup();
    writeFileSync(path.join(root, 'charts/SKILL.md'), TEXT);
    expect(router.fetch(pin).body).toBe('\n' + BODY);
  });

  it('SKILL_NOT_FOUND for an id the generation does not hold', async () => {
    const { catalog, router, pin } = setup();
    const p = { ...pin, skill_id: 'no-such-skill' };
    expect(codeOf(() => router.fetch(p))).toBe('SKILL_NOT_FOUND');
    await expectCli(catalog, p, 'SKILL_NOT_FOUND');
  });

  it('SKILL_ARCHIVED for an archived skill with valid pins', async () => {
    const { catalog, router, pin } = setup();
    const rep = changeLifecycle({ catalog, skill_id: 'charts', to: 'archived', now: NOW });
    const p = { ...pin, catalog_generation: rep.publish!.catalog_generation };
    expect(codeOf(() => router.fetch(p))).toBe('SKILL_ARCHIVED');
    await expectCli(catalog, p, 'SKILL_ARCHIVED');
  });

  it('a deprecated skill still fetches', () => {
    const { catalog, router, pin } = setup();
    const rep = changeLifecycle({ catalog, skill_id: 'charts', to: 'deprecated', now: NOW });
    expect(router.fetch({ ...pin, catalog_generation: rep.publish!.catalog_generation }).body).toBe(
      '\n' + BODY,
    );
  });
});

describe('request validation', () => {
  it.each(['skill_id', 'expected_revision', 'catalog_generation', 'context'] as const)(
    'a missing or non-string %s is INVALID_ARGUMENT',
    (field) => {
      const { router, pin } = setup();
      const without = { ...pin } as Record<string, unknown>;
      delete without[field];
      expect(codeOf(() => router.fetch(without as unknown as FetchRequest))).toBe(
        'INVALID_ARGUMENT',
      );
      expect(codeOf(() => router.fetch({ ...pin, [field]: 7 } as unknown as FetchRequest))).toBe(
        'INVALID_ARGUMENT',
      );
    },
  );

  it('the CLI refuses a fetch without --revision or --generation (exit 2)', async () => {
    const { catalog, pin } = setup();
    const noRev = await runCli([
      'fetch',
      'charts',
      '--generation',
      pin.catalog_generation,
      '--catalog',
      catalog,
    ]);
    expect(noRev.code).toBe(2);
    const noGen = await runCli([
      'fetch',
      'charts',
      '--revision',
      pin.expected_revision,
      '--catalog',
      catalog,
    ]);
    expect(noGen.code).toBe(2);
  });

  it('pins from search --json fetch through the CLI', async () => {
    const { catalog } = setup();
    const s = JSON.parse(
      (await runCli(['search', 'csv charts', '--catalog', catalog, '--json', '--no-telemetry']))
        .stdout,
    ) as SearchResult;
    const c = s.candidates[0]!;
    const f = await runCli([
      'fetch',
      c.skill_id,
      '--revision',
      c.revision_id,
      '--generation',
      c.catalog_generation,
      '--catalog',
      catalog,
      '--no-telemetry',
    ]);
    expect(f.code).toBe(0);
  });
});

describe('fetch after a folder was swapped for a link (issue #11)', () => {
  it('refuses a pinned fetch whose path now leads outside, even to identical bytes', () => {
    const { root, router, pin } = setup();
    // The outside copy has the very bytes indexed: only the path check can tell it apart.
    const outside = tmpTree({ 'SKILL.md': TEXT });
    renameSync(path.join(root, 'charts'), path.join(root, 'charts-old'));
    symlinkSync(outside, path.join(root, 'charts'));
    let err: unknown;
    try {
      router.fetch(pin);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'INDEX_DRIFT', details: { problem: 'PATH_OUTSIDE_ROOT' } });
  });

  it('refuses a SKILL.md that became a link to an identical outside copy', () => {
    const { root, router, pin } = setup();
    const outside = tmpTree({ 'SKILL.md': TEXT });
    rmSync(path.join(root, 'charts', 'SKILL.md'));
    symlinkSync(path.join(outside, 'SKILL.md'), path.join(root, 'charts', 'SKILL.md'));
    expect(codeOf(() => router.fetch(pin))).toBe('INDEX_DRIFT');
  });
});
