/**
 * The explorer's JSON API (issue 15, docs/explorer.md): each route is one library call (search,
 * served skills, catalog views, telemetry reads, cascade crawl/audit, substrate read) whose report
 * is returned as is, or a few of them side by side. Read-only: searches here record no telemetry
 * and nothing changes a skill's lifecycle. Bad parameters throw coded SkilldexErrors; app.ts turns
 * them into `{ error }` answers.
 */
import path from 'node:path';
import {
  DEFAULT_MAX_INDEX_BYTES,
  INDEX_FILE,
  MAX_LIMIT,
  POLICIES,
  SUBSTRATE_TYPES,
  SkilldexError,
  auditCascade,
  crawlCascade,
  generationDiffOf,
  isSubstrateType,
  isSkilldexError,
  parseSkillIndex,
  readSubstrate,
  readTextCapped,
  resolveInside,
  type CatalogExplorer,
  type Router,
  type TelemetryReader,
} from '../index.js';

/** Longest query the explorer accepts, in characters: a query travels in the URL, and Node refuses request heads over 16 KiB. */
export const MAX_EXPLORER_QUERY_CHARS = 1000;

/** Skills listed in the overview's "suggested but never fetched" and "never in a top 5" lists. */
export const OVERVIEW_LIST = 50;

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
}

type Params = (name: string) => string | undefined;

/** GET /api/search: the ranked, explained candidates, under the catalog's policy or a named one. */
export function apiSearch(ctx: ExplorerContext, q: Params): object {
  const query = checkQuery(q('q'), 'q');
  const limit = intParam(q('limit'), 'limit', 1, MAX_LIMIT);
  const policy = q('policy');
  if (policy !== undefined && policy !== '' && !POLICIES.has(policy)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unknown policy ${JSON.stringify(policy)}; known: ${[...POLICIES.keys()].join(', ')}`,
      {
        policy,
        known: [...POLICIES.keys()],
      },
    );
  }
  return ctx.router.search({
    query,
    ...(limit !== undefined ? { limit } : {}),
    ...(policy !== undefined && policy !== '' ? { policy } : {}),
    ...(q('include_deprecated') === 'true' ? { include_deprecated: true } : {}),
  });
}

/** GET /api/policies: the known ranking policies and the one the published generation uses. */
export function apiPolicies(ctx: ExplorerContext): object {
  const o = ctx.catalog.overview();
  return {
    catalog_generation: o.catalog_generation,
    catalog_policy: o.policy,
    policies: [...POLICIES.keys()],
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
  const never = ctx.catalog.servedIds().filter((id) => !top.has(id));
  return {
    ...overview,
    telemetry: ctx.telemetry.totals(),
    suggested_never_fetched: ctx.telemetry.suggestedNeverFetched(OVERVIEW_LIST),
    never_in_top_five: { count: never.length, skill_ids: never.slice(0, OVERVIEW_LIST) },
    cascade_roots: ctx.cascadeRoots,
    substrate_root: ctx.substrateRoot ?? null,
  };
}

/** GET /api/cascade: the configured cascade roots. */
export function apiCascadeRoots(ctx: ExplorerContext): object {
  return { roots: ctx.cascadeRoots };
}

/** GET /api/cascade/tree?root=N: the audit of root N and every reached node's entries. */
export function apiCascadeTree(ctx: ExplorerContext, q: Params): object {
  const root = cascadeRoot(ctx, q('root'));
  const audit = auditCascade(root);
  const nodes = audit.nodes.map((node) => {
    const file = resolveInside(root, path.posix.join(node, INDEX_FILE));
    const read = readTextCapped(file, { maxBytes: DEFAULT_MAX_INDEX_BYTES });
    if (!read.ok) return { node, entries: [], malformed: [], unreadable: true };
    const parsed = parseSkillIndex(read.text);
    return {
      node,
      entries: parsed.entries.map((e) => ({ key: e.key, keywords: e.keywords })),
      malformed: parsed.malformed,
      unreadable: false,
    };
  });
  return { root, audit, nodes };
}

/** GET /api/cascade/crawl?need=&root=N: the crawl report for one need. */
export function apiCascadeCrawl(ctx: ExplorerContext, q: Params): object {
  const root = cascadeRoot(ctx, q('root'));
  const need = checkQuery(q('need'), 'need');
  return { root, ...crawlCascade(root, need) };
}

/** GET /api/substrate?q=&type=: the substrate read report, with the files opened. */
export function apiSubstrate(ctx: ExplorerContext, q: Params): object {
  if (ctx.substrateRoot === undefined) {
    throw new SkilldexError(
      'NOT_CONFIGURED',
      'no substrate was given: start skilldex serve with --substrate DIR',
      {},
    );
  }
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
    root: ctx.substrateRoot,
    explain: true,
    ...(type !== undefined && type !== '' && isSubstrateType(type) ? { type } : {}),
  });
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
