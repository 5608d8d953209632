/**
 * Selection or refusal (docs/enrich.md, issue #7). Pure: scored skills in, a ranked outcome out. Keeps
 * the scores strictly above the floor, ranks them by score (descending) then name (ascending), takes
 * at most MAX_CANDIDATES; with fewer than MIN_CANDIDATES above the floor the outcome is a refusal.
 * It never lowers the floor to reach the minimum and never widens past the maximum.
 */
import { compareStrings } from '../text/index.js';

/** Fewest candidates above the floor for a selection; fewer is a refusal (issue #7). */
export const MIN_CANDIDATES = 5;
/** Most candidates a selection lists (issue #7). */
export const MAX_CANDIDATES = 10;
/** How many closest skills a refusal names (the seed's `closest_5`). */
export const CLOSEST_COUNT = 5;

/** The least a scored item must carry to be ranked. */
export interface Rankable {
  readonly score: number;
  /** The name ranked and printed: the skill id (`plugin:name` for a plugin's skill). */
  readonly skill_id: string;
  /** Final tie-break, so equal ids in a hand-built list still order the same way. */
  readonly path: string;
}

/** The outcome of a selection. */
export interface Selection<T extends Rankable> {
  readonly outcome: 'selected' | 'refused';
  /** How many scores are strictly above the floor. */
  readonly found_count: number;
  /** The selected candidates (at most MAX_CANDIDATES); empty on a refusal. */
  readonly candidates: readonly T[];
  /** The CLOSEST_COUNT best-ranked skills whatever their score (a refusal's closest misses). */
  readonly closest: readonly T[];
  /** Every scored item in rank order. */
  readonly ranked: readonly T[];
}

/** Rank order: score descending, then skill id ascending, then path ascending. */
export function compareRanked(a: Rankable, b: Rankable): number {
  return (
    b.score - a.score || compareStrings(a.skill_id, b.skill_id) || compareStrings(a.path, b.path)
  );
}

/** True when `score` is kept: strictly above `floor` (a score equal to the floor is not). */
export function isAboveFloor(score: number, floor: number): boolean {
  return score > floor;
}

/** Ranks `scored` and selects, or refuses when fewer than MIN_CANDIDATES are above `floor`. */
export function selectCandidates<T extends Rankable>(
  scored: readonly T[],
  floor: number,
): Selection<T> {
  const ranked = [...scored].sort(compareRanked);
  const above = ranked.filter((s) => isAboveFloor(s.score, floor));
  const closest = ranked.slice(0, CLOSEST_COUNT);
  if (above.length < MIN_CANDIDATES) {
    return { outcome: 'refused', found_count: above.length, candidates: [], closest, ranked };
  }
  return {
    outcome: 'selected',
    found_count: above.length,
    candidates: above.slice(0, MAX_CANDIDATES),
    closest,
    ranked,
  };
}
