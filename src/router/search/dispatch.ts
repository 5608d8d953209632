/**
 * skill_search's entry (docs/integration.md §2): validates the request, reads the published
 * generation in one checked snapshot, and hands the search to the engine of the generation's
 * policy — `searchBm25fBounded` (bm25f.ts: the BM25F ranking under the trust bound of learning,
 * trust-bound.ts) for a BM25F policy, `searchLexical` (lexical.ts) for v1. It never scores
 * anything itself. `bruteForceSearch` dispatches the same way to each engine's reference scorer;
 * the property tests hold each fast path equal to its reference.
 */
import { SkilldexError } from '../../errors.js';
import type { CatalogReader, PublishedGeneration } from '../../catalog/index.js';
import {
  Bm25fCache,
  UsageIndex,
  analyzeQuery,
  bruteForceBm25f,
  bruteForceBm25fBounded,
  searchBm25f,
  searchBm25fBounded,
} from './bm25f.js';
import type { Bm25fPolicy, Policy } from './policies/policy.js';
import type { AnalyzedQuery } from './query-analysis.js';
import { bruteForceLexical, LexicalCache, searchLexical } from './lexical.js';
import {
  DEFAULT_POLICY_ID,
  POLICIES,
  indexCommand,
  policyById,
  rankingById,
  readsDocumentOf,
} from './policies/index.js';
import { SHARED } from './policies/shared.js';
import { boundedConfidences, isHeldBack, type ConfidenceModel } from './confidence.js';
import { CONFIDENCE_MODELS } from './policies/confidence-models.js';
import type { HistoryFn, RankedResult, SearchRequest, SearchResult } from './types.js';
import { authorEvidenceEnabled, authorStage, usageForPolicy } from './stages/author-evidence.js'; // issue 34
import { TRUST_BOUND_K } from './trust-bound.js'; // issue 34
import { nearmissBoundedConfidences, stageDepth } from './stages/index.js';

/**
 * Most skills holding a fuzzy term that the lexical engine scores before its scan (beyond it, the
 * bound takes the fuzzy slack and the holders are scored after it). Injectable per search for tests.
 */
export const FUZZY_PRESCORE_LIMIT = 200;

/** Default and bounds of `limit` (docs/integration.md). */
export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 50;

/** Validates a search request's limit: an integer 1–`max`, default 8. */
export function checkLimit(limit: unknown, max = MAX_LIMIT): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `limit must be a whole number from 1 to ${max}, got ${JSON.stringify(limit)}`,
      { limit },
    );
  }
  return limit;
}

/** Per-generation state kept between searches, one part per engine. */
export class SearchCache {
  /** The lexical engine's fuzzy index of the published vocabulary. */
  readonly lexical = new LexicalCache();
  /** The BM25F engine's row statistics, postings and usage rows (first read as the default policy). */
  readonly bm25f = new Bm25fCache(defaultBm25f());
}

/** The usage examples a search ranks with, or how to get them for the generation read. */
export type UsageSource = UsageIndex | ((generation: PublishedGeneration) => UsageIndex);

/** How one search runs, besides the request (every field has a default). */
export interface SearchOptions {
  /** Telemetry counts per skill (default: no history). */
  readonly history?: HistoryFn;
  /** Largest `limit` accepted (default MAX_LIMIT; evaluation asks for more). */
  readonly maxLimit?: number;
  /** The highest telemetry multiplier any skill has now: the pruning bound (default the cap). */
  readonly telemetryMax?: number;
  /** The usage examples to rank with (default none). */
  readonly usage?: UsageSource;
  /**
   * Apply the trust bound of learning (search/trust-bound.ts; default true). Off only to measure
   * what it changes (bench/poisoning.ts); no CLI or MCP path turns it off.
   */
  readonly trustBound?: boolean;
  /** Lexical engine only: FUZZY_PRESCORE_LIMIT, injectable for tests. */
  readonly prescoreLimit?: number;
}

const NO_HISTORY: HistoryFn = () => ({ suggestions: 0, fetches: 0 });

// The default policy's parameter set, when it is a BM25F one.
function defaultBm25f(): Bm25fPolicy | undefined {
  const p = policyById(DEFAULT_POLICY_ID);
  return p.kind === 'bm25f' ? p : undefined;
}

/**
 * Ranks the published generation for `request` with its policy's fast engine. Runs in one
 * `CatalogReader.readChecked` snapshot (a publish in between reruns the search).
 */
export function searchCatalog(
  reader: CatalogReader,
  cache: SearchCache,
  request: SearchRequest,
  options: SearchOptions = {},
): SearchResult {
  const parts = requestParts(request, options);
  const telemetryMax = options.telemetryMax ?? SHARED.TELEMETRY_MAX;
  // The postings a BM25F search will need, read with the generation (one round trip fewer on PostgreSQL).
  const prefetch = cache.bm25f.firstRead(request.query);
  return reader.readChecked((generation, first) => {
    const e = engineInput(reader, generation, request, parts);
    const bm25f = options.trustBound === false ? searchBm25f : searchBm25fBounded;
    const result =
      e.policy.kind === 'bm25f'
        ? bm25f({
            ...e,
            ...bm25fInput(e.policy, request, options, generation),
            cache: cache.bm25f,
            telemetryMax,
            seed: prefetch && { terms: prefetch.terms, rows: first },
          })
        : searchLexical({
            ...e,
            policy: e.policy,
            cache: cache.lexical,
            query: request.query,
            telemetryMax,
            prescoreLimit: options.prescoreLimit ?? FUZZY_PRESCORE_LIMIT,
          });
    // The author stage (stages/author-evidence.ts), a no-op unless the policy opts in.
    const staged = authorStageOf(result, e, request, options, generation, cache.bm25f, searchBm25f);
    return answer(staged, request, parts, modelOf(e.policy));
  }, prefetch?.read);
}

/**
 * Reference scorer: scores every skill of the published generation with its policy and returns
 * the top k. Slow by design; the property tests compare each engine's fast path with it.
 */
export function bruteForceSearch(
  reader: CatalogReader,
  request: SearchRequest,
  options: SearchOptions = {},
): SearchResult {
  const parts = requestParts(request, options);
  return reader.read((generation) => {
    const e = engineInput(reader, generation, request, parts);
    const bm25f = options.trustBound === false ? bruteForceBm25f : bruteForceBm25fBounded;
    const result =
      e.policy.kind === 'bm25f'
        ? bm25f({
            ...e,
            ...bm25fInput(e.policy, request, options, generation),
            cache: new Bm25fCache(),
            telemetryMax: SHARED.TELEMETRY_MAX,
          })
        : bruteForceLexical({ ...e, policy: e.policy, query: request.query });
    // The author stage (stages/author-evidence.ts), a no-op unless the policy opts in.
    const cache = new Bm25fCache();
    const staged = authorStageOf(result, e, request, options, generation, cache, bruteForceBm25f);
    return answer(staged, request, parts, modelOf(e.policy));
  });
}

/** What both engines take from the generation read and the request (CATALOG_EMPTY when it holds no skill). */
interface EngineInput {
  readonly reader: CatalogReader;
  readonly generation: PublishedGeneration;
  readonly policy: Policy;
  /**
   * One more than the request's limit: the one after the last gives its lead (`answer`); at least
   * the depth of the policy's stages.
   */
  readonly limit: number;
  readonly includeDeprecated: boolean;
  readonly history: HistoryFn;
}

function engineInput(
  reader: CatalogReader,
  generation: PublishedGeneration,
  request: SearchRequest,
  parts: RequestParts,
): EngineInput {
  refuseEmpty(reader, generation);
  // The generation's own policy (REINDEX_REQUIRED for a retired one), or the one the request names.
  const own = policyById(generation.policy, reader.file);
  const policy = request.policy === undefined ? own : rankingById(request.policy);
  if (!readsDocumentOf(policy, generation.policy)) {
    // A live policy of the other family: the catalog can be re-indexed under it (the hint says
    // how). A comparison parameter set over another document cannot be indexed: a bad argument.
    if (POLICIES.has(policy.id)) {
      const command = indexCommand(reader.file, policy.id);
      throw new SkilldexError(
        'REINDEX_REQUIRED',
        `${policy.id} ranks over another stored document than ${reader.file} holds (published under ${generation.policy}); re-index it under ${policy.id} to rank with it`,
        { catalog: reader.file, policy: policy.id, catalog_policy: generation.policy, command },
        { hint: `run ${command}` },
      );
    }
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${policy.id} ranks over another stored document than ${reader.file} holds (published under ${generation.policy})`,
      { catalog: reader.file, policy: policy.id, catalog_policy: generation.policy },
    );
  }
  // A policy with stages is answered from its stages' whole list (each confidence reads the list
  // the stage ordered, whatever the limit).
  const depth = policy.kind === 'bm25f' ? stageDepth(policy) : 0;
  return {
    reader,
    generation,
    policy,
    limit: Math.max(parts.limit + 1, depth),
    includeDeprecated: parts.includeDeprecated,
    history: parts.history,
  };
}

// What a BM25F engine takes besides: its parameter set, the request as the params' analyzer reads
// it, and the usage examples to rank with.
function bm25fInput(
  policy: Bm25fPolicy,
  request: SearchRequest,
  options: SearchOptions,
  generation: PublishedGeneration,
): { policy: Bm25fPolicy; query: AnalyzedQuery; usage: UsageIndex } {
  const query = analyzeQuery(request.query, policy.analyzer);
  // Author examples enter the usage field only under a policy that opts in.
  return { policy, query, usage: usageForPolicy(policy.id, usageOf(options.usage, generation)) };
}

interface RequestParts {
  readonly limit: number;
  readonly floor: number | undefined;
  readonly includeDeprecated: boolean;
  readonly history: HistoryFn;
}

// What both engines take from a request: the checked limit and floor, the lifecycle filter and the
// history source.
function requestParts(request: SearchRequest, options: SearchOptions): RequestParts {
  return {
    limit: checkLimit(request.limit, options.maxLimit),
    floor: checkMinConfidence(request.min_confidence),
    includeDeprecated: request.include_deprecated === true,
    history: options.history ?? NO_HISTORY,
  };
}

/** Validates a search request's `min_confidence`: a number from 0 to 1, or absent (the policy's floor). */
export function checkMinConfidence(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `min_confidence must be a number from 0 to 1, got ${JSON.stringify(value)}`,
      { min_confidence: value },
    );
  }
  return value;
}

/**
 * The answer to `request` from an engine's ranking of `limit + 1` candidates: the first `limit`,
 * each with its confidence (the one after them gives the last one's lead; a candidate the trust
 * bound held back stays below the floor, confidence.ts) under `model`, the ranking policy's
 * confidence model, and the abstention against `floor` (the model's default floor when the request
 * gives none).
 */
function answer(
  ranked: RankedResult,
  request: SearchRequest,
  { limit, floor }: RequestParts,
  model: ConfidenceModel | undefined,
): SearchResult {
  const shown = ranked.candidates.slice(0, limit);
  // The lead of the last one shown is over the next candidate the trust bound did not hold back.
  const after = ranked.candidates.slice(limit).find((c) => !isHeldBack(c))?.score ?? 0;
  const minConfidence = floor ?? model?.floor ?? 0;
  const confidence = !model
    ? []
    : model.features === 'nearmiss'
      ? nearmissBoundedConfidences(
          model,
          request.query,
          ranked.candidates,
          minConfidence,
          isHeldBack,
        ).slice(0, limit)
      : boundedConfidences(model, shown, after, minConfidence);
  const candidates = shown.map((c, i) => ({ ...c, confidence: confidence[i] ?? 0 }));
  return {
    ...ranked,
    query: request.query,
    candidates,
    min_confidence: minConfidence,
    abstain: !candidates.some((c) => c.confidence >= minConfidence),
  };
}

// A policy's confidence model: a BM25F parameter set carries its own; v1's is in confidence-models.ts.
function modelOf(policy: Policy): ConfidenceModel | undefined {
  return policy.kind === 'bm25f' ? policy.confidence : CONFIDENCE_MODELS.get(policy.id);
}

function usageOf(source: UsageSource | undefined, generation: PublishedGeneration): UsageIndex {
  if (source === undefined) return UsageIndex.EMPTY;
  return typeof source === 'function' ? source(generation) : source;
}

/**
 * CATALOG_EMPTY when the published generation holds no skill (an index of empty scopes published
 * with --allow-shrink, or by an older skilldex): "no candidates" would not say why.
 */
function refuseEmpty(reader: CatalogReader, gen: PublishedGeneration): void {
  if (gen.counts.total > 0) return;
  throw new SkilldexError(
    'CATALOG_EMPTY',
    `${reader.file} publishes generation ${gen.seq}, which holds no skill`,
    { catalog: reader.file, seq: gen.seq },
  );
}

// The author stage (issue 34 item 1) of a BM25F answer, with the first TRUST_BOUND_K ranked without untrusted examples
// (the trust bound's T) computed only when the stage asks for it.
function authorStageOf(
  result: RankedResult,
  e: EngineInput,
  request: SearchRequest,
  options: SearchOptions,
  generation: PublishedGeneration,
  cache: Bm25fCache,
  engine: typeof searchBm25f,
): RankedResult {
  if (e.policy.kind !== 'bm25f' || !authorEvidenceEnabled(e.policy.id)) return result;
  const policy = e.policy;
  const usage = usageOf(options.usage, generation);
  return authorStage(result, {
    policyId: policy.id,
    cjkBigrams: policy.analyzer.cjkBigrams,
    query: request.query,
    usage,
    trustedTop: () => {
      const input = bm25fInput(policy, request, options, generation);
      const top = engine({
        ...e,
        ...input,
        policy,
        usage: input.usage.trusted(),
        history: NO_HISTORY,
        telemetryMax: 1,
        cache,
        limit: TRUST_BOUND_K,
      }).candidates;
      return new Set(top.map((c) => c.skill_id));
    },
  });
}
