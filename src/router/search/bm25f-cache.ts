/**
 * What the BM25F engine (bm25f.ts) keeps between searches: the usage field built from a snapshot
 * of the usage examples (`UsageIndex`, per analyzer, since CJK bigrams read text differently), and
 * per published generation the row statistics, the fuzzy vocabulary, the most
 * recently used postings lists and the served rows of skills with examples (`Bm25fCache`), all
 * dropped when the generation's snapshot key changes, so a new publish — or a rewrite of serving
 * rows under the same sequence — is never answered from an older cache.
 */
import { SkilldexError } from '../../errors.js';
import {
  postingTerms,
  postingsFromRows,
  postingsOfTerms,
  postingsRead,
  servingDocsOf,
  servingRowidsOf,
  type CatalogReader,
  type FirstRead,
  type PublishedGeneration,
  type ServingDocs,
  type TermPostings,
  type UsageExample,
} from '../../catalog/index.js';
import { analyzeTerms, analyzeTermsV4 } from '../../text/index.js';
import { FuzzyIndex } from './fuzzy.js';
import type { AnalyzerOptions, Bm25fParams } from './policies/bm25f-core.js';
import { analyzeQuery } from './query-analysis.js';

/** One skill's learned usage: its examples, their terms, and the field's term frequencies. */
export interface SkillUsage {
  readonly examples: readonly { readonly query: string; readonly terms: ReadonlySet<string> }[];
  readonly tf: ReadonlyMap<string, number>;
  readonly len: number;
}

/**
 * The usage field of every skill with examples, built from a snapshot of the telemetry file. Each
 * example counts its `weight` (1 for imported and host examples; a fetch example grows to 1 with
 * the sessions that agree on it: catalog/side/usage.ts exampleWeight), both in the field's term counts
 * and in its length. `trusted()` is the same snapshot without the fetch examples: what the trust
 * bound (trust-bound.ts) ranks with to decide which skills may be first.
 */
export class UsageIndex {
  private readonly queries = new Map<string, { query: string; weight: number }[]>();
  // Keyed on the analyzer's CJK option: the only one that changes how an example's text is read.
  private readonly byAnalyzer = new Map<boolean, Map<string, SkillUsage>>();
  readonly examples: readonly UsageExample[];
  private trustedIndex: UsageIndex | undefined;
  /** True when some example was recorded by a fetch (source `fetch`). */
  readonly hasFetch: boolean;

  constructor(examples: readonly UsageExample[]) {
    this.examples = examples;
    let fetch = false;
    for (const e of examples) {
      // issue 34 (author examples): should-not examples never enter the usage field (stages/author-penalty.ts);
      // author examples are bounded as fetch ones are.
      if (e.polarity === 'negative') continue;
      if (e.source === 'fetch' || e.source === 'author') fetch = true;
      const x = { query: e.query, weight: e.weight };
      const l = this.queries.get(e.skill_id);
      if (l) l.push(x);
      else this.queries.set(e.skill_id, [x]);
    }
    this.hasFetch = fetch;
  }

  /**
   * The examples an operator or the host vouched for (`import`, `host`): this index itself when it
   * has no fetch example, else one built once without them.
   */
  trusted(): UsageIndex {
    if (!this.hasFetch) return this;
    this.trustedIndex ??= new UsageIndex(
      this.examples.filter((e) => e.source !== 'fetch' && e.source !== 'author'), // issue 34
    );
    return this.trustedIndex;
  }

  /** Each skill's usage field, its examples analysed as `analyzer` reads text (built once). */
  fields(analyzer: AnalyzerOptions): ReadonlyMap<string, SkillUsage> {
    const key = analyzer.cjkBigrams;
    let out = this.byAnalyzer.get(key);
    if (out) return out;
    out = new Map();
    const analyze = key ? analyzeTermsV4 : analyzeTerms;
    for (const [id, queries] of this.queries) {
      const tf = new Map<string, number>();
      let len = 0;
      const examples = queries.map(({ query, weight }) => {
        const terms = analyze(query);
        len += weight * terms.length;
        for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + weight);
        return { query, terms: new Set(terms) };
      });
      out.set(id, { examples, tf, len });
    }
    this.byAnalyzer.set(key, out);
    return out;
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

/** Resolved usage fields a Bm25fCache keeps (a full and a trusted index, for two analyzers). */
const MAX_RESOLVED_USAGE = 4;

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

/** The served rows of the skills with usage examples, and the usage field's average length. */
export interface ResolvedUsage {
  readonly byRow: Map<number, SkillUsage>;
  readonly avgLen: number;
}

/** Per-generation state kept between BM25F searches (see the file header). */
export class Bm25fCache {
  private snapshot = '';
  // The analyzer of the last search (at first the one given): what firstRead analyses a query with.
  private analyzer: AnalyzerOptions | undefined;
  private docs: ServingDocs | undefined;
  private fuzzy: FuzzyIndex | undefined;
  // Least recently used first (a Map keeps insertion order; a hit moves the term to the end).
  private postings = new Map<string, TermPostings | null>();
  private postingBytes = 0;
  // Resolved usage per index and analyzer searched (a search with fetch examples also ranks with its
  // trusted part, so two indexes alternate); few entries, dropped with the generation.
  private usage: { index: UsageIndex; cjk: boolean; resolved: ResolvedUsage }[] = [];

  /** `params`: the parameter set the first search is expected under (the default policy's). */
  constructor(params?: Bm25fParams) {
    this.analyzer = params?.analyzer;
  }

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
   * of its terms not cached now, analysed with the analyzer searched last. Undefined when all
   * are, when no analyzer is known yet, or when the query has no term (the search itself then
   * refuses it, after the generation checks, as it always did).
   */
  firstRead(query: unknown): Prefetch | undefined {
    if (!this.analyzer) return undefined;
    let terms: readonly string[];
    try {
      const q = analyzeQuery(query, this.analyzer);
      terms = [...q.terms, ...q.excluded.terms];
    } catch (err) {
      if (err instanceof SkilldexError && err.code === 'INVALID_QUERY') return undefined;
      throw err;
    }
    const missing = terms.filter((t) => !this.postings.has(t));
    return missing.length > 0 ? { terms: missing, read: postingsRead(missing) } : undefined;
  }

  /** Records the parameter set being searched with (for the next firstRead). */
  searching(params: Bm25fParams): void {
    this.analyzer = params.analyzer;
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
    params: Bm25fParams,
  ): ResolvedUsage {
    this.sync(generation);
    const cjk = params.analyzer.cjkBigrams;
    const hit = this.usage.find((u) => u.index === usage && u.cjk === cjk);
    if (hit) return hit.resolved;
    const resolved = resolveUsage(reader, usage.fields(params.analyzer));
    this.usage.unshift({ index: usage, cjk, resolved });
    if (this.usage.length > MAX_RESOLVED_USAGE) this.usage.pop();
    return resolved;
  }

  private sync(generation: PublishedGeneration): void {
    if (generation.snapshot === this.snapshot) return;
    this.snapshot = generation.snapshot;
    this.docs = undefined;
    this.fuzzy = undefined;
    this.postings = new Map();
    this.postingBytes = 0;
    this.usage = [];
  }
}

function resolveUsage(
  reader: CatalogReader,
  fields: ReadonlyMap<string, SkillUsage>,
): ResolvedUsage {
  const byRow = new Map<number, SkillUsage>();
  if (fields.size === 0) return { byRow, avgLen: 0 };
  const rows = servingRowidsOf(reader, [...fields.keys()]);
  let total = 0;
  for (const [id, u] of fields) {
    const r = rows.get(id);
    if (!r || r.state === 'archived') continue;
    byRow.set(r.rowid, u);
    total += u.len;
  }
  return { byRow, avgLen: byRow.size > 0 ? total / byRow.size : 0 };
}
