/**
 * Stable path display for enrichment evidence (docs/enrich.md): every path an artifact prints is shown
 * relative to the project (`<project>/…`) or the home folder (`~/…`) in POSIX form, so the same
 * library gives the same bytes on any machine. Pure: the caller passes the roots (as given and as
 * real paths). Never hides a path outside both roots: it is printed as it is.
 */
import path from 'node:path';
import { escapeRegExp } from '../text/index.js';

/** Label printed for the project folder. */
export const PROJECT_LABEL = '<project>';
/** Label printed for the home folder. */
export const HOME_LABEL = '~';

/** Turns absolute paths, and text that mentions them, into their stable display form. */
export interface PathDisplay {
  /** `p` (absolute) as `<project>/…`, `~/…`, or itself when outside both roots. */
  path(p: string): string;
  /** `text` with every mention of a root replaced by its label. */
  text(s: string): string;
}

/** One root and the label that replaces it. */
export interface DisplayRoot {
  readonly prefix: string;
  readonly label: string;
}

/**
 * Builds a display for `roots` (each root may be listed twice: as given and as its real path). The
 * longest prefix wins, so a project inside the home folder prints as `<project>/…`.
 */
export function makePathDisplay(roots: readonly DisplayRoot[]): PathDisplay {
  // A root that is the file-system root would swallow every path: such a root is not abbreviated.
  const usable = roots
    .filter((r) => r.prefix !== '' && path.dirname(r.prefix) !== r.prefix)
    .map((r) => ({ prefix: r.prefix.replace(/[\\/]+$/, ''), label: r.label }));
  const unique = [...new Map(usable.map((r) => [r.prefix, r])).values()].sort(
    (a, b) =>
      b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0),
  );
  const pattern =
    unique.length === 0
      ? undefined
      : new RegExp(
          `(${unique.map((r) => escapeRegExp(r.prefix)).join('|')})(?=[\\\\/]|$|[^\\w.-])`,
          'g',
        );
  const labelOf = new Map(unique.map((r) => [r.prefix, r.label]));

  const showPath = (p: string): string => {
    for (const r of unique) {
      if (p === r.prefix) return r.label;
      if (p.startsWith(r.prefix + path.sep))
        return r.label + '/' + toPosix(p.slice(r.prefix.length + 1));
    }
    return toPosix(p);
  };
  const showText = (s: string): string =>
    pattern === undefined ? s : s.replace(pattern, (m) => labelOf.get(m) ?? m);
  return { path: showPath, text: showText };
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
