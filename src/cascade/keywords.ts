/**
 * Keyword choice for `cascade build` (docs/cascade.md): which words an index entry carries. A skill's
 * entry gets its name, its name's tokens, its frontmatter keywords and tags, and the most
 * distinctive terms of its description (tf·idf over the library, stop-words out); a descent gets
 * the terms its skills share, the folder names and declared keywords below it, and every skill name
 * below it (a need is a substring of a keyword, so a descent must carry what its subtree answers to). A name guard then drops any word that would
 * capture another skill's name, so each skill stays reachable by its own name. Pure and
 * deterministic: every ordering ends in a code-unit tie-break.
 */
import { compareStrings, contentTokens, distinctContentTokens } from '../text/index.js';
import { cleanKeyword } from './index-file.js';
import { foldText } from './match.js';

/** Description terms per skill entry: enough to route a topic, few enough to stay distinctive. */
export const DESCRIPTION_TERMS = 6;

/** Shared terms per descent: the subtree's most common words, so topic needs find the folder. */
export const DESCENT_TERMS = 6;

/** Shortest description term kept: two-letter tokens are mostly noise in substring matching. */
const MIN_TERM_CHARS = 3;

/** The skill fields keyword choice reads. */
export interface KeywordSource {
  readonly name: string;
  /** The skill's folder name, when it differs from the name. */
  readonly folder?: string;
  readonly description: string;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
}

/** Document frequencies of description terms over a library. */
export interface TermStats {
  readonly documents: number;
  readonly df: ReadonlyMap<string, number>;
}

/** Folds and cleans a keyword for writing; empty when nothing is left. */
export function normalizeKeyword(k: string): string {
  return cleanKeyword(foldText(k));
}

/** Counts in how many descriptions each candidate term occurs. */
export function termStats(descriptions: readonly string[]): TermStats {
  const df = new Map<string, number>();
  for (const d of descriptions)
    for (const t of new Set(candidateTerms(d))) df.set(t, (df.get(t) ?? 0) + 1);
  return { documents: descriptions.length, df };
}

function candidateTerms(description: string): string[] {
  return contentTokens(description).filter((t) => t.length >= MIN_TERM_CHARS && !/^\d+$/.test(t));
}

/**
 * The `k` most distinctive terms of `description`: tf × smoothed idf (`ln((1+N)/(1+df)) + 1`),
 * highest first, ties by term; terms in `exclude` are skipped.
 */
export function distinctiveTerms(
  description: string,
  stats: TermStats,
  k: number,
  exclude: ReadonlySet<string>,
): string[] {
  const tf = new Map<string, number>();
  for (const t of candidateTerms(description)) if (!exclude.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const scored = [...tf.entries()].map(([t, n]) => ({
    t,
    s: n * (Math.log((1 + stats.documents) / (1 + (stats.df.get(t) ?? 0))) + 1),
  }));
  scored.sort((a, b) => b.s - a.s || compareStrings(a.t, b.t));
  return scored.slice(0, k).map((x) => x.t);
}

/** The names a skill answers to: its folded name, and its folded folder name when different. */
export function ownNames(src: KeywordSource): string[] {
  const names = [normalizeKeyword(src.name)];
  if (src.folder !== undefined) names.push(normalizeKeyword(src.folder));
  return dedupe(names);
}

/** Topic words of a skill (everything but its own names), in priority order. */
export function topicWords(src: KeywordSource, stats: TermStats): string[] {
  const names = new Set(ownNames(src));
  const words = dedupe([
    ...distinctContentTokens(src.name),
    ...src.keywords.map(normalizeKeyword),
    ...src.tags.map(normalizeKeyword),
  ]).filter((w) => !names.has(w));
  const terms = distinctiveTerms(
    src.description,
    stats,
    DESCRIPTION_TERMS,
    new Set([...names, ...words]),
  );
  return [...words, ...terms];
}

/** The words a skill's author declared: its frontmatter keywords and tags, folded, own names out. */
export function declaredWords(src: KeywordSource): string[] {
  const names = new Set(ownNames(src));
  return dedupe([...src.keywords.map(normalizeKeyword), ...src.tags.map(normalizeKeyword)]).filter(
    (w) => !names.has(w),
  );
}

/** The terms shared by the most skills of a subtree: at least two skills (one when alone), by count then term. */
export function sharedTerms(topics: readonly (readonly string[])[], k: number): string[] {
  const count = new Map<string, number>();
  for (const words of topics) for (const w of new Set(words)) count.set(w, (count.get(w) ?? 0) + 1);
  const floor = topics.length > 1 ? 2 : 1;
  return [...count.entries()]
    .filter(([, n]) => n >= floor)
    .sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]))
    .slice(0, k)
    .map(([w]) => w);
}

/**
 * Drops words that would capture another skill's name. A need equal to a skill's name hits every
 * entry with a word containing that name; so a word may contain a name only when every skill of
 * that name is reached through the entry itself.
 */
export class NameGuard {
  private readonly owners = new Map<string, Set<string>>();
  private readonly lengths: number[];

  /** `names`: for each skill (by id), the folded names it answers to. */
  constructor(names: ReadonlyMap<string, readonly string[]>) {
    for (const [id, list] of names) {
      for (const n of list) {
        const set = this.owners.get(n) ?? new Set<string>();
        set.add(id);
        this.owners.set(n, set);
      }
    }
    this.lengths = [...new Set([...this.owners.keys()].map((n) => n.length))].sort((a, b) => a - b);
  }

  /** True when `word` contains the name of a skill outside `reached` (skill ids the entry leads to). */
  captures(word: string, reached: ReadonlySet<string>): boolean {
    for (const len of this.lengths) {
      if (len > word.length) break;
      for (let i = 0; i + len <= word.length; i++) {
        const owners = this.owners.get(word.slice(i, i + len));
        if (owners === undefined) continue;
        for (const id of owners) if (!reached.has(id)) return true;
      }
    }
    return false;
  }

  /** `words` without those that capture a name outside `reached`. */
  filter(words: readonly string[], reached: ReadonlySet<string>): string[] {
    return words.filter((w) => !this.captures(w, reached));
  }
}

/** `xs` without empty strings and repeats, first occurrence kept. */
export function dedupe(xs: readonly string[]): string[] {
  return [...new Set(xs.filter((x) => x !== ''))];
}
