/**
 * What the lint checks read about one skill (`LintSkill`), the library's word statistics, and the
 * deterministic self-queries derived from a skill's own name and description. Pure: no I/O.
 */
import type { Problem } from '../errors.js';
import { distinctContentTokens, stem, tokenize } from '../text/index.js';

/** One skill as the checks see it. */
export interface LintSkill {
  readonly skill_id: string;
  readonly name: string;
  readonly description: string;
  readonly when_to_use?: string;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  /** Absolute path of its SKILL.md. */
  readonly path: string;
  /** `sha256:<hex>` of the file's bytes, when known (to tell whether a catalog is current). */
  readonly revision_id?: string;
  /** The SKILL.md text (frontmatter and body), for field lines and separating words. */
  readonly text: string;
  /** Spec warnings from validation. */
  readonly warnings: readonly Problem[];
  /** Whether the ranking checks apply (false for a deprecated skill, which the router penalises). */
  readonly rankable: boolean;
}

/** Document frequencies of content words over the library's descriptions (+ when_to_use). */
export interface WordStats {
  /** Skills in the library. */
  readonly skills: number;
  /** word → how many skills' description words hold it. */
  readonly df: ReadonlyMap<string, number>;
  /** Porter stem → how many skills' description words hold a word with that stem. */
  readonly stemDf: ReadonlyMap<string, number>;
}

/** The words a skill's listing text is made of: description and when_to_use. */
export function listingText(skill: Pick<LintSkill, 'description' | 'when_to_use'>): string {
  return skill.when_to_use === undefined
    ? skill.description
    : `${skill.description}\n${skill.when_to_use}`;
}

/** Distinct content words of a skill's listing text. */
export function listingWords(skill: Pick<LintSkill, 'description' | 'when_to_use'>): string[] {
  return distinctContentTokens(listingText(skill));
}

/** Counts, for every content word, the skills whose listing text holds it. */
export function wordStats(words: readonly (readonly string[])[]): WordStats {
  const df = new Map<string, number>();
  const stemDf = new Map<string, number>();
  for (const ws of words) {
    for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
    for (const s of new Set(ws.map(stem))) stemDf.set(s, (stemDf.get(s) ?? 0) + 1);
  }
  return { skills: words.length, df, stemDf };
}

/** One self-query: how it was derived and its text. */
export interface SelfQuery {
  readonly kind: 'name' | 'rare-words';
  readonly query: string;
}

/**
 * The self-queries of a skill, in a fixed order: its name as words (`pdf-extract` → `pdf extract`),
 * then its `queryWords` rarest listing words that are not name words (rarest by the library
 * document frequency of their Porter stem, as the router matches stems; ties by the word's own
 * frequency, then the word), when it has any. Duplicate query texts are dropped.
 */
export function selfQueries(
  skill: LintSkill,
  words: readonly string[],
  stats: WordStats,
  queryWords: number,
): SelfQuery[] {
  const nameWords = tokenize(skill.name);
  const out: SelfQuery[] = [];
  if (nameWords.length > 0) out.push({ kind: 'name', query: nameWords.join(' ') });
  const nameSet = new Set(nameWords);
  const sdf = (w: string): number => stats.stemDf.get(stem(w)) ?? 0;
  const rare = words
    .filter((w) => !nameSet.has(w) && /\p{L}/u.test(w))
    .sort(
      (a, b) =>
        sdf(a) - sdf(b) ||
        (stats.df.get(a) ?? 0) - (stats.df.get(b) ?? 0) ||
        (a < b ? -1 : a > b ? 1 : 0),
    )
    .slice(0, queryWords);
  if (rare.length > 0) {
    const q = rare.join(' ');
    if (!out.some((o) => o.query === q)) out.push({ kind: 'rare-words', query: q });
  }
  return out;
}
