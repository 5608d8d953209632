/**
 * Storage of the BM25F index (docs/ranking.md §8): applying a publish's changes to `postings`,
 * and `serving_docs`, the per-row field lengths and states of the published generation packed in
 * one blob with the generation's document count and per-field length sums. Writes happen only
 * inside the publish transaction (publish.ts).
 */
import { insertRows, runIn, selectIn } from '../store/batch.js';
import type { Db } from '../db.js';
import { decodePostings, encodePostings, type PackedPostings, type Posting } from './postings.js';
import { storedJson, storedWords } from '../store/stored.js';

/** Numbers stored per serving row in `serving_docs`. */
export const DOC_STRIDE = 6;

/** Offset of a row's state code, and of its number of distinct name terms, within its DOC_STRIDE numbers. */
export const DOC_STATE = 4;
export const DOC_NAME_TERMS = 5;

/** States of serving rows as stored in `serving_docs` (index = code). */
export const STATE_CODES = ['active', 'deprecated', 'archived'] as const;

/** Per-row statistics of the published generation, as a search reads them. */
export interface ServingDocs {
  /** Rows in the generation (every state). */
  readonly docs: number;
  /**
   * Sum of each document field's length over the rows (name, keywords, description, body), then
   * the sum of the boundary field's lengths.
   */
  readonly sums: readonly [number, number, number, number, number];
  /**
   * DOC_STRIDE numbers per rowid: the four field lengths, the state code and the number of distinct
   * name terms; rowids past the end are absent.
   */
  readonly data: Uint32Array;
}

/** Most bytes of postings lists sent in one multi-row upsert (they can be large for common terms). */
const PUT_BYTES = 4 * 1024 * 1024;

/**
 * Applies removed rowids and added postings, term by term; terms left with no posting are deleted.
 * The stored lists of the terms touched are read, and the new ones written, many terms per
 * statement (batch.ts). On an empty index (a first publish, a rebuild) the added lists are written
 * as they were packed.
 */
export function applyPostings(
  db: Db,
  removed: ReadonlyMap<string, readonly number[]>,
  added: PackedPostings,
): void {
  // In key order: `postings` is a WITHOUT ROWID table keyed by term, and rows written in key order
  // append to its B-tree instead of splitting pages all over it.
  const terms = [...new Set([...removed.keys(), ...added.terms()])].sort(compareTerms);
  // A first publish (or a rebuild) starts from an empty index: no term has postings to merge with.
  const empty = db.prepare(`SELECT 1 FROM postings LIMIT 1`).get() === undefined;
  const old = new Map<string, Buffer>();
  if (!empty) {
    for (const r of selectIn(db, `SELECT term, data FROM postings WHERE term IN (%s)`, terms) as {
      term: string;
      data: Buffer;
    }[])
      old.set(r.term, r.data);
  }
  const drops: string[] = [];
  let puts: { term: string; df: number; data: Buffer }[] = [];
  let bytes = 0;
  const flush = (): void => {
    insertRows(
      db,
      'postings',
      ['term', 'df', 'data'],
      puts,
      `ON CONFLICT (term) DO UPDATE SET df = excluded.df, data = excluded.data`,
    );
    puts = [];
    bytes = 0;
  };
  for (const term of terms) {
    const put = empty ? added.get(term) : merged(old.get(term), removed.get(term), added.get(term));
    if (!put || put.df === 0) {
      if (!empty) drops.push(term);
      continue;
    }
    puts.push({ term, ...put });
    bytes += put.data.byteLength;
    if (bytes >= PUT_BYTES) flush();
  }
  flush();
  runIn(db, `DELETE FROM postings WHERE term IN (%s)`, drops);
}

// Code-unit order, a stand-in for SQLite's BINARY collation (UTF-8 byte order; they differ only
// past U+E000, where order matters only for locality here).
function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// A stored list less the rows removed, plus the packed rows added, in rowid order.
function merged(
  stored: Buffer | undefined,
  removed: readonly number[] | undefined,
  added: { data: Buffer } | undefined,
): { df: number; data: Buffer } {
  let list: Posting[] = stored ? decodePostings(stored) : [];
  if (removed && removed.length > 0) {
    const gone = new Set(removed);
    list = list.filter((p) => !gone.has(p.rowid));
  }
  if (added) {
    list = list.concat(decodePostings(added.data));
    list.sort((a, b) => a.rowid - b.rowid);
  }
  return { df: list.length, data: encodePostings(list) };
}

/** Rewrites `serving_docs` from the serving rows. */
export function writeServingDocs(db: Db): void {
  const rows = db
    .prepare(
      `SELECT rowid, state, len_n, len_k, len_d, len_b, len_x, name_terms FROM serving ORDER BY rowid`,
    )
    .all() as {
    rowid: number;
    state: string;
    len_n: number;
    len_k: number;
    len_d: number;
    len_b: number;
    len_x: number;
    name_terms: number;
  }[];
  const max = rows.length > 0 ? rows[rows.length - 1]!.rowid : 0;
  const data = new Uint32Array((max + 1) * DOC_STRIDE);
  const sums: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const r of rows) {
    const o = r.rowid * DOC_STRIDE;
    data[o] = r.len_n;
    data[o + 1] = r.len_k;
    data[o + 2] = r.len_d;
    data[o + 3] = r.len_b;
    data[o + DOC_STATE] = Math.max(0, STATE_CODES.indexOf(r.state as (typeof STATE_CODES)[number]));
    data[o + DOC_NAME_TERMS] = r.name_terms;
    sums[0] += r.len_n;
    sums[1] += r.len_k;
    sums[2] += r.len_d;
    sums[3] += r.len_b;
    sums[4] += r.len_x;
  }
  db.prepare(
    `INSERT INTO serving_docs (id, docs, sums, data) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET docs = excluded.docs, sums = excluded.sums, data = excluded.data`,
  ).run(
    rows.length,
    JSON.stringify(sums),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  );
}

/** Decodes the stored `serving_docs` row (an empty generation when there is none). */
export function decodeServingDocs(
  row: { docs: number; sums: string; data: Buffer } | undefined,
): ServingDocs {
  if (!row) return { docs: 0, sums: [0, 0, 0, 0, 0], data: new Uint32Array(0) };
  // Four sums before policy bm25f.v4's boundary field (migration 4).
  const s = storedJson<number[]>(row.sums, 'serving_docs.sums');
  return {
    docs: row.docs,
    sums: [s[0] ?? 0, s[1] ?? 0, s[2] ?? 0, s[3] ?? 0, s[4] ?? 0],
    data: storedWords(row.data, 'serving_docs.data'),
  };
}
