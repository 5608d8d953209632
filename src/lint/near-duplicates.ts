/**
 * Near-duplicate descriptions (pure): every pair of word sets whose Jaccard similarity is at or above
 * a threshold, found without comparing all pairs. Prefix filtering (the AllPairs algorithm of
 * Bayardo, Ma and Srikant, 2007): with each set's words ordered rarest first, two sets with
 * Jaccard ≥ t must share a word among the first |s| − ⌈t·|s|⌉ + 1 of each, so only sets meeting
 * in an inverted index of those prefixes are compared. The result equals the brute-force pairs
 * (a property test holds the two equal).
 */

/** A pair of set indexes (i < j) and their Jaccard similarity. */
export interface SimilarPair {
  readonly i: number;
  readonly j: number;
  readonly jaccard: number;
}

/** Jaccard similarity of two sets of words. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Pairs of `sets` with Jaccard ≥ `threshold` (0 < threshold ≤ 1), ordered by i then j. Sets smaller
 * than `minSize` are left out.
 */
export function similarPairs(
  sets: readonly (readonly string[])[],
  threshold: number,
  minSize = 1,
): SimilarPair[] {
  if (!(threshold > 0 && threshold <= 1))
    throw new RangeError(`threshold must be in (0, 1], got ${threshold}`);
  const df = new Map<string, number>();
  for (const s of sets) for (const w of new Set(s)) df.set(w, (df.get(w) ?? 0) + 1);
  const byRarity = (a: string, b: string): number =>
    df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const ordered = sets.map((s) => [...new Set(s)].sort(byRarity));
  const asSets = ordered.map((s) => new Set(s));
  const index = new Map<string, number[]>();
  const pairs: SimilarPair[] = [];
  for (let j = 0; j < ordered.length; j++) {
    const words = ordered[j]!;
    if (words.length < minSize) continue;
    // The prefix length is a bound on words, so a float just below an integer must not shorten it.
    const prefix = words.length - Math.ceil(threshold * words.length - 1e-9) + 1;
    const seen = new Set<number>();
    for (let k = 0; k < prefix; k++) {
      const w = words[k]!;
      for (const i of index.get(w) ?? []) {
        if (seen.has(i)) continue;
        seen.add(i);
        const a = asSets[i]!;
        const b = asSets[j]!;
        // Size filter: Jaccard ≤ min/max of the sizes.
        if (Math.min(a.size, b.size) < threshold * Math.max(a.size, b.size) - 1e-9) continue;
        const sim = jaccard(a, b);
        if (sim >= threshold - 1e-9)
          pairs.push({ i: Math.min(i, j), j: Math.max(i, j), jaccard: sim });
      }
      let list = index.get(w);
      if (!list) index.set(w, (list = []));
      list.push(j);
    }
  }
  return pairs.sort((p, q) => p.i - q.i || p.j - q.j);
}
