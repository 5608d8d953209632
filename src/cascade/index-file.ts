/**
 * The `skill.index` line format (docs/cascade.md), parsed and printed. Pure: strings in, records out.
 * Parse keeps every line's number so a report can point at it; malformed lines are recorded and
 * skipped, never fatal. Keys are classified here (self, leaf, descent, escaping) so the crawl, the
 * audit and the build share one reading of the format. Nothing here touches the file system.
 */

/** The name of an index file in a cascade node. */
export const INDEX_FILE = 'skill.index';

/** What an entry leads to: the node itself, a leaf (a skill folder), or another node. */
export type EntryKind = 'self' | 'leaf' | 'descent';

/** One `key: keyword, keyword` line as the crawl reads it: keywords kept as written until needed. */
export interface ScannedEntry {
  /** The key as written, trimmed (`pdf`, `docs/`, `.`, `a/b/c/`). */
  readonly key: string;
  /** Everything after the first colon, as written; `splitKeywords` gives the keywords. */
  readonly keywordText: string;
  /** 1-based line number in the index file. */
  readonly line: number;
  readonly kind: EntryKind;
  /** Path segments of the key without the descent slash; `[]` for the self entry. */
  readonly segments: readonly string[];
  /**
   * Why the key's path leaves the node's subtree, when it does: a `..` segment, an absolute path,
   * a backslash or a NUL (docs/cascade.md). Such an entry can still match a need; the
   * crawl refuses to follow it.
   */
  readonly escape?: string;
}

/** One parsed line with its keywords split: trimmed, empty ones dropped. */
export interface IndexEntry extends ScannedEntry {
  readonly keywords: readonly string[];
}

/** A line that is neither blank, a comment, nor a well-formed entry. */
export interface MalformedLine {
  readonly line: number;
  /** The line as stored (control characters included; renderers escape them). */
  readonly text: string;
  readonly reason: string;
}

/** A scanned skill.index: its entries in file order and its malformed lines. */
export interface ScannedIndex {
  readonly entries: readonly ScannedEntry[];
  readonly malformed: readonly MalformedLine[];
}

/** A parsed skill.index: its entries (keywords split) in file order and its malformed lines. */
export interface ParsedIndex {
  readonly entries: readonly IndexEntry[];
  readonly malformed: readonly MalformedLine[];
}

/**
 * Parses skill.index text: split at the first colon, keywords at commas, all trimmed; blank lines
 * and `#` comments pass. Malformed (recorded, skipped): no colon, an empty key, an empty or `.`
 * path segment inside a longer key, a key already defined on an earlier line.
 */
export function parseSkillIndex(text: string): ParsedIndex {
  const scanned = scanSkillIndex(text);
  return {
    entries: scanned.entries.map((e) => ({ ...e, keywords: splitKeywords(e.keywordText) })),
    malformed: scanned.malformed,
  };
}

/** The keywords of an entry's keyword text: split at commas, trimmed, empty ones dropped. */
export function splitKeywords(keywordText: string): string[] {
  return keywordText
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/**
 * `parseSkillIndex` without splitting keywords: what the crawl uses, because a descent of a large
 * cascade carries every name below it and most lines never need their keywords one by one.
 */
export function scanSkillIndex(text: string): ScannedIndex {
  const entries: ScannedEntry[] = [];
  const malformed: MalformedLine[] = [];
  const seen = new Map<string, number>();
  // A plain split on LF is far faster on a large index; CR-only or CRLF files take the general one.
  const lines = text.includes('\r') ? text.split(/\r\n|\n|\r/) : text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    const colon = raw.indexOf(':');
    // Cheap test first: most lines of a big index are long entries, not blanks or comments.
    const head = (colon < 0 ? raw : raw.slice(0, colon)).trim();
    if (head === '' && colon < 0) continue;
    if (head.startsWith('#')) continue;
    if (colon < 0) {
      malformed.push({ line, text: raw, reason: 'no colon: a line is key: keyword, keyword' });
      continue;
    }
    const key = head;
    if (key === '') {
      malformed.push({ line, text: raw, reason: 'empty key before the colon' });
      continue;
    }
    const shape = classifyKey(key);
    if (!shape.ok) {
      malformed.push({ line, text: raw, reason: shape.reason });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      malformed.push({
        line,
        text: raw,
        reason: `key ${JSON.stringify(key)} is already defined on line ${earlier}`,
      });
      continue;
    }
    seen.set(key, line);
    entries.push({ key, keywordText: raw.slice(colon + 1), line, ...shape.entry });
  }
  return { entries, malformed };
}

type KeyShape =
  | { ok: true; entry: { kind: EntryKind; segments: readonly string[]; escape?: string } }
  | { ok: false; reason: string };

/** Classifies a trimmed, non-empty key: its kind, its segments, and whether it escapes. */
export function classifyKey(key: string): KeyShape {
  if (key === '.') return { ok: true, entry: { kind: 'self', segments: [] } };
  const descent = key.endsWith('/');
  const kind: EntryKind = descent ? 'descent' : 'leaf';
  const body = descent ? key.slice(0, -1) : key;
  const escape = escapeReason(key);
  // An escaping key is well-formed as a line: it stays an entry so the crawl can refuse it by name.
  if (escape !== undefined) return { ok: true, entry: { kind, segments: body.split('/'), escape } };
  const segments = body.split('/');
  if (segments.some((s) => s === ''))
    return { ok: false, reason: `key ${JSON.stringify(key)} has an empty path segment` };
  if (segments.some((s) => s === '.')) {
    return {
      ok: false,
      reason: `key ${JSON.stringify(key)} has a . segment: . is allowed only as the whole key`,
    };
  }
  return { ok: true, entry: { kind, segments } };
}

/** Why `key` leaves its node's subtree, or undefined when it stays below the node. */
export function escapeReason(key: string): string | undefined {
  if (key.includes('\0')) return 'a NUL byte';
  if (key.includes('\\')) return 'a backslash';
  if (key.startsWith('/') || /^[a-zA-Z]:/.test(key)) return 'an absolute path';
  if (key.split('/').includes('..')) return 'a .. segment';
  return undefined;
}

/** True when `key` can be written as an index key and read back unchanged. */
export function isWritableKey(key: string): boolean {
  return (
    key !== '' &&
    key === key.trim() &&
    !/[:\r\n\0\\]/.test(key) &&
    !key.startsWith('#') &&
    classifyKey(key).ok &&
    escapeReason(key) === undefined
  );
}

/** A keyword made writable: line breaks, commas and runs of white space become one space, trimmed. */
export function cleanKeyword(keyword: string): string {
  return keyword.replace(/[\s,]+/g, ' ').trim();
}

/** One line of an index to print. */
export interface PrintableEntry {
  readonly key: string;
  readonly keywords: readonly string[];
}

/**
 * Prints entries as skill.index text, one `key: keyword, keyword` line each, after optional
 * `# comment` header lines. The caller gives writable keys and clean keywords; the result always
 * ends with a newline.
 */
export function printSkillIndex(
  entries: readonly PrintableEntry[],
  header: readonly string[] = [],
): string {
  const lines = header.map((h) => `# ${h}`);
  for (const e of entries)
    lines.push(e.keywords.length > 0 ? `${e.key}: ${e.keywords.join(', ')}` : `${e.key}:`);
  return lines.join('\n') + '\n';
}
