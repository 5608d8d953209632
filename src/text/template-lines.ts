/**
 * Template lines (policy bm25f.v4, docs/ranking.md §10), pure. Libraries hold families of skills
 * generated from one template ("Automate Blackbaud tasks via Rube MCP …", 731 of the 1,197 skills
 * of a real corpus): their bodies repeat the same lines with only the skill's own name changed.
 * Such a line says nothing about one skill, yet its words make every member look relevant to any
 * request that mentions them ("mcp"). `lineKey` gives each body line a key that is the same for two
 * skills exactly when the line is the same but for their own names: folded, each word of the
 * skill's own name replaced by one mark, digit runs by another, white space collapsed. A line whose
 * key appears in many skills is a template line (the count and the rule live with the policy).
 */
import { fold } from './normalize.js';

/** The words of a skill name that a template line would carry: folded runs of letters and digits longer than one character. */
export function nameWords(name: string): ReadonlySet<string> {
  return new Set((fold(name).match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1));
}

/** Shortest key a line must have to count (blank lines, fences and rules never do). */
export const MIN_LINE_KEY_CHARS = 4;

/**
 * The key of one body line for a skill whose name words are `names`: a 32-bit FNV-1a hash of the
 * normalised line, or undefined for a line too short to count.
 */
export function lineKey(line: string, names: ReadonlySet<string>): number | undefined {
  const masked = fold(line)
    .replace(/[\p{L}\p{N}]+/gu, (w) => (names.has(w) ? '\u00a7' : w))
    .replace(/\p{N}+/gu, '#')
    .replace(/\s+/gu, ' ')
    .trim();
  if (masked.length < MIN_LINE_KEY_CHARS) return undefined;
  return fnv1a(masked);
}

/** FNV-1a over the UTF-16 code units of `s`, as an unsigned 32-bit integer. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
