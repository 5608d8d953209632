/**
 * Generators for the router property tests: random skill libraries written as real SKILL.md trees
 * from a small vocabulary (so words collide across skills, inflect, carry digits and diacritics),
 * random lifecycle states and telemetry histories, and random queries mixing catalog words, typos
 * of them, stop-words, case and punctuation.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { isPgLocation, openUsageForWrite } from '../../src/catalog/index.js';
import { TELEMETRY_SCHEMA } from '../../src/catalog/side/side-schema.js';
import {
  changeLifecycle,
  publishCatalog,
  telemetryPathFor,
  type Router,
  type SearchRequest,
  type SearchResult,
} from '../../src/internal.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { NOW, indexTree, newCatalogPath, skillText } from '../catalog/support.js';

/** Words the generated skills and queries are made of: inflections, near-misses, digits, diacritics. */
export const VOCAB = [
  'data',
  'date',
  'dates',
  'table',
  'tables',
  'tabular',
  'chart',
  'charts',
  'charting',
  'plot',
  'plots',
  'plotting',
  'deploy',
  'deploys',
  'deploying',
  'deployment',
  'image',
  'images',
  'imaging',
  'parse',
  'parser',
  'parsing',
  'report',
  'reports',
  'reporting',
  'cluster',
  'clusters',
  'kubernetes',
  'schema',
  'schemas',
  'scheme',
  'invoice',
  'invoices',
  'ledger',
  'stream',
  'streams',
  'string',
  'strings',
  'test',
  'tests',
  'testing',
  'tester',
  'pdf',
  'csv',
  'json',
  'jsonl',
  'yaml',
  'api',
  'apis',
  'map',
  'maps',
  'mapping',
  'model',
  'models',
  'modeling',
  'file',
  'files',
  'convert',
  'converter',
  'query',
  'queries',
  'sql',
  'python',
  'pythonic',
  'review',
  'reviewer',
  'x1',
  'v2',
  '2024',
  'café',
  'cafe',
  'naïve',
  'naive',
  'straße',
  'über',
  'résumé',
  'resume',
] as const;

/** Stop-words and request filler that queries and descriptions may contain. */
export const FILLER = [
  'the',
  'a',
  'of',
  'and',
  'to',
  'with',
  'for',
  'please',
  'help',
  'find',
  'me',
] as const;

/** One generated skill (its name is made unique by its index). */
export interface GenSkill {
  readonly nameWords: readonly string[];
  readonly description: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly state: 'active' | 'deprecated' | 'archived';
  readonly history: { readonly suggestions: number; readonly fetches: number } | undefined;
}

const word = fc.constantFrom(...VOCAB);

/** A generated skill. */
export const skillArb: fc.Arbitrary<GenSkill> = fc.record({
  nameWords: fc.array(word, { minLength: 1, maxLength: 3 }),
  description: fc.array(
    fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: fc.constantFrom(...FILLER) }),
    { minLength: 1, maxLength: 14 },
  ),
  keywords: fc.array(
    fc.array(word, { minLength: 1, maxLength: 2 }).map((ws) => ws.join(' ')),
    { maxLength: 4 },
  ),
  tags: fc.array(word, { maxLength: 3 }),
  state: fc.constantFrom('active', 'active', 'active', 'deprecated', 'archived'),
  history: fc.option(fc.record({ suggestions: fc.nat(120), fetches: fc.nat(120) }), {
    nil: undefined,
  }),
});

/** A generated library of `min`–`max` skills. */
export function libraryArb(min = 5, max = 60): fc.Arbitrary<GenSkill[]> {
  return fc.array(skillArb, { minLength: min, maxLength: max });
}

/** The skill id of generated skill `i`. */
export function idOf(s: GenSkill, i: number): string {
  return `${s.nameWords.join('-')}-k${i}`;
}

/** The SKILL.md text of generated skill `i` (descriptions mix separators so tokenising matters). */
export function textOf(s: GenSkill, i: number): string {
  const description =
    s.description.map((w, j) => (j % 5 === 4 ? `${w},` : j % 7 === 6 ? `${w}-` : w)).join(' ') +
    '.';
  return skillText(idOf(s, i), { description, keywords: s.keywords, tags: s.tags });
}

/** Applies one typo (deletion, substitution, insertion or transposition) at a position. */
export function typo(w: string, kind: number, at: number, letter: string): string {
  const i = at % Math.max(1, w.length);
  switch (kind % 4) {
    case 0:
      return w.length > 1 ? w.slice(0, i) + w.slice(i + 1) : w + letter;
    case 1:
      return w.slice(0, i) + letter + w.slice(i + 1);
    case 2:
      return w.slice(0, i) + letter + w.slice(i);
    default:
      return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : letter + w;
  }
}

const queryWord = fc.oneof(
  { weight: 4, arbitrary: word },
  {
    weight: 3,
    arbitrary: fc
      .tuple(word, fc.nat(3), fc.nat(20), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'))
      .map(([w, kind, at, letter]) => typo(w, kind, at, letter)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ...FILLER,
      'DATA',
      'Tables',
      'pdf-csv',
      'k1',
      '"plot"',
      'NEAR(',
      'OR',
      'chart*',
    ),
  },
);

/** A generated query: words joined by a separator, and whether deprecated skills are included. */
export interface GenQuery {
  readonly query: string;
  readonly include_deprecated: boolean;
}

/** A generated query. */
export const queryArb: fc.Arbitrary<GenQuery> = fc
  .record({
    words: fc.array(queryWord, { minLength: 1, maxLength: 5 }),
    sep: fc.constantFrom(' ', ', ', ' - ', '  '),
    include_deprecated: fc.boolean(),
  })
  .map((q) => ({ query: q.words.join(q.sep), include_deprecated: q.include_deprecated }));

/** A built library: the catalog file, its tree and the folder to remove afterwards. */
export interface BuiltLibrary {
  readonly catalog: string;
  readonly root: string;
  readonly cleanup: () => void;
}

/**
 * Writes `skills` as a tree (folder names from `folderOf`, files written in `order`), indexes it,
 * applies the lifecycle states (one publish), and writes the telemetry histories.
 */
export function buildLibrary(
  skills: readonly GenSkill[],
  options: {
    folderOf?: (id: string, i: number) => string;
    order?: readonly number[];
    lifecycle?: boolean;
    telemetry?: boolean;
    /** Ranking policy id (default: v1, as indexTree). */
    policy?: string;
  } = {},
): BuiltLibrary {
  const root = tmpDir('skilldex-prop-');
  const catalog = newCatalogPath('skilldex-prop-cat-');
  const folderOf = options.folderOf ?? ((id) => id);
  for (const i of options.order ?? skills.map((_, j) => j)) {
    const s = skills[i]!;
    writeTree(root, { [path.join(folderOf(idOf(s, i), i), 'SKILL.md')]: textOf(s, i) });
  }
  indexTree(catalog, root, options.policy !== undefined ? { policy: options.policy } : {});
  if (options.lifecycle !== false) applyLifecycle(catalog, skills);
  if (options.telemetry !== false) writeHistories(catalog, skills);
  return {
    catalog,
    root,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(path.dirname(catalog), { recursive: true, force: true });
    },
  };
}

/** Sets every non-active skill's state in the working set, then publishes once. */
export function applyLifecycle(catalog: string, skills: readonly GenSkill[]): void {
  let changed = false;
  skills.forEach((s, i) => {
    if (s.state === 'active') return;
    changeLifecycle({ catalog, skill_id: idOf(s, i), to: s.state, publish: false, now: NOW });
    changed = true;
  });
  if (changed) publishCatalog({ catalog, now: NOW });
}

/** Writes the skills' histories into the catalog's telemetry file (counts the ranking reads). */
export function writeHistories(catalog: string, skills: readonly GenSkill[]): void {
  const file = telemetryPathFor(catalog);
  // The side store of either backend (a telemetry file, or the PostgreSQL catalog's own tables,
  // which its migrations made); a telemetry file gets the store's schema, then the counts are set.
  const db = openUsageForWrite(file);
  try {
    if (!isPgLocation(file)) db.exec(TELEMETRY_SCHEMA);
    const put = db.prepare(`INSERT INTO counts (skill_id, suggestions, fetches) VALUES (?, ?, ?)`);
    db.transaction(() => {
      skills.forEach((s, i) => {
        if (s.history) put.run(idOf(s, i), s.history.suggestions, s.history.fetches);
      });
    })();
  } finally {
    db.close();
  }
}

/** A search's answer or its error code, so a fast and a reference answer compare as values. */
export type Outcome = { ok: true; result: SearchResult } | { ok: false; code: string };

/** Runs `fn`, keeping its result or the code of what it threw. */
export function attempt(fn: () => SearchResult): Outcome {
  try {
    return { ok: true, result: fn() };
  } catch (err) {
    return { ok: false, code: (err as { code?: string }).code ?? String(err) };
  }
}

/**
 * The one fast-path-against-brute-force check every router property test shares: for each limit,
 * the reference scorer answers first (the fast path records suggestions after answering, so both
 * read one history), then the fast path must give the same candidates, scores and whole answer —
 * or the same error. `onlyInvalidQuery`: the only error either may give is INVALID_QUERY.
 */
export function expectFastEqualsBrute(
  router: Router,
  q: { query: string; include_deprecated: boolean },
  limits: readonly number[],
  options: { onlyInvalidQuery?: boolean } = {},
): void {
  for (const limit of limits) {
    const request: SearchRequest = {
      query: q.query,
      limit,
      include_deprecated: q.include_deprecated,
    };
    const slow = attempt(() => router.searchBruteForce(request));
    const fast = attempt(() => router.search(request));
    if (!slow.ok || !fast.ok) {
      expect(fast, `limit ${limit}`).toEqual(slow);
      if (options.onlyInvalidQuery) expect(slow.ok ? 'ok' : slow.code).toBe('INVALID_QUERY');
      return;
    }
    expect(
      fast.result.candidates.map((c) => [c.skill_id, c.score]),
      `query ${JSON.stringify(q.query)} limit ${limit}`,
    ).toEqual(slow.result.candidates.map((c) => [c.skill_id, c.score]));
    expect(fast.result).toEqual(slow.result);
  }
}
