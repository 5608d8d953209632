/**
 * Operator functions (issue #3): index, publish, lifecycle changes, status and generations. Each
 * opens the catalog for writing, does one job, closes it. Never exposed as MCP tools (docs/integration.md).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  SkilldexError,
  assertKnownOptions,
  codedFromForeign,
  isSkilldexError,
  optionKeys,
} from '../../errors.js';
import {
  BodyHandoff,
  PG_POLICIES,
  forgetFileStats,
  layoutOf,
  storedLayout,
  catalogExists,
  dialectOf,
  isPgLocation,
  catalogStatus,
  closeCatalog,
  ingestSkills,
  listGenerations,
  openCatalogForWrite,
  openUsageForWrite,
  publishedPolicy,
  rollbackWorkingSet,
  type RollbackReport,
  unarchivedServedIds,
  pruneUsage,
  telemetryPathFor,
  publishWorkingSet,
  readMeta,
  writeMeta,
  setLifecycle,
  keepRevisionsOf,
  storeRevisionTexts,
  workingSetDigests,
  walkScopes,
  readWalkListings,
  writeWalkListings,
  reindexDigest,
  fastReindex,
  fastReindexStillCurrent,
  countFastReindex,
  writeReindexRecord,
  type FastReindex,
  type ReindexRecord,
  type ScopesWalk,
  LATEST_VERSION,
  type RevisionTextsSummary,
  type CatalogStatus,
  type Db,
  type GenerationInfo,
  type IngestSummary,
  type LifecycleChange,
  type LifecycleState,
  type ProgressFn,
  type PublishResult,
} from '../../catalog/index.js';
import {
  DISCOVER_OPTION_KEYS,
  resolveScopes,
  scopeOptionsOf,
  type DiscoverOptions,
} from '../../skills/index.js';
import { statOrUndefined } from '../../fsx/index.js';
import { DEFAULT_POLICY_ID, checkPolicyId } from '../search/policies/index.js';
import { syncAuthorExamplesOf } from '../learning/author-sync.js'; // issue 34 item 1

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
  /** The revision texts stored and pruned after the ingest (null for a dry run). */
  readonly revision_texts: RevisionTextsSummary | null;
  /**
   * One sentence on what the run did ("indexed 240 SKILL.md files into …"), or for a dry run what
   * it would do ("would index 240 SKILL.md files into …; nothing was written").
   */
  readonly summary: string;
}

/** The `summary` sentence of an index report (issue 35: a dry run says what it would do). */
export function indexSummary(
  r: Pick<IndexReport, 'catalog' | 'enumerated' | 'added' | 'changed' | 'removed' | 'unchanged'> & {
    readonly dry_run: boolean;
  },
): string {
  const files = `${r.enumerated} SKILL.md file${r.enumerated === 1 ? '' : 's'} into ${r.catalog}`;
  const counts = `${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} retired, ${r.unchanged} unchanged`;
  return r.dry_run
    ? `would index ${files} (${counts.replace(/ (added|changed|retired)/g, ' to be $1')}); nothing was written`
    : `indexed ${files} (${counts})`;
}

/** The keys of OperatorOptions (also the first keys of every operator call's own list). */
export const OPERATOR_OPTION_KEYS = optionKeys<OperatorOptions>()('catalog', 'now', 'policy');

/** Options of indexCatalog: the catalog, the scopes and bounds of discovery, and the run. */
export interface IndexOptions extends OperatorOptions, DiscoverOptions {
  /** Publish the result (default true). */
  readonly publish?: boolean;
  readonly onProgress?: ProgressFn;
  /** Report what would change without writing (no publish). */
  readonly dryRun?: boolean;
  /** Allow retiring more than half of the active skills (SHRINK_LIMIT) in one run. */
  readonly allowShrink?: boolean;
  /**
   * Revisions per skill whose SKILL.md text the catalog keeps for `diff` (0–1000; remembered by
   * the catalog). Default: the remembered value, else DEFAULT_KEEP_REVISIONS (10).
   */
  readonly keepRevisions?: number;
  /**
   * Hold the publish to a lock (`index --locked`): the folder digest every skill must have, by
   * skill_id (supply `checkLock` gives them once the files match the lock). After the ingest, a
   * working set with another skill, a missing one or another digest is LOCK_MISMATCH and nothing is
   * published (the working set keeps what was read, unpublished).
   */
  readonly locked?: ReadonlyMap<string, string>;
  /**
   * Remember this run's scopes and preferences in the catalog for a later bare index (default
   * true). The CLI passes false when they came from an untrusted project config and the catalog is
   * not that project's (issue 36 M3): the user's catalog keeps what the user chose.
   */
  readonly rememberScopes?: boolean;
}

const INDEX_OPTION_KEYS = optionKeys<IndexOptions>()(
  ...OPERATOR_OPTION_KEYS,
  ...DISCOVER_OPTION_KEYS,
  'publish',
  'onProgress',
  'dryRun',
  'allowShrink',
  'keepRevisions',
  'locked',
  'rememberScopes',
);

/** Options of `changeLifecycle`. */
export type LifecycleOptions = OperatorOptions & {
  skill_id: string;
  to: LifecycleState;
  reason?: string;
  replacement?: string;
  publish?: boolean;
};

const LIFECYCLE_OPTION_KEYS = optionKeys<LifecycleOptions>()(
  ...OPERATOR_OPTION_KEYS,
  'skill_id',
  'to',
  'reason',
  'replacement',
  'publish',
);

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
  assertScopeFolders(options.scopes ?? []);
  const discover = discoverOptionsOf(options);
  const dryRun = options.dryRun === true;
  const fresh = !catalogExists(options.catalog);
  // A dry run against a catalog that does not exist yet runs against an empty one in memory.
  const file = dryRun && fresh ? ':memory:' : options.catalog;
  return removingRefusedCatalog(fresh && !dryRun, options.catalog, () =>
    withCatalog(
      file,
      (db) => {
        const run = indexRunOf(db, options, discover, dryRun);
        for (let attempt = 1; ; attempt++) {
          try {
            return indexAttempt(run);
          } catch (err) {
            // Another writer committed while this run read the files: read them again.
            const stale =
              err instanceof SkilldexError &&
              err.code === 'CATALOG_BUSY' &&
              err.details['reason'] === 'changed';
            if (!stale || attempt >= MAX_INDEX_ATTEMPTS) throw err;
          }
        }
      },
      true,
    ),
  );
}

// What discovery reads, from the index options (only the keys given).
function discoverOptionsOf(options: IndexOptions): DiscoverOptions {
  return {
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    ...(options.prefer !== undefined ? { prefer: options.prefer } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
    ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
    ...(options.maxFrontmatterBytes !== undefined
      ? { maxFrontmatterBytes: options.maxFrontmatterBytes }
      : {}),
  };
}

/** One index run's settings, fixed before its attempts. */
interface IndexRun {
  readonly db: Db;
  readonly options: IndexOptions;
  readonly discover: DiscoverOptions;
  readonly dryRun: boolean;
  readonly now: () => Date;
  readonly policy: string;
  readonly keep: number;
  readonly bodyLayout: ReturnType<typeof layoutOf>;
  /** Whether the fast path of an unchanged re-index may answer (catalog/write/reindex-digest.ts). */
  readonly fastEligible: boolean;
}

function indexRunOf(
  db: Db,
  options: IndexOptions,
  discover: DiscoverOptions,
  dryRun: boolean,
): IndexRun {
  const policy = dryRun
    ? options.policy !== undefined
      ? checkPolicyId(options.policy)
      : (readMeta(db, 'policy') ?? publishedPolicy(db) ?? DEFAULT_POLICY_ID)
    : choosePolicy(db, options.policy);
  // Each revision keeps its body as its policy's layout reads it (a lexical policy: none;
  // a BM25F one: its lines); when that changes (a catalog moving between v1 and bm25f.v4, or
  // a v2/v3 catalog upgraded to bm25f.v4), every file is read again.
  const bodyLayout = layoutOf(policy);
  if (!dryRun && storedLayout(readMeta(db, 'body_layout')) !== bodyLayout) {
    forgetFileStats(db);
    writeMeta(db, 'body_layout', bodyLayout);
  }
  return {
    db,
    options,
    discover,
    dryRun,
    now: options.now ?? (() => new Date()),
    policy,
    keep: dryRun ? 0 : keepRevisionsOf(db, options.keepRevisions),
    bodyLayout,
    // The fast path only for a run that publishes with the remembered settings (a dry run, a
    // staged run, a locked run and a new revision bound take the ordinary path).
    fastEligible:
      !dryRun &&
      options.publish !== false &&
      options.locked === undefined &&
      options.keepRevisions === undefined,
  };
}

// One attempt: the walk, then the fast path's answer when nothing changed, else the ordinary run.
function indexAttempt(run: IndexRun): IndexReport {
  const { db } = run;
  const versionAtStart = db.pragma('data_version', { simple: true }) as number;
  // Folders unchanged since the last index are stat'ed, not listed (walk-listings.ts).
  const listings = readWalkListings(db);
  const walk = walkScopes(run.discover, listings);
  const report = answerWalk(run, walk, versionAtStart);
  if (!run.dryRun) writeWalkListings(db, listings);
  return report;
}

// The fast path's answer to `walk` when nothing changed, else the ordinary run's.
function answerWalk(run: IndexRun, walk: ScopesWalk, versionAtStart: number): IndexReport {
  const { db, options } = run;
  const digest = run.fastEligible
    ? reindexDigest(walk, {
        v: 1,
        // A migration may make every file be read again (it forgets the file stats).
        schema: db.pragma('user_version', { simple: true }) as number,
        policy: run.policy,
        bodyLayout: run.bodyLayout,
        keep: run.keep,
        discover: run.discover,
        scopes: walk.scopes,
        remember: options.rememberScopes !== false ? scopeMemory(options) : null,
      })
    : undefined;
  let fast = digest !== undefined ? fastReindex(db, digest, walk.files) : undefined;
  if (fast !== undefined) {
    // Progress as the ordinary path reports it once every file is looked at; a writer
    // that ran meanwhile (the callback may wait) voids the answer: the ordinary path runs.
    options.onProgress?.(walk.files.length, walk.files.length);
    if (!fastReindexStillCurrent(db, fast)) fast = undefined;
  }
  if (fast !== undefined) {
    countFastReindex();
    if (options.rememberScopes !== false)
      writeMeta(db, SCOPES_META_KEY, JSON.stringify(scopeMemory(options)));
    // The side stores are kept as an ordinary unchanged run keeps them.
    pruneUsageOf(options.catalog, db);
    syncAuthorsUnlessKept(options.catalog, db, run.now, fast.record, walk);
    return fastReport(options.catalog, walk, fast, run.keep);
  }
  return ordinaryIndex(run, walk, digest, versionAtStart);
}

// The ordinary path: ingest what changed, publish, store the new revision texts, sync the side
// stores, and record the run for the fast path.
function ordinaryIndex(
  run: IndexRun,
  walk: ScopesWalk,
  digest: string | undefined,
  versionAtStart: number,
): IndexReport {
  const { db, options, dryRun, now, discover } = run;
  // The body lines the ingest analyses, handed to the publish instead of read back.
  const handoff = new BodyHandoff();
  const summary = ingestSkills(db, discover, now, options.onProgress, {
    dryRun,
    ...(options.allowShrink !== undefined ? { allowShrink: options.allowShrink } : {}),
    bodyLayout: run.bodyLayout,
    handoff,
    walk,
  });
  if (!dryRun && options.publish !== false) refuseEmptyFirst(db, summary, discover);
  // Remember where the skills came from, so a later bare `skilldex index` (from any folder)
  // re-indexes the same scopes instead of retiring them for whatever the cwd implies.
  if (!dryRun && options.rememberScopes !== false)
    writeMeta(db, SCOPES_META_KEY, JSON.stringify(scopeMemory(options)));
  if (options.locked !== undefined && !dryRun) refuseUnlocked(db, options.locked);
  const publish =
    options.publish === false || dryRun ? null : publishWorkingSet(db, run.policy, now, handoff);
  // The text of every new working-set revision, for `diff` (revision-texts.ts), stored
  // after the publish so that pruning sees what is served now; old texts are pruned when
  // anything changed or a new bound was asked for.
  const texts = dryRun
    ? null
    : storeRevisionTexts(db, {
        keep: run.keep,
        handoff,
        prune:
          options.keepRevisions !== undefined ||
          summary.added.length + summary.changed.length + summary.removed.length > 0,
      });
  const versionAfterPublish = db.pragma('data_version', { simple: true }) as number;
  // Retired and archived skills keep no usage examples (docs/ranking.md §9).
  if (publish) pruneUsageOf(options.catalog, db);
  // The skills' own trigger evaluations as author examples (learning/author-sync.ts).
  if (publish) syncAuthorExamplesOf(options.catalog, db, now, aloneFolders(walk));
  if (digest !== undefined && publish && texts)
    recordForFastPath(db, digest, walk, summary, publish, texts, {
      versionAtStart,
      versionAfterPublish,
      usage: usageIdentity(options.catalog),
    });
  const report = {
    catalog: options.catalog,
    ...summary,
    publish,
    dry_run: dryRun,
    revision_texts: texts,
  };
  return { ...report, summary: indexSummary(report) };
}

// The report of an unchanged index, from the fast path's record and this run's walk: the same
// shape and counts the ordinary path gives when it finds nothing changed.
function fastReport(
  catalog: string,
  walk: ScopesWalk,
  fast: FastReindex,
  keep: number,
): IndexReport {
  const r = fast.record;
  const report = {
    catalog,
    enumerated: walk.files.length,
    added: [],
    changed: [],
    unchanged: r.unchanged,
    removed: [],
    read: 0,
    skipped: [...walk.skipped],
    duplicates: r.duplicates,
    shadowed: r.shadowed,
    problems: [...walk.problems],
    supporting_files: {
      listed: fast.listed,
      hashed: 0,
      truncated: 0,
      reused: fast.reused,
      problems: [],
    },
    publish: {
      changed: false,
      seq: r.seq,
      catalog_generation: r.catalog_generation,
      counts: r.counts,
    },
    dry_run: false,
    revision_texts: {
      stored: 0,
      bytes: 0,
      compressed_bytes: 0,
      pruned: 0,
      not_stored: [],
      keep,
    },
  };
  return { ...report, summary: indexSummary(report) };
}

// Stores the fast path's record after an ordinary run that published, when a next run finding the
// same walk could answer from it: nothing was skipped by a read (a file that could not be read is
// read again next time), every revision text is stored, every listing was clean, and no other
// connection committed while this run worked (SQLite: since the walk; PostgreSQL, whose
// data_version counts this connection's commits too: since the publish, and this run stored no
// text, so a first index records on its next unchanged run).
function recordForFastPath(
  db: Db,
  digest: string,
  walk: ScopesWalk,
  summary: IngestSummary,
  publish: PublishResult,
  texts: RevisionTextsSummary,
  versions: { versionAtStart: number; versionAfterPublish: number; usage: string | undefined },
): void {
  const pg = dialectOf(db) === 'pg';
  if (
    summary.skipped.length !== walk.skipped.length ||
    texts.not_stored.length > 0 ||
    summary.supporting_files.problems.length > 0 ||
    summary.supporting_files.truncated > 0 ||
    (pg && texts.stored + texts.pruned > 0) ||
    (!pg && versions.versionAfterPublish !== versions.versionAtStart)
  )
    return;
  db.transaction(() => {
    const now = db.pragma('data_version', { simple: true }) as number;
    if (now !== versions.versionAfterPublish) return;
    writeReindexRecord(db, {
      digest,
      seq: publish.seq,
      catalog_generation: publish.catalog_generation,
      counts: publish.counts,
      unchanged: summary.added.length + summary.changed.length + summary.unchanged,
      duplicates: summary.duplicates,
      shadowed: summary.shadowed,
      ...(versions.usage !== undefined ? { usage: versions.usage } : {}),
    });
  }).immediate();
}

/**
 * The identity of the catalog's usage store as a file (device, inode, birth time; `none` when there
 * is none), or undefined when it is not a file (PostgreSQL).
 */
function usageIdentity(catalog: string): string | undefined {
  const file = telemetryPathFor(catalog);
  if (isPgLocation(file)) return undefined;
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}:${st.birthtimeMs}`;
  } catch {
    // No usage store (yet): a later `learn` that makes one is another identity.
    return 'none';
  }
}

// On the fast path the author examples need no sync when the usage store is the one the recording
// run synced: the fast path found every skill folder unchanged (an alone folder holds no evaluation
// file; any other kept its recorded listing, which lists every file the sync reads, as
// learning/author-sync.ts walks the same folder two levels deep and skips the same folders), so the
// files read would be the same, and a forgotten example stays forgotten either way. A store made,
// replaced or removed since (or one on PostgreSQL) is synced, and the record names it from then on.
function syncAuthorsUnlessKept(
  catalog: string,
  db: Db,
  now: () => Date,
  record: ReindexRecord,
  walk: ScopesWalk,
): void {
  const before = usageIdentity(catalog);
  if (before !== undefined && before === record.usage) return;
  syncAuthorExamplesOf(catalog, db, now, aloneFolders(walk));
  const after = usageIdentity(catalog);
  if (after !== undefined) writeReindexRecord(db, { ...record, usage: after });
}

// The folders the walk found holding their SKILL.md alone, by the folder of its path: the author
// sync need not walk them again (learning/author-sync.ts readAuthorExamples).
function aloneFolders(walk: ScopesWalk): Set<string> {
  const out = new Set<string>();
  for (const f of walk.files) if (f.alone === true) out.add(path.dirname(f.path));
  return out;
}

/** INVALID_ARGUMENT, before anything is opened or written, for a scope that is not a folder. */
function assertScopeFolders(scopes: readonly string[]): void {
  for (const scope of scopes) {
    if (statOrUndefined(scope)?.isDirectory() !== true) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `--scope ${scope} is not a folder; nothing was indexed`,
        { option: '--scope', value: scope },
      );
    }
  }
}

// LOCK_MISMATCH unless the working set holds exactly the locked skills with their folder digests:
// files that changed between the lock check and the ingest's reads must not be published.
function refuseUnlocked(db: Db, locked: ReadonlyMap<string, string>): void {
  const got = workingSetDigests(db, LATEST_VERSION);
  const differ = [...new Set([...got.keys(), ...locked.keys()])]
    .filter((id) => got.get(id)?.folder_digest !== locked.get(id))
    .sort();
  if (differ.length === 0) return;
  throw new SkilldexError(
    'LOCK_MISMATCH',
    `${differ.length} skill(s) read by this index differ from the lock (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? ', …' : ''}): nothing was published`,
    { skill_ids: differ.slice(0, 50) },
  );
}

/**
 * NO_SKILLS_FOUND when an ingest left the working set without a skill and nothing was ever
 * published: an empty first generation would make every search answer "no candidates" with no
 * word on why. The details name the scopes read (and whether each exists) for the message to show.
 */
function refuseEmptyFirst(db: Db, summary: IngestSummary, discover: DiscoverOptions): void {
  if (summary.added.length + summary.changed.length + summary.unchanged > 0) return;
  if (publishedPolicy(db) !== undefined) return;
  const scopes = resolveScopes(scopeOptionsOf(discover)).scopes;
  const listed = scopes.map((s) => `${s.path}${s.exists ? '' : ' (not found)'}`);
  const where = scopes.length === 0 ? 'any scope' : listed.join(', ');
  // Found but every one skipped (issue 36 R4): say how many, and why, by code, with the first.
  const byCode = new Map<string, number>();
  for (const f of summary.skipped) byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
  const reasons = [...byCode].map(([code, n]) => `${n} ${code}`).join(', ');
  const first = summary.skipped[0];
  const found =
    summary.enumerated === 0
      ? `found no SKILL.md in ${where}` + (reasons === '' ? '' : ` (skipped: ${reasons})`)
      : `found ${summary.enumerated} SKILL.md file(s) in ${where} and skipped every one` +
        (reasons === '' ? '' : ` (${reasons}; first: ${first!.reason})`) +
        '; see skilldex scan --verbose';
  throw new SkilldexError('NO_SKILLS_FOUND', `${found}; nothing was published`, {
    scopes: scopes.map((s) => ({ kind: s.kind, path: s.path, exists: s.exists })),
    enumerated: summary.enumerated,
    skipped: summary.skipped.length,
    skipped_by_code: Object.fromEntries(byCode),
  });
}

// Runs an index; when it refuses with NO_SKILLS_FOUND a catalog file this run created is removed
// again (a SQLite file and its -wal/-shm), so the refusal leaves nothing behind.
function removingRefusedCatalog<T>(created: boolean, catalog: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (created && isSkilldexError(err) && err.code === 'NO_SKILLS_FOUND' && !isPgLocation(catalog))
      for (const f of [catalog, `${catalog}-wal`, `${catalog}-shm`]) rmSync(f, { force: true });
    throw err;
  }
}

/** The meta key under which a catalog remembers the scopes it was last indexed from. */
const SCOPES_META_KEY = 'scopes';

/** The scope options a catalog was last indexed with: explicit scopes, or the home and project. */
export interface RememberedScopes {
  readonly scopes?: readonly string[];
  readonly home?: string;
  readonly project?: string;
  /** The `prefer` folders of that index (which file wins an id collision). */
  readonly prefer?: readonly string[];
}

function scopeMemory(o: DiscoverOptions): RememberedScopes {
  const prefer = o.prefer !== undefined && o.prefer.length > 0 ? { prefer: [...o.prefer] } : {};
  if (o.scopes !== undefined) return { scopes: [...o.scopes], ...prefer };
  return {
    ...(o.home !== undefined ? { home: o.home } : {}),
    ...(o.project !== undefined ? { project: o.project } : {}),
    ...prefer,
  };
}

/**
 * The scopes `catalog` was last indexed from, or undefined when the file does not exist or was
 * never indexed by a skilldex that remembers them. A malformed value is CATALOG_CORRUPT.
 */
export function readCatalogScopes(catalog: string): RememberedScopes | undefined {
  if (!catalogExists(catalog)) return undefined;
  return withCatalog(catalog, (db) => {
    const raw = readMeta(db, SCOPES_META_KEY);
    if (raw === undefined) return undefined;
    let v: unknown;
    try {
      v = JSON.parse(raw) as unknown;
    } catch (err) {
      throw new SkilldexError(
        'CATALOG_CORRUPT',
        `${catalog}: the remembered scopes are not JSON`,
        { catalog },
        { cause: err },
      );
    }
    const strings = (x: unknown): x is string[] =>
      Array.isArray(x) && x.every((e) => typeof e === 'string');
    if (v === null || typeof v !== 'object')
      throw new SkilldexError(
        'CATALOG_CORRUPT',
        `${catalog}: the remembered scopes are not an object`,
        { catalog },
      );
    const o = v as Record<string, unknown>;
    if (
      (o['scopes'] !== undefined && !strings(o['scopes'])) ||
      (o['prefer'] !== undefined && !strings(o['prefer'])) ||
      (o['home'] !== undefined && typeof o['home'] !== 'string') ||
      (o['project'] !== undefined && typeof o['project'] !== 'string')
    ) {
      throw new SkilldexError(
        'CATALOG_CORRUPT',
        `${catalog}: the remembered scopes are malformed`,
        { catalog },
      );
    }
    return o as RememberedScopes;
  });
}

export type { RollbackReport };

/**
 * Republishes an earlier generation (`generation`: its sequence number or id, `sha256:…` or a hex
 * prefix of at least 8; default: the one published before the current one). The working set is
 * set to that generation's members (their revisions are kept in the catalog) and published through
 * the ordinary publish path, as a new sequence with the old content. The next `index` works from
 * the files again. GENERATION_NOT_FOUND when there is no such generation; CATALOG_EMPTY when none
 * is published.
 */
export function rollbackCatalog(
  options: OperatorOptions & { generation?: string },
): RollbackReport {
  assertKnownOptions(options, ROLLBACK_CATALOG_OPTION_KEYS, 'rollbackCatalog');
  return withCatalog(options.catalog, (db) =>
    rollbackWorkingSet(db, options.catalog, options.generation, options.now ?? (() => new Date())),
  );
}

/** Publishes the working set. */
export function publishCatalog(options: OperatorOptions): PublishResult {
  assertKnownOptions(options, OPERATOR_OPTION_KEYS, 'publishCatalog');
  return withCatalog(options.catalog, (db) =>
    publishWorkingSet(db, choosePolicy(db, options.policy), options.now ?? (() => new Date())),
  );
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
    const publish =
      options.publish === false
        ? null
        : publishWorkingSet(
            db,
            choosePolicy(db, options.policy),
            options.now ?? (() => new Date()),
          );
    if (publish) pruneUsageOf(options.catalog, db);
    // issue 34 item 1 (author examples): the skills' own trigger evaluations (learning/author-sync.ts).
    if (publish) syncAuthorExamplesOf(options.catalog, db, options.now);
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

// The policy to publish under: the one asked for (remembered from now on), else the remembered one,
// which must still be a known policy (checkPolicyId: a catalog that remembers a retired policy is
// refused with the live ones named, and `--policy` upgrades it). A PostgreSQL catalog has no FTS5
// and serves the BM25F policies only (PG_POLICIES).
function choosePolicy(db: Db, asked: string | undefined): string {
  if (asked !== undefined) {
    checkPolicyId(asked);
    if (dialectOf(db) === 'pg' && !PG_POLICIES.includes(asked)) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `policy ${asked} ranks with SQLite's FTS5; a PostgreSQL catalog serves ${PG_POLICIES.join(' and ')}`,
        { policy: asked, supported: [...PG_POLICIES] },
      );
    }
    writeMeta(db, 'policy', asked);
    return asked;
  }
  // A catalog that never recorded a policy keeps the one its last generation was published under.
  return checkPolicyId(readMeta(db, 'policy') ?? publishedPolicy(db) ?? DEFAULT_POLICY_ID);
}

// Drops the usage examples of skills the published generation no longer serves as active or deprecated.
function pruneUsageOf(catalog: string, db: Db): void {
  const file = telemetryPathFor(catalog);
  if (!catalogExists(catalog) || (!isPgLocation(file) && !existsSync(file))) return;
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
  if (!create && !catalogExists(file)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${file}`, {
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

/** The keys `rollbackCatalog` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const ROLLBACK_CATALOG_OPTION_KEYS = optionKeys<
  NonNullable<Parameters<typeof rollbackCatalog>[0]>
>()('catalog', 'now', 'policy', 'generation');
