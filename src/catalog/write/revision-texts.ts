/**
 * The stored SKILL.md text of recent revisions (issue #28, migration 4), so `skilldex diff` can show
 * what changed between two revisions after the file on disk has moved on. One row of
 * `revision_texts` per revision_id — the sha256 of the exact bytes, so byte-identical files of two
 * skills are stored once — holding the bytes deflate-compressed (node:zlib, raw deflate; a real
 * SKILL.md shrinks to about 40 %, measured on the 1,206 files of corpus-real).
 *
 * Written after each index, in a transaction of its own: every working-set revision without a
 * stored text takes the bytes the same index's ingest read and hashed to it (BodyHandoff,
 * documents-v4.ts), else is read from its recorded real path (no link followed, at most
 * MAX_REVISION_TEXT_BYTES) and stored only when those bytes hash to the revision (a file changed
 * since the index is left for the next one). Bounded by `keep`: per skill, the texts of its
 * `keep` most recent revisions (by the catalog's revision sequence) are kept, and always those of
 * the working set and the published generation; any other is deleted. The revisions table itself is
 * never touched: metadata of every revision stays, only old texts go. Never reads a file that is
 * not a recorded revision's real path.
 */
import { inflateRawSync } from 'node:zlib';
import { SkilldexError } from '../../errors.js';
import { readBytesCapped, sha256Of } from '../../fsx/index.js';
import { insertRows, runIn } from '../store/batch.js';
import type { Db } from '../store/db-type.js';
import { readMeta, writeMeta } from '../store/meta.js';
import type { BodyHandoff } from './documents-v4.js';
import { deflateRawFitted } from '../store/deflate.js';

/** The schema version from which a catalog has `revision_texts`. */
export const TEXTS_SCHEMA_VERSION = 5;

/**
 * Revisions per skill whose text is kept by default: ten. A skill edited weekly keeps about two
 * months of history; at the ~2 KB a compressed SKILL.md takes (corpus-real's mean), that is at
 * most ~20 KB per skill.
 */
export const DEFAULT_KEEP_REVISIONS = 10;

/** Largest `keep` accepted. */
export const MAX_KEEP_REVISIONS = 1_000;

/** Largest SKILL.md whose text is stored: 1 MiB (a larger body is diffed by its digest only). */
export const MAX_REVISION_TEXT_BYTES = 1024 * 1024;

/** The one codec written today: raw deflate at zlib's default level (deflate.ts). */
export const TEXT_CODEC = 'deflate-raw';

// Compressed bytes collected before a batch of texts is written (bounds memory on a first index).
const BATCH_BYTES = 8 * 1024 * 1024;

const TEXT_COLUMNS = ['revision_id', 'codec', 'size', 'data'] as const;

type TextRow = Readonly<{ revision_id: string; codec: string; size: number; data: Buffer }>;

/** What one store-and-prune pass did. */
export interface RevisionTextsSummary {
  /** Texts stored by this pass. */
  readonly stored: number;
  /** Their size before and after compression, in bytes. */
  readonly bytes: number;
  readonly compressed_bytes: number;
  /** Texts deleted because they fell past `keep`. */
  readonly pruned: number;
  /** Working-set revisions whose text could not be stored, with why (too large, changed, unreadable). */
  readonly not_stored: readonly { skill_id: string; revision_id: string; reason: string }[];
  /** The bound applied. */
  readonly keep: number;
}

/** The text of one revision, or why the catalog has none. */
export type RevisionText =
  | { readonly ok: true; readonly text: string; readonly size: number }
  | { readonly ok: false; readonly reason: 'not stored' | 'no texts in this catalog' };

/** Throws INVALID_ARGUMENT unless `keep` is a whole number from 0 to MAX_KEEP_REVISIONS. */
export function checkKeepRevisions(keep: number): number {
  if (!Number.isInteger(keep) || keep < 0 || keep > MAX_KEEP_REVISIONS) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `keepRevisions must be a whole number from 0 to ${MAX_KEEP_REVISIONS}, got ${keep}`,
      { option: 'keepRevisions', value: keep },
    );
  }
  return keep;
}

/** The meta key under which a catalog remembers the last `keep` it was given. */
const KEEP_META_KEY = 'keep_revisions';

/**
 * The bound to apply: `asked` when given (checked, and remembered by the catalog from now on), else
 * the one the catalog remembers, else DEFAULT_KEEP_REVISIONS. A remembered value that is not a
 * whole number in range is CATALOG_CORRUPT.
 */
export function keepRevisionsOf(db: Db, asked: number | undefined): number {
  if (asked !== undefined) {
    checkKeepRevisions(asked);
    writeMeta(db, KEEP_META_KEY, String(asked));
    return asked;
  }
  const raw = readMeta(db, KEEP_META_KEY);
  if (raw === undefined) return DEFAULT_KEEP_REVISIONS;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n <= MAX_KEEP_REVISIONS)) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the catalog's remembered keep_revisions ${JSON.stringify(raw)} is not a whole number from 0 to ${MAX_KEEP_REVISIONS}`,
      { key: KEEP_META_KEY },
    );
  }
  return n;
}

/**
 * Stores the text of every working-set revision that has none, then (when `prune`) deletes the
 * texts past `keep` per skill. Files are read outside any transaction; texts are written in short
 * immediate transactions of about 8 MiB each, the last of which also prunes.
 */
export function storeRevisionTexts(
  db: Db,
  options: { keep: number; prune: boolean; handoff?: Pick<BodyHandoff, 'text'> },
): RevisionTextsSummary {
  const keep = checkKeepRevisions(options.keep);
  const missing = db
    .prepare(
      `SELECT s.skill_id, s.revision_id, r.real_path FROM skills s
       JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id
       LEFT JOIN revision_texts t ON t.revision_id = s.revision_id
       WHERE s.revision_id IS NOT NULL AND t.revision_id IS NULL ORDER BY s.skill_id`,
    )
    .all() as { skill_id: string; revision_id: string; real_path: string }[];
  const notStored: { skill_id: string; revision_id: string; reason: string }[] = [];
  const done = new Set<string>();
  let rows: TextRow[] = [];
  let pending = 0;
  let bytes = 0;
  let compressed = 0;
  let pruned = 0;
  // Files are read outside the write lock; texts are written in batches of about BATCH_BYTES.
  const write = (last: boolean): void => {
    db.transaction(() => {
      insertRows(db, 'revision_texts', TEXT_COLUMNS, rows, `ON CONFLICT (revision_id) DO NOTHING`);
      if (last && options.prune) pruned = pruneRevisionTexts(db, keep);
    }).immediate();
    rows = [];
    pending = 0;
  };
  for (const m of missing) {
    if (done.has(m.revision_id)) continue;
    const read = textOf(m, options.handoff);
    if (!read.ok) {
      notStored.push({ ...pick(m), reason: read.problem.code });
      continue;
    }
    // The bytes must be the revision's: a file edited since the index is the next index's revision.
    // Bytes the ingest handed over are those it hashed to this revision_id: not hashed again.
    if (!read.handed && sha256Of(read.bytes) !== m.revision_id) {
      notStored.push({ ...pick(m), reason: 'changed since indexed' });
      continue;
    }
    const data = deflateRawFitted(read.bytes);
    done.add(m.revision_id);
    rows.push({ revision_id: m.revision_id, codec: TEXT_CODEC, size: read.bytes.length, data });
    bytes += read.bytes.length;
    compressed += data.length;
    pending += data.length;
    if (pending >= BATCH_BYTES) write(false);
  }
  if (rows.length > 0 || options.prune) write(true);
  return {
    stored: done.size,
    bytes,
    compressed_bytes: compressed,
    pruned,
    not_stored: notStored,
    keep,
  };
}

// The bytes of a revision's file: those this index's ingest read and hashed to the revision
// (`handed`), when handed over and within the bound, else read from its recorded real path now
// (for the caller to hash).
function textOf(
  m: { revision_id: string; real_path: string },
  handoff: Pick<BodyHandoff, 'text'> | undefined,
):
  | { ok: true; bytes: Buffer; handed: boolean }
  | Extract<ReturnType<typeof readBytesCapped>, { ok: false }> {
  const bytes = handoff?.text(m.revision_id);
  if (bytes !== undefined && bytes.length <= MAX_REVISION_TEXT_BYTES)
    return { ok: true, bytes, handed: true };
  const read = readBytesCapped(m.real_path, MAX_REVISION_TEXT_BYTES, m.real_path, true);
  return read.ok ? { ...read, handed: false } : read;
}

function pick(m: { skill_id: string; revision_id: string }): {
  skill_id: string;
  revision_id: string;
} {
  return { skill_id: m.skill_id, revision_id: m.revision_id };
}

/**
 * Deletes every stored text no skill keeps: a skill keeps its `keep` most recent revisions (highest
 * revision sequence first), its working-set revision and its revision in the published generation.
 * Returns how many texts were deleted. Runs inside the caller's transaction.
 */
export function pruneRevisionTexts(db: Db, keep: number): number {
  const stored = db
    .prepare(
      `SELECT r.skill_id, r.revision_id, r.seq FROM revisions r
       JOIN revision_texts t ON t.revision_id = r.revision_id ORDER BY r.skill_id, r.seq DESC`,
    )
    .all() as { skill_id: string; revision_id: string; seq: number }[];
  const kept = new Set<string>();
  const served = db
    .prepare(
      `SELECT revision_id FROM skills WHERE revision_id IS NOT NULL
       UNION SELECT m.revision_id FROM generation_members m JOIN published p ON p.seq = m.seq`,
    )
    .all() as { revision_id: string }[];
  for (const r of served) kept.add(r.revision_id);
  let skill = '';
  let rank = 0;
  for (const r of stored) {
    if (r.skill_id !== skill) {
      skill = r.skill_id;
      rank = 0;
    }
    if (rank++ < keep) kept.add(r.revision_id);
  }
  const drop = [...new Set(stored.map((r) => r.revision_id))].filter((id) => !kept.has(id));
  runIn(db, `DELETE FROM revision_texts WHERE revision_id IN (%s)`, drop);
  return drop.length;
}

/**
 * The stored text of `revisionId` (UTF-8, BOM removed, line endings as stored), or why there is
 * none. CATALOG_CORRUPT when a row does not decompress to bytes of that revision.
 */
export function readRevisionText(
  db: Pick<Db, 'prepare'>,
  revisionId: string,
  schemaVersion: number,
): RevisionText {
  if (schemaVersion < TEXTS_SCHEMA_VERSION)
    return { ok: false, reason: 'no texts in this catalog' };
  const row = db
    .prepare(`SELECT codec, size, data FROM revision_texts WHERE revision_id = ?`)
    .get(revisionId) as { codec: string; size: number; data: Buffer } | undefined;
  if (!row) return { ok: false, reason: 'not stored' };
  let bytes: Buffer;
  try {
    if (row.codec !== TEXT_CODEC) throw new Error(`unknown codec ${JSON.stringify(row.codec)}`);
    bytes = inflateRawSync(row.data, { maxOutputLength: MAX_REVISION_TEXT_BYTES + 1 });
  } catch (err) {
    throw corrupt(revisionId, err);
  }
  if (bytes.length !== Number(row.size) || sha256Of(bytes) !== revisionId) {
    throw corrupt(revisionId, undefined);
  }
  let text = new TextDecoder('utf-8').decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text, size: bytes.length };
}

function corrupt(revisionId: string, cause: unknown): SkilldexError {
  return new SkilldexError(
    'CATALOG_CORRUPT',
    `the stored text of revision ${revisionId} does not decompress to that revision's bytes`,
    { revision_id: revisionId },
    cause === undefined ? undefined : { cause },
  );
}
