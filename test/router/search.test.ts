/**
 * skill_search on the bundled examples (src/router/search/: dispatch.ts, lexical.ts, query.ts, the v1 policy): ranking
 * relations, fuzzy reach for typos, every explanation component, byte-identical `--json` output for
 * one catalog + telemetry snapshot + query, FTS5 syntax treated as plain text, and limit bounds.
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_LIMIT,
  POLICY_ID,
  Router,
  V1,
  telemetryPathFor,
  type Candidate,
  type ScoreExplanation,
  type SearchResult,
} from '../../src/internal.js';
import { REPO, runCli } from '../support/cli.js';
import { NOW, ON_PG, codeOf, indexTree, newCatalogPath } from '../catalog/support.js';

/** The explanation of a candidate of a lexical (v1/v2) catalog, which these tests pin. */
function lx(c: Candidate): ScoreExplanation {
  return c.explanation as ScoreExplanation;
}

const EXAMPLES = path.join(REPO, 'examples', 'skills');
let catalog: string;
let router: Router;

beforeAll(() => {
  catalog = newCatalogPath();
  indexTree(catalog, EXAMPLES);
  router = new Router({ catalog, telemetry: false, now: NOW });
});
afterAll(() => router.close());

const top = (query: string, limit = 8): string[] =>
  router.search({ query, limit }).candidates.map((c) => c.skill_id);

describe('ranking relations on examples/skills', () => {
  it.each([
    ['extract tables from a pdf', 'pdf-toolkit'],
    ['deploy to kubernetes', 'kubernetes-deploy'],
    ['write a commit message for my git changes', 'git-commit-writer'],
    ['summarize meeting notes', 'meeting-notes-summarizer'],
    ['validate a json schema', 'json-schema-validator'],
    ['docker compose services', 'docker-compose-helper'],
  ])('%s → %s first', (query, id) => {
    expect(top(query)[0]).toBe(id);
  });

  it.skipIf(ON_PG)('a typo reaches the right skill through fuzzy matching alone', () => {
    const r = router.search({ query: 'kuberntes' });
    const first = r.candidates[0]!;
    expect(first.skill_id).toBe('kubernetes-deploy');
    expect(lx(first).exact.total).toBe(0);
    expect(lx(first).fts.raw).toBe(0);
    expect(lx(first).fuzzy.matches).toEqual([
      { query_token: 'kuberntes', term: 'kubernetes', distance: 1, allowed: 2 },
    ]);
    expect(lx(first).fuzzy.weighted).toBeGreaterThan(0);
  });

  it('a typo beside an exact word puts the intended skill first', () => {
    expect(top('spredsheet pivot')[0]).toBe('spreadsheet-analyst');
    expect(top('postmortem incidnet')[0]).toBe('incident-postmortem');
    const regex = router.search({ query: 'regx builder' }).candidates[0]!;
    expect(regex.skill_id).toBe('regex-builder');
    expect(lx(regex).fuzzy.matches.map((m) => m.term)).toEqual(['regex']);
  });

  it.skipIf(ON_PG)('a word inflected differently meets its stem (deploying → deploy)', () => {
    const c = router.search({ query: 'deploying kubernetes clusters' }).candidates[0]!;
    expect(c.skill_id).toBe('kubernetes-deploy');
    expect(lx(c).exact.name.matched).toContain('deploying');
  });

  it('a query without any matching word has no candidates', () => {
    expect(router.search({ query: 'xylophone zebra quasar' }).candidates).toEqual([]);
  });
});

describe('the search result', () => {
  it.skipIf(ON_PG)('carries the contract fields, in order, and every explanation component', () => {
    const r = router.search({ query: 'deploy to kubernetes with helm', limit: 5 });
    expect(Object.keys(r)).toEqual([
      'catalog_generation',
      'policy',
      'query',
      'candidates',
      'min_confidence',
      'abstain',
    ]);
    expect(r.policy).toBe(POLICY_ID);
    expect(r.query).toBe('deploy to kubernetes with helm');
    expect(r.candidates.length).toBeGreaterThan(0);
    for (const c of r.candidates) {
      expect(Object.keys(c)).toEqual([
        'skill_id',
        'skill_version',
        'revision_id',
        'catalog_generation',
        'name',
        'description',
        'state',
        'score',
        'explanation',
        'confidence',
      ]);
      expect(c.confidence).toBeGreaterThanOrEqual(0);
      expect(c.confidence).toBeLessThanOrEqual(1);
      expect(c.catalog_generation).toBe(r.catalog_generation);
      expect(c.revision_id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(c.state).toBe('active');
      const e = lx(c);
      expect(Object.keys(e)).toEqual([
        'policy',
        'query_tokens',
        'common_tokens',
        'exact',
        'fts',
        'fuzzy',
        'base',
        'telemetry',
        'lifecycle',
        'final',
      ]);
      expect(e.policy).toBe(POLICY_ID);
      expect(Object.keys(e.exact)).toEqual(['keywords', 'name', 'description', 'total']);
      for (const tier of [e.exact.keywords, e.exact.name, e.exact.description])
        expect(Object.keys(tier)).toEqual(['matched', 'points']);
      expect(e.exact.keywords.points).toBe(e.exact.keywords.matched.length * V1.TIER_KEYWORD);
      expect(e.exact.name.points).toBe(e.exact.name.matched.length * V1.TIER_NAME);
      expect(e.exact.description.points).toBe(
        e.exact.description.matched.length * V1.TIER_DESCRIPTION,
      );
      expect(e.exact.total).toBe(
        e.exact.keywords.points + e.exact.name.points + e.exact.description.points,
      );
      expect(Object.keys(e.fts)).toEqual(['raw', 'relevance', 'weight', 'weighted']);
      expect(e.fts.weight).toBe(V1.FTS_WEIGHT);
      expect(e.fts.relevance).toBeGreaterThanOrEqual(0);
      expect(e.fts.relevance).toBeLessThanOrEqual(1);
      expect(e.fts.weighted).toBeCloseTo(V1.FTS_WEIGHT * e.fts.relevance, 8);
      expect(Object.keys(e.fuzzy)).toEqual(['matches', 'relevance', 'weight', 'weighted']);
      expect(e.fuzzy.weight).toBe(V1.FUZZY_WEIGHT);
      expect(e.fuzzy.weighted).toBeCloseTo(V1.FUZZY_WEIGHT * e.fuzzy.relevance, 8);
      expect(e.base).toBeCloseTo(e.exact.total + e.fts.weighted + e.fuzzy.weighted, 8);
      expect(e.telemetry).toEqual({ suggestions: 0, fetches: 0, multiplier: 1 });
      expect(e.lifecycle).toEqual({ state: 'active', multiplier: 1 });
      expect(e.final).toBe(c.score);
      expect(c.score).toBeCloseTo(e.base * e.telemetry.multiplier * e.lifecycle.multiplier, 8);
      expect(c.score).toBeGreaterThan(0);
    }
  });

  it('is ordered by score, ties by skill_id, and holds at most `limit` candidates', () => {
    for (const query of ['builder', 'files', 'data', 'write tests', 'markdown tables']) {
      for (const limit of [1, 3, 8, MAX_LIMIT]) {
        const cs = router.search({ query, limit }).candidates;
        expect(cs.length).toBeLessThanOrEqual(limit);
        for (let i = 1; i < cs.length; i++) {
          const a = cs[i - 1]!;
          const b = cs[i]!;
          expect(a.score > b.score || (a.score === b.score && a.skill_id < b.skill_id)).toBe(true);
        }
      }
    }
  });

  it('a smaller limit is a prefix of a larger one', () => {
    const all = top('builder files data', MAX_LIMIT);
    for (const k of [1, 2, 5, 10]) expect(top('builder files data', k)).toEqual(all.slice(0, k));
  });

  it('defaults to 8 candidates', () => {
    expect(
      router.search({
        query:
          'pdf docker kubernetes regex translation chemistry sql csv statistics email parquet terraform',
      }).candidates,
    ).toHaveLength(8);
  });
});

describe('limit bounds', () => {
  it.each([0, -1, 51, 1.5, Number.NaN, '3', null])('limit %s is INVALID_ARGUMENT', (limit) => {
    expect(codeOf(() => router.search({ query: 'pdf', limit: limit as number }))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it.each(['0', '51', 'abc', '2.5'])('--limit %s makes the CLI exit 2', async (limit) => {
    const r = await runCli([
      'search',
      'pdf',
      '--catalog',
      catalog,
      '--limit',
      limit,
      '--json',
      '--no-telemetry',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('accepts 1 and 50', () => {
    expect(router.search({ query: 'pdf', limit: 1 }).candidates).toHaveLength(1);
    expect(
      router.search({
        query:
          'pdf docker kubernetes regex translation chemistry sql csv statistics email parquet terraform',
        limit: 50,
      }).candidates.length,
    ).toBeGreaterThan(8);
  });
});

describe('queries are text, never FTS5 syntax', () => {
  const queries = [
    '"pdf',
    'pdf"',
    '"unbalanced "quotes" here',
    "it's o'clock",
    'NEAR(pdf tables)',
    'NEAR(',
    'NEAR/2',
    'pdf*',
    '*',
    '^pdf',
    '^',
    '-pdf',
    '- -- ---',
    'name:pdf',
    'name_tok:pdf',
    'kw_tok : docker',
    ':',
    'pdf OR docker',
    'OR',
    'AND',
    'NOT',
    'pdf AND NOT docker',
    'pdf NOT',
    '(pdf OR (docker',
    '()',
    ')(',
    '{name_tok kw_tok}: pdf',
    '+pdf +tables',
    'pdf\u0000tables',
    'serving_fts MATCH pdf',
    "pdf'); DROP TABLE serving; --",
    '%_%',
    '\\',
    '\u200bpdf\u200b',
    'ＰＤＦ',
    'Ünïcödé spreadsheet',
    '表格 pdf',
    'x'.repeat(10_000),
    'pdf '.repeat(2_500),
    Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(' '),
    '',
    '   ',
    '\t\n\r ',
    '🚀',
    '🚀📄🔥 ❤️ 1️⃣',
    '!!! ??? ...',
    'the of and a to',
  ];

  it.each(
    queries.map((q) => [
      q.length > 40 ? `${q.slice(0, 30)}… (${q.length} chars)` : JSON.stringify(q),
      q,
    ]),
  )('%s gives a result or INVALID_QUERY', (_label, query) => {
    let result: SearchResult | undefined;
    try {
      result = router.search({ query });
    } catch (err) {
      expect(err).toMatchObject({ code: 'INVALID_QUERY' });
      return;
    }
    expect(result.query).toBe(query);
    for (const c of result.candidates) expect(c.score).toBeGreaterThan(0);
    // The reference scorer agrees on these queries too.
    expect(router.searchBruteForce({ query }).candidates).toEqual(result.candidates);
  });

  it('empty, blank, emoji-only, punctuation-only and stop-word-only queries are INVALID_QUERY', () => {
    for (const q of ['', '   ', '\t\n', '🚀', '🚀📄🔥 ❤️', '!!! ???', 'the of and a to']) {
      expect(
        codeOf(() => router.search({ query: q })),
        JSON.stringify(q),
      ).toBe('INVALID_QUERY');
    }
  });

  it('syntax words and characters are matched as words (NEAR, OR, column:term)', () => {
    expect(top('name:pdf')[0]).toBe('pdf-toolkit');
    expect(top('NEAR(pdf tables)')[0]).toBe('pdf-toolkit');
    expect(top('pdf*')[0]).toBe('pdf-toolkit');
    expect(top('"pdf"')[0]).toBe('pdf-toolkit');
  });

  it('a query that is not a string is INVALID_QUERY', () => {
    expect(codeOf(() => router.search({ query: 42 as unknown as string }))).toBe('INVALID_QUERY');
    expect(codeOf(() => router.search({} as { query: string }))).toBe('INVALID_QUERY');
  });

  it('the CLI exits 2 with INVALID_QUERY for an emoji-only query, and the catalog still answers after', async () => {
    const r = await runCli(['search', '🚀', '--catalog', catalog, '--json', '--no-telemetry']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'INVALID_QUERY' } });
    expect((await runCli(['search', 'pdf', '--catalog', catalog, '--no-telemetry'])).code).toBe(0);
  });
});

describe('byte-identical --json output', () => {
  const QUERIES = [
    'extract tables from a pdf',
    'kuberntes deploymnt',
    'write tests for python code',
    'data',
  ];

  it('with --no-telemetry, two runs print the same bytes', async () => {
    for (const q of QUERIES) {
      const a = await runCli([
        'search',
        q,
        '--catalog',
        catalog,
        '--json',
        '--no-telemetry',
        '--limit',
        '20',
      ]);
      const b = await runCli([
        'search',
        q,
        '--catalog',
        catalog,
        '--json',
        '--no-telemetry',
        '--limit',
        '20',
      ]);
      expect(a.code).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    }
  });

  it.skipIf(ON_PG)(
    'with telemetry on, the same telemetry snapshot gives the same bytes',
    async () => {
      const cat = newCatalogPath();
      indexTree(cat, EXAMPLES);
      const tel = telemetryPathFor(cat);
      // Build a history so the multipliers are not all 1.
      const seeded = new Router({ catalog: cat, now: NOW });
      for (const q of QUERIES) {
        const r = seeded.search({ query: q });
        const c = r.candidates[r.candidates.length - 1]!;
        seeded.fetch({
          skill_id: c.skill_id,
          expected_revision: c.revision_id,
          catalog_generation: r.catalog_generation,
          context: q,
        });
      }
      seeded.close();
      const snapshot = tel + '.snapshot';
      copyFileSync(tel, snapshot);
      const restore = (): void => {
        for (const suffix of ['-wal', '-shm']) if (existsSync(tel + suffix)) rmSync(tel + suffix);
        copyFileSync(snapshot, tel);
      };
      for (const q of QUERIES) {
        restore();
        const a = await runCli(['search', q, '--catalog', cat, '--json', '--limit', '20']);
        restore();
        const b = await runCli(['search', q, '--catalog', cat, '--json', '--limit', '20']);
        expect(a.code).toBe(0);
        expect(b.stdout).toBe(a.stdout);
      }
      const withHistory = (
        JSON.parse(
          (await runCli(['search', QUERIES[0]!, '--catalog', cat, '--json'])).stdout,
        ) as SearchResult
      ).candidates;
      expect(withHistory.some((c: Candidate) => lx(c).telemetry.multiplier !== 1)).toBe(true);
      // The telemetry did move on: without restoring, the next run sees more suggestions.
      const db = new Database(tel, { readonly: true });
      const n = (db.prepare(`SELECT count(*) AS n FROM events`).get() as { n: number }).n;
      db.close();
      expect(n).toBeGreaterThan(0);
    },
  );
});
