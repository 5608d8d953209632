/**
 * Router commands (src/cli/commands/): `index`, `publish`, `deprecate`, `archive`, `restore`,
 * `generations`, `status`, `search` (human, --json, --batch), `fetch` and `eval`, in process through
 * `run(argv, io)` — their reports, exit codes and error codes — plus one end-to-end run of the built
 * bin/skilldex.js (index → search → fetch, batch from stdin).
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogStatus, GenerationInfo } from '../../src/catalog/index.js';
import type {
  IndexReport,
  LifecycleReport,
  Metrics,
  SearchResult,
} from '../../src/router/index.js';
import { REPO, runBin, runCli, tmpDir, tmpTree } from '../support/cli.js';
import { newCatalogPath, skillText } from '../catalog/support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
let catalog: string;

beforeAll(async () => {
  catalog = newCatalogPath();
  // Policy v1, whose constants these hand-checked expectations were worked out for.
  const r = await runCli([
    'index',
    '--catalog',
    catalog,
    '--scope',
    EXAMPLES,
    '--policy',
    'tf.skillrouter.hybrid-lexical.v1',
    '--json',
  ]);
  expect(r.code).toBe(0);
});

// A private copy of the examples catalog, for commands that change it.
function copyCatalog(): string {
  const file = newCatalogPath();
  copyFileSync(catalog, file);
  return file;
}

function writeLines(lines: readonly unknown[]): string {
  const file = path.join(tmpDir(), 'queries.jsonl');
  writeFileSync(
    file,
    lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
  );
  return file;
}

describe('skilldex index', () => {
  it('prints summary counts and the published generation (human), relative to the cwd', async () => {
    const dir = tmpDir();
    const r = await runCli(['index', '--catalog', 'catalog.sqlite', '--scope', EXAMPLES], {
      cwd: dir,
    });
    expect(r.code).toBe(0);
    await expect(r.stdout).toMatchFileSnapshot('./golden/router-index.txt');
    const again = await runCli(['index', '--catalog', 'catalog.sqlite', '--scope', EXAMPLES], {
      cwd: dir,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('added 0, changed 0, removed 0, unchanged 36');
    expect(again.stdout).toContain('0 read');
    expect(again.stdout).toMatch(/generation 1 unchanged/);
  });

  it('--json prints the index report with every count', async () => {
    const root = tmpTree({
      'a/SKILL.md': skillText('a-skill', { description: 'First.' }),
      'b/SKILL.md': skillText('b-skill', { description: 'Second.' }),
      'bad/SKILL.md': 'no frontmatter here\n',
    });
    const file = newCatalogPath();
    const r = await runCli(['index', '--catalog', file, '--scope', root, '--json']);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as IndexReport;
    expect(rep).toMatchObject({
      catalog: file,
      enumerated: 3,
      read: 3,
      added: ['a-skill', 'b-skill'],
      changed: [],
      removed: [],
      unchanged: 0,
    });
    expect(rep.skipped.map((s) => s.code)).toEqual(['FRONTMATTER_MISSING']);
    expect(rep.publish).toMatchObject({
      changed: true,
      seq: 1,
      counts: { total: 2, active: 2, deprecated: 0, archived: 0 },
    });
  });

  it('--no-publish stages; search still sees the old generation until publish', async () => {
    const root = tmpTree({ 'a/SKILL.md': skillText('a-skill', { description: 'Sort widgets.' }) });
    const file = newCatalogPath();
    expect((await runCli(['index', '--catalog', file, '--scope', root])).code).toBe(0);
    writeFileSync(
      path.join(root, 'a/SKILL.md'),
      skillText('a-skill', { description: 'Paint zebras.' }),
    );
    const staged = await runCli(['index', '--catalog', file, '--scope', root, '--no-publish']);
    expect(staged.code).toBe(0);
    expect(staged.stdout).toContain('not published');
    expect((await runCli(['search', 'zebras', '--catalog', file, '--no-telemetry'])).code).toBe(1);
    const pub = await runCli(['publish', '--catalog', file, '--json']);
    expect(pub.code).toBe(0);
    expect(JSON.parse(pub.stdout)).toMatchObject({ changed: true, seq: 2 });
    expect((await runCli(['search', 'zebras', '--catalog', file, '--no-telemetry'])).code).toBe(0);
    const again = await runCli(['publish', '--catalog', file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to publish');
  });

  it('a first index with --no-publish leaves consumers CATALOG_EMPTY (exit 2)', async () => {
    const root = tmpTree({ 'a/SKILL.md': skillText('a-skill', { description: 'Sort widgets.' }) });
    const file = newCatalogPath();
    expect((await runCli(['index', '--catalog', file, '--scope', root, '--no-publish'])).code).toBe(
      0,
    );
    const r = await runCli(['search', 'widgets', '--catalog', file, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CATALOG_EMPTY' } });
  });

  it('refuses a file that is not a catalog with CATALOG_CORRUPT (exit 3)', async () => {
    const file = newCatalogPath();
    writeFileSync(file, 'plain text, not SQLite\n'.repeat(100));
    const r = await runCli(['index', '--catalog', file, '--scope', EXAMPLES, '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CATALOG_CORRUPT' } });
    const s = await runCli(['search', 'pdf', '--catalog', file, '--json']);
    expect(s.code).toBe(3);
    expect(JSON.parse(s.stdout)).toMatchObject({ error: { code: 'CATALOG_CORRUPT' } });
  });

  it('finds the catalog through SKILLDEX_CATALOG', async () => {
    const r = await runCli(['search', 'pdf', '--json', '--no-telemetry'], {
      env: { HOME: '/nonexistent-home', SKILLDEX_CATALOG: catalog },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as SearchResult).candidates[0]?.skill_id).toBe('pdf-toolkit');
  });
});

describe('skilldex search', () => {
  it('human output: ranked candidates with scores, reasons, pins and the fetch line', async () => {
    const r = await runCli([
      'search',
      'extract tables from a pdf',
      '--catalog',
      catalog,
      '--limit',
      '3',
      '--no-telemetry',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await expect(r.stdout).toMatchFileSnapshot('./golden/router-search-pdf.txt');
  });

  it('says when nothing fits, and --min-confidence sets the floor (0-1, else INVALID_ARGUMENT)', async () => {
    const off = await runCli([
      'search',
      'book a table for two at an italian restaurant tonight',
      '--catalog',
      catalog,
      '--no-telemetry',
    ]);
    expect(off.code).toBe(0);
    expect(off.stdout.split('\n')[1]).toMatch(
      /^nothing fits well enough: no candidate reaches the confidence floor 0\.\d\d/,
    );
    const fits = await runCli([
      'search',
      'extract tables from a pdf',
      '--catalog',
      catalog,
      '--no-telemetry',
    ]);
    expect(fits.stdout).not.toContain('nothing fits');
    const strict = await runCli([
      'search',
      'extract tables from a pdf',
      '--catalog',
      catalog,
      '--no-telemetry',
      '--min-confidence',
      '1',
      '--json',
    ]);
    const r = JSON.parse(strict.stdout) as SearchResult;
    expect(r.min_confidence).toBe(1);
    expect(r.abstain).toBe(r.candidates.every((c) => c.confidence < 1));
    for (const bad of ['1.5', '-0.1', 'high', '']) {
      const refused = await runCli([
        'search',
        'pdf',
        '--catalog',
        catalog,
        '--min-confidence',
        bad,
        '--json',
      ]);
      expect(refused.code).toBe(2);
      expect((JSON.parse(refused.stdout) as { error: { code: string } }).error.code).toBe(
        'INVALID_ARGUMENT',
      );
    }
  });

  it('--json prints the skill_search contract object', async () => {
    const r = await runCli([
      'search',
      'deploy to kubernetes',
      '--catalog',
      catalog,
      '--json',
      '--no-telemetry',
    ]);
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout) as SearchResult;
    expect(Object.keys(res)).toEqual([
      'catalog_generation',
      'policy',
      'query',
      'candidates',
      'min_confidence',
      'abstain',
    ]);
    expect(res.candidates[0]?.skill_id).toBe('kubernetes-deploy');
  });

  it('--include-deprecated shows a deprecated skill, marked and penalised', async () => {
    const file = copyCatalog();
    expect((await runCli(['deprecate', 'pdf-toolkit', '--catalog', file])).code).toBe(0);
    const hidden = await runCli(['search', 'pdf', '--catalog', file, '--json', '--no-telemetry']);
    expect(
      (JSON.parse(hidden.stdout) as SearchResult).candidates.map((c) => c.skill_id),
    ).not.toContain('pdf-toolkit');
    const shown = await runCli([
      'search',
      'pdf',
      '--catalog',
      file,
      '--include-deprecated',
      '--no-telemetry',
    ]);
    expect(shown.stdout).toMatch(/pdf-toolkit .*\[deprecated\]/);
    expect(shown.stdout).toContain('deprecated ×0.5');
  });

  it('exits 1 when nothing matches, 2 without a query or with both a query and --batch', async () => {
    expect(
      (await runCli(['search', 'xylophone quasar', '--catalog', catalog, '--no-telemetry'])).code,
    ).toBe(1);
    const none = await runCli(['search', '--catalog', catalog, '--json']);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    const both = await runCli([
      'search',
      'pdf',
      '--batch',
      writeLines([{ id: 'a', query: 'pdf' }]),
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('skilldex search --batch', () => {
  interface BatchLine {
    id: string;
    ranking: string[];
    candidates: SearchResult['candidates'];
    error?: { code: string };
  }

  it('prints one JSON line per query with id, ranking and candidates, in input order', async () => {
    const file = writeLines([
      { id: 'q1', query: 'extract tables from a pdf' },
      '',
      { id: 2, query: 'deploy to kubernetes' },
      { id: 'q3', query: 'xylophone quasar' },
    ]);
    const r = await runCli([
      'search',
      '--batch',
      file,
      '--catalog',
      catalog,
      '--limit',
      '3',
      '--no-telemetry',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as BatchLine);
    expect(lines.map((l) => l.id)).toEqual(['q1', '2', 'q3']);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['id', 'ranking', 'candidates', 'abstain', 'min_confidence']);
      expect(l.ranking).toEqual(l.candidates.map((c) => c.skill_id));
      expect(l.ranking.length).toBeLessThanOrEqual(3);
    }
    expect(lines[0]!.ranking[0]).toBe('pdf-toolkit');
    expect(lines[1]!.ranking[0]).toBe('kubernetes-deploy');
    expect(lines[2]!.ranking).toEqual([]);
  });

  it('defaults to 10 candidates per query', async () => {
    const r = await runCli([
      'search',
      '--batch',
      writeLines([
        {
          id: 'a',
          query:
            'pdf docker kubernetes regex translation chemistry sql csv statistics email parquet terraform',
        },
      ]),
      '--catalog',
      catalog,
      '--no-telemetry',
    ]);
    expect((JSON.parse(r.stdout) as BatchLine).ranking).toHaveLength(10);
  });

  it('an empty or emoji-only query carries an error object on its own line; the others still run', async () => {
    const file = writeLines([
      { id: 'a', query: '' },
      { id: 'b', query: 'pdf' },
      { id: 'c', query: '🚀' },
    ]);
    const r = await runCli(['search', '--batch', file, '--catalog', catalog, '--no-telemetry']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as BatchLine);
    expect(lines.map((l) => [l.id, l.error?.code ?? null])).toEqual([
      ['a', 'INVALID_QUERY'],
      ['b', null],
      ['c', 'INVALID_QUERY'],
    ]);
    expect(lines[0]).toMatchObject({ ranking: [], candidates: [] });
    expect(lines[1]!.ranking[0]).toBe('pdf-toolkit');
  });

  it.each([
    ['a line that is not JSON', ['{"id":"a","query":"pdf"}', '{"id":"b", query: pdf}'], 2, null],
    ['a line without a query', ['{"id":"a"}'], 1, 'a'],
    [
      'a repeated id',
      ['{"id":"a","query":"pdf"}', '{"id":"b","query":"x"}', '{"id":"a","query":"y"}'],
      3,
      'a',
    ],
  ])(
    '%s becomes an INVALID_INPUT_FILE error line naming the line; every other line is answered (issue 11)',
    async (_what, lines, line, id) => {
      const file = writeLines([...lines, '{"id":"last","query":"pdf"}']);
      for (const fields of ['full', 'ranking']) {
        const r = await runCli([
          'search',
          '--batch',
          file,
          '--fields',
          fields,
          '--catalog',
          catalog,
          '--no-telemetry',
          '--json',
        ]);
        expect(r.code).toBe(0);
        const out = r.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as BatchLine);
        expect(out).toHaveLength(lines.length + 1);
        const bad = out.filter((l) => l.error !== undefined);
        expect(bad).toHaveLength(1);
        expect(bad[0]).toMatchObject({
          id,
          ranking: [],
          error: { code: 'INVALID_INPUT_FILE', details: { line } },
        });
        expect(out.at(-1)).toMatchObject({ id: 'last' });
        expect(out.at(-1)!.ranking[0]).toBe('pdf-toolkit');
      }
    },
  );

  it('a missing batch file is FILE_NOT_FOUND (exit 2)', async () => {
    const r = await runCli([
      'search',
      '--batch',
      path.join(tmpDir(), 'nope.jsonl'),
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'FILE_NOT_FOUND' } });
  });
});

describe('skilldex eval', () => {
  const fileA = [
    { id: 'a1', query: 'extract tables from a pdf', relevant: ['pdf-toolkit'] },
    { id: 'a2', query: 'deploy to kubernetes', relevant: ['kubernetes-deploy'] },
    { id: 'a3', query: 'xylophone quasar', relevant: ['pdf-toolkit'] },
    { id: 'a4', query: '🚀', relevant: ['pdf-toolkit'] },
  ];

  it('gives exact metrics for a hand-checked file, per file and as a macro average', async () => {
    const a = writeLines(fileA);
    // "regx builder": regex-builder first, slide-deck-builder second (see test/router/search.test.ts).
    const b = writeLines([{ id: 'b1', query: 'regx builder', relevant: ['slide-deck-builder'] }]);
    const r = await runCli(['eval', a, b, '--catalog', catalog, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      files: (Metrics & { file: string })[];
      macro_average: Metrics;
    };
    expect(out.files[0]).toEqual({
      file: a,
      queries: 4,
      top1: 0.5,
      recall_at_5: 0.5,
      mrr: 0.5,
      ndcg_at_10: 0.5,
    });
    const fb = out.files[1]!;
    expect(fb).toMatchObject({ file: b, queries: 1, top1: 0, recall_at_5: 1, mrr: 0.5 });
    expect(fb.ndcg_at_10).toBeCloseTo(1 / Math.log2(3), 12);
    expect(out.macro_average.queries).toBe(5);
    expect(out.macro_average.top1).toBeCloseTo(0.25, 12);
    expect(out.macro_average.mrr).toBeCloseTo(0.5, 12);
    expect(out.macro_average.ndcg_at_10).toBeCloseTo((0.5 + 1 / Math.log2(3)) / 2, 12);
  });

  it('metrics on one labelled query per example skill are all in [0, 1]; the table lists every file', async () => {
    const skills = (
      JSON.parse(
        (
          await runCli([
            'search',
            '--batch',
            writeLines([{ id: 'x', query: 'data files' }]),
            '--catalog',
            catalog,
            '--limit',
            '50',
            '--no-telemetry',
          ])
        ).stdout,
      ) as { ranking: string[] }
    ).ranking;
    const lines = skills.map((id) => ({ id, query: id.split('-').join(' '), relevant: [id] }));
    const file = writeLines(lines);
    const r = await runCli(['eval', file, '--catalog', catalog, '--json']);
    expect(r.code).toBe(0);
    const m = (JSON.parse(r.stdout) as { macro_average: Metrics }).macro_average;
    for (const k of ['top1', 'recall_at_5', 'mrr', 'ndcg_at_10'] as const) {
      expect(m[k]).toBeGreaterThanOrEqual(0);
      expect(m[k]).toBeLessThanOrEqual(1);
    }
    expect(m.top1).toBeGreaterThan(0.5);
    const human = await runCli(['eval', file, '--catalog', catalog]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('| file | queries | top1 | R@5 | MRR | nDCG@10 |');
    expect(human.stdout).toContain('| macro average |');
  });

  it('writes no telemetry', async () => {
    const file = copyCatalog();
    expect((await runCli(['eval', writeLines(fileA), '--catalog', file])).code).toBe(0);
    expect(existsSync(file.replace(/\.sqlite$/, '.telemetry.sqlite'))).toBe(false);
  });

  it('a file without relevant labels is INVALID_INPUT_FILE (exit 2)', async () => {
    const r = await runCli([
      'eval',
      writeLines([{ id: 'a', query: 'pdf' }]),
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: 'INVALID_INPUT_FILE', details: { line: 1 } },
    });
  });
});

describe('operator commands', () => {
  it('deprecate, archive and restore exit 0 and print the change; unknown ids and replacements are refused', async () => {
    const file = copyCatalog();
    const dep = await runCli([
      'deprecate',
      'pdf-toolkit',
      '--reason',
      'old',
      '--replacement',
      'docx-editor',
      '--catalog',
      file,
      '--json',
    ]);
    expect(dep.code).toBe(0);
    expect((JSON.parse(dep.stdout) as LifecycleReport).change).toEqual({
      skill_id: 'pdf-toolkit',
      from: 'active',
      to: 'deprecated',
      reason: 'old',
      replacement: 'docx-editor',
    });
    const arch = await runCli(['archive', 'pdf-toolkit', '--catalog', file]);
    expect(arch.code).toBe(0);
    expect(arch.stdout).toContain('pdf-toolkit: deprecated → archived');
    const res = await runCli(['restore', 'pdf-toolkit', '--catalog', file]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('archived → active');

    const unknown = await runCli(['archive', 'no-such-skill', '--catalog', file, '--json']);
    expect(unknown.code).toBe(3);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ error: { code: 'SKILL_NOT_FOUND' } });
    const badRepl = await runCli([
      'deprecate',
      'pdf-toolkit',
      '--replacement',
      'no-such-skill',
      '--catalog',
      file,
      '--json',
    ]);
    expect(badRepl.code).toBe(2);
    expect(JSON.parse(badRepl.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    const staged = await runCli(['deprecate', 'docx-editor', '--no-publish', '--catalog', file]);
    expect(staged.code).toBe(0);
    expect(staged.stdout).toContain('not published');
  });

  it('generations lists the history newest first with parents (exit 0)', async () => {
    const file = copyCatalog();
    await runCli(['deprecate', 'pdf-toolkit', '--catalog', file]);
    const r = await runCli(['generations', '--catalog', file, '--json']);
    expect(r.code).toBe(0);
    const gens = (JSON.parse(r.stdout) as { generations: GenerationInfo[] }).generations;
    expect(gens.map((g) => [g.seq, g.parent_seq, g.published])).toEqual([
      [2, 1, true],
      [1, null, false],
    ]);
    const human = await runCli(['generations', '--catalog', file]);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^\* +2 /);
  });

  it('status exits 0 on a clean catalog and 1 with drifted files, listing them', async () => {
    const root = tmpTree({
      'a/SKILL.md': skillText('a-skill', { description: 'Sort widgets.' }),
      'b/SKILL.md': skillText('b-skill', { description: 'Paint gadgets.' }),
    });
    const file = newCatalogPath();
    await runCli(['index', '--catalog', file, '--scope', root]);
    const clean = await runCli(['status', '--catalog', file, '--json']);
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.stdout) as CatalogStatus).drifted).toEqual([]);
    writeFileSync(
      path.join(root, 'b/SKILL.md'),
      skillText('b-skill', { description: 'Paint gadgets blue.' }),
    );
    const drifted = await runCli(['status', '--catalog', file, '--json']);
    expect(drifted.code).toBe(1);
    expect((JSON.parse(drifted.stdout) as CatalogStatus).drifted).toMatchObject([
      { skill_id: 'b-skill', reason: 'changed' },
    ]);
    const human = await runCli(['status', '--catalog', file]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('drifted files: 1');
    expect(human.stdout).toContain('b-skill');
  });
});

describe('bin/skilldex.js end to end', () => {
  it('indexes examples, searches, fetches the pinned top candidate, and runs a batch from stdin', () => {
    const dir = tmpDir();
    const env = { HOME: dir, SKILLDEX_CATALOG: path.join(dir, 'catalog.sqlite') };
    const idx = runBin(['index', '--scope', EXAMPLES], { env, cwd: dir });
    expect(idx.code).toBe(0);
    expect(idx.stdout).toContain('added 36');
    const s = runBin(['search', 'extract tables from a pdf', '--json'], { env, cwd: dir });
    expect(s.code).toBe(0);
    const top = (JSON.parse(s.stdout) as SearchResult).candidates[0]!;
    expect(top.skill_id).toBe('pdf-toolkit');
    const f = runBin(
      [
        'fetch',
        top.skill_id,
        '--revision',
        top.revision_id,
        '--generation',
        top.catalog_generation,
        '--context',
        'e2e',
      ],
      { env, cwd: dir },
    );
    expect(f.code).toBe(0);
    expect(f.stdout).toContain('# PDF toolkit');
    const bad = runBin(
      [
        'fetch',
        top.skill_id,
        '--revision',
        `sha256:${'0'.repeat(64)}`,
        '--generation',
        top.catalog_generation,
      ],
      { env, cwd: dir },
    );
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('REVISION_MISMATCH');
    const batch = runBin(['search', '--batch', '-', '--limit', '2'], {
      env,
      cwd: dir,
      input: '{"id":"k","query":"kubernetes"}\n{"id":"d","query":"docker compose"}\n',
    });
    expect(batch.code).toBe(0);
    expect(
      batch.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string; ranking: string[] }).ranking[0]),
    ).toEqual(['kubernetes-deploy', 'docker-compose-helper']);
  });
});
