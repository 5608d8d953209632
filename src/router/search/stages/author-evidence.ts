/**
 * The authors' trigger evaluations as routing evidence (issue 34 item 1, docs/ranking.md §9a).
 *
 * - `authorEvidenceEnabled(policyId)`: the one gate, the policy's `authorEvidence` parameter.
 *   Policy v4 is frozen (its golden over examples/skills, which ship evaluations, must not move)
 *   and v5 leaves it off on the cross-validated figures below, so no shipped policy ranks with
 *   author or negative examples today; a test or the bench opts one in with `optInAuthorEvidence`.
 * - `usageForPolicy`: under a policy that does not opt in, the usage field is built without the
 *   `author` examples (negative examples never enter it: bm25f-cache.ts).
 * - `authorStage`: after the engine ranked (and the trust bound placed the first candidate), each
 *   candidate whose own skill has should-not examples (source `author`, or learned with
 *   `"should_trigger": false`) is lowered when the request is closer to its should-not examples
 *   than to its should-trigger ones: score × max(PENALTY_FLOOR, 1 − PENALTY_STRENGTH × (neg − pos))
 *   when neg ≥ PENALTY_MIN_SIMILARITY and neg − pos ≥ PENALTY_MARGIN and > 0 (neg, pos: the best cosine of
 *   the request's terms with the skill's should-not / should-trigger examples). A penalty only
 *   ever lowers the skill whose example it is; no skill is raised. A candidate whose skill has
 *   author examples gets `explanation.author` (the matched examples, lift or penalty, factor).
 *   The trust bound stays whole: when lowering the first candidate would put first a skill outside
 *   the first TRUST_BOUND_K of the ranking without untrusted examples, or when the bound already
 *   moved this answer, the order is left as the engine gave it (the notes still say what matched).
 *
 * The constants are the choice of 32 of the 34 folds of a leave-one-repository-out cross-validation
 * on shared/bench/trigger with corpus-real (bench/author-evidence.ts, bench/results/
 * author-evidence.md; cross-validated top-1 0.757, false trigger@1 0.104 against v4's 0.748 / 0.090:
 * lexical similarity separates an author's near-misses from its should-trigger requests poorly).
 */
import { analyzeTerms, analyzeTermsV4, sanitizeField } from '../../../text/index.js';
import type { UsageExample } from '../../../catalog/index.js';
import { UsageIndex } from '../bm25f-cache.js';
import { compareCandidates } from '../top-k.js';
import { POLICIES } from '../policies/index.js';
import type { AuthorEvidenceNote, RankedCandidate, RankedResult } from '../types.js';

/** Least similarity of the request to a should-not example for a penalty. */
export const PENALTY_MIN_SIMILARITY = 0.4;
/** Least lead of the should-not similarity over the should-trigger one for a penalty. */
export const PENALTY_MARGIN = 0;
/** How hard the lead lowers the score. */
export const PENALTY_STRENGTH = 2;
/** The lowest factor a penalty multiplies a score by. */
export const PENALTY_FLOOR = 0.05;
/** Most matched examples an explanation quotes. */
export const MAX_NOTED_EXAMPLES = 3;
/** Longest example text an explanation quotes, in characters. */
const NOTE_CHARS = 120;

/** The penalty's constants (tests and the bench's cross-validation pass others). */
export interface PenaltyParams {
  readonly minSimilarity: number;
  readonly margin: number;
  readonly strength: number;
  readonly floor: number;
}

export const DEFAULT_PENALTY: PenaltyParams = {
  minSimilarity: PENALTY_MIN_SIMILARITY,
  margin: PENALTY_MARGIN,
  strength: PENALTY_STRENGTH,
  floor: PENALTY_FLOOR,
};

const optedIn = new Set<string>();
let current: PenaltyParams = DEFAULT_PENALTY;

/**
 * Ranks with `params` instead of DEFAULT_PENALTY until the returned function is called (the
 * bench's cross-validation; no CLI or MCP path calls this).
 */
export function setAuthorPenalty(params: PenaltyParams): () => void {
  const before = current;
  current = params;
  return () => {
    current = before;
  };
}

/** True when `policyId` ranks with author examples and negative examples (see the file header). */
export function authorEvidenceEnabled(policyId: string): boolean {
  const p = POLICIES.get(policyId);
  return (p?.kind === 'bm25f' && p.authorEvidence === true) || optedIn.has(policyId);
}

/**
 * Opts `policyId` in to author evidence until the returned function is called (tests and the
 * bench measure v4 with and without it; no CLI or MCP path calls this).
 */
export function optInAuthorEvidence(policyId: string): () => void {
  optedIn.add(policyId);
  return () => optedIn.delete(policyId);
}

const withoutAuthor = new WeakMap<UsageIndex, UsageIndex>();

/** The usage examples `policyId` ranks with: without the `author` ones unless it opts in. */
export function usageForPolicy(policyId: string, usage: UsageIndex): UsageIndex {
  if (authorEvidenceEnabled(policyId) || !usage.examples.some((e) => e.source === 'author'))
    return usage;
  let out = withoutAuthor.get(usage);
  if (out === undefined) {
    out = new UsageIndex(usage.examples.filter((e) => e.source !== 'author'));
    withoutAuthor.set(usage, out);
  }
  return out;
}

/** Cosine of two term sets (0 when either is empty). */
export function termCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n / Math.sqrt(a.size * b.size);
}

interface SkillEvidence {
  readonly positive: readonly { e: UsageExample; terms: ReadonlySet<string> }[];
  readonly negative: readonly { e: UsageExample; terms: ReadonlySet<string> }[];
  readonly hasAuthor: boolean;
}

// Per usage index and analyzer (keyed on its CJK option, the one that changes how text is read):
// each skill's positive and negative examples with their terms.
const evidenceCache = new WeakMap<UsageIndex, Map<boolean, Map<string, SkillEvidence>>>();

function evidenceOf(usage: UsageIndex, kind: boolean): Map<string, SkillEvidence> {
  let byKind = evidenceCache.get(usage);
  if (byKind === undefined) evidenceCache.set(usage, (byKind = new Map()));
  let out = byKind.get(kind);
  if (out !== undefined) return out;
  out = new Map();
  const analyze = kind ? analyzeTermsV4 : analyzeTerms;
  const acc = new Map<
    string,
    {
      positive: SkillEvidence['positive'][number][];
      negative: SkillEvidence['negative'][number][];
      hasAuthor: boolean;
    }
  >();
  for (const e of usage.examples) {
    let a = acc.get(e.skill_id);
    if (a === undefined)
      acc.set(e.skill_id, (a = { positive: [], negative: [], hasAuthor: false }));
    const item = { e, terms: new Set(analyze(e.query)) };
    if (e.polarity === 'negative') a.negative.push(item);
    else a.positive.push(item);
    if (e.source === 'author') a.hasAuthor = true;
  }
  for (const [id, a] of acc) if (a.negative.length > 0 || a.hasAuthor) out.set(id, a);
  byKind.set(kind, out);
  return out;
}

/** What the stage needs besides the engine's answer. */
export interface AuthorStageInput {
  readonly policyId: string;
  /** The policy's analyzer reads CJK text as bigrams: how example text is analysed. */
  readonly cjkBigrams: boolean;
  readonly query: string;
  readonly usage: UsageIndex;
  /** The skill ids of the first TRUST_BOUND_K without untrusted examples (asked only when needed). */
  readonly trustedTop: () => ReadonlySet<string>;
  readonly params?: PenaltyParams;
}

/** The engine's answer after the author stage (see the file header): `result` itself when nothing applies. */
export function authorStage(result: RankedResult, x: AuthorStageInput): RankedResult {
  if (!authorEvidenceEnabled(x.policyId)) return result;
  const evidence = evidenceOf(x.usage, x.cjkBigrams);
  if (evidence.size === 0 || result.candidates.length === 0) return result;
  const p = x.params ?? current;
  const q = new Set((x.cjkBigrams ? analyzeTermsV4 : analyzeTerms)(x.query));
  let changed = false;
  const staged = result.candidates.map((c) => {
    const ev = evidence.get(c.skill_id);
    if (ev === undefined) return c;
    const note = noteOf(ev, q, p);
    if (note === undefined) return c;
    changed = true;
    return {
      ...c,
      score: c.score * note.factor,
      explanation: { ...c.explanation, author: note },
    } as RankedCandidate;
  });
  if (!changed) return result;
  const bounded = result.candidates.some((c) => c.explanation.trust_bound !== undefined);
  const lowered = staged.some((c) => (c.explanation.author?.factor ?? 1) < 1);
  if (!lowered) return { ...result, candidates: staged };
  const sorted = [...staged].sort(compareCandidates);
  const keepOrder =
    bounded ||
    (sorted[0]!.skill_id !== staged[0]!.skill_id && !x.trustedTop().has(sorted[0]!.skill_id));
  // Keeping the order keeps the engine's scores too, so the answer stays in score order.
  if (!keepOrder) return { ...result, candidates: sorted };
  const candidates = result.candidates.map((c, i) => {
    const a = staged[i]!.explanation.author;
    if (a === undefined) return c;
    const author: AuthorEvidenceNote = {
      ...a,
      effect: a.effect === 'penalty' ? 'none' : a.effect,
      factor: 1,
    };
    return { ...c, explanation: { ...c.explanation, author } } as RankedCandidate;
  });
  return { ...result, candidates };
}

// The explanation of one candidate with author or negative examples; undefined when none matched.
function noteOf(
  ev: SkillEvidence,
  q: ReadonlySet<string>,
  p: PenaltyParams,
): AuthorEvidenceNote | undefined {
  const scored = [
    ...ev.positive.map((x) => ({ x, sim: termCosine(q, x.terms), polarity: 'positive' as const })),
    ...ev.negative.map((x) => ({ x, sim: termCosine(q, x.terms), polarity: 'negative' as const })),
  ].filter((s) => s.sim > 0);
  if (scored.length === 0) return undefined;
  const pos = Math.max(0, ...scored.filter((s) => s.polarity === 'positive').map((s) => s.sim));
  const neg = Math.max(0, ...scored.filter((s) => s.polarity === 'negative').map((s) => s.sim));
  const lead = neg - pos;
  // A tie (lead 0) lowers nothing: the request is as close to a should-trigger example.
  const penalise = neg >= p.minSimilarity && lead >= p.margin && lead > 0;
  const factor = penalise ? Math.max(p.floor, 1 - p.strength * lead) : 1;
  const matched = scored
    .filter((s) => s.polarity === 'negative' || s.x.e.source === 'author')
    .sort((a, b) => b.sim - a.sim || a.x.e.id - b.x.e.id)
    .slice(0, MAX_NOTED_EXAMPLES)
    .map((s) => ({
      query: sanitizeField(s.x.e.query).slice(0, NOTE_CHARS),
      source: s.x.e.source,
      polarity: s.polarity,
      similarity: round(s.sim),
    }));
  if (matched.length === 0) return undefined;
  const effect = penalise ? 'penalty' : pos >= neg && pos > 0 ? 'lift' : 'none';
  return { matched, effect, factor: round(factor) };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
