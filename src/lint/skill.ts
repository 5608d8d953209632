/**
 * What the lint checks read about one skill (`LintSkill`), the library's word statistics, and the
 * deterministic self-queries derived from a skill's own name and description. Pure: no I/O.
 */
import type { Problem } from '../errors.js';
import { distinctContentTokens, isStopWord, stem, tokenize } from '../text/index.js';
import type { LintThresholds } from './codes.js';

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
  /** The parsed frontmatter, when known: the spec profile and inline suppressions read it. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
}

/** Document frequencies of content words over the library's descriptions (+ when_to_use). */
export interface WordStats {
  /** Skills in the library. */
  readonly skills: number;
  /** word → how many skills' description words hold it. */
  readonly df: ReadonlyMap<string, number>;
  /** Porter stem → how many skills' description words hold a word with that stem. */
  readonly stemDf: ReadonlyMap<string, number>;
  /** name word → how many skills' names hold it (empty when no names were given). */
  readonly nameDf: ReadonlyMap<string, number>;
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

/**
 * Counts, for every content word, the skills whose listing text holds it, and for every name word
 * (`names`, one skill's name each), the skills whose name holds it.
 */
export function wordStats(
  words: readonly (readonly string[])[],
  names: readonly string[] = [],
): WordStats {
  const df = new Map<string, number>();
  const stemDf = new Map<string, number>();
  for (const ws of words) {
    for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
    for (const s of new Set(ws.map(stem))) stemDf.set(s, (stemDf.get(s) ?? 0) + 1);
  }
  const nameDf = new Map<string, number>();
  for (const n of names)
    for (const w of new Set(tokenize(n))) nameDf.set(w, (nameDf.get(w) ?? 0) + 1);
  return { skills: words.length, df, stemDf, nameDf };
}

/** One self-query: how it was derived and its text. */
export interface SelfQuery {
  readonly kind: 'name' | 'rare-words';
  readonly query: string;
}

/** The thresholds the self-queries read. */
export type SelfQueryThresholds = Pick<
  LintThresholds,
  'query_words' | 'common_share' | 'common_min_skills'
>;

/**
 * The self-queries of a skill, in a fixed order: its name as words (`pdf-extract` → `pdf extract`),
 * then its `query_words` rarest listing words that are not name words (rarest by the library
 * document frequency of their Porter stem, as the router matches stems; ties by the word's own
 * frequency, then the word), when it has any. In a library of at least `common_min_skills`, words
 * common to at least `common_share` of it are left out of both — the name word a templated family
 * shares ("automation" in 832 names), the template's own words — unless that would leave the name
 * query only stop-words: they tell no skill apart, and every query holding one costs the router time in
 * proportion to the library (issue #25). Duplicate query texts are dropped.
 */
export function selfQueries(
  skill: LintSkill,
  words: readonly string[],
  stats: WordStats,
  t: SelfQueryThresholds,
): SelfQuery[] {
  const judge = stats.skills >= t.common_min_skills;
  const common = (df: number | undefined): boolean =>
    judge && (df ?? 0) / stats.skills >= t.common_share;
  const nameWords = tokenize(skill.name);
  const distinctive = nameWords.filter((w) => !common(stats.nameDf.get(w)));
  // Only stop-words left ("here" of here-automation) would be no query at all: keep the name whole.
  const nameQuery = distinctive.some((w) => !isStopWord(w)) ? distinctive : nameWords;
  const out: SelfQuery[] = [];
  if (nameQuery.length > 0) out.push({ kind: 'name', query: nameQuery.join(' ') });
  const nameSet = new Set(nameWords);
  const sdf = (w: string): number => stats.stemDf.get(stem(w)) ?? 0;
  const rare = words
    .filter((w) => !nameSet.has(w) && /\p{L}/u.test(w) && !common(stats.df.get(w)))
    .sort(
      (a, b) =>
        sdf(a) - sdf(b) ||
        (stats.df.get(a) ?? 0) - (stats.df.get(b) ?? 0) ||
        (a < b ? -1 : a > b ? 1 : 0),
    )
    .slice(0, t.query_words);
  if (rare.length > 0) {
    const q = rare.join(' ');
    if (!out.some((o) => o.query === q)) out.push({ kind: 'rare-words', query: q });
  }
  return out;
}
