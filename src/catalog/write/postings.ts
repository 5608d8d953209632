/**
 * The packed postings lists of the BM25F policies (docs/ranking.md §8): for every term of the
 * published generation, one row of `postings` holding its document frequency and a packed list of
 * `(serving rowid, tf name, tf keywords, tf description, tf body)` in rowid order. Pure encoding
 * here; the writes live in publish.ts and postings-store.ts.
 *
 * Two forms are read (issue 33, "integer-packed postings"):
 *
 * - **compact** (written since issue 33): a 0 byte, then per posting the rowid delta as a varint and
 *   one code byte. A code below PACKED_CODES holds the four counts when name ≤ 1, keywords ≤ 2,
 *   description ≤ 3 and body ≤ 7 (`body | description << 3 | (keywords + 3 × name) << 5`: 98 % of
 *   the postings of a generated 10,000-skill library); ESCAPE is followed by the four counts as
 *   varints. About 2.3 bytes a posting instead of 5.3.
 * - **varint** (before): per posting five varints, the rowid delta and the four counts. Its first
 *   byte is never 0 (the first delta is a rowid, and rowids start at 1), which tells the forms apart.
 */
import { SkilldexError } from '../../errors.js';

/** One per-field count per document field (name, keywords, description, body). */
export type FieldCounts = [number, number, number, number];

/** Longest part of a body that is indexed, in characters after the frontmatter (docs/ranking.md §8). */
export const BODY_INDEX_CHARS = 8_192;

/** One posting: a serving rowid and the term's frequency in each document field. */
export interface Posting {
  readonly rowid: number;
  readonly tf: FieldCounts;
}

/** First byte of a compact postings blob (a varint blob never starts with it). */
const COMPACT = 0;
/** Code bytes below this hold the four counts themselves. */
const PACKED_CODES = 192;
/** Code byte followed by the four counts as varints. */
const ESCAPE = 0xff;
/** Most bytes one posting takes in the compact form: a 5-byte delta, the code, four 5-byte counts. */
const MAX_POSTING_BYTES = 26;

// The code byte of four counts (ESCAPE when one is past what a code holds).
function codeOf(n: number, k: number, d: number, b: number): number {
  return n <= 1 && k <= 2 && d <= 3 && b <= 7 ? b | (d << 3) | ((k + 3 * n) << 5) : ESCAPE;
}

// Writes one posting in the compact form at `at`; returns the offset after it.
function putPosting(
  out: Uint8Array,
  at: number,
  delta: number,
  tf: Readonly<FieldCounts> | readonly number[],
): number {
  at = putVarint(out, at, delta);
  const code = codeOf(tf[0], tf[1], tf[2], tf[3]);
  out[at++] = code;
  if (code === ESCAPE) {
    at = putVarint(out, at, tf[0]);
    at = putVarint(out, at, tf[1]);
    at = putVarint(out, at, tf[2]);
    at = putVarint(out, at, tf[3]);
  }
  return at;
}

/** Packs postings (sorted by rowid) in the compact form (module comment). */
export function encodePostings(list: readonly Posting[]): Buffer {
  const out = Buffer.allocUnsafe(1 + list.length * MAX_POSTING_BYTES);
  out[0] = COMPACT;
  let at = 1;
  let prev = 0;
  for (const p of list) {
    at = putPosting(out, at, p.rowid - prev, p.tf);
    prev = p.rowid;
  }
  return Buffer.from(out.subarray(0, at));
}

/** Packs postings (sorted by rowid) in the varint form catalogs wrote before issue 33 (tests build old catalogs with it). */
export function encodePostingsVarint(list: readonly Posting[]): Buffer {
  const out = Buffer.allocUnsafe(list.length * 25);
  let at = 0;
  let prev = 0;
  for (const p of list) {
    at = putVarint(out, at, p.rowid - prev);
    prev = p.rowid;
    at = putVarint(out, at, p.tf[0]);
    at = putVarint(out, at, p.tf[1]);
    at = putVarint(out, at, p.tf[2]);
    at = putVarint(out, at, p.tf[3]);
  }
  return Buffer.from(out.subarray(0, at));
}

/**
 * Decodes a postings blob, calling `fn(rowid, tfName, tfKeywords, tfDescription, tfBody)` for each
 * posting in rowid order (no allocation per posting: this is the search's inner loop).
 */
export function forEachPosting(
  data: Uint8Array,
  fn: (rowid: number, n: number, k: number, d: number, b: number) => void,
): void {
  let i = 0;
  let rowid = 0;
  const len = data.length;
  const next = (): number => {
    let x = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = data[i++]!;
      x += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return x;
  };
  if (len > 0 && data[0] === COMPACT) {
    i = 1;
    while (i < len) {
      rowid += next();
      const code = data[i++]!;
      if (code < PACKED_CODES) {
        const nk = code >> 5;
        const n = nk >= 3 ? 1 : 0;
        fn(rowid, n, nk - 3 * n, (code >> 3) & 3, code & 7);
      } else if (code === ESCAPE) {
        const n = next();
        const k = next();
        const d = next();
        const b = next();
        fn(rowid, n, k, d, b);
      } else {
        throw new SkilldexError(
          'CATALOG_CORRUPT',
          `the catalog's postings hold a list skilldex did not write (code ${code} at byte ${i - 1})`,
          { column: 'postings.data' },
        );
      }
    }
    return;
  }
  while (i < len) {
    rowid += next();
    const n = next();
    const k = next();
    const d = next();
    const b = next();
    fn(rowid, n, k, d, b);
  }
}

/** Decodes a postings blob into an array. */
export function decodePostings(data: Uint8Array): Posting[] {
  const out: Posting[] = [];
  forEachPosting(data, (rowid, n, k, d, b) => out.push({ rowid, tf: [n, k, d, b] }));
  return out;
}

/** One term's postings being packed: the bytes so far, the last rowid and the count. */
interface PackingList {
  bytes: Uint8Array;
  at: number;
  prev: number;
  df: number;
}

/**
 * Postings lists packed as they are collected, in the format of `encodePostings`, so that a publish
 * of many rows allocates no object per posting (1.5 million of them at 10,000 generated skills).
 * Each term's rowids must be added in increasing order (a publish numbers new rows upwards).
 */
export class PackedPostings {
  private readonly lists = new Map<string, PackingList>();

  /**
   * Appends `rowid` with its four field frequencies (`tf[0]` to `tf[3]`; a v4 document's counts,
   * whose fifth is the boundary field's, are passed as they are) to the list of `term`.
   */
  add(term: string, rowid: number, tf: Readonly<FieldCounts> | readonly number[]): void {
    let l = this.lists.get(term);
    // A new list starts with the compact form's marker byte (zero-filled already).
    if (!l) this.lists.set(term, (l = { bytes: new Uint8Array(32), at: 1, prev: 0, df: 0 }));
    if (rowid <= l.prev && l.df > 0) throw new RangeError(`postings of ${term} out of rowid order`);
    if (l.at + MAX_POSTING_BYTES > l.bytes.length) {
      const grown = new Uint8Array(Math.max(l.bytes.length * 2, l.at + MAX_POSTING_BYTES));
      grown.set(l.bytes.subarray(0, l.at));
      l.bytes = grown;
    }
    l.at = putPosting(l.bytes, l.at, rowid - l.prev, tf);
    l.prev = rowid;
    l.df++;
  }

  /** The terms with postings, in the order first added. */
  terms(): IterableIterator<string> {
    return this.lists.keys();
  }

  /** The packed list of `term` and its length, or undefined when none was added. */
  get(term: string): { df: number; data: Buffer } | undefined {
    const l = this.lists.get(term);
    if (!l) return undefined;
    return { df: l.df, data: Buffer.from(l.bytes.buffer, l.bytes.byteOffset, l.at) };
  }
}

// Writes `x` (0 to 2^32 - 1) as a varint at `at`; returns the offset after it.
function putVarint(out: Uint8Array, at: number, x: number): number {
  while (x > 0x7f) {
    out[at++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  out[at++] = x;
  return at;
}
