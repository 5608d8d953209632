/**
 * Bounded Levenshtein distance (pure). Gives up as soon as the distance must exceed `k`, so the
 * cost is O(k · min(|a|, |b|)) instead of O(|a| · |b|): the fuzzy matcher calls it thousands of
 * times per query.
 */

/**
 * Levenshtein distance between `a` and `b` (insert, delete, substitute; UTF-16 code units), or
 * `k + 1` when it is greater than `k`. `k` must be a non-negative integer.
 */
export function boundedEditDistance(a: string, b: string, k: number): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (m - n > k) return k + 1;
  if (n === 0) return m <= k ? m : k + 1;
  const over = k + 1;
  // One row of the DP table, restricted to the diagonal band |i - j| <= k.
  let prev = new Array<number>(m + 1);
  let cur = new Array<number>(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= k ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur[lo - 1] = lo - 1 === 0 ? (i <= k ? i : over) : over;
    let rowMin = cur[lo - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (j <= i - 1 + k ? prev[j]! : over) + 1;
      const ins = cur[j - 1]! + 1;
      let v = sub < del ? sub : del;
      if (ins < v) v = ins;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = over;
    if (rowMin > k) return over;
    [prev, cur] = [cur, prev];
  }
  const d = prev[m]!;
  return d > k ? over : d;
}
