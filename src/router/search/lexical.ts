/**
 * The search engine of the lexical policy v1 (docs/ranking.md §1–§7). The fast path lets
 * SQLite compute, for every FTS match, the exact-tier points and the FTS relevance (the policy's
 * own constants, bound as parameters) and sort by them; JavaScript then completes the score
 * (fuzzy, telemetry, lifecycle) only for rows that can still reach the top k, stopping at the
 * first row whose upper bound cannot. Skills that match only fuzzily are fetched only when their
 * bounded score could still rank. `bruteForceLexical` scores every skill with the same policy; a
 * property test holds the two equal. Dispatch between engines is dispatch.ts's.
 */
import {
  allLexicalRows,
  bm25All,
  bm25Of,
  ftsHolders,
  lexicalRankStatement,
  lexicalRowOf,
  requireFts,
  tokenSet,
  vocabDf,
  vocabTerms,
  type CatalogReader,
  type LexicalRow,
  type PublishedGeneration,
  type RankRow,
} from '../../catalog/index.js';
import { boundedEditDistance, stem } from '../../text/index.js';
import { FuzzyIndex, type Expansion } from './fuzzy.js';
import { allowedDistance } from './policies/shared.js';
import type { RankingPolicy } from './policies/policy.js';
import type { FuzzyMatch } from './policies/types.js';
import { ftsOr, queryTokens } from './query.js';
import type { RankedCandidate, HistoryFn, RankedResult } from './types.js';
import { TopK, compareCandidates } from './top-k.js';

/** Per-generation state of the lexical engine: the fuzzy index of the published vocabulary. */
export class LexicalCache {
  private seq = -1;
  private fuzzy: FuzzyIndex | undefined;

  /** The fuzzy index for `generation`, rebuilt when the published sequence changed. */
  fuzzyIndex(reader: CatalogReader, generation: PublishedGeneration): FuzzyIndex {
    if (this.fuzzy && this.seq === generation.seq) return this.fuzzy;
    this.fuzzy = new FuzzyIndex(vocabTerms(reader));
    this.seq = generation.seq;
    return this.fuzzy;
  }
}

/** One lexical search: the generation read, the policy, the request's query and bounds. */
export interface LexicalSearch {
  readonly reader: CatalogReader;
  readonly generation: PublishedGeneration;
  readonly policy: RankingPolicy;
  readonly query: string;
  readonly limit: number;
  readonly includeDeprecated: boolean;
  readonly history: HistoryFn;
}

/** The fast path's extras: its cache, the pruning bound and the fuzzy prescore limit. */
export interface LexicalFastSearch extends LexicalSearch {
  readonly cache: LexicalCache;
  /** The highest telemetry multiplier any skill has now. */
  readonly telemetryMax: number;
  /** Most fuzzy-term holders scored before the scan (FUZZY_PRESCORE_LIMIT). */
  readonly prescoreLimit: number;
}

/** The lexical fast path over the published generation (SQLite only: it needs FTS5). */
export function searchLexical(s: LexicalFastSearch): RankedResult {
  const { reader, generation: gen, policy, limit, includeDeprecated, history, telemetryMax } = s;
  // The lexical policies read outside checkedAll: SQLite only (refused here on PostgreSQL).
  requireFts(reader);
  const all = queryTokens(s.query);
  const { tokens, common, unknown } = splitTokens(reader, gen, all, policy);
  const fuzzy = s.cache.fuzzyIndex(reader, gen);
  const expansions = new Map(unknown.map((t) => [t, fuzzy.expand(t)] as const));
  // The most fuzzy relevance any skill can have: each unknown token with a near term counts once.
  const fuzzyMax =
    (policy.fuzzyWeight * [...expansions.values()].filter((e) => e.size > 0).length) /
    tokens.length;
  const top = new TopK(limit);
  const seen = new Set<number>();
  const fuzzyTerms = [...new Set([...expansions.values()].flatMap((e) => [...e.keys()]))];
  const score = (rid: number, x: number): RankedCandidate =>
    scoreRow(reader, policy, rid, tokens, common, expansions, x, history, gen);
  // Only skills that contain a fuzzy term can earn fuzzy credit. When they are few, score them all
  // first: then the scan below needs no fuzzy slack in its bound and stops right after the top k.
  let slack = fuzzyMax;
  let fuzzyDone = fuzzyTerms.length === 0;
  if (!fuzzyDone) {
    const holders = ftsHolders(reader, ftsOr(fuzzyTerms), includeDeprecated, s.prescoreLimit + 1);
    if (holders.length <= s.prescoreLimit) {
      const match = ftsOr(tokens);
      for (const h of holders) {
        seen.add(h.rid);
        top.offer(score(h.rid, bm25Of(reader, policy.bm25Columns, match, h.rid)));
      }
      slack = 0;
      fuzzyDone = true;
    }
  }
  const stmt = lexicalRankStatement(reader, policy, tokens.length, includeDeprecated);
  const params = rankParams(tokens);
  // SQLite keeps only the best `heap` rows by partial score (a bounded sort, as a LIMIT query
  // does); when the bound has not stopped us within them, one more pass sorts every match.
  for (let heap = Math.max(4 * limit, 64); ; heap = Number.MAX_SAFE_INTEGER) {
    let rows = 0;
    let stopped = false;
    for (const row of stmt.iterate({ ...params, heap }) as Iterable<RankRow>) {
      rows++;
      if (seen.has(row.rid)) continue;
      // Rows come in descending partial score; no later row can beat the k-th best once even its
      // partial plus any fuzzy credit still possible, at the highest telemetry multiplier, falls short.
      if (top.full() && (row.partial + slack) * telemetryMax + 1e-9 < top.worst()) {
        stopped = true;
        break;
      }
      seen.add(row.rid);
      top.offer(score(row.rid, row.x));
    }
    if (stopped || rows < heap) break;
  }
  // Too many fuzzy holders to score up front: those with no FTS match score at most fuzzyMax × telemetryMax.
  if (!fuzzyDone && (!top.full() || fuzzyMax * telemetryMax + 1e-9 >= top.worst())) {
    for (const r of ftsHolders(reader, ftsOr(fuzzyTerms), includeDeprecated, -1)) {
      if (seen.has(r.rid)) continue;
      seen.add(r.rid);
      top.offer(score(r.rid, 0));
    }
  }
  return {
    catalog_generation: gen.catalog_generation,
    policy: policy.id,
    query: s.query,
    candidates: top.sorted(),
  };
}

/**
 * The lexical reference scorer: every skill of the published generation scored with the policy,
 * fuzzy matches by naive edit distance. Slow by design.
 */
export function bruteForceLexical(s: LexicalSearch): RankedResult {
  const { reader, generation: gen, policy, includeDeprecated, history } = s;
  const all = queryTokens(s.query);
  const { tokens, common, unknown } = splitTokens(reader, gen, all, policy);
  const fuzzyEligible = new Set(unknown);
  const bm25 = new Map<number, number>();
  for (const r of bm25All(reader, policy.bm25Columns, ftsOr(tokens))) bm25.set(r.rid, r.x);
  const scored: RankedCandidate[] = [];
  for (const row of allLexicalRows(reader)) {
    if (row.state === 'archived' || (row.state === 'deprecated' && !includeDeprecated)) continue;
    const c = candidateOf(
      policy,
      row,
      tokens,
      common,
      naiveFuzzy(tokens, fuzzyEligible, row),
      bm25.get(row.rid) ?? 0,
      history,
      gen,
    );
    if (c.score > 0) scored.push(c);
  }
  scored.sort(compareCandidates);
  return {
    catalog_generation: gen.catalog_generation,
    policy: policy.id,
    query: s.query,
    candidates: scored.slice(0, s.limit),
  };
}

/**
 * Splits the query tokens (docs/ranking.md §1): `common` ones (COMMON_DF_FRACTION) take no part in
 * the score; the rest (`tokens`) score and form the FTS5 match; `unknown` are the scoring tokens the
 * published vocabulary does not contain — the only ones fuzzy matching tries to rescue. When every
 * token is common, the rarest one (first in query order on a tie) scores alone: a query never loses
 * all its words, and a query of only very common words does not rank the whole library.
 */
function splitTokens(
  reader: CatalogReader,
  gen: PublishedGeneration,
  all: readonly string[],
  policy: RankingPolicy,
): { tokens: string[]; common: string[]; unknown: string[] } {
  const df = new Map(all.map((t) => [t, vocabDf(reader, t)] as const));
  let tokens = all.filter((t) => !policy.isCommon(df.get(t)!, gen.counts.total));
  if (tokens.length === 0) {
    const rarest = all.reduce((best, t) => (df.get(t)! < df.get(best)! ? t : best), all[0]!);
    tokens = [rarest];
  }
  const common = all.filter((t) => !tokens.includes(t));
  return { tokens, common, unknown: tokens.filter((t) => df.get(t) === 0) };
}

// The ranking statement's bindings: the FTS5 match and one slot `@tN` per scoring token (its stem).
function rankParams(tokens: readonly string[]): Record<string, string> {
  const p: Record<string, string> = { match: ftsOr(tokens) };
  tokens.forEach((t, i) => (p[`t${i}`] = ` ${stem(t)} `));
  return p;
}

function scoreRow(
  reader: CatalogReader,
  policy: RankingPolicy,
  rid: number,
  tokens: readonly string[],
  common: readonly string[],
  expansions: ReadonlyMap<string, Expansion>,
  bm25: number,
  history: HistoryFn,
  gen: PublishedGeneration,
): RankedCandidate {
  const s = lexicalRowOf(reader, rid)!;
  return candidateOf(
    policy,
    s,
    tokens,
    common,
    indexedFuzzy(tokens, s, expansions),
    bm25,
    history,
    gen,
  );
}

function candidateOf(
  policy: RankingPolicy,
  s: LexicalRow,
  tokens: readonly string[],
  common: readonly string[],
  fuzzy: readonly FuzzyMatch[],
  bm25: number,
  history: HistoryFn,
  gen: PublishedGeneration,
): RankedCandidate {
  const h = history(s.skill_id);
  const explanation = policy.score({
    queryTokens: tokens,
    commonTokens: common,
    queryStems: tokens.map(stem),
    nameStems: tokenSet(s.name_st),
    keywordStems: tokenSet(s.kw_st),
    descriptionStems: tokenSet(s.desc_st),
    bm25,
    fuzzy,
    suggestions: h.suggestions,
    fetches: h.fetches,
    state: s.state,
  });
  return {
    skill_id: s.skill_id,
    skill_version: s.skill_version,
    revision_id: s.revision_id,
    catalog_generation: gen.catalog_generation,
    name: s.name,
    description: s.description,
    state: s.state,
    score: explanation.final,
    explanation,
  };
}

// Fuzzy matches through the precomputed expansions (fast path).
function indexedFuzzy(
  tokens: readonly string[],
  s: LexicalRow,
  expansions: ReadonlyMap<string, Expansion>,
): FuzzyMatch[] {
  const all = tokenSet(s.name_tok + s.kw_tok + s.desc_tok);
  const stems = tokenSet(s.name_st + s.kw_st + s.desc_st);
  const out: FuzzyMatch[] = [];
  for (const t of tokens) {
    const e = expansions.get(t);
    if (e === undefined || stems.has(stem(t))) continue;
    let best: FuzzyMatch | undefined;
    for (const term of all) {
      const d = e.get(term);
      if (
        d !== undefined &&
        (!best || d < best.distance || (d === best.distance && term < best.term))
      ) {
        best = { query_token: t, term, distance: d, allowed: allowedDistance(t.length) };
      }
    }
    if (best) out.push(best);
  }
  return out;
}

// Fuzzy matches by brute force over the skill's own tokens (reference path).
function naiveFuzzy(
  tokens: readonly string[],
  eligible: ReadonlySet<string>,
  s: LexicalRow,
): FuzzyMatch[] {
  const all = tokenSet(s.name_tok + s.kw_tok + s.desc_tok);
  const stems = tokenSet(s.name_st + s.kw_st + s.desc_st);
  const out: FuzzyMatch[] = [];
  for (const t of tokens) {
    if (!eligible.has(t) || stems.has(stem(t))) continue;
    const k = allowedDistance(t.length);
    if (k === 0) continue;
    let best: FuzzyMatch | undefined;
    for (const term of all) {
      const d = boundedEditDistance(t, term, k);
      if (d <= k && (!best || d < best.distance || (d === best.distance && term < best.term))) {
        best = { query_token: t, term, distance: d, allowed: k };
      }
    }
    if (best) out.push(best);
  }
  return out;
}
