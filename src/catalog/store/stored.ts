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
