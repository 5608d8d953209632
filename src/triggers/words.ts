/**
 * The query words that carried a candidate (pure): read from the candidate's score explanation,
 * whatever the policy. BM25F (v3) explains per term the points it gave; the lexical policies (v1,
 * v2) give per field the exact tokens matched and the field's points; fuzzy matches name the query
 * token they stood for. Never reads a policy's internals beyond the explanation it returned.
 */

interface TermLike {
  readonly token?: unknown;
  readonly points?: unknown;
}
interface TierLike {
  readonly matched?: unknown;
  readonly points?: unknown;
}

/** The query words that gave `explanation` its points, most first (ties by the word). */
export function carryingWords(explanation: unknown): string[] {
  if (explanation === null || typeof explanation !== 'object') return [];
  const e = explanation as Record<string, unknown>;
  const points = new Map<string, number>();
  const add = (word: unknown, p: number): void => {
    if (typeof word !== 'string' || !(p > 0)) return;
    points.set(word, (points.get(word) ?? 0) + p);
  };
  // BM25F: per term, the points it gave.
  if (Array.isArray(e['terms']))
    for (const t of e['terms'] as TermLike[])
      add(t.token, typeof t.points === 'number' ? t.points : 0);
  // v1 / v2: per field, the tokens matched and the field's points (shared equally).
  const exact = e['exact'];
  if (exact !== null && typeof exact === 'object')
    for (const tier of ['keywords', 'name', 'description'] as const) {
      const t = (exact as Record<string, TierLike>)[tier];
      if (!t || !Array.isArray(t.matched) || typeof t.points !== 'number') continue;
      for (const w of t.matched) add(w, t.points / t.matched.length);
    }
  // Fuzzy matches: the query token a near term stood for (a small share: they weigh least).
  const fuzzy = e['fuzzy'];
  if (fuzzy !== null && typeof fuzzy === 'object') {
    const matches = (fuzzy as { matches?: unknown }).matches;
    if (Array.isArray(matches))
      for (const m of matches as { query_token?: unknown }[]) add(m.query_token, 1e-3);
  }
  return [...points.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([w]) => w);
}
