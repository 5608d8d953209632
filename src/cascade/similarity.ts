/**
 * Keyword-set similarity among sibling entries (docs/cascade.md "Audit"): entries whose words are so
 * alike that common needs end ambiguous. Entry A is covered by a sibling B of the same rank when
 * every word of A (its key without the descent slash, and its keywords) occurs inside a word of B:
 * then every need made of A's words also hits B, and A is never reached alone without an overlay.
 * Pure: parsed entries in, problems out.
 */
import { problem, type Problem } from '../errors.js';
import { INDEX_FILE, splitKeywords, type ScannedEntry } from './index-file.js';
import { foldText, rankOf } from './match.js';
import { relJoin } from './reader.js';

/** The folded words a need could be made of for `entry`: key (not for `.`) and keywords. */
export function entryWords(entry: ScannedEntry): string[] {
  const words = splitKeywords(entry.keywordText).map(foldText);
  if (entry.kind !== 'self')
    words.unshift(foldText(entry.kind === 'descent' ? entry.key.slice(0, -1) : entry.key));
  return words;
}

/** True when every word of `a` occurs inside some word of `b`. */
export function coveredBy(aWords: readonly string[], bWords: readonly string[]): boolean {
  return aWords.every((w) => bWords.some((v) => v.includes(w)));
}

/**
 * AMBIGUOUS_KEYWORDS problems of one node: each entry covered by a sibling of the same rank, once
 * per pair (a pair that covers both ways is reported once, on the earlier line).
 */
export function ambiguousSiblings(rel: string, entries: readonly ScannedEntry[]): Problem[] {
  const label = relJoin(rel, INDEX_FILE);
  const words = entries.map(entryWords);
  const problems: Problem[] = [];
  for (let i = 0; i < entries.length; i++) {
    const a = entries[i]!;
    if (words[i]!.length === 0) continue;
    for (let j = 0; j < entries.length; j++) {
      const b = entries[j]!;
      if (i === j || rankOf(a) !== rankOf(b) || words[j]!.length === 0) continue;
      if (!coveredBy(words[i]!, words[j]!)) continue;
      const mutual = coveredBy(words[j]!, words[i]!);
      if (mutual && j < i) continue;
      const msg = mutual
        ? `${label}:${a.line}: entries ${JSON.stringify(a.key)} and ${JSON.stringify(b.key)} (line ${b.line}) answer the same needs: every need that hits one hits the other`
        : `${label}:${a.line}: every need that hits ${JSON.stringify(a.key)} also hits ${JSON.stringify(b.key)} (line ${b.line}): it is never reached alone`;
      problems.push(problem('AMBIGUOUS_KEYWORDS', label, msg, a.line));
    }
  }
  return problems;
}
