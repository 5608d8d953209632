/**
 * skill_search under a BM25F policy (docs/ranking.md §10). The engine receives the policy's
 * parameter set (`Bm25fParams`, policies/bm25f-core.ts) and never names a policy. The fast path
 * reads the postings of each query term (never a document), accumulates every matching row's BM25F
 * sum with the core's term contribution under the params, bounds each row with the core's pure
 * `bound(partial, params)`, and explains only the rows that can still reach the top k (sorted by
 * bound, stopping at the first whose bound at the highest telemetry multiplier falls short).
 * Boundary and exclusion points only lower a score, so the bound holds. `bruteForceBm25f` scores
 * every serving row from its stored terms; a property test holds the two equal. `searchBm25fBounded` and
 * `bruteForceBm25fBounded` are the two under the trust bound of learning (trust-bound.ts).
 *
 * Catalog reads are few and batched (issue #16: on PostgreSQL each is a round trip): the postings
 * of all query terms in one statement, the rows the scan explains a batch at a time; what is fixed
 * per published generation lives in `Bm25fCache` (bm25f-cache.ts).
 */
import {
  DOC_NAME_TERMS,
  DOC_STATE,
  DOC_STRIDE,
  STATE_CODES,
  allBm25fRows,
  bodyCountsOfRows,
  bm25fRowsOf,
  forEachPosting,
  servingRowidsOf,
  servingSkillIdsOf,
  type Bm25fRow,
  type CatalogReader,
  type PublishedGeneration,
  type ServingDocs,
  type TermPostings,
} from '../../catalog/index.js';
import { boundedEditDistance } from '../../text/index.js';
import type { Bm25fCache, UsageIndex } from './bm25f-cache.js';
import { type PrefetchRows, type ResolvedUsage } from './bm25f-cache.js';
import { explainRow, termsOfRow, type Bm25fContext } from './bm25f-explain.js';
import {
  bm25fContribution,
  bound,
  fieldArrays,
  type Bm25fParams,
  type PartialRow,
} from './policies/bm25f-core.js';
import {
  allowedDistance,
  bm25Idf,
  bm25fFrequency,
  telemetryMultiplier,
  type PerField,
} from './policies/shared.js';
import type { FuzzyMatch } from './policies/types.js';
import type { AnalyzedQuery } from './query-analysis.js';
import type { RankedCandidate, HistoryFn, RankedResult } from './types.js';
import { TopK, compareCandidates } from './top-k.js';
import { TRUST_BOUND_K, applyTrustBound } from './trust-bound.js';
import { applyStages, stageDepth } from './stages/index.js';

export { Bm25fCache, UsageIndex } from './bm25f-cache.js';
export { analyzeQuery, type AnalyzedQuery } from './query-analysis.js';

/** One BM25F search: the generation read, its parameter set, the analysed query and the request's bounds. */
export interface Bm25fSearch {
  readonly reader: CatalogReader;
  readonly cache: Bm25fCache;
  readonly generation: PublishedGeneration;
  readonly policy: Bm25fParams;
  readonly query: AnalyzedQuery;
  readonly limit: number;
  readonly includeDeprecated: boolean;
  readonly history: HistoryFn;
  /** The highest telemetry multiplier any skill has now: the scan's pruning bound. */
  readonly telemetryMax: number;
  /** The usage examples to rank with. */
  readonly usage: UsageIndex;
  /** The rows of this search's first read (Bm25fCache.firstRead), when it made one. */
  readonly seed?: PrefetchRows;
  /**
   * Serving rows already read for this request (rowid → row, null: not served), shared by the
   * passes of one bounded search so the second reads only rows the first did not.
   */
  readonly rows?: Map<number, Bm25fRow | null>;
}

function avgLensOf(docs: ServingDocs, usage: ResolvedUsage): PerField {
  const n = docs.docs > 0 ? docs.docs : 1;
  return [docs.sums[0] / n, docs.sums[1] / n, docs.sums[2] / n, docs.sums[3] / n, usage.avgLen];
}

// The rows holding `term` in their usage examples, and its document frequency: a row counts once
// whether the term is in its text, its examples or both.
function dfOf(
  post: TermPostings | undefined,
  usageRows: readonly number[],
): { df: number; extra: number[] } {
  if (usageRows.length === 0) return { df: post?.df ?? 0, extra: [] };
  const inPostings = new Set<number>();
  if (post) forEachPosting(post.data, (rowid) => inPostings.add(rowid));
  const extra = usageRows.filter((r) => !inPostings.has(r));
  return { df: (post?.df ?? 0) + extra.length, extra };
}

function usageRowsOf(used: ResolvedUsage, term: string): number[] {
  const out: number[] = [];
  for (const [rowid, u] of used.byRow) if (u.tf.has(term)) out.push(rowid);
  return out;
}

/** What one BM25F query accumulates before its scan: each touched row's BM25F sum and name hits. */
interface Prepared {
  readonly docs: ServingDocs;
  readonly ctx: Bm25fContext;
  readonly acc: Float64Array;
  readonly nameHits: Uint8Array;
  readonly touched: readonly number[];
  readonly fuzzyOf: ReadonlyMap<number, FuzzyMatch[]>;
}

// Reads the postings of the query terms and accumulates every matching row's BM25F sum (the usage
// field's examples counted as postings of their terms), with the fuzzy matches of unknown terms.
function prepare(s: Bm25fSearch): Prepared {
  const { reader, cache, generation: gen, policy: c, query: q, usage, seed } = s;
  cache.searching(c);
  const docs = cache.servingDocs(reader, gen);
  const used = cache.resolvedUsage(reader, gen, usage, c);
  const avgLens = avgLensOf(docs, used);
  const rows = docs.data.length / DOC_STRIDE;
  const acc = new Float64Array(rows);
  const nameHits = new Uint8Array(rows);
  const touched: number[] = [];
  const hasUsage = used.byRow.size > 0;
  const df: number[] = [];
  const unknown: number[] = [];
  const lens: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  const tf: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  const seen = new Uint8Array(rows);
  const touch = (rowid: number): void => {
    if (seen[rowid] === 0) {
      seen[rowid] = 1;
      touched.push(rowid);
    }
  };
  const postings = cache.postingsOf(reader, gen, [...q.terms, ...q.excluded.terms], seed);
  // Each query term's, then each excluded term's, body count per rowid, filled from its postings
  // as they are read (the explanation's body counts: Bm25fContext.body). None for a term with no
  // postings (every count 0).
  const bodyTf: (Uint32Array | undefined)[] = [];
  // The parameters the per-posting closure reads, loaded once per search (plain arrays: fieldArrays).
  const { weights, b: bs } = fieldArrays(c);
  const k1 = c.K1;
  q.terms.forEach((term, i) => {
    const post = postings.get(term);
    const { df: termDf, extra } = dfOf(post, usageRowsOf(used, term));
    df.push(termDf);
    if (termDf === 0) {
      unknown.push(i);
      return;
    }
    const termIdf = bm25Idf(termDf, docs.docs);
    const bt = post ? new Uint32Array(rows) : undefined;
    bodyTf[i] = bt;
    const score = (rowid: number, n: number, k: number, d: number, b: number): void => {
      if (b > 0) bt![rowid] = b;
      const o = rowid * DOC_STRIDE;
      const u = hasUsage ? used.byRow.get(rowid) : undefined;
      tf[0] = n;
      tf[1] = k;
      tf[2] = d;
      tf[3] = b;
      tf[4] = u?.tf.get(term) ?? 0;
      lens[0] = docs.data[o]!;
      lens[1] = docs.data[o + 1]!;
      lens[2] = docs.data[o + 2]!;
      lens[3] = docs.data[o + 3]!;
      lens[4] = u?.len ?? 0;
      touch(rowid);
      const tfTilde = bm25fFrequency(tf, lens, avgLens, weights, bs);
      acc[rowid] = acc[rowid]! + bm25fContribution(tfTilde, termIdf, k1);
      if (n > 0) nameHits[rowid] = nameHits[rowid]! + 1;
    };
    if (post) forEachPosting(post.data, score);
    for (const r of extra) score(r, 0, 0, 0, 0);
  });
  const exclusionDf = q.excluded.terms.map((t) => dfOf(postings.get(t), usageRowsOf(used, t)).df);
  q.excluded.terms.forEach((t, j) => {
    const post = postings.get(t);
    if (!post) return;
    const bt = new Uint32Array(rows);
    forEachPosting(post.data, (rowid, _n, _k, _d, b) => {
      bt[rowid] = b;
    });
    bodyTf[q.terms.length + j] = bt;
  });
  const wanted = q.terms.length + q.excluded.terms.length;
  const fuzzyOf = fuzzyMatches(reader, cache, gen, q, unknown, touch);
  const ctx: Bm25fContext = {
    params: c,
    q,
    docs: docs.docs,
    avgLens,
    boundaryAvg: docs.docs > 0 ? docs.sums[4] / docs.docs : 0,
    df,
    exclusionDf,
    usage: used,
    body: (rowid) => {
      const out: number[] = [];
      for (let i = 0; i < wanted; i++) out.push(bodyTf[i]?.[rowid] ?? 0);
      return out;
    },
  };
  return { docs, ctx, acc, nameHits, touched, fuzzyOf };
}

/** The BM25F fast path over the published generation. */
export function searchBm25f(s: Bm25fSearch): RankedResult {
  const { reader, generation: gen, policy, query: q, limit, includeDeprecated } = s;
  const { history, telemetryMax } = s;
  const { docs, ctx, acc, nameHits, touched, fuzzyOf } = prepare(s);
  // Upper bounds (policies/bm25f-core.ts `bound`): BM25F sum + the bonuses where they can apply +
  // the exact fuzzy part, times the lifecycle multiplier.
  const nTerms = q.terms.length;
  const boundOf = new Float64Array(touched.length);
  const rowOf = new Int32Array(touched.length);
  let n = 0;
  // One partial row, refilled for each row (no allocation per touched row: a common word touches
  // most of the library).
  const partial: { -readonly [K in keyof PartialRow]: PartialRow[K] } = {
    sum: 0,
    nameHits: 0,
    nameTerms: 0,
    queryTerms: nTerms,
    fuzzy: undefined,
    state: 'active',
  };
  for (const rowid of touched) {
    const state = STATE_CODES[docs.data[rowid * DOC_STRIDE + DOC_STATE]!]!;
    if (state === 'archived' || (state === 'deprecated' && !includeDeprecated)) continue;
    partial.sum = acc[rowid]!;
    partial.nameHits = nameHits[rowid]!;
    partial.nameTerms = docs.data[rowid * DOC_STRIDE + DOC_NAME_TERMS]!;
    partial.fuzzy = fuzzyOf.get(rowid);
    partial.state = state;
    const b = bound(partial, policy);
    if (b > 0) {
      boundOf[n] = b;
      rowOf[n] = rowid;
      n++;
    }
  }
  // The policy's stages re-order the top `depth`: rank at least that many, then cut to the limit.
  const ranked = Math.max(limit, stageDepth(policy));
  const input = { boundOf, rowOf, n, limit: ranked, telemetryMax, reader, history, rows: s.rows };
  const top = scan(input, (row, i) =>
    explainRow(row, ctx, fuzzyOf.get(rowOf[i]!) ?? [], history, gen),
  );
  return {
    catalog_generation: gen.catalog_generation,
    policy: policy.id,
    query: '',
    candidates: applyStages(policy, q.text, top.sorted()).slice(0, limit),
  };
}

/**
 * `searchBm25f` under the trust bound (trust-bound.ts): when the usage examples include fetch
 * examples that hold a word of the request, the first TRUST_BOUND_K ranked with the trusted ones
 * only and no telemetry are ranked too (a second scan over cached postings and the rows already
 * read), and a skill outside them is never put first. Otherwise it is `searchBm25f` itself.
 */
export function searchBm25fBounded(s: Bm25fSearch): RankedResult {
  if (!s.usage.hasFetch || !usageHoldsQuery(s)) return searchBm25f(s);
  const rows = new Map<number, Bm25fRow | null>();
  const full = searchBm25f({ ...s, rows });
  if (full.candidates.length === 0) return full;
  // The first read's rows were the first pass's; the trusted pass reads postings through the
  // cache and rows through `rows`.
  const rest: Bm25fSearch = { ...s, seed: undefined, rows };
  const trusted = searchBm25f({ ...rest, ...coldOf(s), limit: TRUST_BOUND_K });
  const candidates = applyTrustBound({
    full: full.candidates,
    n: s.limit,
    trusted: trusted.candidates,
    score: (ids) => explainSkillsBm25f(rest, ids),
  });
  return { ...full, candidates };
}

// What the trusted ranking of the bound ranks with: the trusted examples and no telemetry (the
// fetches that record fetch examples also raise a skill's telemetry multiplier; counting it would
// let them carry a skill into the trusted top K first).
function coldOf(s: Bm25fSearch): Pick<Bm25fSearch, 'usage' | 'history' | 'telemetryMax'> {
  return { usage: s.usage.trusted(), history: NO_HISTORY, telemetryMax: 1 };
}

const NO_HISTORY: HistoryFn = () => ({ suggestions: 0, fetches: 0 });

// True when some skill's usage field holds a word of the request (or an excluded word): only then
// can a fetch example change the ranking. When none does, every score is the same with and
// without the fetch examples (no document frequency, and no usage term frequency, differs), and
// the bound does not apply (telemetry alone moves a score by its own ±15 %).
function usageHoldsQuery(s: Bm25fSearch): boolean {
  const used = s.cache.resolvedUsage(s.reader, s.generation, s.usage, s.policy);
  const words = [...s.query.terms, ...s.query.excluded.terms];
  for (const u of used.byRow.values()) if (words.some((t) => u.tf.has(t))) return true;
  return false;
}

/** `bruteForceBm25f` under the trust bound: every row scored with every example, and with the trusted ones. */
export function bruteForceBm25fBounded(s: Bm25fSearch): RankedResult {
  if (!s.usage.hasFetch || !usageHoldsQuery(s)) return bruteForceBm25f(s);
  const all = bruteForceBm25f({ ...s, limit: Number.MAX_SAFE_INTEGER });
  const trusted = bruteForceBm25f({ ...s, ...coldOf(s), limit: TRUST_BOUND_K });
  const byId = new Map(all.candidates.map((c) => [c.skill_id, c] as const));
  const candidates = applyTrustBound({
    full: all.candidates.slice(0, s.limit),
    n: s.limit,
    trusted: trusted.candidates,
    score: (ids) => ids.flatMap((id) => byId.get(id) ?? []),
  });
  return { ...all, candidates };
}

/**
 * The candidates of `skillIds` for the search `s`, each scored and explained as the search would,
 * whatever its rank (skills not served, archived, or deprecated when the search leaves those out
 * are absent). The trust bound scores the skills it may put first with it.
 */
export function explainSkillsBm25f(s: Bm25fSearch, skillIds: readonly string[]): RankedCandidate[] {
  const { reader, generation: gen, includeDeprecated, history } = s;
  const { ctx, fuzzyOf } = prepare(s);
  const rowids = [...servingRowidsOf(reader, skillIds).values()].map((r) => r.rowid);
  const known = s.rows ?? new Map<number, Bm25fRow | null>();
  const unread = rowids.filter((r) => !known.has(r));
  const read = unread.length > 0 ? bm25fRowsOf(reader, unread) : new Map<number, Bm25fRow>();
  const out: RankedCandidate[] = [];
  for (const rowid of rowids) {
    const row = known.get(rowid) ?? read.get(rowid);
    if (!row) continue;
    if (row.state === 'archived' || (row.state === 'deprecated' && !includeDeprecated)) continue;
    out.push(explainRow(row, ctx, fuzzyOf.get(row.rowid) ?? [], history, gen));
  }
  return out.sort(compareCandidates);
}

// Fuzzy: each unknown term's near terms (within its allowed distance) and the rows holding them;
// each row holding one is touched.
function fuzzyMatches(
  reader: CatalogReader,
  cache: Bm25fCache,
  gen: PublishedGeneration,
  q: AnalyzedQuery,
  unknown: readonly number[],
  touch: (rowid: number) => void,
): Map<number, FuzzyMatch[]> {
  const fuzzyOf = new Map<number, FuzzyMatch[]>();
  if (unknown.length === 0) return fuzzyOf;
  const fuzzy = cache.fuzzyIndex(reader, gen);
  const expansions = unknown.map((i) => fuzzy.expand(q.terms[i]!));
  // Every near term's postings in one read.
  const nearPostings = cache.postingsOf(
    reader,
    gen,
    expansions.flatMap((e) => [...e.keys()]),
  );
  unknown.forEach((i, u) => {
    const term = q.terms[i]!;
    const best = new Map<number, FuzzyMatch>();
    for (const [near, distance] of expansions[u]!) {
      const post = nearPostings.get(near);
      if (!post) continue;
      const m: FuzzyMatch = {
        query_token: q.tokens[i]!,
        term: near,
        distance,
        allowed: allowedDistance(term.length),
      };
      forEachPosting(post.data, (rowid) => {
        const cur = best.get(rowid);
        if (!cur || distance < cur.distance || (distance === cur.distance && near < cur.term))
          best.set(rowid, m);
      });
    }
    for (const [rowid, m] of best) {
      touch(rowid);
      const l = fuzzyOf.get(rowid);
      if (l) l.push(m);
      else fuzzyOf.set(rowid, [m]);
    }
  });
  return fuzzyOf;
}

/** What the scan works through: rows with their upper bounds, and how it reads rows. */
interface ScanInput {
  readonly boundOf: Float64Array;
  readonly rowOf: Int32Array;
  readonly n: number;
  readonly limit: number;
  readonly telemetryMax: number;
  readonly reader: CatalogReader;
  readonly history: HistoryFn;
  readonly rows: Map<number, Bm25fRow | null> | undefined;
}

// Explains rows in descending bound order until no later row can reach the top k; only the best
// `batch` are ordered at a time (a bounded heap), since the scan usually stops within the first
// few dozen.
function scan(s: ScanInput, explain: (row: Bm25fRow, index: number) => RankedCandidate): TopK {
  const { boundOf, rowOf, limit, telemetryMax, history } = s;
  const top = new TopK(limit);
  const order = new BoundOrder(boundOf, rowOf, s.n);
  const source = new RowSource(s.reader, history, limit, s.rows);
  for (let batch = Math.max(4 * limit, 64); ; batch *= 8) {
    const next = order.take(batch);
    if (next.length === 0) break;
    const upcoming = next.map((i) => rowOf[i]!);
    for (let j = 0; j < next.length; j++) {
      const i = next[j]!;
      const most = boundOf[i]! * telemetryMax;
      if (top.full() && most + 1e-9 < top.worst()) return top;
      if (top.full()) {
        // With the row's own telemetry multiplier (its id and history read a batch at a time, not
        // its text) the bound tightens from the highest multiplier of any row: a row that cannot
        // beat the k-th score, or can at best tie it and loses the tie on skill_id, is decided
        // here, unread and unexplained (common words tie by thousands; with telemetry on, the
        // scan reached ~70 rows per search to explain ~8).
        const id = source.skillId(upcoming, j);
        if (id === undefined) continue;
        const h = history(id);
        const own = boundOf[i]! * telemetryMultiplier(h.suggestions, h.fetches);
        if (own + 1e-9 < top.worst()) continue;
        if (own - 1e-9 <= top.worst() && id > top.worstId()) continue;
      }
      const row = source.row(upcoming, j);
      if (!row) continue;
      top.offer(explain(row, i));
    }
  }
  return top;
}

/** The BM25F reference scorer: every serving row scored from its stored terms, fuzzy by naive edit distance. */
export function bruteForceBm25f(s: Bm25fSearch): RankedResult {
  const { reader, cache, generation: gen, policy, query: q, limit, includeDeprecated } = s;
  const { history, usage } = s;
  const docs = cache.servingDocs(reader, gen);
  const used = cache.resolvedUsage(reader, gen, usage, policy);
  const rows = [...allBm25fRows(reader)];
  const bodies = bodyCountsOfRows(reader);
  const terms = rows.map((r) => termsOfRow(r, bodies.get(r.rowid)));
  const holds = (j: number, t: string, positive: boolean): boolean => {
    const c = terms[j]!.get(t);
    const inText = c !== undefined && (!positive || c[0] + c[1] + c[2] + c[3] > 0);
    return inText || (used.byRow.get(rows[j]!.rowid)?.tf.has(t) ?? false);
  };
  const dfOfTerm = (t: string): number => rows.filter((_, j) => holds(j, t, true)).length;
  const rowIndex = new Map(rows.map((r, j) => [r.rowid, j] as const));
  const df = q.terms.map(dfOfTerm);
  const unknown = q.terms.map((_, i) => i).filter((i) => df[i] === 0);
  const ctx: Bm25fContext = {
    params: policy,
    q,
    docs: docs.docs,
    avgLens: avgLensOf(docs, used),
    boundaryAvg: docs.docs > 0 ? docs.sums[4] / docs.docs : 0,
    df,
    exclusionDf: q.excluded.terms.map(dfOfTerm),
    usage: used,
    body: (rowid) => {
      const j = rowIndex.get(rowid)!;
      return [...q.terms, ...q.excluded.terms].map((t) => terms[j]!.get(t)?.[3] ?? 0);
    },
  };
  const scored: RankedCandidate[] = [];
  rows.forEach((r, j) => {
    if (r.state === 'archived' || (r.state === 'deprecated' && !includeDeprecated)) return;
    const fuzzy: FuzzyMatch[] = [];
    for (const i of unknown) {
      const term = q.terms[i]!;
      const k = allowedDistance(term.length);
      if (k === 0) continue;
      let best: FuzzyMatch | undefined;
      for (const [t, c] of terms[j]!) {
        // A near term counts only where the row holds it in a scoring field (it has a posting).
        if (c[0] + c[1] + c[2] + c[3] === 0) continue;
        const d = boundedEditDistance(term, t, k);
        if (
          d >= 1 &&
          d <= k &&
          (!best || d < best.distance || (d === best.distance && t < best.term))
        )
          best = { query_token: q.tokens[i]!, term: t, distance: d, allowed: k };
      }
      if (best) fuzzy.push(best);
    }
    const c = explainRow(r, ctx, fuzzy, history, gen);
    if (c.score > 0) scored.push(c);
  });
  scored.sort(compareCandidates);
  return {
    catalog_generation: gen.catalog_generation,
    policy: policy.id,
    query: '',
    candidates: applyStages(policy, q.text, scored).slice(0, limit),
  };
}

/** Most rows read in one statement by the scan (its first read is the limit's worth, then doubling). */
const MAX_ROWS_AHEAD = 256;

// The serving rows (and, for rows the tie rule may skip, only skill ids) the scan asks for, read
// ahead from the scan's upcoming rowids a batch at a time instead of one statement per row, with
// the telemetry histories of the rows read.
class RowSource {
  private readonly rows: Map<number, Bm25fRow | null>;
  private readonly ids = new Map<number, string | null>();
  private ahead: number;
  constructor(
    private readonly reader: CatalogReader,
    private readonly history: HistoryFn,
    limit: number,
    rows?: Map<number, Bm25fRow | null>,
  ) {
    this.rows = rows ?? new Map();
    // Without telemetry the bounds are the scores: the scan explains exactly the top `limit`.
    this.ahead = Math.min(MAX_ROWS_AHEAD, limit);
  }

  /** The serving row of `upcoming[at]`, reading it with the next rows not read yet. */
  row(upcoming: readonly number[], at: number): Bm25fRow | undefined {
    const rowid = upcoming[at]!;
    if (!this.rows.has(rowid)) {
      const want = this.unread(upcoming, at, this.ahead, this.rows);
      const got = bm25fRowsOf(this.reader, want);
      for (const id of want) this.rows.set(id, got.get(id) ?? null);
      // The rows read are the ones about to be explained: their telemetry in one read too.
      this.history.prefetch?.([...got.values()].map((r) => r.skill_id));
      this.ahead = Math.min(MAX_ROWS_AHEAD, 2 * this.ahead);
    }
    return this.rows.get(rowid) ?? undefined;
  }

  /** The skill_id of `upcoming[at]`, reading it with the next ids not read yet. */
  skillId(upcoming: readonly number[], at: number): string | undefined {
    const rowid = upcoming[at]!;
    const row = this.rows.get(rowid);
    if (row !== undefined) return row?.skill_id;
    if (!this.ids.has(rowid)) {
      const want = this.unread(upcoming, at, MAX_ROWS_AHEAD, this.ids);
      const got = servingSkillIdsOf(this.reader, want);
      for (const id of want) this.ids.set(id, got.get(id) ?? null);
      // The scan weighs these rows by their own telemetry next: their histories in one read too.
      this.history.prefetch?.([...got.values()]);
    }
    return this.ids.get(rowid) ?? undefined;
  }

  // Up to `count` rowids from `upcoming[at]` on that `have` does not hold yet.
  private unread(
    upcoming: readonly number[],
    at: number,
    count: number,
    have: ReadonlyMap<number, unknown>,
  ): number[] {
    const out: number[] = [];
    for (let j = at; j < upcoming.length && out.length < count; j++) {
      const r = upcoming[j]!;
      if (!have.has(r) && !this.rows.has(r)) out.push(r);
    }
    return out;
  }
}

// Hands out the indexes of (bound, rowid) pairs in descending bound order (ties: rowid ascending),
// `count` at a time, ordering only what it hands out: a min-heap keeps the best `count` of the rest.
class BoundOrder {
  private remaining: number[];
  constructor(
    private readonly bound: Float64Array,
    private readonly row: Int32Array,
    n: number,
  ) {
    this.remaining = Array.from({ length: n }, (_, i) => i);
  }
  private before(a: number, b: number): boolean {
    return (
      this.bound[a]! > this.bound[b]! ||
      (this.bound[a] === this.bound[b] && this.row[a]! < this.row[b]!)
    );
  }
  take(count: number): number[] {
    const rest = this.remaining;
    if (rest.length <= count) {
      this.remaining = [];
      return rest.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
    }
    // heap[0] is the worst of the best `count` seen so far.
    const heap: number[] = [];
    const worse = (a: number, b: number): boolean => this.before(b, a);
    const up = (i: number): void => {
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const down = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    const left: number[] = [];
    for (const i of rest) {
      if (heap.length < count) {
        heap.push(i);
        up(heap.length - 1);
      } else if (this.before(i, heap[0]!)) {
        left.push(heap[0]!);
        heap[0] = i;
        down(0);
      } else left.push(i);
    }
    this.remaining = left;
    return heap.sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0));
  }
}
