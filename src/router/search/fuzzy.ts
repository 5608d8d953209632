/**
 * Fuzzy term expansion over the published vocabulary (docs/ranking.md §1): the vocabulary is
 * copied out of the catalog once per generation; a query token's expansion is every term within
 * its allowed edit distance, verified by bounded edit distance.
 *
 * Two ways to find the candidates, with the same answer in the same order:
 * - a scan of the terms whose length is within the distance and whose character set differs from
 *   the token's by at most two per allowed edit (one edit changes at most two characters' presence);
 * - a bigram index: the terms sharing enough bigrams to be within the distance (the q-gram lemma,
 *   so no true match is missed).
 * The index costs ~20 ms to build over a 13,000-term vocabulary in a fresh process (bench:hook),
 * about three scans: a one-shot process (the prompt hook, a CLI search) expands a few tokens and
 * never builds it; a long-lived one (MCP, the explorer) builds it once it has scanned
 * SCANS_BEFORE_INDEX times.
 */
import { boundedEditDistance } from '../../text/index.js';
import { allowedDistance } from './policies/shared.js';

/** Terms within the allowed distance of one query token (the token itself excluded). */
export type Expansion = ReadonlyMap<string, number>;

/** Expansions answered by scanning before the bigram index is built. */
export const SCANS_BEFORE_INDEX = 8;

/** A fuzzy index over a vocabulary. */
export class FuzzyIndex {
  private readonly terms: string[];
  private scans = 0;
  // For the scan: each term's length (capped at 255) and character-set mask.
  private lengths: Uint8Array | undefined;
  private masks: Int32Array | undefined;
  // The bigram index, built after SCANS_BEFORE_INDEX scans.
  private postings: Map<string, number[]> | undefined;
  private byLength: Map<number, number[]> | undefined;

  constructor(terms: Iterable<string>) {
    this.terms = [...terms].sort();
  }

  /** Whether the bigram index has been built (tests and benchmarks). */
  get indexed(): boolean {
    return this.postings !== undefined;
  }

  /** Every vocabulary term within the allowed distance of `token` (1 ≤ distance ≤ allowed). */
  expand(token: string): Expansion {
    const d = allowedDistance(token.length);
    if (d === 0) return new Map<string, number>();
    if (this.postings === undefined && this.scans < SCANS_BEFORE_INDEX) {
      this.scans += 1;
      return this.scan(token, d);
    }
    return this.lookUp(token, d);
  }

  // The bigram index's candidates, verified. Their order: with a positive q-gram threshold, by the
  // first of the token's distinct bigrams (in token order) a term holds, then by term; otherwise by
  // length, then by term. `scan` puts its matches in the same order.
  private lookUp(token: string, d: number): Expansion {
    const { postings, byLength } = this.index();
    const grams = bigrams(token);
    const distinct = new Set(grams);
    // q-gram lemma for q = 2, counted on distinct bigrams: repeated bigrams lower the bound.
    const threshold = token.length - 1 - 2 * d - (grams.length - distinct.size);
    const candidates: number[] = [];
    if (threshold <= 0) {
      for (let len = token.length - d; len <= token.length + d; len++)
        candidates.push(...(byLength.get(len) ?? []));
    } else {
      const counts = new Map<number, number>();
      for (const g of distinct)
        for (const i of postings.get(g) ?? []) counts.set(i, (counts.get(i) ?? 0) + 1);
      for (const [i, c] of counts) if (c >= threshold) candidates.push(i);
    }
    const out = new Map<string, number>();
    for (const i of candidates) {
      const term = this.terms[i]!;
      if (term === token || Math.abs(term.length - token.length) > d) continue;
      const dist = boundedEditDistance(token, term, d);
      if (dist <= d) out.set(term, dist);
    }
    return out;
  }

  private scan(token: string, d: number): Expansion {
    const { lengths, masks } = this.scanData();
    const mask = charMask(token);
    const len = Math.min(token.length, 255);
    const found: { i: number; dist: number }[] = [];
    for (let i = 0; i < this.terms.length; i++) {
      const dl = lengths[i]! - len;
      if (dl > d || dl < -d || popcount(masks[i]! ^ mask) > 2 * d) continue;
      const term = this.terms[i]!;
      if (term === token || Math.abs(term.length - token.length) > d) continue;
      const dist = boundedEditDistance(token, term, d);
      if (dist <= d) found.push({ i, dist });
    }
    // The index's order (lookUp): the scan found them by term.
    const grams = bigrams(token);
    const distinct = [...new Set(grams)];
    const threshold = token.length - 1 - 2 * d - (grams.length - distinct.length);
    const key =
      threshold <= 0
        ? (i: number): number => this.terms[i]!.length
        : (i: number): number => {
            const held = new Set(bigrams(this.terms[i]!));
            return distinct.findIndex((g) => held.has(g));
          };
    const keyed = found.map((f) => ({ ...f, k: key(f.i) }));
    keyed.sort((a, b) => a.k - b.k || a.i - b.i);
    return new Map(keyed.map((f) => [this.terms[f.i]!, f.dist]));
  }

  private scanData(): { lengths: Uint8Array; masks: Int32Array } {
    if (this.lengths === undefined || this.masks === undefined) {
      const n = this.terms.length;
      this.lengths = new Uint8Array(n);
      this.masks = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const t = this.terms[i]!;
        this.lengths[i] = Math.min(t.length, 255);
        this.masks[i] = charMask(t);
      }
    }
    return { lengths: this.lengths, masks: this.masks };
  }

  private index(): { postings: Map<string, number[]>; byLength: Map<number, number[]> } {
    if (this.postings === undefined || this.byLength === undefined) {
      const postings = new Map<string, number[]>();
      const byLength = new Map<number, number[]>();
      this.terms.forEach((t, i) => {
        for (const g of new Set(bigrams(t))) {
          const list = postings.get(g);
          if (list) list.push(i);
          else postings.set(g, [i]);
        }
        const bl = byLength.get(t.length);
        if (bl) bl.push(i);
        else byLength.set(t.length, [i]);
      });
      this.postings = postings;
      this.byLength = byLength;
      this.lengths = undefined;
      this.masks = undefined;
    }
    return { postings: this.postings, byLength: this.byLength };
  }
}

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
  return out;
}

// The set of a string's UTF-16 code units, folded onto 32 bits (code unit mod 32). One edit adds or
// removes at most one unit of each string, so two strings within distance d differ in at most 2d
// bits; folding only merges bits, which never raises the difference.
function charMask(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m |= 1 << (s.charCodeAt(i) & 31);
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
