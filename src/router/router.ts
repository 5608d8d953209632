/**
 * The consumer face of the router as one object: a read-only catalog, the per-generation search
 * cache and the telemetry store. skill_search and skill_fetch are one call each; telemetry is
 * written after the answer is computed and can never fail it.
 */
import { CatalogReader, TelemetryStore, telemetryPathFor } from '../catalog/index.js';
import { fetchSkill, type FetchRequest, type FetchResult } from './fetch.js';
import { telemetryMultiplier } from './policies/hybrid-lexical-v1.js';
import { queryHash } from './query.js';
import { getServedSkill, listServedSkills, readServedSkill, type ServedPage, type ServedSkill } from './serve.js';
import { SearchCache, bruteForceSearch, searchCatalog, type HistoryFn, type SearchRequest, type SearchResult } from './search.js';

/** Options of a Router. */
export interface RouterOptions {
  /** Path of the catalog file (must exist). */
  readonly catalog: string;
  /** Record and read telemetry (default true). */
  readonly telemetry?: boolean;
  /** Clock for telemetry timestamps (default: the system clock). */
  readonly now?: () => Date;
  /**
   * Record the candidates a search shows as suggestions (default true: the agent path). A person's
   * searches in a terminal pass false, so repeating them does not lower what they show; fetches
   * are still recorded, and telemetry is still read for ranking.
   */
  readonly recordSuggestions?: boolean;
}

const NO_HISTORY: HistoryFn = () => ({ suggestions: 0, fetches: 0 });

/** skill_search and skill_fetch over one catalog. */
export class Router {
  private readonly reader: CatalogReader;
  private readonly cache = new SearchCache();
  private readonly telemetry: TelemetryStore | undefined;
  private readonly recordSuggestions: boolean;

  constructor(options: RouterOptions) {
    this.reader = new CatalogReader(options.catalog);
    this.recordSuggestions = options.recordSuggestions !== false;
    this.telemetry = options.telemetry === false ? undefined : new TelemetryStore(telemetryPathFor(options.catalog), options.now ?? (() => new Date()));
  }

  /** skill_search: ranked, explained candidates from the published generation. */
  search(request: SearchRequest, maxLimit?: number): SearchResult {
    const result = searchCatalog(this.reader, this.cache, request, this.history(), maxLimit, this.telemetryMax());
    if (this.recordSuggestions) {
      this.telemetry?.recordSuggestions(
        queryHash(request.query),
        result.catalog_generation,
        result.candidates.map((c) => c.skill_id),
      );
    }
    return result;
  }

  /** The reference scorer over the whole generation (for verification; no telemetry written). */
  searchBruteForce(request: SearchRequest, maxLimit?: number): SearchResult {
    return bruteForceSearch(this.reader, request, this.history(), maxLimit);
  }

  /** skill_fetch: the verified body of a pinned skill. */
  fetch(request: FetchRequest): FetchResult {
    const result = fetchSkill(this.reader, request);
    this.telemetry?.recordFetch(result.skill_id, result.revision_id, result.catalog_generation, request.context);
    return result;
  }

  /** A page of the skills the published generation serves (archived ones excluded). */
  listSkills(options: { cursor?: string; limit?: number } = {}): ServedPage {
    return listServedSkills(this.reader, options);
  }

  /** One served skill with its frontmatter, digest and size. */
  getSkill(skillId: string): ServedSkill & { catalog_generation: string } {
    return getServedSkill(this.reader, skillId);
  }

  /** A served skill's SKILL.md, verified against its digest. */
  readSkill(skillId: string): { skill: ServedSkill; text: string; catalog_generation: string } {
    return readServedSkill(this.reader, skillId);
  }

  /** The published generation id (a cheap read). */
  currentGeneration(): string {
    return this.reader.read((g) => g.catalog_generation);
  }

  /** Closes the catalog and telemetry files. */
  close(): void {
    this.reader.close();
    this.telemetry?.close();
  }

  // The highest telemetry multiplier any skill has now: the search's pruning bound (1 with no history).
  private telemetryMax(): number {
    const t = this.telemetry;
    if (!t) return 1;
    return t.fetchedHistories().reduce((m, h) => Math.max(m, telemetryMultiplier(h.suggestions, h.fetches)), 1);
  }

  private history(): HistoryFn {
    const t = this.telemetry;
    return t ? (id) => t.history(id) : NO_HISTORY;
  }
}
