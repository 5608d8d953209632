/**
 * The explorer's JSON API (issue 15, docs/explorer.md): each route is one library call (search,
 * served skills, catalog views, telemetry reads, cascade tree/audit/crawl, substrate contents and
 * read) whose report is returned as is, or a few of them side by side. Read-only: searches here
 * record no telemetry and nothing changes a skill's lifecycle. Bad parameters throw coded
 * SkilldexErrors; app.ts turns them into `{ error }` answers. The cascade audit (seconds on a
 * thousand skills) is kept per root until the tree changes or AUDIT_MAX_AGE_MS passes.
 */
import {
  COMPARISON_SETS,
  MAX_LIMIT,
  POLICIES,
  SUBSTRATE_TYPES,
  SkilldexError,
  auditCascade,
  crawlCascade,
  generationDiffOf,
  isSubstrateType,
  isSkilldexError,
  listUsage,
  checkExampleSource,
  listSubstrate,
  comparisonSetsFor,
  readCascadeTree,
  readSubstrate,
  type AuditReport,
  type CatalogExplorer,
  type Router,
  type TelemetryReader,
} from '../internal.js';

/** Longest query the explorer accepts, in characters: a query travels in the URL, and Node refuses request heads over 16 KiB. */
export const MAX_EXPLORER_QUERY_CHARS = 1000;

/** Skills listed in the overview's "suggested but never fetched" and "never in a top 5" lists. */
export const OVERVIEW_LIST = 50;

/**
 * Fewest recorded searches before the overview lists the skills never in a top 5: with fewer
 * searches than the catalog has skills (and fewer than 100 in any case), most skills simply have
 * not come up yet, and the list says nothing about them (docs/explorer.md).
 */
export const NEVER_IN_TOP_FIVE_MIN_SEARCHES = 100;

/** The searches the telemetry must hold before "never in a top 5" is listed, for `skills` served. */
export function neverInTopFiveThreshold(skills: number): number {
  return Math.max(NEVER_IN_TOP_FIVE_MIN_SEARCHES, skills);
}

/** How long a cascade audit is served from memory when the tree has not changed: 60 s. */
export const AUDIT_MAX_AGE_MS = 60_000;

/** The library objects the explorer serves, fixed at start. */
export interface ExplorerContext {
  /** Searches and served skills; built with `record: false` so the explorer writes no telemetry. */
  readonly router: Router;
  readonly catalog: CatalogExplorer;
  readonly telemetry: TelemetryReader;
  /** Cascade roots (real paths) the cascade views may read; empty: those routes answer NOT_CONFIGURED. */
  readonly cascadeRoots: readonly string[];
  /** Substrate root for `/api/substrate`; undefined: NOT_CONFIGURED. */
  readonly substrateRoot?: string;
  /**
   * The file (or PostgreSQL location) holding the catalog's usage examples, for `/api/examples`
   * (examples rank even with telemetry off); undefined: that route lists none.
   */
  readonly examplesFile?: string;
}

type Params = (name: string) => string | undefined;

/** GET /api/search: the ranked, explained candidates, under the catalog's policy or a named one. */
export function apiSearch(ctx: ExplorerContext, q: Params): object {
  const query = checkQuery(q('q'), 'q');
  const limit = intParam(q('limit'), 'limit', 1, MAX_LIMIT);
  const policy = q('policy');
  const known = rankable();
  if (policy !== undefined && policy !== '' && !known.includes(policy)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unknown policy ${JSON.stringify(policy)}; known: ${known.join(', ')}`,
      { policy, known },
    );
  }
  return ctx.router.search({
    query,
    ...(limit !== undefined ? { limit } : {}),
    ...(policy !== undefined && policy !== '' ? { policy } : {}),
    ...(q('include_deprecated') === 'true' ? { include_deprecated: true } : {}),
  });
}

// What a search may rank with: the live policies, then the comparison parameter sets.
function rankable(): string[] {
  return [...POLICIES.keys(), ...COMPARISON_SETS.keys()];
}

/**
 * GET /api/policies: the live policies, the comparison parameter sets that rank over this
 * catalog's stored document (`parameter_sets`: BM25F parameter sets beside its own policy), and
 * the policy the published generation uses.
 */
export function apiPolicies(ctx: ExplorerContext): object {
  const o = ctx.catalog.overview();
  return {
    catalog_generation: o.catalog_generation,
    catalog_policy: o.policy,
    policies: [...POLICIES.keys()],
    parameter_sets: comparisonSetsFor(o.policy),
  };
}

/** GET /api/skills: one page of served skills (`cursor`, `limit` 1–1000). */
export function apiSkills(ctx: ExplorerContext, q: Params): object {
  const limit = intParam(q('limit'), 'limit', 1, 1000);
  const cursor = q('cursor');
  return ctx.router.listSkills({
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
  });
}

/**
 * GET /api/skills/:id: the served skill, its catalog record (path, scope, revisions, lifecycle),
 * its verified SKILL.md text (or the error that refused it, e.g. INDEX_DRIFT) and its usage by day.
 */
export function apiSkill(ctx: ExplorerContext, skillId: string): object {
  const skill = ctx.router.getSkill(skillId);
  const record = ctx.catalog.skill(skillId);
  let text: string | null = null;
  let textError: object | null = null;
  try {
    text = ctx.router.readSkill(skillId).text;
  } catch (err) {
    if (!isSkilldexError(err)) throw err;
    textError = err.toJSON();
  }
  return { skill, record, text, text_error: textError, usage: ctx.telemetry.usageByDay(skillId) };
}

/**
 * GET /api/examples?skill=ID[&source=S]: the usage examples of one skill with their source,
 * polarity (`negative`: a should-not example), sessions, clients and weight (docs/ranking.md §9),
 * the most recent first, at most 200.
 */
export function apiExamples(ctx: ExplorerContext, q: Params): object {
  const skill = q('skill');
  if (skill === undefined || skill === '')
    throw new SkilldexError('INVALID_ARGUMENT', 'give the skill: /api/examples?skill=ID', {
      param: 'skill',
    });
  const source = q('source');
  const examples =
    ctx.examplesFile === undefined
      ? []
      : listUsage(ctx.examplesFile, {
          skill_id: skill,
          ...(source !== undefined && source !== ''
            ? { source: checkExampleSource(source, 'source') }
            : {}),
        });
  const recent = [...examples].sort((a, b) =>
    a.last_at < b.last_at ? 1 : a.last_at > b.last_at ? -1 : b.id - a.id,
  );
  return { skill_id: skill, total: examples.length, examples: recent.slice(0, EXAMPLES_LISTED) };
}

/** Most examples `/api/examples` returns. */
export const EXAMPLES_LISTED = 200;

/** GET /api/generations: the newest generations (`limit` 1–1000, default 30) with their changes. */
export function apiGenerations(ctx: ExplorerContext, q: Params): object {
  const limit = intParam(q('limit'), 'limit', 1, 1000);
  return { generations: ctx.catalog.generationChanges(limit) };
}

/**
 * GET /api/generations/diff?from=&to=: the skills added, removed and changed between two
 * generations (sequence numbers, ids, `published` or `working`; defaults: the published generation
 * and the one before it).
 */
export function apiGenerationDiff(ctx: ExplorerContext, q: Params): object {
  const from = q('from');
  const to = q('to');
  return ctx.catalog.history((src) =>
    generationDiffOf(src, from === '' ? undefined : from, to === '' ? undefined : to),
  );
}

/** GET /api/overview: counts by scope and state, usage totals, and the unused skills. */
export function apiOverview(ctx: ExplorerContext): object {
  const overview = ctx.catalog.overview();
  const top = ctx.telemetry.everInTopFive();
  const served = ctx.catalog.servedIds();
  const never = served.filter((id) => !top.has(id));
  const searches = ctx.telemetry.searches();
  const threshold = neverInTopFiveThreshold(served.length);
  const shown = searches >= threshold;
  return {
    ...overview,
    telemetry: { ...ctx.telemetry.totals(), searches },
    suggested_never_fetched: ctx.telemetry.suggestedNeverFetched(OVERVIEW_LIST),
    // Listed only once there is enough telemetry for the list to mean something.
    never_in_top_five: {
      shown,
      searches,
      threshold,
      count: never.length,
      skill_ids: shown ? never.slice(0, OVERVIEW_LIST) : [],
    },
    cascade_roots: ctx.cascadeRoots,
    substrate_root: ctx.substrateRoot ?? null,
  };
}

/** GET /api/cascade: the configured cascade roots. */
export function apiCascadeRoots(ctx: ExplorerContext): object {
  return { roots: ctx.cascadeRoots };
}

/**
 * GET /api/cascade/tree?root=N: every node of root N with its entries, and the problems of its
 * structure (fast: index files only). The ambiguity checks come from /api/cascade/audit.
 */
export function apiCascadeTree(ctx: ExplorerContext, q: Params): object {
  const root = cascadeRoot(ctx, q('root'));
  return { root, ...readCascadeTree(root) };
}

// Audits kept per explorer and root: the tree's fingerprint and when it was computed.
const audits = new WeakMap<
  ExplorerContext,
  Map<string, { fingerprint: string; at: number; audit: AuditReport }>
>();

/**
 * GET /api/cascade/audit?root=N: the full audit of root N (every problem a crawl could meet,
 * skills whose own name ends ambiguous included). Served from memory while the tree's fingerprint
 * is unchanged and the audit is younger than AUDIT_MAX_AGE_MS (`cached: true`).
 */
export function apiCascadeAudit(ctx: ExplorerContext, q: Params): object {
  const root = cascadeRoot(ctx, q('root'));
  const { fingerprint } = readCascadeTree(root);
  let byRoot = audits.get(ctx);
  if (byRoot === undefined) audits.set(ctx, (byRoot = new Map()));
  const kept = byRoot.get(root);
  const t = Date.now();
  if (kept && kept.fingerprint === fingerprint && t - kept.at < AUDIT_MAX_AGE_MS)
    return { root, fingerprint, cached: true, audit: kept.audit };
  const audit = auditCascade(root);
  byRoot.set(root, { fingerprint, at: t, audit });
  return { root, fingerprint, cached: false, audit };
}

/** GET /api/cascade/crawl?need=&root=N: the crawl report for one need. */
export function apiCascadeCrawl(ctx: ExplorerContext, q: Params): object {
  const root = cascadeRoot(ctx, q('root'));
  const need = checkQuery(q('need'), 'need');
  return { root, ...crawlCascade(root, need) };
}

/**
 * GET /api/substrate/contents: every type's index rows: what the substrate holds, before any
 * query. Without a substrate: `{ root: null, types: [], problems: [] }` (the page says so).
 */
export function apiSubstrateContents(ctx: ExplorerContext): object {
  if (ctx.substrateRoot === undefined) return { root: null, types: [], problems: [] };
  return listSubstrate({ root: ctx.substrateRoot });
}

/** GET /api/substrate?q=&type=: the substrate read report, with the files opened. */
export function apiSubstrate(ctx: ExplorerContext, q: Params): object {
  const root = substrateRoot(ctx);
  const query = checkQuery(q('q'), 'q');
  const type = q('type');
  if (type !== undefined && type !== '' && !isSubstrateType(type)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `type must be one of ${SUBSTRATE_TYPES.join(', ')}, got ${JSON.stringify(type)}`,
      { type },
    );
  }
  return readSubstrate(query, {
    root,
    explain: true,
    ...(type !== undefined && type !== '' && isSubstrateType(type) ? { type } : {}),
  });
}

function substrateRoot(ctx: ExplorerContext): string {
  if (ctx.substrateRoot === undefined)
    throw new SkilldexError(
      'NOT_CONFIGURED',
      'no substrate was given: start skilldex serve with --substrate DIR',
      {},
    );
  return ctx.substrateRoot;
}

// A query parameter that must be non-empty text of at most MAX_EXPLORER_QUERY_CHARS.
function checkQuery(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === '') {
    throw new SkilldexError('INVALID_QUERY', `${name} is empty: give some words to search for`, {
      parameter: name,
    });
  }
  if (value.length > MAX_EXPLORER_QUERY_CHARS) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `${name} is ${value.length} characters, over the explorer's limit of ${MAX_EXPLORER_QUERY_CHARS}`,
      {
        parameter: name,
        length: value.length,
      },
    );
  }
  return value;
}

function intParam(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < min || n > max) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      {
        parameter: name,
        value,
      },
    );
  }
  return n;
}

function cascadeRoot(ctx: ExplorerContext, value: string | undefined): string {
  if (ctx.cascadeRoots.length === 0) {
    throw new SkilldexError(
      'NOT_CONFIGURED',
      'no cascade root was given: start skilldex serve with --cascade-root DIR',
      {},
    );
  }
  // Roots are chosen by number among those given at start: a request never names a path.
  return ctx.cascadeRoots[intParam(value, 'root', 0, ctx.cascadeRoots.length - 1) ?? 0]!;
}
