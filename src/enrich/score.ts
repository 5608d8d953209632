/**
 * Brief-to-description scoring for enrichment (docs/enrich.md, issue #7). Pure: strings in, numbers
 * and matched terms out. It never sees a skill body, never stems, never weights: the score is the
 * share of a description's distinct content terms that the brief also uses.
 *
 *   score = |B ∩ D| / |D|
 *
 * B: distinct content tokens of the brief (tokenised by src/text: NFKC + case fold, runs of letters,
 *    marks and digits, English stop-words removed).
 * D: distinct content tokens of the description's first MAX_DESCRIPTION_CHARS code points, same rule.
 * Both sides count distinct tokens; stop-words count on neither side. |D| = 0 scores 0.
 */
import { compareStrings, contentTokens } from '../text/index.js';

/**
 * Characters of a description that are scored: the contract's window (docs/enrich.md). It is 1.5 ×
 * the Agent Skills spec's 1,024-character description limit, so every conforming description is
 * scored whole, while an over-long one cannot pad its way past it. Counted in Unicode code points.
 */
export const MAX_DESCRIPTION_CHARS = 1536;

/** Default floor: a score must be strictly above it to be kept (docs/enrich.md). */
export const DEFAULT_FLOOR = 0.05;

/** Decimals every score is printed with, in every artifact (fixed so outputs compare as text). */
export const SCORE_DECIMALS = 4;

/** The score of one description against a brief, with the evidence behind it. */
export interface DescriptionScore {
  /** |matched_terms| / description_terms, in [0, 1]. */
  readonly score: number;
  /** Brief terms found among the description's terms, sorted ascending. */
  readonly matched_terms: readonly string[];
  /** Count of distinct content tokens in the scored window (the denominator). */
  readonly description_terms: number;
  /** Code points of the whole description. */
  readonly description_chars: number;
  /** True when the description is longer than the window and its tail was not scored. */
  readonly truncated: boolean;
}

/** Distinct content tokens of `brief`, in first-seen order: the terms a description can match. */
export function briefTerms(brief: string): string[] {
  return [...new Set(contentTokens(brief))];
}

/** The first `MAX_DESCRIPTION_CHARS` code points of `description` (a surrogate pair is never split). */
export function scoredWindow(description: string): string {
  // A string of at most MAX code units has at most MAX code points: the common case costs nothing.
  if (description.length <= MAX_DESCRIPTION_CHARS) return description;
  let units = 0;
  for (let points = 0; points < MAX_DESCRIPTION_CHARS && units < description.length; points++) {
    units += isPairAt(description, units) ? 2 : 1;
  }
  return description.slice(0, units);
}

/** Scores `description` against the distinct brief terms `terms` (from `briefTerms`). */
export function scoreDescription(
  terms: ReadonlySet<string>,
  description: string,
): DescriptionScore {
  const chars = codePointLength(description);
  const own = new Set(contentTokens(scoredWindow(description)));
  const matched: string[] = [];
  for (const t of own) if (terms.has(t)) matched.push(t);
  matched.sort(compareStrings);
  return {
    score: own.size === 0 ? 0 : matched.length / own.size,
    matched_terms: matched,
    description_terms: own.size,
    description_chars: chars,
    truncated: chars > MAX_DESCRIPTION_CHARS,
  };
}

/** Code points in `s` (a lone surrogate counts as one). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) if (isPairAt(s, i)) i++;
  return n;
}

function isPairAt(s: string, i: number): boolean {
  const hi = s.charCodeAt(i);
  if (hi < 0xd800 || hi > 0xdbff || i + 1 >= s.length) return false;
  const lo = s.charCodeAt(i + 1);
  return lo >= 0xdc00 && lo <= 0xdfff;
}

/** A score as printed everywhere: fixed `SCORE_DECIMALS` decimals. */
export function formatScore(score: number): string {
  return score.toFixed(SCORE_DECIMALS);
}

/** A floor as printed: `SCORE_DECIMALS` decimals, or every digit when that would round it. */
export function formatFloor(floor: number): string {
  const fixed = floor.toFixed(SCORE_DECIMALS);
  return Number(fixed) === floor ? fixed : String(floor);
}
