/**
 * The named, typed catalog reads of the BM25F policies (the router never writes SQL over catalog
 * tables): the postings of a query's terms, the published generation's row statistics, serving
 * rows by rowid, every serving row (for the brute-force scorer), rowids of skills, and the term
 * vocabulary for fuzzy expansion. The search path reads many keys in one statement (an `IN` list,
 * batch.ts), since on PostgreSQL every statement is a round trip, and through
 * `CatalogReader.checkedAll`, so each runs inside the caller's `read` or `readChecked` snapshot.
 */
import { inChunks, placeholders } from '../store/batch.js';
import type { CatalogReader, FirstRead } from './reader.js';
import { decodeServingDocs, type ServingDocs } from '../write/postings-store.js';
import { forEachPosting } from '../write/postings.js';
import { requireLayout } from './queries.js';

/** A serving row as the BM25F scorer reads it. */
export interface Bm25fRow {
  readonly rowid: number;
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly state: 'active' | 'deprecated' | 'archived';
  readonly name: string;
  readonly description: string;
  /**
   * Compact text or, for rows published before issue #26's second pass, JSON
   * `{ term: [n, k, d, x] }` (documents-v4.ts encodeForwardV4; read either with decodeForwardHeadV4).
   */
  readonly fwd: string;
  // No body counts: a search reads them from the postings of its terms (issue 33; serving.body_tf,
  // written by publishes before, and revisions.body_v4 are no longer read).
  readonly len_n: number;
  readonly len_k: number;
  readonly len_d: number;
  readonly len_b: number;
  /** Length of the row's boundary field. */
  readonly len_x: number;
}

/** The schema version whose rows carry policy bm25f.v4's columns (migrations.ts, migration 4). */
export const V4_SCHEMA_VERSION = 4;

// The row read; a catalog older than migration 4, served read-only as it is, has no v4 columns.
function rowSelect(reader: CatalogReader): string {
  const v4 = reader.schemaVersion() >= V4_SCHEMA_VERSION ? 's.len_x' : '0 AS len_x';
  return `SELECT s.rowid AS rowid, s.skill_id, s.skill_version, s.revision_id, s.state, s.name, r.description, s.fwd,
  ${v4}, s.len_n, s.len_k, s.len_d, s.len_b FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id`;
}

/** A term's document frequency and packed postings list (postings.ts). */
export interface TermPostings {
  readonly df: number;
  readonly data: Buffer;
}

// Every row of `sql` (its IN list written `IN (%s)`) for `keys`, one checked statement per chunk.
function checkedIn<K>(
  reader: CatalogReader,
  sql: string,
  keys: readonly K[],
  marker: string,
): unknown[] {
  const out: unknown[] = [];
  for (const chunk of inChunks(keys)) {
    for (const r of reader.checkedAll(sql.replace('%s', placeholders(chunk.length)), chunk, marker))
      out.push(r);
  }
  return out;
}

/** The postings of each of `terms` that some document has (the others are absent), in one statement. */
export function postingsOfTerms(
  reader: CatalogReader,
  terms: readonly string[],
): Map<string, TermPostings> {
  return postingsFromRows(
    checkedIn(reader, `SELECT term, df, data FROM postings WHERE term IN (%s)`, terms, 'term'),
  );
}

/**
 * The read of the postings of `terms` (at most MAX_IN_LIST) as a CatalogReader.readChecked first
 * read; `postingsFromRows` decodes its rows.
 */
export function postingsRead(terms: readonly string[]): FirstRead {
  const [chunk = []] = inChunks(terms);
  return {
    sql: `SELECT term, df, data FROM postings WHERE term IN (${placeholders(chunk.length)})`,
    params: chunk,
    marker: 'term',
  };
}

/** The postings in the rows of a `postingsRead`, by term. */
export function postingsFromRows(rows: readonly unknown[]): Map<string, TermPostings> {
  const out = new Map<string, TermPostings>();
  for (const r of rows as { term: string; df: number; data: Buffer }[])
    out.set(r.term, { df: r.df, data: r.data });
  return out;
}

/** The per-row lengths and states of the published generation. */
export function servingDocsOf(reader: CatalogReader): ServingDocs {
  requireLayout(reader, 'bm25f');
  return decodeServingDocs(
    reader.checkedAll(`SELECT docs, sums, data FROM serving_docs WHERE id = 1`, [], 'docs')[0] as
      { docs: number; sums: string; data: Buffer } | undefined,
  );
}

/** The serving rows of `rowids` that exist, by rowid, in one statement. */
export function bm25fRowsOf(
  reader: CatalogReader,
  rowids: readonly number[],
): Map<number, Bm25fRow> {
  const out = new Map<number, Bm25fRow>();
  for (const r of checkedIn(
    reader,
    `${rowSelect(reader)} WHERE s.rowid IN (%s)`,
    rowids,
    'rowid',
  ) as Bm25fRow[])
    out.set(r.rowid, r);
  return out;
}

/** Every serving row, in rowid order. */
export function allBm25fRows(reader: CatalogReader): IterableIterator<Bm25fRow> {
  return reader
    .prepare(`${rowSelect(reader)} ORDER BY s.rowid`)
    .iterate() as IterableIterator<Bm25fRow>;
}

/**
 * Every serving row's body counts (without template lines), by rowid and term, from every postings
 * list (for the brute-force scorer: the search reads only its terms' lists).
 */
export function bodyCountsOfRows(reader: CatalogReader): Map<number, Map<string, number>> {
  const out = new Map<number, Map<string, number>>();
  for (const r of reader.checkedAll(`SELECT term, data FROM postings`, [], 'term') as {
    term: string;
    data: Buffer;
  }[])
    forEachPosting(r.data, (rowid, _n, _k, _d, b) => {
      if (b === 0) return;
      let m = out.get(rowid);
      if (!m) out.set(rowid, (m = new Map()));
      m.set(r.term, b);
    });
  return out;
}

/** The rowid and state of a served skill, or undefined. */
export function servingRowidOf(
  reader: CatalogReader,
  skillId: string,
): { rowid: number; state: string } | undefined {
  return reader.prepare(`SELECT rowid, state FROM serving WHERE skill_id = ?`).get(skillId) as
    { rowid: number; state: string } | undefined;
}

/** The rowid and state of each of `skillIds` the generation serves (the others are absent). */
export function servingRowidsOf(
  reader: CatalogReader,
  skillIds: readonly string[],
): Map<string, { rowid: number; state: string }> {
  const out = new Map<string, { rowid: number; state: string }>();
  const rows = checkedIn(
    reader,
    `SELECT skill_id, rowid, state FROM serving WHERE skill_id IN (%s)`,
    skillIds,
    'skill_id',
  ) as { skill_id: string; rowid: number; state: string }[];
  for (const r of rows) out.set(r.skill_id, { rowid: r.rowid, state: r.state });
  return out;
}

/** Every term of the published generation's postings (the BM25F policies' fuzzy vocabulary), unordered. */
export function postingTerms(reader: CatalogReader): string[] {
  return reader.checkedColumn(`SELECT term FROM postings`, [], 'term') as string[];
}

/** The skill_id of each of `rowids` that exists, in one statement. */
export function servingSkillIdsOf(
  reader: CatalogReader,
  rowids: readonly number[],
): Map<number, string> {
  const out = new Map<number, string>();
  const rows = checkedIn(
    reader,
    `SELECT rowid, skill_id FROM serving WHERE rowid IN (%s)`,
    rowids,
    'rowid',
  ) as { rowid: number; skill_id: string }[];
  for (const r of rows) out.set(r.rowid, r.skill_id);
  return out;
}
