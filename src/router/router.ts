/**
 * The consumer face of the router as one object: a read-only catalog, the per-generation search
 * cache, the telemetry store and the usage examples beside it. skill_search and skill_fetch are one
 * call each; telemetry and usage examples are written after the answer is computed and can never fail it.
 */
import { assertKnownOptions, optionKeys } from '../errors.js';
import { CONFIDENCE_MODELS } from './search/policies/confidence-models.js';
import {
  CatalogReader,
  TelemetryStore,
  DEFAULT_USAGE_RETENTION_DAYS,
  addUsageExamples,
  checkRetentionDays,
  openUsageForWrite,
  telemetryPathFor,
  UsageWatch,
  type EventOrigin,
  type PublishedGeneration,
  type SkillHistory,
  type UsageOrigin,
} from '../catalog/index.js';
import { UsageIndex } from './search/bm25f.js';
import { fetchSkill, type FetchRequest, type FetchResult } from './served/fetch.js';
import { locateServed, type SkillLocation } from './served/inspect.js';
import { telemetryMultiplier } from './search/policies/shared.js';
import { queryHash } from './search/query.js';
import {
  getServedSkill,
  listServedSkillFiles,
  listServedSkills,
  listServedSkillsWithFiles,
  readServedSkill,
  readServedSkillFile,
  type ServedFilesPage,
  type ServedPage,
  type ServedSkill,
} from './served/skills.js';
import type { SkillFile, SkillFiles } from '../catalog/index.js';
import {
  FUZZY_PRESCORE_LIMIT,
  SearchCache,
  bruteForceSearch,
  searchCatalog,
} from './search/dispatch.js';
import type { HistoryFn, SearchRequest, SearchResult } from './search/types.js';

/** Options of a Router. */
export interface RouterOptions {
  /** Path of the catalog file (must exist). */
  readonly catalog: string;
  /** Record and read telemetry (default true). */
  readonly telemetry?: boolean;
  /** Clock for telemetry timestamps (default: the system clock). */
  readonly now?: () => Date;
  /**
   * Rank with the usage examples kept beside the telemetry (the BM25F policies; default true). Telemetry
   * off stops recording new examples; the examples already learned or imported still rank.
   */
  readonly usage?: boolean;
  /**
   * Days a usage example is kept (default DEFAULT_USAGE_RETENTION_DAYS): a fetch's write drops the
   * older ones (issue 36 P1). The CLI passes `usage_retention_days` of the user's config.
   */
  readonly usageRetentionDays?: number;
  /**
   * Lexical policies only: most fuzzy-term holders scored before the scan (default 200,
   * FUZZY_PRESCORE_LIMIT). Tests set 0 or 1 to run the slack path; ranking is the same either way.
   */
  readonly fuzzyPrescoreLimit?: number;
  /** Record suggestions and fetches (default true); false reads history only (the explorer). */
  readonly record?: boolean;
  /**
   * Record the candidates a search shows as suggestions (default true: the agent path). A person's
   * searches in a terminal pass false, so repeating them does not lower what they show; fetches
   * are still recorded, and telemetry is still read for ranking.
   */
  readonly recordSuggestions?: boolean;
  /**
   * Who this router's searches and fetches are recorded as (docs/ranking.md §9): `client` (default
   * `library`) and `session` (default one per Router: `<client>:<pid>:<start>:<n>`). A call may
   * name its own (an MCP server passes each request's client and session).
   */
  readonly origin?: UsageOrigin;
}

const ROUTER_OPTION_KEYS = optionKeys<RouterOptions>()(
  'catalog',
  'telemetry',
  'now',
  'usage',
  'usageRetentionDays',
  'fuzzyPrescoreLimit',
  'record',
  'recordSuggestions',
  'origin',
);

// Sessions this process has named so far (processSession): each name is distinct.
let sessionsMade = 0;

/**
 * A session name of this process for `client`, for work no host session names (a Router's default
 * session, a hook run without one): `<client>:<pid>:<ms>:<n>`, distinct within the process.
 */
export function processSession(client: string, ms: number): string {
  return `${client}:${process.pid}:${ms}:${++sessionsMade}`;
}

const NO_HISTORY: HistoryFn = () => ({ suggestions: 0, fetches: 0 });

/** skill_search and skill_fetch over one catalog. */
export class Router {
  private readonly reader: CatalogReader;
  private readonly cache = new SearchCache();
  private readonly telemetry: TelemetryStore | undefined;
  private readonly telemetryFile: string;
  private readonly usageWatch: UsageWatch;
  private readonly useUsage: boolean;
  private readonly now: () => Date;
  private readonly prescoreLimit: number;
  private usageSig = '';
  private usageIndex = UsageIndex.EMPTY;
  private readonly record: boolean;
  private readonly recordSuggestions: boolean;
  private readonly retentionDays: number;
  private readonly origin: Required<UsageOrigin>;

  /** A router over the catalog `options.catalog`. INVALID_ARGUMENT for an unknown option. */
  constructor(options: RouterOptions) {
    assertKnownOptions(options, ROUTER_OPTION_KEYS, 'Router');
    this.reader = new CatalogReader(options.catalog);
    this.record = options.record !== false;
    this.now = options.now ?? (() => new Date());
    this.telemetryFile = telemetryPathFor(options.catalog);
    this.usageWatch = new UsageWatch(this.telemetryFile);
    this.telemetry =
      options.telemetry === false ? undefined : new TelemetryStore(this.telemetryFile, this.now);
    this.useUsage = options.usage !== false;
    this.retentionDays = checkRetentionDays(
      options.usageRetentionDays ?? DEFAULT_USAGE_RETENTION_DAYS,
      'usageRetentionDays',
    );
    this.prescoreLimit = options.fuzzyPrescoreLimit ?? FUZZY_PRESCORE_LIMIT;
    this.recordSuggestions = options.recordSuggestions !== false;
    const client = options.origin?.client ?? 'library';
    this.origin = {
      client,
      session: options.origin?.session ?? processSession(client, this.now().getTime()),
    };
  }

  /**
   * skill_search: ranked, explained candidates from the published generation. `origin` says who
   * the suggestions are recorded as (default: this router's client and session, source `search`).
   */
  search(request: SearchRequest, maxLimit?: number, origin: EventOrigin = {}): SearchResult {
    const result = searchCatalog(this.reader, this.cache, request, {
      history: this.history(),
      maxLimit,
      telemetryMax: this.telemetryMax(),
      usage: (gen) => this.usage(gen),
      prescoreLimit: this.prescoreLimit,
    });
    if (this.record && this.recordSuggestions)
      this.telemetry?.recordSuggestions(
        queryHash(request.query),
        result.catalog_generation,
        result.candidates.map((c) => c.skill_id),
        { ...this.origin, source: 'search', ...origin },
      );
    return result;
  }

  /**
   * Records the skills a prompt hook suggested for `query` (source `hook`, this router's client and
   * session unless `origin` names others). Events only: they do not count towards the telemetry
   * multiplier, because a host loads a hook's suggestion natively and skilldex never sees that as a
   * fetch, so counting them would demote exactly the skills the hook suggests well.
   */
  recordHookSuggestions(
    query: string,
    generation: string,
    skillIds: readonly string[],
    origin: EventOrigin = {},
  ): void {
    if (!this.record || this.telemetry === undefined || skillIds.length === 0) return;
    this.telemetry.recordSuggestions(
      queryHash(query),
      generation,
      skillIds,
      { ...this.origin, source: 'hook', ...origin },
      false,
    );
  }

  /** The reference scorer over the whole generation (for verification; no telemetry written). */
  searchBruteForce(request: SearchRequest, maxLimit?: number): SearchResult {
    return bruteForceSearch(this.reader, request, {
      history: this.history(),
      maxLimit,
      usage: (gen) => this.usage(gen),
    });
  }

  /**
   * skill_fetch: the verified body of a pinned skill. Its `context` is recorded as a `fetch` usage
   * example of `origin`'s client and session (default: this router's), once per session.
   */
  fetch(request: FetchRequest, origin: UsageOrigin = {}): FetchResult {
    const result = fetchSkill(this.reader, request);
    const who = { ...this.origin, ...origin };
    if (this.record)
      this.telemetry?.recordFetch(
        result.skill_id,
        result.revision_id,
        result.catalog_generation,
        request.context,
        { ...who, source: 'fetch' },
      );
    if (this.telemetry && this.record) this.recordExample(result.skill_id, request.context, who);
    return result;
  }

  /** A page of the skills the published generation serves (archived ones excluded). */
  listSkills(options: { cursor?: string; limit?: number } = {}): ServedPage {
    return listServedSkills(this.reader, options);
  }

  /** A page of served skills, each with the supporting files the index recorded (one snapshot). */
  listSkillsWithFiles(options: { cursor?: string; limit?: number } = {}): ServedFilesPage {
    return listServedSkillsWithFiles(this.reader, options);
  }

  /** One served skill with its frontmatter, digest and size. */
  getSkill(skillId: string): ServedSkill & { catalog_generation: string } {
    return getServedSkill(this.reader, skillId);
  }

  /** A served skill's SKILL.md, verified against its digest. */
  readSkill(skillId: string): { skill: ServedSkill; text: string; catalog_generation: string } {
    return readServedSkill(this.reader, skillId);
  }

  /** A served skill's supporting files, each with the digest recorded at index time. */
  listSkillFiles(skillId: string): SkillFiles & { skill: ServedSkill; catalog_generation: string } {
    return listServedSkillFiles(this.reader, skillId);
  }

  /** One supporting file of a served skill, verified against its recorded digest. */
  readSkillFile(
    skillId: string,
    rel: string,
  ): { skill: ServedSkill; file: SkillFile; bytes: Buffer; catalog_generation: string } {
    return readServedSkillFile(this.reader, skillId, rel);
  }

  /**
   * Path and scope of each id in the published generation (ids not served are left out), through
   * this Router's open catalog: what `skilldex search` prints beside each candidate.
   */
  locate(ids: readonly string[]): Map<string, SkillLocation> {
    return locateServed(this.reader, ids);
  }

  /** The published generation id (a cheap read). */
  currentGeneration(): string {
    return this.reader.read((g) => g.catalog_generation);
  }

  /**
   * The confidence floor a search without `min_confidence` is judged against: the default floor
   * of the published generation's policy (docs/ranking.md §11; 0 for a policy without a model).
   */
  defaultConfidenceFloor(): number {
    return this.reader.read((g) => CONFIDENCE_MODELS.get(g.policy)?.floor ?? 0);
  }

  /** Closes the catalog and telemetry files. */
  close(): void {
    this.reader.close();
    this.telemetry?.close();
    this.usageWatch.close();
  }

  // The highest telemetry multiplier any skill has now: the search's pruning bound (1 with no history).
  private telemetryMax(): number {
    const t = this.telemetry;
    if (!t) return 1;
    return t
      .fetchedHistories()
      .reduce((m, h) => Math.max(m, telemetryMultiplier(h.suggestions, h.fetches)), 1);
  }

  // The usage examples to rank with, re-read only when their signature changed. On PostgreSQL the
  // search's own first statement read the signature (reader.ts); on SQLite it is the telemetry file's.
  private usage(gen: PublishedGeneration): UsageIndex {
    if (!this.useUsage) return UsageIndex.EMPTY;
    const sig = gen.usage_signature ?? this.usageWatch.current();
    if (sig !== this.usageSig) {
      this.usageIndex = new UsageIndex(this.usageWatch.examples());
      this.usageSig = sig;
    }
    return this.usageIndex;
  }

  // A consumer fetch's context (its capability query) becomes a usage example; best-effort, never fails the fetch.
  private recordExample(skillId: string, context: string, origin: UsageOrigin): void {
    if (context.trim() === '') return;
    try {
      const db = openUsageForWrite(this.telemetryFile);
      try {
        addUsageExamples(
          db,
          [{ skill_id: skillId, query: context }],
          'fetch',
          this.now().toISOString(),
          origin,
          this.retentionDays,
        );
      } finally {
        db.close();
      }
    } catch {
      // Usage is advisory like telemetry: a read-only folder or a locked file never fails a fetch.
    }
  }

  // One search's history lookups: those the search prefetched (a batch of candidates) are read
  // together, the others one by one.
  private history(): HistoryFn {
    const t = this.telemetry;
    if (!t) return NO_HISTORY;
    const known = new Map<string, SkillHistory>();
    const fn: HistoryFn = (id) => known.get(id) ?? t.history(id);
    fn.prefetch = (ids) => {
      for (const [id, h] of t.histories(ids.filter((id) => !known.has(id)))) known.set(id, h);
    };
    return fn;
  }
}
