/**
 * Operator functions (issue #3): index, publish, lifecycle changes, status and generations. Each
 * opens the catalog for writing, does one job, closes it. Never exposed as MCP tools (docs/integration.md).
 */
import { existsSync } from 'node:fs';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import {
  catalogStatus,
  closeCatalog,
  ingestSkills,
  listGenerations,
  openCatalogForWrite,
  openUsageForWrite,
  publishedPolicy,
  unarchivedServedIds,
  pruneUsage,
  telemetryPathFor,
  publishWorkingSet,
  readMeta,
  writeMeta,
  setLifecycle,
  type CatalogStatus,
  type Db,
  type GenerationInfo,
  type IngestSummary,
  type LifecycleChange,
  type LifecycleState,
  type ProgressFn,
  type PublishResult,
} from '../catalog/index.js';
import type { DiscoverOptions } from '../skills/index.js';
import { DEFAULT_POLICY_ID, checkPolicyId } from './policies/index.js';

/** Options shared by operator calls. */
export interface OperatorOptions {
  /** Catalog file. */
  readonly catalog: string;
  /** Clock for generation and revision timestamps (default: the system clock). */
  readonly now?: () => Date;
  /**
   * Ranking policy id to publish under; remembered by the catalog for later publishes. Default:
   * the catalog's remembered policy, else DEFAULT_POLICY_ID.
   */
  readonly policy?: string;
}

/** The index report: what changed, and the generation published (if any). */
export interface IndexReport extends IngestSummary {
  readonly catalog: string;
  readonly publish: PublishResult | null;
}

/** The keys of OperatorOptions. */
const OPERATOR_OPTION_KEYS = optionKeys<OperatorOptions>()('catalog', 'now', 'policy');

/** Options of `indexCatalog`: the catalog, the scopes and bounds of discovery, and the run. */
export type IndexOptions = OperatorOptions & DiscoverOptions & { publish?: boolean; onProgress?: ProgressFn };

const INDEX_OPTION_KEYS = optionKeys<IndexOptions>()(
  'catalog',
  'now',
  'policy',
  'home',
  'project',
  'scopes',
  'maxBytes',
  'maxDepth',
  'maxEntries',
  'publish',
  'onProgress',
);

/** Options of `changeLifecycle`. */
export type LifecycleOptions = OperatorOptions & { skill_id: string; to: LifecycleState; reason?: string; replacement?: string; publish?: boolean };

const LIFECYCLE_OPTION_KEYS = optionKeys<LifecycleOptions>()('catalog', 'now', 'policy', 'skill_id', 'to', 'reason', 'replacement', 'publish');

/**
 * Discovers, ingests incrementally and (unless `publish: false`) publishes. INVALID_ARGUMENT for
 * an unknown option.
 */
export function indexCatalog(options: IndexOptions): IndexReport {
  assertKnownOptions(options, INDEX_OPTION_KEYS, 'indexCatalog');
  const discover: DiscoverOptions = {
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
  };
  return withCatalog(options.catalog, (db) => {
    const now = options.now ?? (() => new Date());
    const policy = choosePolicy(db, options.policy);
    const summary = ingestSkills(db, discover, now, options.onProgress);
    const publish = options.publish === false ? null : publishWorkingSet(db, policy, now);
    // Retired and archived skills keep no usage examples (docs/ranking.md §9).
    if (publish) pruneUsageOf(options.catalog, db);
    return { catalog: options.catalog, ...summary, publish };
  }, true);
}

/** Publishes the working set. */
export function publishCatalog(options: OperatorOptions): PublishResult {
  assertKnownOptions(options, OPERATOR_OPTION_KEYS, 'publishCatalog');
  return withCatalog(options.catalog, (db) => publishWorkingSet(db, choosePolicy(db, options.policy), options.now ?? (() => new Date())));
}

/** A lifecycle change, published unless `publish: false`. */
export interface LifecycleReport {
  readonly change: LifecycleChange;
  readonly publish: PublishResult | null;
}

/** Deprecates, archives or restores a skill. */
export function changeLifecycle(options: LifecycleOptions): LifecycleReport {
  assertKnownOptions(options, LIFECYCLE_OPTION_KEYS, 'changeLifecycle');
  return withCatalog(options.catalog, (db) => {
    const change = setLifecycle(db, options.skill_id, options.to, {
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.replacement !== undefined ? { replacement: options.replacement } : {}),
    });
    const publish = options.publish === false ? null : publishWorkingSet(db, choosePolicy(db, options.policy), options.now ?? (() => new Date()));
    if (publish) pruneUsageOf(options.catalog, db);
    return { change, publish };
  });
}

/** Status of a catalog. */
export function getCatalogStatus(options: OperatorOptions): CatalogStatus {
  assertKnownOptions(options, OPERATOR_OPTION_KEYS, 'getCatalogStatus');
  return withCatalog(options.catalog, (db) => catalogStatus(db, options.catalog));
}

/** The publish history, newest first. */
export function getGenerations(options: OperatorOptions): GenerationInfo[] {
  assertKnownOptions(options, OPERATOR_OPTION_KEYS, 'getGenerations');
  return withCatalog(options.catalog, (db) => listGenerations(db));
}

// The policy to publish under: the one asked for (remembered from now on), else the remembered one.
function choosePolicy(db: Db, asked: string | undefined): string {
  if (asked !== undefined) {
    writeMeta(db, 'policy', checkPolicyId(asked));
    return asked;
  }
  // A catalog that never recorded a policy keeps the one its last generation was published under.
  return readMeta(db, 'policy') ?? publishedPolicy(db) ?? DEFAULT_POLICY_ID;
}

// Drops the usage examples of skills the published generation no longer serves as active or deprecated.
function pruneUsageOf(catalog: string, db: Db): void {
  const file = telemetryPathFor(catalog);
  if (!existsSync(file)) return;
  const keep = new Set(unarchivedServedIds(db));
  const u = openUsageForWrite(file);
  try {
    pruneUsage(u, keep);
  } finally {
    u.close();
  }
}

// Opens the catalog for one operator job. Only `index` may create it; a writer lock held by another
// process past the busy timeout becomes CATALOG_BUSY rather than a raw SQLite error.
function withCatalog<T>(file: string, fn: (db: Db) => T, create = false): T {
  if (!create && !existsSync(file)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${file}; create one with: skilldex index --catalog ${file} --scope DIR`, {
      catalog: file,
    });
  }
  const db = openCatalogForWrite(file);
  try {
    return fn(db);
  } catch (err) {
    if (err && typeof err === 'object' && 'code' in err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_BUSY_SNAPSHOT')) {
      throw new SkilldexError('CATALOG_BUSY', `${file} is being written by another process`, { catalog: file }, { cause: err });
    }
    throw err;
  } finally {
    closeCatalog(db);
  }
}
