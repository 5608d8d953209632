/**
 * The trust bound of learning (src/router/search/trust-bound.ts, docs/ranking.md §9): a skill
 * outside the first TRUST_BOUND_K of the ranking with only `import` and `host` examples is never
 * ranked first once `fetch` examples are added. A property over random libraries, trusted examples
 * and hostile fetch examples from many clients and sessions (v3 and v4, fast path = brute force
 * under the bound, places below the first untouched), and the edge cases: the skill at trusted rank
 * K + 1 and at K, an imported or host example lifting a skill from outside the top K, no trusted
 * candidate at all, the explanation notes, a catalog without fetch examples unchanged.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogReader,
  addUsageExamples,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
  type ExampleSource,
  type NewUsageExample,
  type UsageExample,
} from '../../src/catalog/index.js';
import {
  POLICY_V4_ID,
  POLICY_V5_ID,
  Router,
  indexCatalog,
  learnExamples,
  type SearchRequest,
  type SearchResult,
} from '../../src/internal.js';
import { UsageIndex } from '../../src/router/index.js';
import {
  SearchCache,
  bruteForceSearch,
  searchCatalog,
  type SearchOptions,
} from '../../src/router/search/dispatch.js';
import {
  TRUST_BOUND_K,
  applyTrustBound,
  type TrustBoundNote,
} from '../../src/router/search/trust-bound.js';
import type { HistoryFn, RankedCandidate } from '../../src/router/search/types.js';
import { sanitizeField } from '../../src/text/index.js';
import { runCli, tmpDir, writeTree } from '../support/cli.js';
import { NOW, ON_PG, newCatalogPath, propertyRuns, skillText } from '../catalog/support.js';
import { buildLibrary, idOf, libraryArb, queryArb, VOCAB, type GenSkill } from './support.js';

const AT = '2025-01-02T03:04:05.000Z';

/** Writes examples of one source, each from its own client and session when `origins` says so. */
function store(
  catalog: string,
  source: ExampleSource,
  examples: readonly NewUsageExample[],
  origin: { client?: string; session?: string } = {},
): void {
  const db = openUsageForWrite(telemetryPathFor(catalog));
  try {
    addUsageExamples(db, examples, source, AT, origin);
  } finally {
    db.close();
  }
}

function examplesOf(catalog: string): readonly UsageExample[] {
  return readUsage(telemetryPathFor(catalog)).examples;
}

const note = (r: SearchResult, i: number): TrustBoundNote | undefined =>
  r.candidates[i]?.explanation.trust_bound;
const ids = (r: SearchResult): string[] => r.candidates.map((c) => c.skill_id);

/** One hostile campaign: a skill, the words fetched with, how many clients and sessions each. */
interface Attack {
  readonly skill: number;
  readonly words: readonly string[];
  /** Use the n-th generated query as the context instead of `words` (the targeted attack). */
  readonly query: number | null;
  readonly clients: number;
  readonly sessions: number;
}

const attackArb = (skills: number): fc.Arbitrary<Attack> =>
  fc.record({
    skill: fc.nat(skills - 1),
    words: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }),
    query: fc.option(fc.nat(2), { nil: null }),
    clients: fc.integer({ min: 1, max: 6 }),
    sessions: fc.integer({ min: 1, max: 5 }),
  });

const trustedArb = (skills: number): fc.Arbitrary<[number, string[], boolean][]> =>
  fc.array(
    fc.tuple(
      fc.nat(skills - 1),
      fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }),
      fc.boolean(),
    ),
    { maxLength: 8 },
  );

describe('trust bound (property)', () => {
  let applied = 0;
  afterAll(() => {
    // The attacks are strong enough that the bound had to act on some runs, else this proved
    // nothing (about 8 answers in 30 runs; PostgreSQL's few runs may see none).
    if (!ON_PG) expect(applied).toBeGreaterThan(0);
  });

  it('a skill outside the first K with only import and host examples is never first with fetch examples; fast = brute', () => {
    fc.assert(
      fc.property(
        libraryArb(3, 30).chain((skills) =>
          fc.tuple(
            fc.constant(skills),
            trustedArb(skills.length),
            fc.array(attackArb(skills.length), { minLength: 1, maxLength: 6 }),
            fc.array(queryArb, { minLength: 1, maxLength: 3 }),
            fc.constantFrom(POLICY_V4_ID, POLICY_V5_ID),
          ),
        ),
        ([skills, trusted, attacks, queries, policy]) => {
          applied += checkLibrary(skills, trusted, attacks, queries, policy);
        },
      ),
      { numRuns: propertyRuns(30) },
    );
  }, 600_000);
});

// Builds one random library with its examples and checks the bound on each query; answers how
// many answers the bound changed.
function checkLibrary(
  skills: readonly GenSkill[],
  trusted: readonly [number, string[], boolean][],
  attacks: readonly Attack[],
  queries: readonly { query: string; include_deprecated: boolean }[],
  policy: string,
): number {
  const lib = buildLibrary(skills, { policy, telemetry: false });
  let changed = 0;
  try {
    const id = (i: number): string => idOf(skills[i]!, i);
    for (const [i, ws, host] of trusted) {
      const ex = { skill_id: id(i), query: ws.join(' '), session: `h${i}`, key: `k${i}${ws}` };
      store(lib.catalog, host ? 'host' : 'import', [ex]);
    }
    for (const a of attacks) {
      const context =
        a.query !== null && queries[a.query] ? queries[a.query]!.query : a.words.join(' ');
      for (let c = 0; c < a.clients; c++)
        for (let s = 0; s < a.sessions; s++)
          store(lib.catalog, 'fetch', [{ skill_id: id(a.skill), query: context }], {
            client: `mcp:evil-${c}`,
            session: `c${c}-s${s}`,
          });
    }
    const all = examplesOf(lib.catalog);
    const full = new UsageIndex(all);
    const trustedOnly = new UsageIndex(all.filter((e) => e.source !== 'fetch'));
    const history = historyOf(skills);
    const reader = new CatalogReader(lib.catalog);
    try {
      for (const q of queries)
        changed += checkQuery(reader, q, { usage: full, history }, trustedOnly);
    } finally {
      reader.close();
    }
  } finally {
    lib.cleanup();
  }
  return changed;
}

function historyOf(skills: readonly GenSkill[]): HistoryFn {
  const m = new Map(skills.map((s, i) => [idOf(s, i), s.history] as const));
  return (skillId) => m.get(skillId) ?? { suggestions: 0, fetches: 0 };
}

type Outcome = { ok: true; result: SearchResult } | { ok: false; code: string };
function attempt(fn: () => SearchResult): Outcome {
  try {
    return { ok: true, result: fn() };
  } catch (err) {
    return { ok: false, code: (err as { code?: string }).code ?? String(err) };
  }
}

function checkQuery(
  reader: CatalogReader,
  q: { query: string; include_deprecated: boolean },
  options: SearchOptions & { usage: UsageIndex },
  trustedOnly: UsageIndex,
): number {
  const req = (limit: number): SearchRequest => ({
    query: q.query,
    limit,
    include_deprecated: q.include_deprecated,
  });
  const cold = attempt(() =>
    // T: the trusted examples and no telemetry.
    searchCatalog(reader, new SearchCache(), req(TRUST_BOUND_K), { usage: trustedOnly }),
  );
  if (!cold.ok) return 0;
  const top = new Set(ids(cold.result));
  // The trusted ranking with telemetry: where no fetch example can change the ranking (no usage
  // field holds a word of q), the answer is this ranking and telemetry alone may lead it.
  const warm = searchCatalog(reader, new SearchCache(), req(TRUST_BOUND_K), {
    ...options,
    usage: trustedOnly,
  });
  const unbounded = searchCatalog(reader, new SearchCache(), req(50), {
    ...options,
    trustBound: false,
  });
  let changed = 0;
  const cache = new SearchCache();
  for (const limit of [1, 3, 8, 20]) {
    const fast = searchCatalog(reader, cache, req(limit), options);
    const slow = bruteForceSearch(reader, req(limit), options);
    expect(fast, `${JSON.stringify(q.query)} limit ${limit}`).toEqual(slow);
    const first = fast.candidates[0];
    // The bound itself: the first is in T, or the bound did not apply (no note, the answer is the
    // ranking with every example, led by the trusted ranking's own first).
    if (first && !top.has(first.skill_id)) {
      expect(note(fast, 0), `${first.skill_id} first`).toBeUndefined();
      expect(first.skill_id).toBe(warm.candidates[0]?.skill_id);
      expect(first.skill_id).toBe(unbounded.candidates[0]?.skill_id);
    }
    // Below the first, the answer is the ranking with every example, the skill put first left out.
    const rest = ids(unbounded).filter((s) => s !== first?.skill_id);
    if (first) expect(ids(fast).slice(1)).toEqual(rest.slice(0, fast.candidates.length - 1));
    // A candidate the bound moved says so; one it did not move says nothing.
    const moved = first !== undefined && first.skill_id !== unbounded.candidates[0]?.skill_id;
    expect(note(fast, 0)?.role).toBe(moved ? 'first' : undefined);
    if (limit === 8 && (moved || (first === undefined && unbounded.candidates.length > 0)))
      changed++;
  }
  return changed;
}

/** A library of 15 skills that all match "ledger", ranked by how much of their text it is. */
function ledgerLibrary(policy: string): { catalog: string; ids: string[] } {
  const root = tmpDir('skilldex-trust-');
  const catalog = newCatalogPath('skilldex-trust-cat-');
  const names: string[] = [];
  for (let i = 0; i < 15; i++) {
    const name = `ledger-tool-${String(i).padStart(2, '0')}`;
    names.push(name);
    const filler = Array.from({ length: i }, (_, j) => VOCAB[(j * 7 + i) % 40]).join(' ');
    writeTree(root, {
      [path.join(name, 'SKILL.md')]: skillText(name, {
        description: `Keeps a ledger ${filler}.`,
      }),
    });
  }
  writeTree(root, {
    [path.join('weather-report', 'SKILL.md')]: skillText('weather-report', {
      description: 'Forecasts for a city.',
    }),
  });
  indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW, policy });
  return { catalog, ids: names };
}

describe.each([
  ['v4', POLICY_V4_ID],
  ['v5', POLICY_V5_ID],
])('trust bound edge cases (%s)', (_name, policy) => {
  let catalog: string;
  let cold: string[];
  let reader: CatalogReader;
  beforeAll(() => {
    catalog = ledgerLibrary(policy).catalog;
    reader = new CatalogReader(catalog);
    cold = ids(searchCatalog(reader, new SearchCache(), { query: 'ledger', limit: 20 }));
    expect(cold.length).toBeGreaterThan(TRUST_BOUND_K + 1);
  });
  afterAll(() => reader.close());

  const search = (query: string, extra: SearchOptions = {}): SearchResult =>
    searchCatalog(
      reader,
      new SearchCache(),
      { query, limit: 5 },
      { usage: new UsageIndex(examplesOf(catalog)), ...extra },
    );
  const forget = (): void => {
    const db = openUsageForWrite(telemetryPathFor(catalog));
    try {
      db.prepare('DELETE FROM usage_examples').run();
    } finally {
      db.close();
    }
  };
  // Full-weight fetch examples: 4 sessions of each of 3 clients.
  const attack = (skill: string, query = 'ledger'): void => {
    for (let c = 0; c < 3; c++)
      for (let s = 0; s < 4; s++)
        store(catalog, 'fetch', [{ skill_id: skill, query: `${query} ${query} ${query}` }], {
          client: `mcp:c${c}`,
          session: `c${c}-s${s}`,
        });
  };

  it('the skill at trusted rank K + 1 is not first, however many sessions fetch it; without the bound it would be', () => {
    forget();
    const target = cold[TRUST_BOUND_K]!;
    attack(target);
    expect(search('ledger', { trustBound: false }).candidates[0]!.skill_id).toBe(target);
    const r = search('ledger');
    expect(r.candidates[0]!.skill_id).not.toBe(target);
    expect(cold.slice(0, TRUST_BOUND_K)).toContain(r.candidates[0]!.skill_id);
    // It keeps its place right after the skill put first, and both say why.
    expect(r.candidates[1]!.skill_id).toBe(target);
    expect(note(r, 0)).toEqual({ k: TRUST_BOUND_K, role: 'first', skill: target });
    expect(note(r, 1)).toEqual({
      k: TRUST_BOUND_K,
      role: 'held_back',
      skill: r.candidates[0]!.skill_id,
    });
    expect(note(r, 2)).toBeUndefined();
  });

  it('the skill at trusted rank K may be lifted to first by fetch examples', () => {
    forget();
    const target = cold[TRUST_BOUND_K - 1]!;
    attack(target);
    const r = search('ledger');
    expect(r.candidates[0]!.skill_id).toBe(target);
    expect(note(r, 0)).toBeUndefined();
  });

  it.each(['import', 'host'] as const)(
    'an %s example lifts a skill from outside the top K to first',
    (source) => {
      forget();
      const target = cold[cold.length - 1]!;
      for (let i = 0; i < 12; i++)
        store(catalog, source, [
          { skill_id: target, query: `ledger ledger ${i}`, session: `s${i}`, key: `k${i}` },
        ]);
      const r = search('ledger');
      expect(r.candidates[0]!.skill_id).toBe(target);
      expect(note(r, 0)).toBeUndefined();
      // Fetch examples for the same skill on top of them are fine too: it is in the trusted top K.
      attack(target);
      expect(search('ledger').candidates[0]!.skill_id).toBe(target);
    },
  );

  it('when only fetch examples match the request, nothing is ranked first: the answer is empty', () => {
    forget();
    attack(cold[0]!, 'zanzibar');
    expect(search('zanzibar', { trustBound: false }).candidates.length).toBeGreaterThan(0);
    const r = search('zanzibar');
    expect(r.candidates).toEqual([]);
    expect(r.abstain).toBe(true);
  });

  it('without fetch examples the ranking is the same with or without the bound', () => {
    forget();
    learnExamples({
      catalog,
      text: JSON.stringify({ query: 'ledger keeping', skill_id: cold[12]! }),
      file: 'x.jsonl',
      now: NOW,
    });
    expect(search('ledger')).toEqual(search('ledger', { trustBound: false }));
    expect(search('ledger keeping')).toEqual(search('ledger keeping', { trustBound: false }));
  });
});

describe('applyTrustBound', () => {
  const cand = (skill_id: string, score: number): RankedCandidate => ({
    skill_id,
    skill_version: '1',
    revision_id: 'r',
    catalog_generation: 'g',
    name: skill_id,
    description: '',
    state: 'active',
    score,
    explanation: { policy: 'p' } as unknown as RankedCandidate['explanation'],
  });

  it('quotes a skill id through the sanitiser in the notes', () => {
    const evil = 'evil\u001b[2J\u202eid';
    const out = applyTrustBound({
      full: [cand(evil, 9), cand('good', 5)],
      n: 2,
      trusted: [cand('good', 4)],
      score: () => [],
    });
    expect(out.map((c) => c.skill_id)).toEqual(['good', evil]);
    expect(out[0]!.explanation.trust_bound!.skill).toBe(sanitizeField(evil));
    expect(out[0]!.explanation.trust_bound!.skill).not.toMatch(/[\u001b\u202e]/);
  });

  it('scores the trusted skills when none is among the candidates, and keeps n', () => {
    const out = applyTrustBound({
      full: [cand('a', 9), cand('b', 8), cand('c', 7)],
      n: 3,
      trusted: [cand('t1', 3), cand('t2', 2), cand('t0', 1)],
      score: (wanted) => {
        expect([...wanted].sort()).toEqual(['t0', 't1', 't2']);
        return [cand('t1', 1), cand('t2', 2), cand('t0', 0)];
      },
    });
    expect(out.map((c) => [c.skill_id, c.explanation.trust_bound?.role])).toEqual([
      ['t2', 'first'],
      ['a', 'held_back'],
      ['b', 'held_back'],
    ]);
  });

  it('answers nothing when no trusted skill scores, and the ranking itself when its first is trusted', () => {
    const full = [cand('a', 9), cand('b', 8)];
    expect(
      applyTrustBound({ full, n: 2, trusted: [cand('x', 1)], score: () => [cand('x', 0)] }),
    ).toEqual([]);
    expect(applyTrustBound({ full, n: 2, trusted: [], score: () => [] })).toEqual([]);
    expect(applyTrustBound({ full, n: 2, trusted: [cand('a', 1)], score: () => [] })).toEqual(full);
  });
});

describe('trust bound through the Router (real fetch path)', () => {
  it('fetches from many clients and sessions do not make a skill outside the trusted top K first', async () => {
    const { catalog } = ledgerLibrary(POLICY_V4_ID);
    const router = new Router({ catalog, now: NOW });
    try {
      const cold = ids(router.search({ query: 'ledger', limit: 20 }));
      const target = cold[TRUST_BOUND_K]!;
      const s = router.getSkill(target);
      for (let c = 0; c < 4; c++)
        for (let i = 0; i < 4; i++)
          router.fetch(
            {
              skill_id: target,
              expected_revision: s.revision_id,
              catalog_generation: s.catalog_generation,
              context: 'ledger ledger ledger',
            },
            { client: `mcp:client-${c}`, session: `client-${c}-session-${i}` },
          );
      expect(examplesOf(catalog).find((e) => e.skill_id === target)).toMatchObject({
        source: 'fetch',
        weight: 1,
      });
      // The reference scorer first: a search records suggestions, which the next one ranks with.
      const slow = router.searchBruteForce({ query: 'ledger', limit: 5 });
      const r = router.search({ query: 'ledger', limit: 5 });
      expect(r).toEqual(slow);
      expect(r.candidates[0]!.skill_id).not.toBe(target);
      expect(r.candidates[1]!.skill_id).toBe(target);
      expect(note(r, 0)).toMatchObject({ role: 'first', skill: target });
      // The CLI's explanation line says so too (a SQLite catalog: the CLI run has no server env).
      if (!ON_PG) {
        const cli = await runCli(['search', 'ledger', '--catalog', catalog, '--limit', '5']);
        expect(cli.stdout).toContain(`trust bound: put first over ${target},`);
        expect(cli.stdout).toContain('trust bound: held back behind ');
      }
    } finally {
      router.close();
    }
  });
});
