/**
 * Operator functions (issue #3): index, publish, lifecycle changes, status and generations. Each
 * opens the catalog for writing, does one job, closes it. Never exposed as MCP tools (docs/integration.md).
 */
import { existsSync, statSync } from 'node:fs';
import { SkilldexError, assertKnownOptions, codedFromForeign, optionKeys } from '../errors.js';
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
  /** True for `dryRun`: the counts say what would change; nothing was written. */
  readonly dry_run: boolean;
}

/** The keys of OperatorOptions. */
const OPERATOR_OPTION_KEYS = optionKeys<OperatorOptions>()('catalog', 'now', 'policy');

/** Options of indexCatalog: the catalog, the scopes and bounds of discovery, and the run. */
export interface IndexOptions extends OperatorOptions, DiscoverOptions {
  /** Publish the result (default true). */
  readonly publish?: boolean;
  readonly onProgress?: ProgressFn;
  /** Report what would change without writing (no publish). */
  readonly dryRun?: boolean;
  /** Allow retiring more than half of the active skills (SHRINK_LIMIT) in one run. */
  readonly allowShrink?: boolean;
}

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
  'dryRun',
  'allowShrink',
);

/** Options of `changeLifecycle`. */
export type LifecycleOptions = OperatorOptions & { skill_id: string; to: LifecycleState; reason?: string; replacement?: string; publish?: boolean };

const LIFECYCLE_OPTION_KEYS = optionKeys<LifecycleOptions>()('catalog', 'now', 'policy', 'skill_id', 'to', 'reason', 'replacement', 'publish');

/**
 * How many times index re-reads the files when another process committed to the catalog while it
 * read them (CATALOG_BUSY after the last attempt).
 */
export const MAX_INDEX_ATTEMPTS = 3;

/**
 * Discovers, ingests incrementally and (unless `publish: false`) publishes. INVALID_ARGUMENT for an
 * unknown option, or when a `scopes` folder does not exist (nothing is opened or written);
 * CATALOG_SHRINK when the run would retire more than half of the active skills without
 * `allowShrink`; CATALOG_BUSY when other writers kept changing the catalog through
 * MAX_INDEX_ATTEMPTS reads.
 */
export function indexCatalog(options: IndexOptions): IndexReport {
  assertKnownOptions(options, INDEX_OPTION_KEYS, 'indexCatalog');
  for (const scope of options.scopes ?? []) {
    let isDir = false;
    try {
      isDir = statSync(scope).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      throw new SkilldexError('INVALID_ARGUMENT', `--scope ${scope} is not a folder; nothing was indexed`, { option: '--scope', value: scope });
    }
  }
  const discover: DiscoverOptions = {
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
  };
  const dryRun = options.dryRun === true;
  // A dry run against a catalog that does not exist yet runs against an empty one in memory.
  const file = dryRun && !existsSync(options.catalog) ? ':memory:' : options.catalog;
  return withCatalog(file, (db) => {
    const now = options.now ?? (() => new Date());
    const policy = dryRun ? (options.policy !== undefined ? checkPolicyId(options.policy) : (readMeta(db, 'policy') ?? publishedPolicy(db) ?? DEFAULT_POLICY_ID)) : choosePolicy(db, options.policy);
    const guards = { dryRun, ...(options.allowShrink !== undefined ? { allowShrink: options.allowShrink } : {}) };
    for (let attempt = 1; ; attempt++) {
      try {
        const summary = ingestSkills(db, discover, now, options.onProgress, guards);
        const publish = options.publish === false || dryRun ? null : publishWorkingSet(db, policy, now);
        // Retired and archived skills keep no usage examples (docs/ranking.md §9).
        if (publish) pruneUsageOf(options.catalog, db);
        return { catalog: options.catalog, ...summary, publish, dry_run: dryRun };
      } catch (err) {
        // Another writer committed while this run read the files: read them again.
        const stale = err instanceof SkilldexError && err.code === 'CATALOG_BUSY' && err.details['reason'] === 'changed';
        if (!stale || attempt >= MAX_INDEX_ATTEMPTS) throw err;
      }
    }
  }, true);
}

/** What a rollback did: the generation it republished and the publish result. */
export interface RollbackReport {
  readonly from: { readonly seq: number; readonly catalog_generation: string };
  readonly to: { readonly seq: number; readonly catalog_generation: string };
  readonly publish: PublishResult;
}

/**
 * Republishes an earlier generation (`generation`: its sequence number or id, `sha256:…` or a hex
 * prefix of at least 8; default: the one published before the current one). The working set is
 * set to that generation's members (their revisions are kept in the catalog) and published through
 * the ordinary publish path, as a new sequence with the old content. The next `index` works from
 * the files again. GENERATION_NOT_FOUND when there is no such generation; CATALOG_EMPTY when none
 * is published.
 */
export function rollbackCatalog(options: OperatorOptions & { generation?: string }): RollbackReport {
  return withCatalog(options.catalog, (db) =>
    db
      .transaction((): RollbackReport => {
        const current = db
          .prepare(`SELECT g.seq, g.generation_id, g.parent_seq FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`)
          .get() as { seq: number; generation_id: string; parent_seq: number | null } | undefined;
        if (!current) throw new SkilldexError('CATALOG_EMPTY', `${options.catalog} has no published generation to roll back from`, { catalog: options.catalog });
        const target = findGeneration(db, options.generation, current);
        const members = db.prepare(`SELECT skill_id, revision_id, state FROM generation_members WHERE seq = ?`).all(target.seq) as {
          skill_id: string;
          revision_id: string;
          state: string;
        }[];
        db.prepare(`UPDATE skills SET revision_id = NULL`).run();
        const put = db.prepare(
          `INSERT INTO skills (skill_id, revision_id, state) VALUES (?, ?, ?) ON CONFLICT (skill_id) DO UPDATE SET revision_id = excluded.revision_id, state = excluded.state`,
        );
        for (const m of members) put.run(m.skill_id, m.revision_id, m.state);
        // The ordinary publish path rebuilds the serving tables for the old member list.
        const publish = publishWorkingSet(db, target.policy, options.now ?? (() => new Date()));
        return {
          from: { seq: current.seq, catalog_generation: current.generation_id },
          to: { seq: target.seq, catalog_generation: target.generation_id },
          publish,
        };
      })
      .immediate(),
  );
}

function findGeneration(
  db: Db,
  asked: string | undefined,
  current: { seq: number; parent_seq: number | null },
): { seq: number; generation_id: string; policy: string } {
  const bySeq = db.prepare(`SELECT seq, generation_id, policy FROM generations WHERE seq = ?`);
  let row: { seq: number; generation_id: string; policy: string } | undefined;
  if (asked === undefined) {
    if (current.parent_seq === null) throw new SkilldexError('GENERATION_NOT_FOUND', `generation ${current.seq} is the first one published: there is none before it`, {});
    row = bySeq.get(current.parent_seq) as typeof row;
  } else if (/^\d{1,15}$/.test(asked)) {
    row = bySeq.get(Number(asked)) as typeof row;
  } else {
    const hex = asked.replace(/^sha256:/, '').toLowerCase();
    if (!/^[0-9a-f]{8,64}$/.test(hex)) {
      throw new SkilldexError('INVALID_ARGUMENT', `GENERATION must be a sequence number or a generation id (sha256:…, 8 hex digits at least), got ${JSON.stringify(asked)}`, {
        generation: asked,
      });
    }
    row = db.prepare(`SELECT seq, generation_id, policy FROM generations WHERE substr(generation_id, 8, ?) = ? ORDER BY seq DESC LIMIT 1`).get(hex.length, hex) as typeof row;
  }
  if (!row) throw new SkilldexError('GENERATION_NOT_FOUND', `no generation ${asked ?? current.parent_seq ?? ''} in this catalog`, { generation: asked ?? null });
  return row;
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
    // SQLite failures become coded errors naming the file: a lock held past the busy timeout is
    // CATALOG_BUSY, damaged pages (SQLITE_CORRUPT, SQLITE_NOTADB) are CATALOG_CORRUPT.
    throw codedFromForeign(err, file) ?? err;
  } finally {
    closeCatalog(db);
  }
}
