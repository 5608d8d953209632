/**
 * The authors' trigger evaluations as routing evidence (issue 34 item 1; src/router/learning/
 * author-sync.ts, src/catalog/side/author.ts, src/router/search/stages/author-evidence.ts):
 * `index` stores each skill's should / should-not requests as `author` examples with their polarity,
 * keeps them in step with the files, caps them, lists them and forgets them for good; `learn` takes
 * negative examples; v4 ranks as if they were not there; a policy that opts in lifts a skill only
 * within the trust bound and lowers a skill only for requests close to its own should-not
 * examples; a hostile skill shipping thousands of requests for popular tasks takes over nothing and
 * lowers no other skill.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import {
  CatalogReader,
  addUsageExamples,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
} from '../../src/catalog/index.js';
import {
  SIDE_VERSION,
  SIDE_STEP_2_SQLITE,
  TELEMETRY_SCHEMA,
  USAGE_SCHEMA,
} from '../../src/catalog/side/side-schema.js';
import {
  MAX_AUTHOR_EXAMPLES_PER_SKILL,
  MAX_AUTHOR_EXAMPLE_CHARS,
} from '../../src/catalog/side/usage-write.js';
import {
  POLICY_V4_ID,
  POLICY_V5_ID,
  forgetExamples,
  indexCatalog,
  learnExamples,
  listExamples,
  type SearchResult,
} from '../../src/internal.js';
import { UsageIndex } from '../../src/router/index.js';
import { SearchCache, bruteForceSearch, searchCatalog } from '../../src/router/search/dispatch.js';
import {
  authorEvidenceEnabled,
  optInAuthorEvidence,
} from '../../src/router/search/stages/author-evidence.js';
import { TRUST_BOUND_K } from '../../src/router/search/trust-bound.js';
import { renderSearch } from '../../src/cli/commands/search-render.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { closeAll, connectInProcess, search as mcpSearch } from '../mcp/support.js';
import { NOW, newCatalogPath, skillText } from '../catalog/support.js';

// New catalogs are v5 (the default) and the v4 tests pass --policy: both opt in to author evidence
// here (no shipped policy ranks with it, docs/ranking.md §9a).
function optInBoth(): () => void {
  const undo = [optInAuthorEvidence(POLICY_V4_ID), optInAuthorEvidence(POLICY_V5_ID)];
  return () => undo.forEach((u) => u());
}

const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r)).join('\n');

/** A small library; `worktree-helper` ships should / should-not requests beside it. */
function library(): { root: string; catalog: string } {
  const root = tmpDir('skilldex-author-');
  const catalog = newCatalogPath('skilldex-author-cat-');
  writeTree(root, {
    'worktree-helper/SKILL.md': skillText('worktree-helper', {
      description: 'Sets up git worktrees so two branches can be checked out side by side.',
    }),
    'worktree-helper/evals/trigger-evals.jsonl': jsonl([
      { query: 'make a separate worktree for the hotfix branch', should_trigger: true },
      { query: 'check out two branches at once in parallel folders', should_trigger: true },
      { query: 'rebase my feature branch onto main and fix conflicts', should_trigger: false },
      // An item naming another skill is not this skill's to store.
      { query: 'write the commit message', skill: 'commit-writer', should_trigger: true },
    ]),
    'rebase-helper/SKILL.md': skillText('rebase-helper', {
      description: 'Rebases git branches interactively and resolves merge conflicts.',
    }),
    'commit-writer/SKILL.md': skillText('commit-writer', {
      description: 'Writes a conventional commit message from the staged diff.',
    }),
    'weather/SKILL.md': skillText('weather', { description: 'Forecasts for a city.' }),
  });
  return { root, catalog };
}

function index(root: string, catalog: string): void {
  indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
}

function usageOf(catalog: string): UsageIndex {
  return new UsageIndex(readUsage(telemetryPathFor(catalog)).examples);
}

function search(catalog: string, query: string, usage = usageOf(catalog), limit = 8): SearchResult {
  const reader = new CatalogReader(catalog);
  try {
    return searchCatalog(reader, new SearchCache(), { query, limit }, { usage });
  } finally {
    reader.close();
  }
}

const ids = (r: SearchResult): string[] => r.candidates.map((c) => c.skill_id);

describe('index reads each skill’s own trigger evaluations as author examples', () => {
  it('stores should / should-not requests with their polarity, only for their own skill, and lists them', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const list = listExamples({ catalog, source: 'author' });
    expect(list.counts.author).toBe(3);
    expect(list.examples.map((e) => [e.skill_id, e.query, e.source, e.polarity]).sort()).toEqual(
      [
        ['worktree-helper', 'make a separate worktree for the hotfix branch', 'author', 'positive'],
        [
          'worktree-helper',
          'check out two branches at once in parallel folders',
          'author',
          'positive',
        ],
        [
          'worktree-helper',
          'rebase my feature branch onto main and fix conflicts',
          'author',
          'negative',
        ],
      ].sort(),
    );
  });

  it('re-index keeps them in step with the files: edits follow, a removed file removes its examples, ids stay', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const before = listExamples({ catalog, source: 'author' }).examples;
    const file = path.join(root, 'worktree-helper/evals/trigger-evals.jsonl');
    writeFileSync(
      file,
      jsonl([
        { query: 'make a separate worktree for the hotfix branch', should_trigger: true },
        { query: 'add a worktree for the release', should_trigger: true },
      ]),
    );
    index(root, catalog);
    const after = listExamples({ catalog, source: 'author' }).examples;
    expect(after.map((e) => e.query).sort()).toEqual(
      ['add a worktree for the release', 'make a separate worktree for the hotfix branch'].sort(),
    );
    // The example still in the file keeps its row (and the id forget takes).
    const kept = (l: typeof before) =>
      l.find((e) => e.query === 'make a separate worktree for the hotfix branch')!.id;
    expect(kept(after)).toBe(kept(before));
    rmSync(file);
    index(root, catalog);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(0);
  });

  it('a folder the walk finds holding its SKILL.md alone is not walked again; a file added there is read by the next index', () => {
    const { root, catalog } = library();
    index(root, catalog);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(3);
    // weather/ held SKILL.md alone: its author examples are none, without a second walk of it.
    writeTree(root, {
      'weather/trigger-evals.json': JSON.stringify([
        { query: 'will it rain in paris tomorrow', should_trigger: true },
      ]),
    });
    index(root, catalog);
    const weather = listExamples({ catalog, source: 'author' }).examples.filter(
      (e) => e.skill_id === 'weather',
    );
    expect(weather.map((e) => [e.query, e.polarity])).toEqual([
      ['will it rain in paris tomorrow', 'positive'],
    ]);
  });

  it('an author example forgotten stays forgotten when the next index reads the file again', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const neg = listExamples({ catalog, source: 'author' }).examples.find(
      (e) => e.polarity === 'negative',
    )!;
    expect(forgetExamples({ catalog, example: neg.id }).removed).toBe(1);
    index(root, catalog);
    const left = listExamples({ catalog, source: 'author' }).examples;
    expect(left).toHaveLength(2);
    expect(left.every((e) => e.polarity === 'positive')).toBe(true);
  });

  it('index applies no retention to learned examples (it does not know the user’s), at its own clock', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const old = new Date(NOW().getTime() - 300 * 86_400_000);
    learnExamples({
      catalog,
      file: 'x.jsonl',
      text: jsonl([{ query: 'forecast for Bergen', skill_id: 'weather' }]),
      now: () => old,
      retentionDays: 400,
    });
    rmSync(path.join(root, 'worktree-helper/evals/trigger-evals.jsonl'));
    index(root, catalog);
    const left = listExamples({ catalog }).examples;
    expect(left.map((e) => [e.source, e.query])).toEqual([['import', 'forecast for Bergen']]);
  });

  it('caps what one skill can store (count per polarity and length)', () => {
    const { root, catalog } = library();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      query: `deploy service ${i} to kubernetes ${'x'.repeat(i === 0 ? 5_000 : 0)}`,
      should_trigger: i % 2 === 0,
    }));
    writeTree(root, { 'weather/evals/trigger-evals.jsonl': jsonl(rows) });
    index(root, catalog);
    const mine = listExamples({ catalog, skill_id: 'weather', limit: 10_000 }).examples;
    expect(mine.filter((e) => e.polarity === 'positive')).toHaveLength(
      MAX_AUTHOR_EXAMPLES_PER_SKILL,
    );
    expect(mine.filter((e) => e.polarity === 'negative')).toHaveLength(
      MAX_AUTHOR_EXAMPLES_PER_SKILL,
    );
    expect(Math.max(...mine.map((e) => e.query.length))).toBeLessThanOrEqual(
      MAX_AUTHOR_EXAMPLE_CHARS,
    );
  });
});

describe('the side store of version 2', () => {
  it('is migrated to version 3 by its first writer: rows and ids kept as positive, author rows accepted', () => {
    const file = path.join(tmpDir('skilldex-side-v2-'), 'catalog.sqlite.telemetry.sqlite');
    const old = new Database(file);
    old.exec(TELEMETRY_SCHEMA + USAGE_SCHEMA + SIDE_STEP_2_SQLITE);
    old.pragma('user_version = 2');
    old
      .prepare(
        `INSERT INTO usage_examples (skill_id, query, source, at, client, session, key) VALUES ('pdf', 'old', 'host', ?, 'codex', 's', 'k1')`,
      )
      .run(NOW().toISOString());
    old.close();
    const db = openUsageForWrite(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SIDE_VERSION);
      expect(SIDE_VERSION).toBe(3);
      addUsageExamples(
        db,
        [{ skill_id: 'pdf', query: 'merge pdfs', polarity: 'negative' }],
        'author',
        NOW().toISOString(),
      );
    } finally {
      db.close();
    }
    expect(readUsage(file).examples.map((e) => [e.id, e.query, e.source, e.polarity])).toEqual([
      [1, 'old', 'host', 'positive'],
      [2, 'merge pdfs', 'author', 'negative'],
    ]);
  });
});

describe('learn takes negative examples', () => {
  it('"should_trigger": false stores a negative import example; a non-boolean is INVALID_INPUT_FILE', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const r = learnExamples({
      catalog,
      file: 'x.jsonl',
      text: jsonl([
        {
          query: 'what is the weather in the commit log',
          skill_id: 'weather',
          should_trigger: false,
        },
        { query: 'forecast for Oslo', skill_id: 'weather' },
      ]),
      now: NOW,
    });
    expect(r.added).toBe(2);
    const mine = listExamples({ catalog, skill_id: 'weather', source: 'import' }).examples;
    expect(mine.map((e) => [e.query, e.polarity]).sort()).toEqual(
      [
        ['forecast for Oslo', 'positive'],
        ['what is the weather in the commit log', 'negative'],
      ].sort(),
    );
    expect(() =>
      learnExamples({
        catalog,
        file: 'bad.jsonl',
        text: jsonl([{ query: 'q', skill_id: 'weather', should_trigger: 'no' }]),
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_INPUT_FILE' }));
  });
});

describe('ranking with author evidence', () => {
  let root: string;
  let catalog: string;
  beforeAll(() => {
    ({ root, catalog } = library());
    index(root, catalog);
  });
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('is gated: v4 and v5 rank as if no author example existed; only an opted-in policy uses them', () => {
    expect(authorEvidenceEnabled(POLICY_V4_ID)).toBe(false);
    // v5 leaves it off on the cross-validated figures (docs/ranking.md §9a).
    expect(authorEvidenceEnabled(POLICY_V5_ID)).toBe(false);
    for (const q of [
      'rebase my feature branch onto main and fix conflicts',
      'make a separate worktree for the hotfix branch',
      'git branches',
    ]) {
      const withAuthor = search(catalog, q);
      const without = search(catalog, q, UsageIndex.EMPTY);
      expect(withAuthor.candidates).toEqual(without.candidates);
    }
  });

  it('a should-not example lowers only its own skill, for requests close to it, and says so (CLI, MCP)', async () => {
    const q = 'rebase my feature branch onto main, fix the conflicts';
    const off = search(catalog, q);
    restore = optInBoth();
    const on = search(catalog, q);
    const own = (r: SearchResult) => r.candidates.find((c) => c.skill_id === 'worktree-helper');
    expect(own(off)).toBeDefined();
    expect(own(on)!.score).toBeLessThan(own(off)!.score);
    expect(own(on)!.explanation.author).toMatchObject({ effect: 'penalty' });
    expect(own(on)!.explanation.author!.matched[0]).toMatchObject({
      query: 'rebase my feature branch onto main and fix conflicts',
      source: 'author',
      polarity: 'negative',
    });
    expect(own(on)!.explanation.author!.factor).toBeLessThan(1);
    // The why line names the example and the penalty.
    expect(renderSearch(on)).toContain('author examples: penalty ×');
    expect(renderSearch(on)).toContain('should-not "rebase my feature branch');
    // Every other skill keeps its score.
    for (const c of on.candidates.filter((c) => c.skill_id !== 'worktree-helper'))
      expect(c.score).toBe(off.candidates.find((o) => o.skill_id === c.skill_id)!.score);
    expect(ids(on)[0]).toBe('rebase-helper');
    // MCP's skill_search returns the same explanation.
    const conn = await connectInProcess({ catalog });
    try {
      const wire = await mcpSearch(conn.client, q);
      const c = wire.candidates.find((x) => x.skill_id === 'worktree-helper')!;
      expect((c.explanation as { author?: unknown }).author).toEqual(own(on)!.explanation.author);
    } finally {
      await closeAll();
    }
    // A request far from the should-not example is not penalised.
    const far = search(catalog, 'set up a worktree for the hotfix');
    expect(far.candidates[0]!.skill_id).toBe('worktree-helper');
    expect(far.candidates[0]!.explanation.author?.effect).not.toBe('penalty');
  });
});

describe('the fast path and the reference scorer agree under author evidence', () => {
  it('searchCatalog = bruteForceSearch with author and negative examples, opted in', () => {
    const { root, catalog } = library();
    index(root, catalog);
    const restore = optInBoth();
    const reader = new CatalogReader(catalog);
    try {
      const usage = usageOf(catalog);
      for (const query of [
        'rebase my feature branch onto main, fix the conflicts',
        'make a separate worktree for the hotfix branch',
        'git branches side by side',
        'commit message for the staged diff',
      ]) {
        const fast = searchCatalog(reader, new SearchCache(), { query, limit: 5 }, { usage });
        const slow = bruteForceSearch(reader, { query, limit: 5 }, { usage });
        expect(fast.candidates.map((c) => [c.skill_id, c.score, c.explanation.author])).toEqual(
          slow.candidates.map((c) => [c.skill_id, c.score, c.explanation.author]),
        );
      }
    } finally {
      reader.close();
      restore();
    }
  });
});

describe('not a hijack vector', () => {
  const POPULAR = [
    'write a commit message for these changes',
    'deploy to kubernetes',
    'forecast for Oslo tomorrow',
    'rebase my branch onto main',
    'set up a worktree for the hotfix',
  ];
  let root: string;
  let catalog: string;
  let restore: () => void;
  beforeAll(() => {
    ({ root, catalog } = library());
    const fillers: Record<string, string> = {};
    // Enough skills about deploys that the unlearned top K is full without the hostile one.
    for (let i = 0; i < TRUST_BOUND_K + 2; i++)
      fillers[`deploy-${i}/SKILL.md`] = skillText(`deploy-${i}`, {
        description: `Deploys services to kubernetes clusters, variant ${i}.`,
      });
    const should = Array.from({ length: 4_000 }, (_, i) => ({
      query: `${POPULAR[i % POPULAR.length]} please ${i % 7 === 0 ? 'now' : ''}`,
      should_trigger: true,
    }));
    const shouldNot = ['commit-writer', 'rebase-helper', 'weather', 'deploy-0'].flatMap((s) =>
      Array.from({ length: 500 }, () => ({
        query: `${s} ${POPULAR.join(' ')}`,
        should_trigger: false,
      })),
    );
    const naming = ['commit-writer', 'rebase-helper', 'weather'].map((s) => ({
      query: POPULAR.join(' '),
      skill: s,
      should_trigger: false,
    }));
    writeTree(root, {
      ...fillers,
      'watercolour/SKILL.md': skillText('watercolour', {
        description: 'Paints watercolour landscapes on textured paper.',
      }),
      'watercolour/evals/evals.json': JSON.stringify({
        skill_name: 'watercolour',
        evals: [...should, ...shouldNot, ...naming],
      }),
    });
    index(root, catalog);
    restore = optInBoth();
  });
  afterAll(() => restore());

  it('stays bounded in the catalog', () => {
    const all = listExamples({ catalog, source: 'author', limit: 100_000 }).examples;
    expect(all.every((e) => e.skill_id === 'watercolour' || e.skill_id === 'worktree-helper')).toBe(
      true,
    );
    expect(all.filter((e) => e.skill_id === 'watercolour').length).toBeLessThanOrEqual(
      2 * MAX_AUTHOR_EXAMPLES_PER_SKILL,
    );
  });

  it('takes over no popular request where it is not in the unlearned top K, and lowers no other skill', () => {
    const unlearned = (q: string) => search(catalog, q, UsageIndex.EMPTY, TRUST_BOUND_K);
    const withAuthor = (q: string) => search(catalog, q);
    let checked = 0;
    for (const q of POPULAR) {
      const cold = unlearned(q);
      if (ids(cold).includes('watercolour')) continue;
      checked++;
      const r = withAuthor(q);
      expect(r.candidates[0]?.skill_id, q).not.toBe('watercolour');
      // Only a skill's own should-not examples can lower it: no other skill is penalised.
      for (const c of r.candidates)
        if (c.skill_id !== 'worktree-helper')
          expect(c.explanation.author?.effect ?? 'none', `${q}: ${c.skill_id}`).not.toBe('penalty');
    }
    expect(checked).toBe(POPULAR.length);
    // Without the bound the hostile examples would have taken some of them (so the test can fail).
    const reader = new CatalogReader(catalog);
    try {
      const taken = POPULAR.filter(
        (query) =>
          searchCatalog(
            reader,
            new SearchCache(),
            { query, limit: 3 },
            { usage: usageOf(catalog), trustBound: false },
          ).candidates[0]?.skill_id === 'watercolour',
      );
      expect(taken.length).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
  });
});
