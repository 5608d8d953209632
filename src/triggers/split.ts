/**
 * Honest trigger evaluation (issue 34 item 3): `eval --triggers` never grades a request the router
 * learned from. When the ranking learns from the library's own trigger cases (a policy that ranks
 * with author examples: router/search/stages/author-evidence.ts), the cases are split
 * deterministically — 60 % train, 40 % validation, by a stable hash of the normalised request text,
 * the split the agentskills.io guide "Optimizing skill descriptions" uses
 * (https://agentskills.io/skill-creation/optimizing-descriptions) — the router learns from the
 * train part only (a temporary catalog keeps only the train part's author examples) and only the
 * validation part is graded. Whatever the split, a graded request whose text is one of the usage
 * examples the ranking reads (learned, imported, fetched, or an author example the policy uses) is
 * not graded either, and counted: a library's CI gate cannot pass by memorising its own cases.
 */
import { sha256Hex } from '../fsx/index.js';
import { normalizeExampleQuery, type UsageExample } from '../catalog/index.js';
import { authorEvidenceEnabled } from '../router/index.js';

/** Share of the cases in the train part of a `hash-60-40` split. */
export const TRAIN_SHARE = 0.6;

/** How the cases were split (stated in every report format). */
export interface TriggerSplit {
  /** `hash-60-40`: train / validation by the request's hash; `none`: every case is a validation case. */
  readonly method: 'hash-60-40' | 'none';
  /** Why this method (the policy learns from the library's cases, or it does not, or it was asked for). */
  readonly reason: string;
  /** Cases in the train part: the router may learn from them; not graded. */
  readonly train: number;
  /** Cases graded. */
  readonly validation: number;
  /** Validation cases not graded because their request is one of the examples the ranking reads. */
  readonly learned: number;
}

/** `auto` (default): split when the ranking learns from the library's cases; `holdout`: always; `none`: never. */
export type SplitMode = 'auto' | 'holdout' | 'none';

/** The part of the split a request falls in: the first 32 bits of sha256(normalised text) mod 100. */
export function splitPartOf(query: string): 'train' | 'validation' {
  const h = Number.parseInt(sha256Hex(normalizeExampleQuery(query)).slice(0, 8), 16);
  return h % 100 < TRAIN_SHARE * 100 ? 'train' : 'validation';
}

/** Whether to split, and why, for `mode` and the policy the catalog ranks with. */
export function splitMethodOf(
  mode: SplitMode,
  policy: string | null,
  usage: boolean,
): { method: TriggerSplit['method']; reason: string } {
  if (mode === 'holdout') return { method: 'hash-60-40', reason: 'asked for (--split holdout)' };
  if (mode === 'none')
    return {
      method: 'none',
      reason: 'asked for (--split none); learned requests are still not graded',
    };
  if (usage && policy !== null && authorEvidenceEnabled(policy))
    return {
      method: 'hash-60-40',
      reason: `policy ${policy} ranks with the skills' own trigger cases`,
    };
  return {
    method: 'none',
    reason: `the ranking does not learn from the skills' own trigger cases${policy !== null ? ` (policy ${policy})` : ''}; learned requests are still not graded`,
  };
}

/** The normalised texts of the examples `policy` ranks with (none when usage is off). */
export function learnedQueries(
  examples: readonly UsageExample[],
  policy: string | null,
): Set<string> {
  const author = policy !== null && authorEvidenceEnabled(policy);
  const out = new Set<string>();
  for (const e of examples) {
    if (!author && (e.source === 'author' || e.polarity === 'negative')) continue;
    out.add(normalizeExampleQuery(e.query));
  }
  return out;
}
