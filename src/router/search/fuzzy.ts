/**
 * Fuzzy term expansion over the published vocabulary (docs/ranking.md §1): the
 * vocabulary is copied out of the catalog once per generation and indexed by character bigrams; a
 * query token's candidates are the terms sharing enough bigrams to be within its allowed edit
 * distance (the q-gram lemma, so no true match is missed), then verified by bounded edit distance.
 */
import { boundedEditDistance } from '../../text/index.js';
import { allowedDistance } from './policies/shared.js';

/** Terms within the allowed distance of one query token (the token itself excluded). */
export type Expansion = ReadonlyMap<string, number>;

/** A bigram index over a vocabulary. */
export class FuzzyIndex {
  private readonly terms: string[];
  private readonly postings = new Map<string, number[]>();
  private readonly byLength = new Map<number, number[]>();

  constructor(terms: Iterable<string>) {
    this.terms = [...terms].sort();
    this.terms.forEach((t, i) => {
      for (const g of new Set(bigrams(t))) {
        const list = this.postings.get(g);
        if (list) list.push(i);
        else this.postings.set(g, [i]);
      }
      const bl = this.byLength.get(t.length);
      if (bl) bl.push(i);
      else this.byLength.set(t.length, [i]);
    });
  }

  /** Number of terms indexed. */
  get size(): number {
    return this.terms.length;
  }

  /** Every vocabulary term within the allowed distance of `token` (1 ≤ distance ≤ allowed). */
  expand(token: string): Expansion {
    const out = new Map<string, number>();
    const d = allowedDistance(token.length);
    if (d === 0) return out;
    const grams = bigrams(token);
    const distinct = new Set(grams);
    // q-gram lemma for q = 2, counted on distinct bigrams: repeated bigrams lower the bound.
    const threshold = token.length - 1 - 2 * d - (grams.length - distinct.size);
    const candidates: number[] = [];
    if (threshold <= 0) {
      for (let len = token.length - d; len <= token.length + d; len++)
        candidates.push(...(this.byLength.get(len) ?? []));
    } else {
      const counts = new Map<number, number>();
      for (const g of distinct)
        for (const i of this.postings.get(g) ?? []) counts.set(i, (counts.get(i) ?? 0) + 1);
      for (const [i, c] of counts) if (c >= threshold) candidates.push(i);
    }
    for (const i of candidates) {
      const term = this.terms[i]!;
      if (term === token || Math.abs(term.length - token.length) > d) continue;
      const dist = boundedEditDistance(token, term, d);
      if (dist <= d) out.set(term, dist);
    }
    return out;
  }
}

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
  return out;
}
