/**
 * The trust bound of learning from use (docs/ranking.md §9, issue 23 §3): a usage example recorded
 * by a fetch never makes a skill first on its own. For a request q, let T be the first
 * TRUST_BOUND_K skills of the ranking with only the trusted examples (`import` and `host`) and no
 * telemetry (the same query, policy and lifecycle filter; the fetches that record examples also
 * raise telemetry). Whenever a fetch example can change the ranking of q (some skill's usage
 * field holds a word of q; else the bound does not apply), a skill outside T is never ranked first:
 * when the ranking with every example puts one first, the member of T that ranks best with every
 * example takes first place and every candidate it passed keeps its order after it; when no
 * member of T scores at all, the answer is empty. Lower places are not bounded. Candidates the
 * bound moved say so in `explanation.trust_bound`.
 *
 * Pure: it only reorders the candidates it is given and scores members of T through `score`; it
 * never ranks, reads the catalog or changes a score. The BM25F engines call it (bm25f.ts); the
 * lexical policy v1 does not learn from use, so nothing here applies to it.
 */
import { sanitizeField } from '../../text/index.js';
import { compareCandidates } from './top-k.js';
import type { RankedCandidate, TrustBoundNote } from './types.js';

export type { TrustBoundNote } from './types.js';

/** K of the bound: a skill outside the first K without fetch examples is never ranked first with them. */
export const TRUST_BOUND_K = 10;

/** What the bound needs from a search. */
export interface TrustBoundInput {
  /** The best candidates with every example, in compareCandidates order (at most `n`). */
  readonly full: readonly RankedCandidate[];
  /** Most candidates the answer holds. */
  readonly n: number;
  /** The first TRUST_BOUND_K candidates with the trusted examples only. */
  readonly trusted: readonly RankedCandidate[];
  /**
   * The candidates of `skillIds` scored with every example, whatever their rank (a skill missing
   * from the answer, or scoring 0, cannot be put first).
   */
  readonly score: (skillIds: readonly string[]) => readonly RankedCandidate[];
}

/** The answer's candidates under the trust bound (see the file header): `full` itself when it holds. */
export function applyTrustBound(x: TrustBoundInput): RankedCandidate[] {
  const first = x.full[0];
  const trusted = new Set(x.trusted.slice(0, TRUST_BOUND_K).map((c) => c.skill_id));
  if (first === undefined || trusted.has(first.skill_id)) return [...x.full];
  // full is in compareCandidates order, so its first member of T is T's best with every example;
  // when full holds none, every member of T ranks after all of full.
  const at = x.full.findIndex((c) => trusted.has(c.skill_id));
  const promoted =
    at >= 0
      ? x.full[at]!
      : [...x.score([...trusted])].filter((c) => c.score > 0).sort(compareCandidates)[0];
  if (promoted === undefined) return [];
  const ahead = at >= 0 ? x.full.slice(0, at) : x.full;
  const after = at >= 0 ? x.full.slice(at + 1) : [];
  return [
    noted(promoted, 'first', first.skill_id),
    ...ahead.map((c) => noted(c, 'held_back', promoted.skill_id)),
    ...after,
  ].slice(0, x.n);
}

// The candidate with its explanation's trust_bound note (a skill id another author chose, shown to
// every client: through the one sanitiser).
function noted(c: RankedCandidate, role: TrustBoundNote['role'], skill: string): RankedCandidate {
  const trust_bound: TrustBoundNote = { k: TRUST_BOUND_K, role, skill: sanitizeField(skill) };
  return { ...c, explanation: { ...c.explanation, trust_bound } };
}
