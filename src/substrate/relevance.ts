/**
 * The topic relevance judgement of substrate reads (docs/substrate.md), pure and deterministic. The
 * query's terms are compared with the evidence read so far (the index row, then also the summary,
 * then also the body) and each depth ends in one of four judgements: a full or partial hit, a
 * clear non-match, or ambiguous (read one level deeper). docs/substrate.md states the same rule;
 * the two must change together.
 */
import { boundedEditDistance } from '../text/index.js';
import { stemTerms } from './query.js';

/**
 * The constants of the rule. A term is `exact` when its stem is among the evidence's stems, and
 * `near` when it is not but an evidence stem shares a prefix with it (the shorter at least
 * `MIN_PREFIX` letters: `auth` ~ `authent`) or is within `MAX_NEAR_DISTANCE` edits of it (both
 * at least `MIN_NEAR_LENGTH` letters: `tenant` ~ `tenanc`).
 */
export const RELEVANCE_RULE = Object.freeze({
  /** Shortest stem that may stand for a longer one by prefix (4: `auth`, `conf`, `repo`). */
  MIN_PREFIX: 4,
  /** Shortest stems compared by edit distance (5: shorter words have too many neighbours). */
  MIN_NEAR_LENGTH: 5,
  /** Most edits between near stems (1: one typo or one inflection the stemmer left). */
  MAX_NEAR_DISTANCE: 1,
  /** Fewest exact terms of a partial hit (2: one shared word alone is never enough). */
  MIN_PARTIAL_TERMS: 2,
  /** Least share of the query's terms found exactly for a partial hit (one half). */
  PARTIAL_COVERAGE: 0.5,
});

/** How the query's terms meet one body of evidence. */
export interface TermEvidence {
  readonly exact: readonly string[];
  /** Near terms as `term~stem` pairs. */
  readonly near: readonly string[];
  readonly absent: readonly string[];
}

/** The judgement at one depth. */
export type Judgement = 'full' | 'partial' | 'non-match' | 'ambiguous';

/** The stems of `texts`, joined into one set of evidence. */
export function evidenceOf(...texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const s of stemTerms(t)) out.add(s);
  return out;
}

/** Sorts each query term into exact, near or absent against `evidence`. */
export function compareTerms(
  terms: readonly string[],
  evidence: ReadonlySet<string>,
): TermEvidence {
  const exact: string[] = [];
  const near: string[] = [];
  const absent: string[] = [];
  for (const t of terms) {
    if (evidence.has(t)) {
      exact.push(t);
      continue;
    }
    // The least near stem by code point, so the one reported never depends on evidence order.
    let n: string | undefined;
    for (const s of evidence) if ((n === undefined || s < n) && isNear(t, s)) n = s;
    if (n === undefined) absent.push(t);
    else near.push(`${t}~${n}`);
  }
  return { exact, near, absent };
}

/** True when stems `a` and `b` differ but are near by prefix or by one edit (see RELEVANCE_RULE). */
export function isNear(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= RELEVANCE_RULE.MIN_PREFIX && long.startsWith(short)) return true;
  return (
    short.length >= RELEVANCE_RULE.MIN_NEAR_LENGTH &&
    boundedEditDistance(a, b, RELEVANCE_RULE.MAX_NEAR_DISTANCE) <= RELEVANCE_RULE.MAX_NEAR_DISTANCE
  );
}

/**
 * The judgement for `evidence` of a query with `termCount` terms:
 * `full` when every term is exact; `partial` when at least MIN_PARTIAL_TERMS terms and at least
 * PARTIAL_COVERAGE of them are exact; `non-match` when no term is exact or near; `ambiguous`
 * otherwise. At the body, the last depth, the caller treats `ambiguous` as excluded.
 */
export function judge(evidence: TermEvidence, termCount: number): Judgement {
  const exact = evidence.exact.length;
  if (exact === termCount) return 'full';
  if (
    exact >= RELEVANCE_RULE.MIN_PARTIAL_TERMS &&
    exact >= RELEVANCE_RULE.PARTIAL_COVERAGE * termCount
  )
    return 'partial';
  if (exact === 0 && evidence.near.length === 0) return 'non-match';
  return 'ambiguous';
}

/** One line for `--explain`: `2 of 3 terms (payment, retri); near auth~authent`. */
export function describeEvidence(evidence: TermEvidence, termCount: number): string {
  const parts = [
    `${evidence.exact.length} of ${termCount} terms${evidence.exact.length > 0 ? ` (${evidence.exact.join(', ')})` : ''}`,
  ];
  if (evidence.near.length > 0) parts.push(`near ${evidence.near.join(', ')}`);
  return parts.join('; ');
}
