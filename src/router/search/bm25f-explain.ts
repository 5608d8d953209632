/**
 * A BM25F candidate from one serving row (docs/ranking.md §10): the row's stored terms for the
 * query (`serving.fwd` with the boundary counts, and its body counts less the generation's template
 * lines, read from the postings of the query's terms: Bm25fContext.body) turned into the features
 * of bm25f-core.ts, scored and explained by
 * its pure `score(features, params)` under the search's parameter set. The fast path and the
 * brute-force scorer both explain through here, so the two can only differ in which rows they
 * explain.
 */
import {
  decodeForwardV4,
  decodeForwardHeadV4,
  type Bm25fRow,
  type PublishedGeneration,
  type V4Counts,
} from '../../catalog/index.js';
import { analyzeTermsV4, sanitizeField, splitBoundaries } from '../../text/index.js';
import type { ResolvedUsage, SkillUsage } from './bm25f-cache.js';
import { score, type Bm25fFeatures, type Bm25fParams } from './policies/bm25f-core.js';
import type { PerField } from './policies/shared.js';
import type { FuzzyMatch, SkillState } from './policies/types.js';
import type { AnalyzedQuery } from './query-analysis.js';
import type { RankedCandidate, HistoryFn } from './types.js';

/** What every candidate of one query shares. */
export interface Bm25fContext {
  /** The parameter set the search ranks with. */
  readonly params: Bm25fParams;
  readonly q: AnalyzedQuery;
  readonly docs: number;
  readonly avgLens: PerField;
  /** Average length of the boundary field. */
  readonly boundaryAvg: number;
  /** Per query term, and per excluded term, its document frequency. */
  readonly df: readonly number[];
  readonly exclusionDf: readonly number[];
  readonly usage: ResolvedUsage;
  /**
   * A row's body counts (without template lines) of each query term and then each excluded term,
   * in that order: the body counts of its postings (issue 33: a serving row no longer stores its
   * body counts; the postings hold the same numbers, from the same body).
   */
  readonly body: (rowid: number) => readonly number[];
}

/** Longest learned request quoted in an explanation's `usage.matched`, in characters. */
const MAX_MATCHED_CHARS = 200;

// Up to three of a skill's examples that share a term with the query, in stored order. Another
// client's words, shown to every client: passed through the one sanitiser (controls, bidi and TAG
// characters escaped; cut at MAX_MATCHED_CHARS).
function matchedExamples(u: SkillUsage | undefined, terms: readonly string[]): string[] {
  if (!u) return [];
  const queryTerms = new Set(terms);
  return u.examples
    .filter((e) => [...e.terms].some((t) => queryTerms.has(t)))
    .slice(0, 3)
    .map((e) => sanitizeField(e.query, MAX_MATCHED_CHARS));
}

// Fuzzy matches in query order, as the explanation lists them.
function inQueryOrder(q: AnalyzedQuery, fuzzy: readonly FuzzyMatch[]): FuzzyMatch[] {
  const order = new Map(q.tokens.map((t, i) => [t, i] as const));
  return [...fuzzy].sort((a, b) => order.get(a.query_token)! - order.get(b.query_token)!);
}

function candidate(
  row: Bm25fRow,
  gen: PublishedGeneration,
  explanation: RankedCandidate['explanation'] & { final: number },
): RankedCandidate {
  return {
    skill_id: row.skill_id,
    skill_version: row.skill_version,
    revision_id: row.revision_id,
    catalog_generation: gen.catalog_generation,
    name: row.name,
    description: row.description,
    state: row.state as SkillState,
    score: explanation.final,
    explanation,
  };
}

// What every explanation reads from a row for one request: the query, the generation's statistics,
// the row's field lengths (usage included), its usage examples, history and state; `own` gives the
// fuzzy matches, the history source and the row's counts.
function bm25fFeatures(
  row: Bm25fRow,
  ctx: Bm25fContext,
  own: {
    readonly fuzzy: readonly FuzzyMatch[];
    readonly history: HistoryFn;
    readonly tf: readonly PerField[];
    readonly nameTerms: ReadonlySet<string>;
  },
): Omit<Bm25fFeatures, 'querySequence' | 'nameSequence' | 'boundary' | 'exclusion'> {
  const u = ctx.usage.byRow.get(row.rowid);
  const h = own.history(row.skill_id);
  return {
    queryTokens: ctx.q.tokens,
    queryTerms: ctx.q.terms,
    droppedTokens: ctx.q.dropped,
    docs: ctx.docs,
    avgLens: ctx.avgLens,
    lens: [row.len_n, row.len_k, row.len_d, row.len_b, u?.len ?? 0],
    df: ctx.df,
    tf: own.tf,
    nameTerms: own.nameTerms,
    fuzzy: inQueryOrder(ctx.q, own.fuzzy),
    usageExamples: u?.examples.length ?? 0,
    usageMatched: matchedExamples(u, ctx.q.terms),
    suggestions: h.suggestions,
    fetches: h.fetches,
    state: row.state as SkillState,
  };
}

/**
 * Every term of a row with its per-field counts (name, keywords, description, body, boundary), from
 * its forward terms and its body counts (`body`: the body counts of its postings).
 */
export function termsOfRow(
  row: Bm25fRow,
  body: ReadonlyMap<string, number> | undefined,
): Map<string, V4Counts> {
  return decodeForwardV4(row.fwd, { tf: body ?? new Map() });
}

/**
 * Explains one row as a candidate for one request: `score` under `ctx.params` over the row's
 * forward terms, body counts and boundary clauses.
 */
export function explainRow(
  row: Bm25fRow,
  ctx: Bm25fContext,
  fuzzy: readonly FuzzyMatch[],
  history: HistoryFn,
  gen: PublishedGeneration,
): RankedCandidate {
  const { terms, nameTerms, clauses, nameSequence } = memoized(row, ctx.q, () =>
    rowFeatures(row, ctx),
  );
  const u = ctx.usage.byRow.get(row.rowid);
  const counts = (t: string): V4Counts => terms.get(t) ?? [0, 0, 0, 0, 0];
  const perField = (t: string): PerField => {
    const c = counts(t);
    return [c[0], c[1], c[2], c[3], u?.tf.get(t) ?? 0];
  };
  const own = { fuzzy, history, tf: ctx.q.terms.map(perField), nameTerms };
  const explanation = score(
    Object.assign(bm25fFeatures(row, ctx, own), {
      querySequence: ctx.q.sequence,
      nameSequence,
      boundary: {
        clauses,
        tf: ctx.q.terms.map((t) => counts(t)[4]),
        len: row.len_x,
        avgLen: ctx.boundaryAvg,
      },
      exclusion: {
        tokens: ctx.q.excluded.tokens,
        terms: ctx.q.excluded.terms,
        df: ctx.exclusionDf,
        tf: ctx.q.excluded.terms.map(perField),
      },
    }),
    ctx.params,
  );
  return candidate(row, gen, explanation);
}

/** What an explanation reads from a row for one request, whatever the usage examples. */
interface RowFeatures {
  readonly terms: ReadonlyMap<string, V4Counts>;
  readonly nameTerms: ReadonlySet<string>;
  readonly clauses: readonly string[];
  readonly nameSequence: readonly string[];
}

function rowFeatures(row: Bm25fRow, ctx: Bm25fContext): RowFeatures {
  // Only the query's and the excluded words' counts: the row's name, keywords, description and
  // boundary terms from serving.fwd, its body's from the postings of those words.
  const q = ctx.q;
  const wanted = [...q.terms, ...q.excluded.terms];
  const head = decodeForwardHeadV4(row.fwd);
  const body = ctx.body(row.rowid);
  const terms = new Map<string, V4Counts>();
  wanted.forEach((t, i) => {
    const c = Object.hasOwn(head, t) ? head[t]! : undefined;
    terms.set(t, [c?.[0] ?? 0, c?.[1] ?? 0, c?.[2] ?? 0, body[i]!, c?.[3] ?? 0]);
  });
  const nameTerms = new Set<string>();
  for (const t in head) if (head[t]![0]! > 0) nameTerms.add(t);
  const clauses = splitBoundaries(row.description).boundary;
  return {
    terms,
    nameTerms,
    clauses: clauses === '' ? [] : clauses.split('\n'),
    nameSequence: analyzeTermsV4(row.name),
  };
}

// What a row gives an explanation for one request does not depend on the usage examples: the two
// passes of a bounded search (trust-bound.ts) share the row objects, so the second reuses the
// first's, keyed on the row object and the request analysed.
const FEATURES = new WeakMap<Bm25fRow, { q: AnalyzedQuery; f: RowFeatures }>();

function memoized(row: Bm25fRow, q: AnalyzedQuery, compute: () => RowFeatures): RowFeatures {
  const hit = FEATURES.get(row);
  if (hit?.q === q) return hit.f;
  const f = compute();
  FEATURES.set(row, { q, f });
  return f;
}
