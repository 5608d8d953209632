/**
 * The packed postings lists of the BM25F policies (docs/ranking.md §8): for every term of the
 * published generation, one row of `postings` holding its document frequency and a packed list of
 * `(serving rowid, tf name, tf keywords, tf description, tf body)` in rowid order. Pure encoding
 * here; the writes live in publish.ts and postings-store.ts.
 */

/** One per-field count per document field (name, keywords, description, body). */
export type FieldCounts = [number, number, number, number];

/** Longest part of a body that is indexed, in characters after the frontmatter (docs/ranking.md §8). */
export const BODY_INDEX_CHARS = 8_192;

/** One posting: a serving rowid and the term's frequency in each document field. */
export interface Posting {
  readonly rowid: number;
  readonly tf: FieldCounts;
}

/** Packs postings (sorted by rowid) as varints: rowid delta, then the four frequencies. */
export function encodePostings(list: readonly Posting[]): Buffer {
  // Five varints per posting, each at most 5 bytes for the 32-bit values stored here.
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

  /** Appends `rowid` with its four field frequencies to the list of `term`. */
  add(term: string, rowid: number, tf: FieldCounts): void {
    let l = this.lists.get(term);
    if (!l) this.lists.set(term, (l = { bytes: new Uint8Array(16), at: 0, prev: 0, df: 0 }));
    if (rowid <= l.prev && l.df > 0) throw new RangeError(`postings of ${term} out of rowid order`);
    // Five varints of at most 5 bytes each.
    if (l.at + 25 > l.bytes.length) {
      const grown = new Uint8Array(Math.max(l.bytes.length * 2, l.at + 25));
      grown.set(l.bytes.subarray(0, l.at));
      l.bytes = grown;
    }
    l.at = putVarint(l.bytes, l.at, rowid - l.prev);
    l.at = putVarint(l.bytes, l.at, tf[0]);
    l.at = putVarint(l.bytes, l.at, tf[1]);
    l.at = putVarint(l.bytes, l.at, tf[2]);
    l.at = putVarint(l.bytes, l.at, tf[3]);
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
