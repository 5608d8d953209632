/**
 * Operator functions (issue #3): index, publish, lifecycle changes, status and generations. Each
 * opens the catalog for writing, does one job, closes it. Never exposed as MCP tools (DESIGN.md §3).
 */
import { existsSync } from 'node:fs';
import { SkilldexError } from '../errors.js';
import {
  catalogStatus,
  closeCatalog,
  ingestSkills,
  listGenerations,
  openCatalogForWrite,
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

/** Discovers, ingests incrementally and (unless `publish: false`) publishes. */
export function indexCatalog(options: OperatorOptions & DiscoverOptions & { publish?: boolean; onProgress?: ProgressFn }): IndexReport {
  return withCatalog(options.catalog, (db) => {
    const now = options.now ?? (() => new Date());
    const policy = choosePolicy(db, options.policy);
    const summary = ingestSkills(db, options, now, options.onProgress);
    // Remember where the skills came from, so a later bare `skilldex index` (from any folder)
    // re-indexes the same scopes instead of retiring them for whatever the cwd implies.
    writeMeta(db, SCOPES_META_KEY, JSON.stringify(scopeMemory(options)));
    const publish = options.publish === false ? null : publishWorkingSet(db, policy, now);
    return { catalog: options.catalog, ...summary, publish };
  }, true);
}

/** The meta key under which a catalog remembers the scopes it was last indexed from. */
const SCOPES_META_KEY = 'scopes';

/** The scope options a catalog was last indexed with: explicit scopes, or the home and project. */
export interface RememberedScopes {
  readonly scopes?: readonly string[];
  readonly home?: string;
  readonly project?: string;
}

function scopeMemory(o: DiscoverOptions): RememberedScopes {
  if (o.scopes !== undefined) return { scopes: [...o.scopes] };
  return { ...(o.home !== undefined ? { home: o.home } : {}), ...(o.project !== undefined ? { project: o.project } : {}) };
}

/**
 * The scopes `catalog` was last indexed from, or undefined when the file does not exist or was
 * never indexed by a skilldex that remembers them. A malformed value is CATALOG_CORRUPT.
 */
export function readCatalogScopes(catalog: string): RememberedScopes | undefined {
  if (!existsSync(catalog)) return undefined;
  return withCatalog(catalog, (db) => {
    const raw = readMeta(db, SCOPES_META_KEY);
    if (raw === undefined) return undefined;
    let v: unknown;
    try {
      v = JSON.parse(raw) as unknown;
    } catch (err) {
      throw new SkilldexError('CATALOG_CORRUPT', `${catalog}: the remembered scopes are not JSON`, { catalog }, { cause: err });
    }
    const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((e) => typeof e === 'string');
    if (v === null || typeof v !== 'object') throw new SkilldexError('CATALOG_CORRUPT', `${catalog}: the remembered scopes are not an object`, { catalog });
    const o = v as Record<string, unknown>;
    if ((o['scopes'] !== undefined && !strings(o['scopes'])) || (o['home'] !== undefined && typeof o['home'] !== 'string') || (o['project'] !== undefined && typeof o['project'] !== 'string')) {
      throw new SkilldexError('CATALOG_CORRUPT', `${catalog}: the remembered scopes are malformed`, { catalog });
    }
    return o as RememberedScopes;
  });
}

/** Publishes the working set. */
export function publishCatalog(options: OperatorOptions): PublishResult {
  return withCatalog(options.catalog, (db) => publishWorkingSet(db, choosePolicy(db, options.policy), options.now ?? (() => new Date())));
}

/** A lifecycle change, published unless `publish: false`. */
export interface LifecycleReport {
  readonly change: LifecycleChange;
  readonly publish: PublishResult | null;
}

/** Deprecates, archives or restores a skill. */
export function changeLifecycle(
  options: OperatorOptions & { skill_id: string; to: LifecycleState; reason?: string; replacement?: string; publish?: boolean },
): LifecycleReport {
  return withCatalog(options.catalog, (db) => {
    const change = setLifecycle(db, options.skill_id, options.to, {
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.replacement !== undefined ? { replacement: options.replacement } : {}),
    });
    const publish = options.publish === false ? null : publishWorkingSet(db, choosePolicy(db, options.policy), options.now ?? (() => new Date()));
    return { change, publish };
  });
}

/** Status of a catalog. */
export function getCatalogStatus(options: OperatorOptions): CatalogStatus {
  return withCatalog(options.catalog, (db) => catalogStatus(db, options.catalog));
}

/** The publish history, newest first. */
export function getGenerations(options: OperatorOptions): GenerationInfo[] {
  return withCatalog(options.catalog, (db) => listGenerations(db));
}

// The policy to publish under: the one asked for (remembered from now on), else the remembered one.
function choosePolicy(db: Db, asked: string | undefined): string {
  if (asked !== undefined) {
    writeMeta(db, 'policy', checkPolicyId(asked));
    return asked;
  }
  return readMeta(db, 'policy') ?? DEFAULT_POLICY_ID;
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
