/**
 * skill_search under policy bm25f.v3 (docs/ranking.md §8). The fast path reads the postings of each
 * query term (never a document), accumulates every matching row's BM25F sum with the policy's own
 * `termContribution`, adds the name bonus and fuzzy credit as upper bounds, and explains only the
 * rows that can still reach the top k (sorted by bound, stopping at the first whose bound at the
 * highest telemetry multiplier falls short). `bruteForceBm25f` scores every serving row from its
 * forward terms with `scoreV3`; a property test holds the two equal.
 *
 * Catalog reads are few and batched (issue #16: on PostgreSQL each is a round trip): the postings
 * of all query terms in one statement, the rows the scan explains a batch at a time, and what is
 * fixed per published generation (row statistics, fuzzy vocabulary, recently used postings lists,
 * the rows of skills with usage examples) cached in `Bm25fCache`, keyed on the generation's
 * snapshot key, so a new publish — or a rewrite of serving rows under the same sequence — is never
 * answered from an older one.
 */
import { SkilldexError } from '../errors.js';
import {
  allBm25fRows,
  bm25fRowsOf,
  DOC_STRIDE,
  decodeForward,
  forwardOfTerms,
  forEachPosting,
  postingTerms,
  postingsFromRows,
  postingsOfTerms,
  postingsRead,
  servingDocsOf,
  servingRowidsOf,
  servingSkillIdsOf,
  type Bm25fRow,
  type CatalogReader,
  type FirstRead,
  type PublishedGeneration,
  type ServingDocs,
  type TermPostings,
  type UsageExample,
} from '../catalog/index.js';
import {
  analyzeTerms,
  boundedEditDistance,
  identifierTokens,
  isStopWord,
  sanitizeField,
  stem,
} from '../text/index.js';
import { FuzzyIndex } from './fuzzy.js';
import {
  POLICY_V3_ID,
  V3,
  fuzzyPart,
  idf,
  scoreV3,
  termContribution,
  weightedFrequency,
  type DroppedToken,
  type PerField,
} from './policies/bm25f-v3.js';
import {
  REQUEST_FILLER,
  V1,
  allowedDistance,
  telemetryMultiplier,
} from './policies/hybrid-lexical-v1.js';
import type { FuzzyMatch, SkillState } from './policies/types.js';
import { MAX_QUERY_CHARS } from './query.js';
import type { Candidate, HistoryFn, SearchResult } from './search-types.js';
import { TopK, compareCandidates } from './top-k.js';

/** A query as v3 scores it: distinct scoring words with their terms, and the words dropped and why. */
export interface AnalyzedQuery {
  readonly tokens: readonly string[];
  readonly terms: readonly string[];
  readonly dropped: readonly DroppedToken[];
}

/**
 * Analyses a query for v3: identifier-split words (analyze.ts), then stop-words, request filler,
 * bare numbers and single characters dropped (each listed with its reason), at most
 * MAX_QUERY_TOKENS distinct terms. A query of only filler, numbers or single characters keeps them.
 * INVALID_QUERY when it is not a string, is over MAX_QUERY_CHARS, or has no word left.
 */
export function analyzeQuery(query: unknown): AnalyzedQuery {
  if (typeof query !== 'string')
    throw new SkilldexError('INVALID_QUERY', 'query must be a string', { query: String(query) });
  if (query.length > MAX_QUERY_CHARS) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `query is ${query.length} characters, over the limit of ${MAX_QUERY_CHARS}`,
      { length: query.length },
    );
  }
  const words = [...new Set(identifierTokens(query))];
  const dropped: DroppedToken[] = [];
  const signal: string[] = [];
  const weak: string[] = [];
  for (const w of words) {
    if (isStopWord(w)) dropped.push({ token: w, reason: 'stop-word' });
    else if (REQUEST_FILLER.has(w)) weak.push(w);
    else if (isNumeral(w)) weak.push(w);
    else if (w.length === 1) weak.push(w);
    else signal.push(w);
  }
  const reasonOf = (w: string): DroppedToken['reason'] =>
    REQUEST_FILLER.has(w) ? 'filler' : isNumeral(w) ? 'number' : 'single-character';
  // A query made only of filler or numbers still searches for what it has.
  const chosen = signal.length > 0 ? signal : weak;
  if (signal.length > 0) for (const w of weak) dropped.push({ token: w, reason: reasonOf(w) });
  const tokens: string[] = [];
  const terms: string[] = [];
  for (const w of chosen) {
    const t = stem(w);
    if (terms.includes(t)) continue;
    if (terms.length >= V1.MAX_QUERY_TOKENS) {
      dropped.push({ token: w, reason: 'over-limit' });
      continue;
    }
    tokens.push(w);
    terms.push(t);
  }
  if (terms.length === 0) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `query ${JSON.stringify(query.slice(0, 80))} has no searchable word (letters or digits other than stop-words)`,
      {
        query: query.slice(0, 200),
      },
    );
  }
  return { tokens, terms, dropped };
}

/** One skill's learned usage: its examples, their terms, and the field's term frequencies. */
interface SkillUsage {
  readonly examples: readonly { readonly query: string; readonly terms: ReadonlySet<string> }[];
  readonly tf: ReadonlyMap<string, number>;
  readonly len: number;
}

/** The usage field of every skill with examples, built from a snapshot of the telemetry file. */
export class UsageIndex {
  readonly bySkill = new Map<string, SkillUsage>();
  constructor(examples: readonly UsageExample[]) {
    const grouped = new Map<string, string[]>();
    for (const e of examples) {
      const l = grouped.get(e.skill_id);
      if (l) l.push(e.query);
      else grouped.set(e.skill_id, [e.query]);
    }
    for (const [id, queries] of grouped) {
      const tf = new Map<string, number>();
      let len = 0;
      const ex = queries.map((query) => {
        const terms = analyzeTerms(query);
        len += terms.length;
        for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
        return { query, terms: new Set(terms) };
      });
      this.bySkill.set(id, { examples: ex, tf, len });
    }
  }
  /** An index with no examples. */
  static readonly EMPTY = new UsageIndex([]);
}

/**
 * Most bytes of postings lists a Bm25fCache keeps (32 MiB). At 100,000 skills the lists of the
 * commonest terms are 100–300 KB each; a query stream with Zipf-distributed words asks mostly for
 * the few hundred of those, which fit, while a rare term's list is a few bytes.
 */
export const POSTINGS_CACHE_BYTES = 32 * 1024 * 1024;

// What a cached "no document has this term" costs against the budget, in bytes.
const ABSENT_TERM_BYTES = 64;

/** A search's first read (Bm25fCache.firstRead): the terms asked for and the statement. */
export interface Prefetch {
  readonly terms: readonly string[];
  readonly read: FirstRead;
}

/** The terms of a Prefetch with the rows its read returned. */
export interface PrefetchRows {
  readonly terms: readonly string[];
  readonly rows: readonly unknown[];
}

/**
 * Per-generation state kept between v3 searches: the row statistics, the fuzzy index, the most
 * recently used postings lists (at most POSTINGS_CACHE_BYTES) and the serving rows of the skills
 * with usage examples. Everything is dropped when the generation's snapshot key changes.
 */
export class Bm25fCache {
  private snapshot = '';
  private docs: ServingDocs | undefined;
  private fuzzy: FuzzyIndex | undefined;
  // Least recently used first (a Map keeps insertion order; a hit moves the term to the end).
  private postings = new Map<string, TermPostings | null>();
  private postingBytes = 0;
  private usage: { index: UsageIndex; resolved: ResolvedUsage } | undefined;

  /** The row statistics of `generation`. */
  servingDocs(reader: CatalogReader, generation: PublishedGeneration): ServingDocs {
    this.sync(generation);
    if (!this.docs) this.docs = servingDocsOf(reader);
    return this.docs;
  }

  /** The fuzzy index over the generation's terms (built on first need). */
  fuzzyIndex(reader: CatalogReader, generation: PublishedGeneration): FuzzyIndex {
    this.sync(generation);
    if (!this.fuzzy) this.fuzzy = new FuzzyIndex(postingTerms(reader));
    return this.fuzzy;
  }

  /**
   * What a search for `query` reads with the generation (CatalogReader.readChecked): the postings
   * of its terms not cached now. Undefined when all are, or when the query has no term (the
   * search itself then refuses it, after the generation checks, as it always did).
   */
  firstRead(query: unknown): Prefetch | undefined {
    let terms: readonly string[];
    try {
      terms = analyzeQuery(query).terms;
    } catch (err) {
      if (err instanceof SkilldexError && err.code === 'INVALID_QUERY') return undefined;
      throw err;
    }
    const missing = terms.filter((t) => !this.postings.has(t));
    return missing.length > 0 ? { terms: missing, read: postingsRead(missing) } : undefined;
  }

  /**
   * The postings of each of `terms` (undefined: no document has it); those not cached in one read.
   * `seed` holds the rows of a `firstRead` of this search, cached first.
   */
  postingsOf(
    reader: CatalogReader,
    generation: PublishedGeneration,
    terms: readonly string[],
    seed?: PrefetchRows,
  ): Map<string, TermPostings | undefined> {
    this.sync(generation);
    if (seed) {
      const read = postingsFromRows(seed.rows);
      for (const t of seed.terms) if (!this.postings.has(t)) this.remember(t, read.get(t));
    }
    const out = new Map<string, TermPostings | undefined>();
    const missing: string[] = [];
    for (const t of terms) {
      if (out.has(t)) continue;
      const hit = this.postings.get(t);
      if (hit === undefined) {
        missing.push(t);
        out.set(t, undefined);
        continue;
      }
      this.postings.delete(t);
      this.postings.set(t, hit);
      out.set(t, hit ?? undefined);
    }
    if (missing.length === 0) return out;
    const read = postingsOfTerms(reader, missing);
    for (const t of missing) {
      out.set(t, read.get(t));
      this.remember(t, read.get(t));
    }
    return out;
  }

  // Caches a term's postings (or their absence), dropping the least recently used past the budget.
  private remember(term: string, p: TermPostings | undefined): void {
    this.postings.set(term, p ?? null);
    this.postingBytes += p ? p.data.byteLength + ABSENT_TERM_BYTES : ABSENT_TERM_BYTES;
    for (const [t, q] of this.postings) {
      if (this.postingBytes <= POSTINGS_CACHE_BYTES) break;
      this.postings.delete(t);
      this.postingBytes -= q ? q.data.byteLength + ABSENT_TERM_BYTES : ABSENT_TERM_BYTES;
    }
  }

  /** `usage` resolved against the generation's rows (read once per generation and usage index). */
  resolvedUsage(
    reader: CatalogReader,
    generation: PublishedGeneration,
    usage: UsageIndex,
  ): ResolvedUsage {
    this.sync(generation);
    if (this.usage?.index !== usage)
      this.usage = { index: usage, resolved: resolveUsage(reader, usage) };
    return this.usage.resolved;
  }

  private sync(generation: PublishedGeneration): void {
    if (generation.snapshot === this.snapshot) return;
    this.snapshot = generation.snapshot;
    this.docs = undefined;
    this.fuzzy = undefined;
    this.postings = new Map();
    this.postingBytes = 0;
    this.usage = undefined;
  }
}

// Usage resolved against the generation: the served rows that have examples (archived rows keep none).
interface ResolvedUsage {
  readonly byRow: Map<number, SkillUsage>;
  readonly avgLen: number;
}

function resolveUsage(reader: CatalogReader, usage: UsageIndex): ResolvedUsage {
  const byRow = new Map<number, SkillUsage>();
  if (usage.bySkill.size === 0) return { byRow, avgLen: 0 };
  const rows = servingRowidsOf(reader, [...usage.bySkill.keys()]);
  let total = 0;
  for (const [id, u] of usage.bySkill) {
    const r = rows.get(id);
    if (!r || r.state === 'archived') continue;
    byRow.set(r.rowid, u);
    total += u.len;
  }
  return { byRow, avgLen: byRow.size > 0 ? total / byRow.size : 0 };
}

function avgLensOf(docs: ServingDocs, usage: ResolvedUsage): PerField {
  const n = docs.docs > 0 ? docs.docs : 1;
  return [docs.sums[0] / n, docs.sums[1] / n, docs.sums[2] / n, docs.sums[3] / n, usage.avgLen];
}

/** What both v3 paths share for one query. */
interface QueryContext {
  readonly q: AnalyzedQuery;
  readonly docs: number;
  readonly avgLens: PerField;
  readonly df: readonly number[];
  /** Indexes (into q.terms) of the terms no document and no example has: fuzzy matching tries these. */
  readonly unknown: readonly number[];
  readonly usage: ResolvedUsage;
}

// A word of digits only (any script's); ASCII words skip the Unicode class (built on first use).
const isNumeral = (w: string): boolean =>
  /^[0-9]+$/.test(w) || (/[^\x00-\x7f]/.test(w) && /^\p{N}+$/u.test(w));

/** The v3 fast path over the published generation. */
export function searchBm25f(
  reader: CatalogReader,
  cache: Bm25fCache,
  gen: PublishedGeneration,
  q: AnalyzedQuery,
  limit: number,
  includeDeprecated: boolean,
  history: HistoryFn,
  telemetryMax: number,
  usage: UsageIndex,
  seed?: PrefetchRows,
): SearchResult {
  const docs = cache.servingDocs(reader, gen);
  const used = cache.resolvedUsage(reader, gen, usage);
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
  const postings = cache.postingsOf(reader, gen, q.terms, seed);
  q.terms.forEach((term, i) => {
    const post = postings.get(term);
    // Rows whose examples hold the term; df counts a row once whether the term is in its text, its examples or both.
    const usageRows: number[] = [];
    for (const [rowid, u] of used.byRow) if (u.tf.has(term)) usageRows.push(rowid);
    let termDf = post?.df ?? 0;
    const inPostings = new Set<number>();
    if (post && usageRows.length > 0) forEachPosting(post.data, (rowid) => inPostings.add(rowid));
    for (const r of usageRows) if (!inPostings.has(r)) termDf++;
    df.push(termDf);
    if (termDf === 0) {
      unknown.push(i);
      return;
    }
    const termIdf = idf(termDf, docs.docs);
    const score = (rowid: number, n: number, k: number, d: number, b: number): void => {
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
      acc[rowid] = acc[rowid]! + termContribution(weightedFrequency(tf, lens, avgLens), termIdf);
      if (n > 0) nameHits[rowid] = nameHits[rowid]! + 1;
    };
    if (post) forEachPosting(post.data, score);
    for (const r of usageRows) if (!inPostings.has(r)) score(r, 0, 0, 0, 0);
  });
  // Fuzzy: each unknown term's near terms (within its allowed distance) and the rows holding them.
  const fuzzyOf = new Map<number, FuzzyMatch[]>();
  if (unknown.length > 0) {
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
  }
  const ctx: QueryContext = { q, docs: docs.docs, avgLens, df, unknown, usage: used };
  // Upper bounds: BM25F sum + the name bonus where it applies + the exact fuzzy part, times the lifecycle multiplier.
  const nTerms = q.terms.length;
  const boundOf = new Float64Array(touched.length);
  const rowOf = new Int32Array(touched.length);
  let n = 0;
  for (const rowid of touched) {
    const state = docs.data[rowid * DOC_STRIDE + 4]!;
    if (state === 2 || (state === 1 && !includeDeprecated)) continue;
    let b = acc[rowid]!;
    // The bonus applies exactly when every query term is in the name and the name has no other term.
    if (nameHits[rowid] === nTerms && docs.data[rowid * DOC_STRIDE + 5] === nTerms)
      b += V3.NAME_BONUS;
    const fm = fuzzyOf.get(rowid);
    if (fm) b += fuzzyPart(fm, nTerms);
    b *= state === 1 ? V3.DEPRECATED_MULTIPLIER : 1;
    if (b > 0) {
      boundOf[n] = b;
      rowOf[n] = rowid;
      n++;
    }
  }
  // Rows are explained in descending bound order; only the best `batch` are ordered at a time
  // (a bounded heap), since the scan usually stops within the first few dozen.
  const top = new TopK(limit);
  const order = new BoundOrder(boundOf, rowOf, n);
  const source = new RowSource(reader, history, limit);
  for (let batch = Math.max(4 * limit, 64); ; batch *= 8) {
    const next = order.take(batch);
    if (next.length === 0) break;
    const upcoming = next.map((i) => rowOf[i]!);
    let stopped = false;
    for (let j = 0; j < next.length; j++) {
      const i = next[j]!;
      const most = boundOf[i]! * telemetryMax;
      if (top.full() && most + 1e-9 < top.worst()) {
        stopped = true;
        break;
      }
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
      top.offer(candidateOf(row, ctx, fuzzyOf.get(rowOf[i]!) ?? [], history, gen));
    }
    if (stopped) break;
  }
  return {
    catalog_generation: gen.catalog_generation,
    policy: POLICY_V3_ID,
    query: '',
    candidates: top.sorted(),
  };
}

/** The v3 reference scorer: every serving row scored from its forward terms, fuzzy by naive edit distance. */
export function bruteForceBm25f(
  reader: CatalogReader,
  cache: Bm25fCache,
  gen: PublishedGeneration,
  q: AnalyzedQuery,
  limit: number,
  includeDeprecated: boolean,
  history: HistoryFn,
  usage: UsageIndex,
): SearchResult {
  const docs = cache.servingDocs(reader, gen);
  const used = cache.resolvedUsage(reader, gen, usage);
  const rows = [...allBm25fRows(reader)];
  const fwds = rows.map((r) => decodeForward(r.fwd, r.body_terms));
  const df = q.terms.map(
    (t) =>
      rows.filter(
        (r, j) => fwds[j]![t] !== undefined || (used.byRow.get(r.rowid)?.tf.has(t) ?? false),
      ).length,
  );
  const unknown = q.terms.map((_, i) => i).filter((i) => df[i] === 0);
  const ctx: QueryContext = {
    q,
    docs: docs.docs,
    avgLens: avgLensOf(docs, used),
    df,
    unknown,
    usage: used,
  };
  const scored: Candidate[] = [];
  rows.forEach((r, j) => {
    if (r.state === 'archived' || (r.state === 'deprecated' && !includeDeprecated)) return;
    const fuzzy: FuzzyMatch[] = [];
    for (const i of unknown) {
      const term = q.terms[i]!;
      const k = allowedDistance(term.length);
      if (k === 0) continue;
      let best: FuzzyMatch | undefined;
      for (const t of Object.keys(fwds[j]!)) {
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
    const c = candidateOf(r, ctx, fuzzy, history, gen);
    if (c.score > 0) scored.push(c);
  });
  scored.sort(compareCandidates);
  return {
    catalog_generation: gen.catalog_generation,
    policy: POLICY_V3_ID,
    query: '',
    candidates: scored.slice(0, limit),
  };
}

/** Longest learned request quoted in an explanation's `usage.matched`, in characters. */
const MAX_MATCHED_CHARS = 200;

function candidateOf(
  row: Bm25fRow,
  ctx: QueryContext,
  fuzzy: readonly FuzzyMatch[],
  history: HistoryFn,
  gen: PublishedGeneration,
): Candidate {
  const fwd = forwardOfTerms(row.fwd, row.body_terms, ctx.q.terms);
  const u = ctx.usage.byRow.get(row.rowid);
  const tf = ctx.q.terms.map((t, i): PerField => {
    const c = fwd.tf[i]!;
    return [c[0], c[1], c[2], c[3], u?.tf.get(t) ?? 0];
  });
  const nameTerms = fwd.nameTerms;
  const queryTerms = new Set(ctx.q.terms);
  const matched = u
    ? u.examples
        .filter((e) => [...e.terms].some((t) => queryTerms.has(t)))
        .slice(0, 3)
        // Another client's words: shown to every client, so passed through the one sanitiser
        // (controls, bidi and TAG characters escaped; cut at MAX_MATCHED_CHARS).
        .map((e) => sanitizeField(e.query, MAX_MATCHED_CHARS))
    : [];
  // Fuzzy matches in query order, as the explanation lists them.
  const order = new Map(ctx.q.tokens.map((t, i) => [t, i] as const));
  const sortedFuzzy = [...fuzzy].sort(
    (a, b) => order.get(a.query_token)! - order.get(b.query_token)!,
  );
  const h = history(row.skill_id);
  const explanation = scoreV3({
    queryTokens: ctx.q.tokens,
    queryTerms: ctx.q.terms,
    droppedTokens: ctx.q.dropped,
    docs: ctx.docs,
    avgLens: ctx.avgLens,
    lens: [row.len_n, row.len_k, row.len_d, row.len_b, u?.len ?? 0],
    df: ctx.df,
    tf,
    nameTerms,
    fuzzy: sortedFuzzy,
    usageExamples: u?.examples.length ?? 0,
    usageMatched: matched,
    suggestions: h.suggestions,
    fetches: h.fetches,
    state: row.state as SkillState,
  });
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

/** Most rows read in one statement by the scan (its first read is the limit's worth, then doubling). */
const MAX_ROWS_AHEAD = 256;

// The serving rows (and, for rows the tie rule may skip, only skill ids) the scan asks for, read
// ahead from the scan's upcoming rowids a batch at a time instead of one statement per row, with
// the telemetry histories of the rows read.
class RowSource {
  private readonly rows = new Map<number, Bm25fRow | null>();
  private readonly ids = new Map<number, string | null>();
  private ahead: number;
  constructor(
    private readonly reader: CatalogReader,
    private readonly history: HistoryFn,
    limit: number,
  ) {
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
