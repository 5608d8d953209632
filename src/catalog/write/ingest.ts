/**
 * Incremental ingest (issue #3 "skilldex index"): discover the scopes, skip files unchanged by size
 * and mtime (then by hash), record new revisions, list each indexed skill's supporting files
 * (skill-files.ts; a file unchanged by size and mtime keeps its recorded digest), retire skills
 * whose files are gone, and update the working set in one transaction. A skill whose SKILL.md is
 * unchanged but whose supporting files changed gets the new listing and counts as changed.
 * Publishing is a separate step (publish.ts) so `--no-publish` can stage a working set. A crash
 * before COMMIT changes nothing; the next run starts over from disk.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError, type Problem } from '../../errors.js';
import type { WalkListings } from '../../fsx/index.js';
import {
  enumerateSkillFiles,
  loadSkillFile,
  resolveIdentities,
  resolveScopes,
  scopeOptionsOf,
  type DiscoverOptions,
  type DuplicateGroup,
  type FileOrigin,
  type Scope,
  type ShadowedSkill,
  type SkillRecord,
  type SkippedFile,
} from '../../skills/index.js';
import type { Db } from '../db.js';
import { RowWriter, insertRows, runIn, selectIn } from '../store/batch.js';
import { encodeStoredFrontmatter } from '../store/stored.js';
import { BODY_INDEX_CHARS } from './postings.js';
import { encodeBodyV4, type BodyHandoff } from './documents-v4.js';
import { layoutParts, type IndexLayout } from '../store/layout.js';
import { listSupportingFiles, manifestIdOf, type FolderListing } from './skill-files.js';
import { FileRecordWriter, decodeStats, encodeStats, readFileStats } from './file-manifests.js';
import { clearReindexRecord } from './reindex-digest.js';

/** Progress of an ingest: files looked at so far out of the total. */
export type ProgressFn = (done: number, total: number) => void;

/** What an ingest changed in the working set: the skills added, changed, removed and kept. */
export interface WorkingSetChanges {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
}

/** What an ingest changed in the working set, and what it read and found on the way. */
export interface IngestSummary extends WorkingSetChanges {
  readonly enumerated: number;
  /** Files whose bytes were read this run (the rest were skipped by size and mtime). */
  readonly read: number;
  readonly skipped: readonly SkippedFile[];
  readonly duplicates: readonly DuplicateGroup[];
  readonly shadowed: readonly ShadowedSkill[];
  readonly problems: readonly Problem[];
  /** The supporting files of the indexed skills (skill-files.ts). */
  readonly supporting_files: SupportingFilesSummary;
}

/** What an ingest saw of the indexed skills' supporting files. */
export interface SupportingFilesSummary {
  /** Files listed, over every indexed skill. */
  readonly listed: number;
  /** Files whose bytes were read this run (the rest were unchanged by size and mtime). */
  readonly hashed: number;
  /** Skills whose listing a bound cut short. */
  readonly truncated: number;
  /** Skill folders not walked again: nothing in them changed since the last index. */
  readonly reused: number;
  /**
   * Files not listed for a reason worth telling: not regular, vanished or unreadable, swapped for a
   * link, or grown while read. Links out of a skill folder are in `skipped`, as discovery reports them.
   */
  readonly problems: readonly Problem[];
}

interface FileRow {
  path: string;
  real_path: string;
  size: number;
  mtime_ms: number;
  skill_id: string;
  revision_id: string;
}

/** How an ingest may change the working set, and what it keeps of each body. */
export interface IngestGuards {
  /**
   * The layout the revisions read now keep their body for (store/layout.ts; default 'lexical': no
   * body; 'bm25f': `body_lines` and `line_keys`, documents-v4.ts). Revisions read by an earlier
   * run keep what they had.
   */
  readonly bodyLayout?: IndexLayout;
  /** Compute the summary, then roll the transaction back: nothing is written. */
  readonly dryRun?: boolean;
  /** Allow retiring more than SHRINK_LIMIT of the active skills in one ingest. */
  readonly allowShrink?: boolean;
  /** Where the v4 body lines analysed this run are handed to the publish of the same index. */
  readonly handoff?: BodyHandoff;
  /** The walk of the scopes, when the caller took it already (walkScopes); default: walk now. */
  readonly walk?: ScopesWalk;
}

/** What discovery's walk of the scopes found, before any file is read. */
export interface ScopesWalk {
  /** The SKILL.md files found (skilldex's own router skill left out). */
  readonly files: readonly FileOrigin[];
  /** Files discovery refused (links out, unreadable folders, bounds). */
  readonly skipped: readonly SkippedFile[];
  /** Problems with the scopes themselves. */
  readonly problems: readonly Problem[];
  /** The scopes walked (kind, path, whether each exists). */
  readonly scopes: readonly Scope[];
}

/**
 * Walks the scopes `options` selects: the first step of an ingest, and all a fast re-index reads.
 * `listings`: the folder listings to reuse and record (walk-listings.ts).
 */
export function walkScopes(options: DiscoverOptions, listings?: WalkListings): ScopesWalk {
  const scopes = resolveScopes(scopeOptionsOf(options));
  const { files: found, skipped } = enumerateSkillFiles(scopes.scopes, options, listings);
  // skilldex's own router skill (`skill-router/SKILL.md` right in a scope folder: where init
  // installs it in a client's skills folder) is how agents reach the catalog, never a skill in it
  // (issue 35): a library that is a client's skills folder does not index it.
  const files = found.filter((f) => !isRouterSkillFile(f.path, f.scopePath));
  return { files, skipped, problems: scopes.problems, scopes: scopes.scopes };
}

/**
 * Largest share of the active skills one ingest may retire without `allowShrink`: a typo in a
 * `--scope` path finds no skills and would otherwise retire the whole library.
 */
export const SHRINK_LIMIT = 0.5;

/** Thrown inside the transaction to roll a dry run back with its summary. */
class DryRunDone {
  constructor(readonly summary: WorkingSetChanges) {}
}

/**
 * Makes the next ingest read every file again (it forgets each file's size and mtime): what a
 * catalog needs when its revisions must keep their bodies for another index kind.
 */
export function forgetFileStats(db: Db): void {
  db.prepare(`DELETE FROM files`).run();
  clearReindexRecord(db);
}

/** The folder skilldex's router skill is installed in (src/cli/init/clients.ts ROUTER_FOLDER). */
const ROUTER_FOLDER = 'skill-router';

/** Whether `file` is skilldex's router skill as init installs it: `<scope>/skill-router/SKILL.md`. */
function isRouterSkillFile(file: string, scopePath: string): boolean {
  const dir = path.dirname(file);
  return path.basename(dir) === ROUTER_FOLDER && path.dirname(dir) === scopePath;
}

/**
 * Ingests the scopes `options` selects into the working set of `db`. `now` stamps new revisions.
 * CATALOG_BUSY (details.reason "changed") when another connection committed to the catalog while
 * this one read the files: its view is stale and it writes nothing (the caller may retry).
 * CATALOG_SHRINK when it would retire more than SHRINK_LIMIT of the active skills.
 */
export function ingestSkills(
  db: Db,
  options: DiscoverOptions,
  now: () => Date,
  onProgress?: ProgressFn,
  guards: IngestGuards = {},
): IngestSummary {
  // data_version changes only when another connection commits: compared again inside the write
  // transaction, it tells whether what this run read (prior files, working set) is still current.
  const versionAtStart = db.pragma('data_version', { simple: true }) as number;
  const walk = guards.walk ?? walkScopes(options);
  const files = walk.files;
  // The walk's own list stays as walked (the fast path compares it); the reads add their skips here.
  const skipped = [...walk.skipped];
  const prior = readPriorFiles(db);
  const loaded = loadRecords(files, prior, options, skipped, onProgress, guards.handoff);
  const ids = resolveIdentities(loaded.records, options.prefer);
  // Folders the walk saw holding their SKILL.md and nothing else: no listing of their own needed.
  const alone = new Set(files.filter((f) => f.alone === true).map((f) => path.dirname(f.realPath)));
  const run: IngestRun = {
    db,
    skills: ids.skills,
    prior,
    stats: loaded.stats,
    byPath: new Map(loaded.records.map((r) => [r.path, r])),
    listings: listFolders(db, ids.skills, alone),
    stamp: now().toISOString(),
    guards,
  };
  const transaction = db.transaction(() => {
    refuseStaleView(db, versionAtStart);
    const result = writeWorkingSet(run);
    if (!guards.allowShrink) refuseShrink(db, result.removed);
    // A working set that changed is not the one the fast path's record describes (reindex-digest.ts).
    if (result.added.length + result.changed.length + result.removed.length > 0)
      clearReindexRecord(db);
    if (guards.dryRun) throw new DryRunDone(result);
    return result;
  });
  let summary: WorkingSetChanges;
  try {
    summary = transaction.immediate();
  } catch (err) {
    if (!(err instanceof DryRunDone)) throw err;
    summary = err.summary;
  }
  return {
    enumerated: files.length,
    ...summary,
    read: loaded.read,
    skipped,
    duplicates: ids.duplicates,
    shadowed: ids.shadowed,
    problems: walk.problems,
    supporting_files: run.listings.summary,
  };
}

/** Everything the write transaction of one ingest works from (read before it). */
interface IngestRun {
  readonly db: Db;
  /** The skills discovery resolved, one per skill_id. */
  readonly skills: readonly SkillRecord[];
  /** The files the previous index remembered, by path. */
  readonly prior: ReadonlyMap<string, PriorFile>;
  /** The size and mtime of every file read or skipped as unchanged, by path. */
  readonly stats: ReadonlyMap<string, { size: number; mtime_ms: number }>;
  /** Every loaded record by path (also those identity resolution set aside). */
  readonly byPath: ReadonlyMap<string, SkillRecord>;
  readonly listings: Listings;
  /** first_seen of the revisions written. */
  readonly stamp: string;
  readonly guards: IngestGuards;
}

/**
 * A file the previous index remembered, with the identity of its revision (the revision columns are
 * null when that revision is not stored): one row object per file, as the query returns it.
 */
type PriorFile = FileRow & {
  seq: number | null;
  version: string | null;
  name: string;
  description: string;
  normalized_sha256: string;
  revision_size: number;
  body_offset: number;
};

// Every remembered file with the identity of its revision, in one pass (a re-index's reads); the
// rows are kept as read (no copy per row: on an unchanged re-index this is most of what is read).
function readPriorFiles(db: Db): Map<string, PriorFile> {
  const files = new Map<string, PriorFile>();
  for (const r of db
    .prepare(
      `SELECT f.path, f.real_path, f.size, f.mtime_ms, f.skill_id, f.revision_id, r.seq, r.version, r.name,
              r.description, CASE WHEN r.normalized_sha256 = '' THEN r.revision_id ELSE r.normalized_sha256 END AS normalized_sha256,
              r.size AS revision_size, r.body_offset
       FROM files f LEFT JOIN revisions r ON r.skill_id = f.skill_id AND r.revision_id = f.revision_id`,
    )
    .iterate() as Iterable<PriorFile>)
    files.set(r.path, r);
  return files;
}

/** The records of the files found: read again, or rebuilt from the catalog when unchanged. */
interface LoadedRecords {
  readonly records: SkillRecord[];
  readonly stats: Map<string, { size: number; mtime_ms: number }>;
  /** Files whose bytes were read. */
  readonly read: number;
}

// Loads every file found: one unchanged by size and mtime since the last run is rebuilt from its
// stored revision, any other is read, parsed and hashed (a file that cannot be is added to `skipped`).
function loadRecords(
  files: readonly FileOrigin[],
  prior: ReadonlyMap<string, PriorFile>,
  options: DiscoverOptions,
  skipped: SkippedFile[],
  onProgress: ProgressFn | undefined,
  handoff: BodyHandoff | undefined,
): LoadedRecords {
  const records: SkillRecord[] = [];
  const stats = new Map<string, { size: number; mtime_ms: number }>();
  const bounds = {
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxFrontmatterBytes !== undefined
      ? { maxFrontmatterBytes: options.maxFrontmatterBytes }
      : {}),
    bodyExcerptChars: BODY_INDEX_CHARS,
    // The bytes read are handed to this index's revision texts, which need not read them again.
    keepText: handoff !== undefined,
  };
  let read = 0;
  files.forEach((f, i) => {
    if (onProgress && (i & 255) === 0) onProgress(i, files.length);
    const st = statOf(f);
    const p = prior.get(f.path);
    if (
      st &&
      p &&
      p.seq !== null &&
      p.real_path === f.realPath &&
      p.size === st.size &&
      p.mtime_ms === st.mtimeMs
    ) {
      records.push(recordFromRow(p, f, st.mtimeMs));
      stats.set(f.path, { size: st.size, mtime_ms: st.mtimeMs });
      return;
    }
    read++;
    const loaded = loadSkillFile(f, bounds);
    if (!loaded.ok) {
      skipped.push({
        path: loaded.problem.path,
        code: loaded.problem.code,
        reason: loaded.problem.message,
      });
      return;
    }
    records.push(loaded.record);
    if (loaded.text !== undefined)
      handoff?.putText(loaded.record.revision_id, Buffer.from(loaded.text, 'utf8'));
    stats.set(f.path, { size: loaded.record.size, mtime_ms: loaded.record.mtime_ms });
  });
  onProgress?.(files.length, files.length);
  return { records, stats, read };
}

// The walk's stat of a file when it has one (one stat per file per index, not two), else a stat now;
// undefined when the file vanished (loadSkillFile then reports it with a coded reason).
function statOf(f: FileOrigin): { size: number; mtimeMs: number } | undefined {
  if (f.seen !== undefined) return f.seen;
  try {
    return statSync(f.realPath);
  } catch {
    return undefined;
  }
}

// CATALOG_BUSY when another connection committed since `versionAtStart`: what this run read is stale.
function refuseStaleView(db: Db, versionAtStart: number): void {
  if ((db.pragma('data_version', { simple: true }) as number) === versionAtStart) return;
  throw new SkilldexError(
    'CATALOG_BUSY',
    'another skilldex process changed the catalog while this index read the files; nothing was written',
    { reason: 'changed' },
  );
}

/** The working set before this ingest, by skill_id. */
interface SkillsBefore {
  readonly revision: Map<string, string | null>;
  readonly provenance: Map<string, string>;
  readonly manifest: Map<string, string | null>;
}

function readSkillsBefore(db: Db): SkillsBefore {
  const before: SkillsBefore = { revision: new Map(), provenance: new Map(), manifest: new Map() };
  for (const r of db
    .prepare(`SELECT skill_id, revision_id, provenance, manifest_id FROM skills`)
    .iterate() as Iterable<{
    skill_id: string;
    revision_id: string | null;
    provenance: string;
    manifest_id: string | null;
  }>) {
    before.revision.set(r.skill_id, r.revision_id);
    before.provenance.set(r.skill_id, r.provenance);
    before.manifest.set(r.skill_id, r.manifest_id);
  }
  return before;
}

// Inside the write transaction: new revisions and listings, the skills' rows, retired skills, the
// remembered files and folder stats. Every statement covers many skills (batch.ts): on PostgreSQL
// each is a round trip.
function writeWorkingSet(run: IngestRun): WorkingSetChanges {
  const before = readSkillsBefore(run.db);
  const fileRecords = new FileRecordWriter(run.db);
  const changes = writeRevisions(run, before, fileRecords);
  const kept = new Set(run.skills.map((r) => r.skill_id));
  const removed: string[] = [];
  for (const [id, rev] of before.revision) if (rev !== null && !kept.has(id)) removed.push(id);
  runIn(
    run.db,
    `UPDATE skills SET revision_id = NULL, manifest_id = NULL WHERE skill_id IN (%s)`,
    removed,
  );
  writeFileRows(run);
  writeFolderStats(run.listings, fileRecords);
  return { ...changes, removed };
}

// An unchanged file at the same path: nothing to write (the common case of a re-index).
function isUnchanged(run: IngestRun, before: SkillsBefore, r: SkillRecord): boolean {
  const priorFile = run.prior.get(r.path);
  return (
    before.revision.get(r.skill_id) === r.revision_id &&
    priorFile?.revision_id === r.revision_id &&
    priorFile.real_path === r.real_path
  );
}

// The revisions of the skills read this run (a known revision keeps its seq, a new one is next),
// each skill's row and new listing; what changed, by skill.
function writeRevisions(
  run: IngestRun,
  before: SkillsBefore,
  fileRecords: FileRecordWriter,
): Omit<WorkingSetChanges, 'removed'> {
  const seqs = storedSeqs(
    run.db,
    run.skills.filter((r) => !isUnchanged(run, before, r)),
  );
  const revisionRows = new RowWriter(run.db, 'revisions', REVISION_COLUMNS, REVISION_UPSERT);
  // By skill_id: one upsert per skill (a later one would win anyway).
  const skillRows = new Map<string, Record<string, unknown>>();
  const out = { added: [] as string[], changed: [] as string[], unchanged: 0 };
  for (const r of run.skills) {
    const had = before.revision.get(r.skill_id);
    const provenance = JSON.stringify(r.provenance);
    const listing = run.listings.bySkill.get(r.skill_id)!;
    // A new listing is stored before anything names it (a stored one holds the same files).
    const filesChanged = (before.manifest.get(r.skill_id) ?? null) !== listing.manifest_id;
    if (filesChanged && listing.manifest_id !== null)
      fileRecords.storeManifest(listing.manifest_id, listing);
    const skillRow = {
      skill_id: r.skill_id,
      revision_id: r.revision_id,
      provenance,
      manifest_id: listing.manifest_id,
    };
    if (isUnchanged(run, before, r)) {
      if (before.provenance.get(r.skill_id) !== provenance || filesChanged)
        skillRows.set(r.skill_id, skillRow);
      if (filesChanged) out.changed.push(r.skill_id);
      else out.unchanged++;
      continue;
    }
    const revisions = seqs.get(r.skill_id);
    const seq = revisions?.get(r.revision_id) ?? (revisions?.size ?? 0) + 1;
    revisionRows.add(revisionRow(r, seq, run));
    skillRows.set(r.skill_id, skillRow);
    if (had === undefined || had === null) out.added.push(r.skill_id);
    else if (had !== r.revision_id || filesChanged) out.changed.push(r.skill_id);
    else out.unchanged++;
  }
  revisionRows.flush();
  // The listings first: a stored one is never named before it exists.
  fileRecords.flush();
  insertRows(
    run.db,
    'skills',
    ['skill_id', 'revision_id', 'provenance', 'manifest_id'],
    [...skillRows.values()],
    `ON CONFLICT (skill_id) DO UPDATE SET revision_id = excluded.revision_id, provenance = excluded.provenance,
           manifest_id = excluded.manifest_id`,
  );
  return out;
}

// The stored revisions of the skills `writes` names: their seq by revision_id, by skill_id.
function storedSeqs(db: Db, writes: readonly SkillRecord[]): Map<string, Map<string, number>> {
  const stored = new Map<string, Map<string, number>>();
  for (const row of selectIn(
    db,
    `SELECT skill_id, revision_id, seq FROM revisions WHERE skill_id IN (%s)`,
    writes.map((r) => r.skill_id),
  ) as { skill_id: string; revision_id: string; seq: number }[]) {
    let m = stored.get(row.skill_id);
    if (!m) stored.set(row.skill_id, (m = new Map()));
    m.set(row.revision_id, row.seq);
  }
  return stored;
}

// On a revision already stored (another path to the same bytes, or a file read again), only where
// it lives changes; its body columns are replaced only by ones read this run.
const REVISION_UPSERT = `ON CONFLICT (skill_id, revision_id) DO UPDATE SET path = excluded.path, real_path = excluded.real_path, scope = excluded.scope,
           scope_path = excluded.scope_path, plugin = excluded.plugin,
           body_v4 = coalesce(excluded.body_v4, revisions.body_v4), body_lines = coalesce(excluded.body_lines, revisions.body_lines),
           line_keys = coalesce(excluded.line_keys, revisions.line_keys)`;

// The row of `revisions` for record `r` with sequence number `seq`.
function revisionRow(r: SkillRecord, seq: number, run: IngestRun): Record<string, unknown> {
  return {
    skill_id: r.skill_id,
    revision_id: r.revision_id,
    seq,
    version: r.version ?? null,
    name: r.name,
    description: r.description,
    when_to_use: r.when_to_use ?? null,
    keywords: JSON.stringify(r.keywords),
    tags: JSON.stringify(r.tags),
    path: r.path,
    real_path: r.real_path,
    scope: r.scope,
    scope_path: r.scope_path,
    plugin: r.plugin ?? null,
    size: r.size,
    // Stored once (issue 33): empty when it equals the revision id, as it does for a file with LF
    // line endings and no BOM (readPriorFiles reads it back).
    normalized_sha256: r.normalized_sha256 === r.revision_id ? '' : r.normalized_sha256,
    body_offset: r.body_offset,
    frontmatter: encodeStoredFrontmatter(r.frontmatter, {
      description: r.description,
      name: r.name,
      keywords: JSON.stringify(r.keywords),
    }),
    warnings: JSON.stringify(r.warnings),
    flags: JSON.stringify(r.flags),
    first_seen: run.stamp,
    ...bodyColumns(r, run.guards.bodyLayout ?? 'lexical', run.guards.handoff),
  };
}

// Remembers every file that maps to a stored revision, for the next incremental run (by diff).
function writeFileRows(run: IngestRun): void {
  const fileRows = new Map<string, Record<string, unknown>>();
  const keep = new Set<string>();
  for (const r of run.skills) {
    for (const p of r.provenance) {
      const st = run.stats.get(p);
      const rec = run.byPath.get(p);
      if (!st || !rec) continue;
      keep.add(p);
      const old = run.prior.get(p);
      if (
        old &&
        old.real_path === rec.real_path &&
        old.size === st.size &&
        old.mtime_ms === st.mtime_ms &&
        old.skill_id === r.skill_id &&
        old.revision_id === r.revision_id
      ) {
        continue;
      }
      fileRows.set(p, {
        path: p,
        real_path: rec.real_path,
        size: st.size,
        mtime_ms: st.mtime_ms,
        skill_id: r.skill_id,
        revision_id: r.revision_id,
      });
    }
  }
  insertRows(
    run.db,
    'files',
    ['path', 'real_path', 'size', 'mtime_ms', 'skill_id', 'revision_id'],
    [...fileRows.values()],
    `ON CONFLICT (path) DO UPDATE SET real_path = excluded.real_path, size = excluded.size, mtime_ms = excluded.mtime_ms,
           skill_id = excluded.skill_id, revision_id = excluded.revision_id`,
  );
  runIn(
    run.db,
    `DELETE FROM files WHERE path IN (%s)`,
    [...run.prior.keys()].filter((p) => !keep.has(p)),
  );
}

// The stats of every folder with supporting files, for the next run (by diff); folders without
// any, and folders no indexed skill lives in any more, have no row.
function writeFolderStats(listings: Listings, fileRecords: FileRecordWriter): void {
  const seen = new Set<string>();
  for (const l of listings.bySkill.values()) {
    seen.add(l.dir);
    const want = l.stats.length > 0 ? encodeStats(l) : undefined;
    if (want === l.priorStats) continue;
    if (want !== undefined) fileRecords.writeStats(l.dir, want);
    else fileRecords.dropStats(l.dir);
  }
  for (const dir of listings.priorDirs) if (!seen.has(dir)) fileRecords.dropStats(dir);
  fileRecords.flush();
}

/** A skill's listing as ingest records it: its folder, manifest id and the prior stats JSON. */
interface SkillListing extends FolderListing {
  readonly dir: string;
  readonly manifest_id: string | null;
  readonly priorStats: string | undefined;
}

/** Listings by skill_id, the folders the previous index kept stats of, and the run's totals. */
interface Listings {
  readonly bySkill: ReadonlyMap<string, SkillListing>;
  readonly priorDirs: ReadonlySet<string>;
  readonly summary: SupportingFilesSummary;
}

// Lists the supporting files of every indexed skill's folder (before the write transaction, like
// the SKILL.md reads), reusing the digests the previous index recorded for unchanged files.
function listFolders(db: Db, skills: readonly SkillRecord[], alone: ReadonlySet<string>): Listings {
  const priorStats = readFileStats(db);
  const bySkill = new Map<string, SkillListing>();
  let listed = 0;
  let hashed = 0;
  let truncated = 0;
  let reused = 0;
  const problems: Problem[] = [];
  for (const r of skills) {
    const dir = path.dirname(r.real_path);
    const priorJson = priorStats.get(dir);
    const l = listSupportingFiles(
      dir,
      priorJson === undefined ? undefined : decodeStats(priorJson),
      Date.now,
      alone.has(dir),
    );
    listed += l.files.length;
    hashed += l.hashed;
    if (l.truncated) truncated++;
    if (l.reused) reused++;
    problems.push(...l.problems);
    bySkill.set(r.skill_id, { ...l, dir, manifest_id: manifestIdOf(l), priorStats: priorJson });
  }
  return {
    bySkill,
    priorDirs: new Set(priorStats.keys()),
    summary: { listed, hashed, truncated, reused, problems },
  };
}

// Refuses (CATALOG_SHRINK, rolling the transaction back) when `removed` holds more than SHRINK_LIMIT
// of the skills that were active before this ingest.
function refuseShrink(db: Db, removed: readonly string[]): void {
  if (removed.length === 0) return;
  const states = new Map<string, string>();
  for (const r of db.prepare(`SELECT skill_id, state FROM skills`).iterate() as Iterable<{
    skill_id: string;
    state: string;
  }>)
    states.set(r.skill_id, r.state);
  const retiredActive = removed.filter((id) => states.get(id) === 'active').length;
  const activeBefore =
    (
      db
        .prepare(
          `SELECT count(*) AS n FROM skills WHERE revision_id IS NOT NULL AND state = 'active'`,
        )
        .get() as { n: number }
    ).n + retiredActive;
  if (retiredActive > activeBefore * SHRINK_LIMIT) {
    throw new SkilldexError(
      'CATALOG_SHRINK',
      `this index would retire ${retiredActive} of ${activeBefore} active skills (more than ${SHRINK_LIMIT * 100} %); nothing was written`,
      { retired: retiredActive, active: activeBefore, removed: removed.slice(0, 20) },
    );
  }
}

// The columns of `revisions` an ingest writes, in the order of the INSERT.
const REVISION_COLUMNS = [
  'skill_id',
  'revision_id',
  'seq',
  'version',
  'name',
  'description',
  'when_to_use',
  'keywords',
  'tags',
  'path',
  'real_path',
  'scope',
  'scope_path',
  'plugin',
  'size',
  'normalized_sha256',
  'body_offset',
  'frontmatter',
  'warnings',
  'flags',
  'first_seen',
  'body_v4',
  'body_lines',
  'line_keys',
] as const;

// What a revision keeps of its body, from the excerpt read with its hash: nothing for a lexical
// layout, or the BM25F lines with their template keys (handed to this index's publish too). Null
// where the file was not read this run (the stored value stays).
function bodyColumns(
  r: SkillRecord,
  layout: IndexLayout,
  handoff: BodyHandoff | undefined,
): Record<'body_v4' | 'body_lines' | 'line_keys', string | Buffer | null> {
  const none = { body_v4: null, body_lines: null, line_keys: null };
  if (r.body_excerpt === undefined) return none;
  if (!layoutParts(layout).postings) return none;
  const v4 = encodeBodyV4(r.body_excerpt, r.name);
  handoff?.put(r.revision_id, v4.analysed);
  return { ...none, body_lines: v4.lines, line_keys: v4.keys };
}

// A record for a file unchanged since the last run: the identity fields identity resolution and
// the revision upsert read. Fields only a first ingest writes (frontmatter, keywords, warnings) are
// left empty: on a conflict the upsert keeps the stored values and updates only the path columns.
function recordFromRow(rev: PriorFile, f: FileOrigin, mtimeMs: number): SkillRecord {
  return {
    skill_id: rev.skill_id,
    name: rev.name,
    description: rev.description,
    ...(rev.version !== null ? { version: rev.version } : {}),
    keywords: [],
    tags: [],
    path: f.path,
    real_path: f.realPath,
    scope: f.scope,
    scope_path: f.scopePath,
    ...(f.plugin !== undefined ? { plugin: f.plugin } : {}),
    revision_id: rev.revision_id,
    normalized_sha256: rev.normalized_sha256,
    size: rev.revision_size,
    mtime_ms: mtimeMs,
    body_offset: rev.body_offset,
    frontmatter: {},
    warnings: [],
    flags: [],
    provenance: [f.path],
  };
}
