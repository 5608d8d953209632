/**
 * The inverted index of policy bm25f.v3 (docs/ranking.md §8): for every term of the published
 * generation, one row of `postings` holding its document frequency and a packed list of
 * `(serving rowid, tf name, tf keywords, tf description, tf body)` in rowid order, plus the
 * per-document forward data (`serving.fwd`: each term's per-field frequencies; `serving.lens`:
 * each field's length in terms) the explanation and the brute-force scorer read. Everything is
 * computed once at publish time; a search never tokenises a document. Pure encoding here; the
 * writes live in publish.ts.
 */
import { analyzeTerms } from '../../text/index.js';
import { bodyCountsOfTerms, decodeForwardHeadV4 } from './body-counts.js';

/** The document fields of v3, in the order of every per-field array. */
export const DOC_FIELDS = ['name', 'keywords', 'description', 'body'] as const;
/** One per-field count per document field, in DOC_FIELDS order. */
export type FieldCounts = [number, number, number, number];

/** Longest part of a body that is indexed, in characters after the frontmatter (docs/ranking.md §8). */
export const BODY_INDEX_CHARS = 8_192;

/** A document's terms: per-field frequency of each term, and each field's length in terms. */
export interface DocumentTerms {
  readonly terms: ReadonlyMap<string, FieldCounts>;
  readonly lens: FieldCounts;
}

/** The body terms stored on a revision at ingest: term → frequency, and the body's length in terms. */
export interface BodyTerms {
  readonly tf: Readonly<Record<string, number>>;
  readonly len: number;
}

/** Analyses the first BODY_INDEX_CHARS characters of a body into its stored body terms. */
export function bodyTermsOf(body: string): BodyTerms {
  const terms = analyzeTerms(body.slice(0, BODY_INDEX_CHARS));
  const tf: Record<string, number> = {};
  for (const t of terms) tf[t] = (tf[t] ?? 0) + 1;
  // Keys in first-seen order: deterministic for the same text, and no sort to pay at index time.
  return { tf, len: terms.length };
}

/** The terms of one document from its fields and its stored body terms. */
export function documentTerms(s: {
  name: string;
  keywords: readonly string[];
  tags: readonly string[];
  description: string;
  when_to_use?: string | null;
  body: BodyTerms;
}): DocumentTerms {
  const terms = new Map<string, FieldCounts>();
  const lens: FieldCounts = [0, 0, 0, 0];
  const add = (field: 0 | 1 | 2, list: readonly string[]): void => {
    lens[field] = list.length;
    for (const t of list) {
      let c = terms.get(t);
      if (!c) terms.set(t, (c = [0, 0, 0, 0]));
      c[field]++;
    }
  };
  add(0, analyzeTerms(s.name));
  add(1, analyzeTerms([...s.keywords, ...s.tags].join(' , ')));
  add(2, analyzeTerms(s.description + (s.when_to_use ? '\n' + s.when_to_use : '')));
  lens[3] = s.body.len;
  for (const [t, n] of Object.entries(s.body.tf)) {
    let c = terms.get(t);
    if (!c) terms.set(t, (c = [0, 0, 0, 0]));
    c[3] += n;
  }
  return { terms, lens };
}

/**
 * The stored form of a document's forward terms (`serving.fwd`): JSON `{ term: [n, k, d] }` for the
 * terms of its name, keywords and description, keys in first-seen order. Body frequencies are not
 * repeated here: they stay in the revision's `body_terms`, and `decodeForward` joins the two.
 */
export function encodeForward(terms: ReadonlyMap<string, FieldCounts>): string {
  let out = '{';
  for (const [t, c] of terms) {
    if (c[0] === 0 && c[1] === 0 && c[2] === 0) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(t)}:[${c[0]},${c[1]},${c[2]}]`;
  }
  return out + '}';
}

/** A document's forward terms with all four fields, from `serving.fwd` and the revision's `body_terms`. */
export function decodeForward(
  fwd: string,
  bodyTerms: string | null,
): Readonly<Record<string, FieldCounts>> {
  const out: Record<string, FieldCounts> = {};
  for (const [t, c] of Object.entries(decodeForwardHeadV4(fwd))) out[t] = [c[0]!, c[1]!, c[2]!, 0];
  if (bodyTerms !== null) {
    for (const [t, n] of Object.entries((JSON.parse(bodyTerms) as BodyTerms).tf)) {
      const c = out[t];
      if (c) c[3] = n;
      else out[t] = [0, 0, 0, n];
    }
  }
  return out;
}

/** What a search needs of one document's forward terms: the query terms' counts and the name's terms. */
export interface ForwardOfTerms {
  /** Per query term (in the order given): its frequency in name, keywords, description, body. */
  readonly tf: readonly FieldCounts[];
  /** The terms of the name field. */
  readonly nameTerms: ReadonlySet<string>;
}

/**
 * `decodeForward` narrowed to `terms`: the same counts for those terms, and the name's terms,
 * without parsing the stored body terms. A search explains many rows, and parsing each body's
 * JSON whole (up to a few thousand terms) was most of its time; a body's count of one term is
 * found by its key instead. Exact because terms (stems of letter and digit runs) hold no quote or
 * backslash, so a key `"t":` can only start at the object's `{` or after a `,`, and the body's
 * `"len"` key lies after the `tf` object, where no lookup goes. Equal to decodeForward (tested).
 */
export function forwardOfTerms(
  fwd: string,
  bodyTerms: string | null,
  terms: readonly string[],
): ForwardOfTerms {
  const head = decodeForwardHeadV4(fwd);
  const nameTerms = new Set<string>();
  for (const t in head) if (head[t]![0]! > 0) nameTerms.add(t);
  const body = bodyCountsOfTerms(bodyTerms, terms);
  const tf = terms.map((t, i): FieldCounts => {
    const c = Object.hasOwn(head, t) ? head[t]! : undefined;
    return [c?.[0] ?? 0, c?.[1] ?? 0, c?.[2] ?? 0, body[i]!];
  });
  return { tf, nameTerms };
}

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
