/**
 * Stamps of a cascade node (docs/cascade.md). A stamp, `skill.index.sha256`, holds the
 * SHA-256 of the index's stored bytes: plain hex in either case, optionally followed by white space
 * and a file name (`sha256sum` output); anything else is a mismatch. A missing or wrong stamp makes
 * the node's overlay untrusted. Pure: text in, values out; nothing here reads a file.
 */
import { INDEX_FILE } from './index-file.js';

/** The stamp file beside a skill.index. */
export const STAMP_FILE = `${INDEX_FILE}.sha256`;

/** How a node's stamp compares with its index bytes. */
export type StampStatus = 'match' | 'missing' | 'mismatch';

/**
 * The digest a stamp text declares, as 64 lowercase hex digits, or undefined when the text is not
 * a stamp: exactly one non-blank line, the hex first, then optionally white space and a name.
 */
export function parseStamp(text: string): string | undefined {
  const lines = text.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '');
  if (lines.length !== 1) return undefined;
  const m = /^([0-9a-fA-F]{64})(?:[ \t]+\S.*)?[ \t]*$/.exec(lines[0]!);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Compares a stamp text (undefined: no stamp file) with the hex digest of the index bytes. */
export function stampStatus(stampText: string | undefined, indexHex: string): StampStatus {
  if (stampText === undefined) return 'missing';
  return parseStamp(stampText) === indexHex.toLowerCase() ? 'match' : 'mismatch';
}

/** The stamp text build writes for an index with digest `hex`: a `sha256sum` line. */
export function formatStamp(hex: string): string {
  return `${hex.toLowerCase()}  ${INDEX_FILE}\n`;
}
