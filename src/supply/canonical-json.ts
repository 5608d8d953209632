/**
 * Canonical JSON (pure): object keys sorted by their UTF-16 code units at every depth, arrays in
 * their order, two-space indentation, a final line break. The same value always gives the same
 * bytes, whatever order its keys were built in — what a lock file committed to a repository needs
 * (a re-run that changes nothing changes no byte) and what comparing two parsed frontmatters needs.
 * Never writes a file.
 */

/** `value` with every object's keys sorted, recursively (arrays keep their order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort())
      out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** `value` as canonical JSON text, indented by two spaces and ending in a line break. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}

/** True when `a` and `b` are the same JSON value (object key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
