/**
 * The near-miss stage's frozen parameters (issue 34, docs/ranking.md §12–§13): the re-rank weights
 * (RERANK_NEARMISS_V1), the confidence model over the re-ranked list (NEARMISS_CONFIDENCE_V1) and
 * the prompt hook's rule (NEARMISS_HOOK_RULE), every constant chosen by leave-one-repository-out
 * cross-validation by bench/nearmiss.ts. Data only: the stage that reads them is
 * ../stages/rerank-nearmiss.ts; policy bm25f.v5 (bm25f-v5.ts) holds them.
 */
import type { LogisticModel } from './types.js';

/** The stage's parameters: how deep it re-ranks and the weight of each feature. */
export interface RerankParams {
  readonly id: string;
  /** How many of the policy's candidates the stage re-orders (the rest keep their order after). */
  readonly depth: number;
  /** Weight of each feature (RERANK_FEATURES order); a zero weight switches a feature off. */
  readonly weights: readonly number[];
  /** Where the weights came from, for the docs. */
  readonly fitted_on: string;
}

/**
 * A fitted logistic confidence model over NEARMISS_CONFIDENCE_FEATURES; its floor is chosen by
 * cross-validation (keep ≥ 85 % of top-1 hits on the other repositories).
 */
export type NearmissConfidenceModel = LogisticModel;

/** Which of an answer's candidates the prompt hook names (rank 1 at or above f1, ranks 2..k at or above f2). */
export interface NearmissHookRule {
  readonly f1: number;
  readonly f2: number;
  readonly k: number;
  /** Silent on a request made only of small talk (policies/hook-rule.ts isSmallTalk). */
  readonly silent_on_small_talk?: boolean;
  readonly fitted_on: string;
}

/**
 * The stage's parameters, fitted by bench/nearmiss.ts (bench/results/nearmiss.md). Features were
 * added greedily under leave-one-repository-out CV, each only when it raised CV top-1 − false
 * trigger@1 without lowering either, and only when the stage left no tool-retrieval set
 * (metatool, apibench-torchhub, bfcl-curated; cold and warm) below v4's nDCG@10. Only
 * `redirect_target` passed both: CV top-1 0.750 (v4 0.750), false trigger@1 0.073 (v4 0.075),
 * tool sets unchanged. The trigger-only choice (share_of_top, body_share, idf_coverage,
 * redirect_target) reached CV 0.760 / 0.066 but cost up to 0.008 nDCG@10 (bfcl-curated cold).
 */
export const RERANK_NEARMISS_V1: RerankParams = Object.freeze({
  id: 'rerank-nearmiss.v1',
  depth: 10,
  weights: Object.freeze([6.4432, 0, 0, 0, 0, 0, 0, 0.3215, 0, 0, 0, 0, 0, 0]),
  fitted_on:
    'bench/nearmiss.ts: features chosen by leave-one-repository-out CV on the trigger dev set (34 repositories, corpus-real distractors) and the tool-set check; weights fitted on all 34',
});

/**
 * The confidence model over the stage's list (NEARMISS_CONFIDENCE_FEATURES; features chosen by
 * pooled CV log loss: confidence.ts's eight + body_share). Under leave-one-repository-out CV,
 * with each fold's floor chosen to keep 85 % of its top-1 hits: 85.8 % kept, top-1 0.643, false
 * trigger@1 0.045 (v4's shipped model, fitted in-sample: 0.852 / 0.639 / 0.048). `floor` is the
 * same rule on all 34 repositories (the folds chose 0.53–0.60).
 */
export const NEARMISS_CONFIDENCE_V1: NearmissConfidenceModel = Object.freeze({
  means: Object.freeze([
    1.926242, 0.763659, 0.182411, 0.359288, 0.656876, 1.809109, 0.341056, 0.330801, 0, 0, 0, 0,
    0.701617, 0, 0, 0,
  ]),
  scales: Object.freeze([
    0.442831, 0.246529, 0.192565, 0.287229, 0.295298, 0.69644, 0.474064, 0.470502, 1, 1, 1, 1,
    0.206337, 1, 1, 1,
  ]),
  weights: Object.freeze([
    0.10386, 1.685017, 0.732023, 0.208532, 0.893701, 0.752242, 0.568296, -0.005119, 0, 0, 0, 0,
    -0.494629, 0, 0, 0,
  ]),
  bias: -2.331573,
  floor: 0.6,
  fitted_on:
    'bench/nearmiss.ts: all 34 repositories of the trigger dev set (corpus-real distractors); features and floor rule chosen by leave-one-repository-out CV',
});

/**
 * The hook's rule over NEARMISS_CONFIDENCE_V1's confidences (bench/nearmiss.ts, docs/ranking.md
 * §12): the rule 32 of the 34 leave-one-repository-out folds chose when maximising
 * named − 6 × must-not named with at most 1.5 names per request. Pooled over the held-out
 * repositories: labelled skill named 0.720, must-not skill named 0.051 (36 of 711), 0.81 names
 * per request; the rule fixed for all: 0.721 / 0.049 (35 of 711) / 0.81 (today's rule with v4's
 * in-sample confidence: 0.641 / 0.049 (35 of 711) / 0.63).
 */
export const NEARMISS_HOOK_RULE: NearmissHookRule = Object.freeze({
  f1: 0.45,
  f2: 0.25,
  k: 3,
  fitted_on:
    'bench/nearmiss.ts: leave-one-repository-out on the trigger dev set, named − 6 × false, ≤ 1.5 names per request',
});
