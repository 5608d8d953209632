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

/**
 * The stored form of a revision's frontmatter (`revisions.frontmatter`): its JSON, except that a
 * top-level `description` equal to the revision's own `description` column is stored once, there:
 * the JSON keeps the key in its place with the value 0, after a `~` (which no JSON text starts
 * with). Rows written before, and frontmatter whose description differs, are plain JSON.
 */
export function encodeStoredFrontmatter(
  frontmatter: Readonly<Record<string, unknown>>,
  description: string,
): string {
  if (frontmatter['description'] !== description) return JSON.stringify(frontmatter);
  return '~' + JSON.stringify({ ...frontmatter, description: 0 });
}

/**
 * A revision's frontmatter object from its stored form and its `description` column
 * (encodeStoredFrontmatter); CATALOG_CORRUPT when the stored form does not parse.
 */
export function parseStoredFrontmatter(stored: string, description: string): unknown {
  if (!stored.startsWith('~')) return storedJson<unknown>(stored, 'revisions.frontmatter');
  const fm = storedJson<unknown>(stored.slice(1), 'revisions.frontmatter');
  if (fm === null || typeof fm !== 'object' || Array.isArray(fm))
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      "the catalog's revisions.frontmatter is not the JSON object skilldex wrote",
      { column: 'revisions.frontmatter' },
    );
  // The key keeps its place: assigning an existing own key does not move it.
  (fm as Record<string, unknown>)['description'] = description;
  return fm;
}

/** The frontmatter JSON text a revision was read with (what ingest stored before the `~` form). */
export function decodeStoredFrontmatter(stored: string, description: string): string {
  return stored.startsWith('~')
    ? JSON.stringify(parseStoredFrontmatter(stored, description))
    : stored;
}
