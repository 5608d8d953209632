/**
 * Small text helpers the human renderings share: one line of prose cut to a width, and a path
 * shown relative to the cwd when it lies below it. They shape text only; escaping skill text for
 * the terminal is the sanitiser's job (src/text/sanitize.ts), called by each renderer.
 */
import path from 'node:path';
import { isPgLocation } from '../../catalog/store/location.js';

/** `s` on one line (runs of white space become one space), cut to `n` characters with '…'. */
export function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : t.slice(0, n - 1) + '…';
}

/**
 * `p` relative to `cwd` when it lies below it, else as given; a postgres:// location, or no `cwd`,
 * leaves it as it is.
 */
export function relPath(p: string, cwd: string | undefined): string {
  if (cwd === undefined || isPgLocation(p)) return p;
  const r = path.relative(cwd, p);
  return r.startsWith('..') || path.isAbsolute(r) ? p : r;
}
