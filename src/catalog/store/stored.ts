/**
 * Reading back what the catalog stores as JSON text or packed words. A value that does not decode
 * was not written by skilldex: the catalog is damaged or was edited by hand, which is
 * CATALOG_CORRUPT (exit 3, HTTP 503), never an internal fault (docs/integration.md §4, §7).
 */
import { SkilldexError } from '../../errors.js';

/** The JSON column `what` (`generations.counts`…) parsed; CATALOG_CORRUPT when it does not parse. */
export function storedJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the catalog's ${what} is not the JSON skilldex wrote (${(err as Error).message})`,
      { column: what },
      { cause: err },
    );
  }
}

/** The blob `what` as 32-bit words (copied, aligned); CATALOG_CORRUPT when its length is not a multiple of 4. */
export function storedWords(data: Uint8Array, what: string): Uint32Array {
  if (data.byteLength % 4 !== 0) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the catalog's ${what} is ${data.byteLength} bytes, not whole 32-bit words`,
      { column: what },
    );
  }
  // Copy into an aligned buffer: a Buffer from SQLite may start at any byte offset.
  const bytes = new Uint8Array(data.byteLength);
  bytes.set(data);
  return new Uint32Array(bytes.buffer);
}

/** The columns of a revision that its stored frontmatter may leave out (encodeStoredFrontmatter). */
export interface FrontmatterColumns {
  readonly description: string;
  /** `revisions.name`. */
  readonly name: string;
  /** `revisions.keywords`: the JSON text of the keywords array. */
  readonly keywords: string;
}

// The keys stored once, in their columns, and the letter naming each in the stored form.
const ONCE: readonly (readonly [key: keyof FrontmatterColumns, letter: string])[] = [
  ['description', 'd'],
  ['name', 'n'],
  ['keywords', 'k'],
];

// Whether the frontmatter's `key` holds what its column holds.
function sameAsColumn(
  frontmatter: Readonly<Record<string, unknown>>,
  key: keyof FrontmatterColumns,
  columns: FrontmatterColumns,
): boolean {
  const v = frontmatter[key];
  if (key === 'keywords') return Array.isArray(v) && JSON.stringify(v) === columns.keywords;
  return typeof v === 'string' && v === columns[key];
}

/**
 * The stored form of a revision's frontmatter (`revisions.frontmatter`): its JSON, except that each
 * top-level `description`, `name` and `keywords` equal to the revision's own column is stored once,
 * there: the JSON keeps the key in its place with the value 0, after a `~` and the letters of the
 * keys so stored (`d`, `n`, `k`; no JSON text starts with `~`). Rows written before issue 33 hold
 * `~{` (the description alone) or plain JSON; both read as they did.
 */
export function encodeStoredFrontmatter(
  frontmatter: Readonly<Record<string, unknown>>,
  columns: FrontmatterColumns,
): string {
  let letters = '';
  let out: Record<string, unknown> | undefined;
  for (const [key, letter] of ONCE) {
    if (!Object.hasOwn(frontmatter, key) || !sameAsColumn(frontmatter, key, columns)) continue;
    out ??= { ...frontmatter };
    out[key] = 0;
    letters += letter;
  }
  return out ? `~${letters}${JSON.stringify(out)}` : JSON.stringify(frontmatter);
}

/**
 * A revision's frontmatter object from its stored form and its columns (encodeStoredFrontmatter);
 * CATALOG_CORRUPT when the stored form does not parse.
 */
export function parseStoredFrontmatter(stored: string, columns: FrontmatterColumns): unknown {
  if (!stored.startsWith('~')) return storedJson<unknown>(stored, 'revisions.frontmatter');
  const brace = stored.indexOf('{');
  const letters = brace > 1 ? stored.slice(1, brace) : 'd';
  const fm = storedJson<unknown>(stored.slice(Math.max(brace, 1)), 'revisions.frontmatter');
  if (fm === null || typeof fm !== 'object' || Array.isArray(fm) || !/^[dnk]+$/.test(letters))
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      "the catalog's revisions.frontmatter is not the JSON object skilldex wrote",
      { column: 'revisions.frontmatter' },
    );
  // Each key keeps its place: assigning an existing own key does not move it.
  for (const [key, letter] of ONCE)
    if (letters.includes(letter))
      (fm as Record<string, unknown>)[key] =
        key === 'keywords'
          ? storedJson<unknown>(columns.keywords, 'revisions.keywords')
          : columns[key];
  return fm;
}

/** The frontmatter JSON text a revision was read with (what ingest stored before the `~` form). */
export function decodeStoredFrontmatter(stored: string, columns: FrontmatterColumns): string {
  return stored.startsWith('~') ? JSON.stringify(parseStoredFrontmatter(stored, columns)) : stored;
}
