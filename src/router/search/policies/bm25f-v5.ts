/**
 * Ranking policy `tf.skillrouter.bm25f.v5` (docs/ranking.md §13), the default for new catalogs, as
 * data: v4's parameter set (the same analyzer, the same stored document: a v4 catalog's data
 * serves v5 unchanged) plus the near-miss re-rank stage over the engine's top 10
 * (RERANK_NEARMISS_V1), the confidence model over the re-ranked list (NEARMISS_CONFIDENCE_V1, its
 * floor 0.60) and the prompt hook's rule (NEARMISS_HOOK_RULE). Every constant of the three was
 * chosen by leave-one-repository-out cross-validation on the trigger dev set (34 repositories,
 * corpus-real distractors) by bench/nearmiss.ts (docs/ranking.md §12, bench/results/nearmiss.md);
 * `provenance` gives each one's cross-validated figure.
 */
import type { Bm25fParams } from './bm25f-core.js';
import { BM25F_V4 } from './bm25f-v4.js';
import {
  NEARMISS_CONFIDENCE_V1,
  NEARMISS_HOOK_RULE,
  RERANK_NEARMISS_V1,
} from './stage-nearmiss.js';

/** The policy id. */
export const POLICY_V5_ID = 'tf.skillrouter.bm25f.v5';

/** v5: v4's numbers, the near-miss stage, its confidence model and the hook's rule. */
export const BM25F_V5: Bm25fParams = Object.freeze({
  ...BM25F_V4,
  id: POLICY_V5_ID,
  stages: Object.freeze([RERANK_NEARMISS_V1]),
  confidence: Object.freeze({ ...NEARMISS_CONFIDENCE_V1, features: 'nearmiss' as const }),
  hook: Object.freeze({ ...NEARMISS_HOOK_RULE, silent_on_small_talk: true }),
  authorEvidence: false,
  provenance: Object.freeze({
    authorEvidence:
      'off: with 60 % of each skill’s should / should-not requests beside it as author examples and the other 40 % routed, the penalty constants chosen by leave-one-repository-out, v4 + author evidence gave top-1 0.757 and false trigger@1 0.104 against 0.748 / 0.090 without (bench/results/author-evidence.md, docs/ranking.md §9a): the lift raises the must-not skill too',
    ...BM25F_V4.provenance,
    stages:
      'rerank-nearmiss.v1 over the top 10: share_of_top 6.4432 and redirect_target 0.3215 (every other feature 0), chosen feature by feature under leave-one-repository-out CV on the trigger dev set with corpus-real (34 repositories): CV top-1 0.750 (v4 0.750), top-3 0.856 (0.856), false trigger@1 0.073 (0.075); a feature was kept only when it raised CV top-1 − false trigger@1 without lowering either and left metatool, apibench-torchhub and bfcl-curated (cold and warm) at or above v4’s nDCG@10 (docs/ranking.md §12)',
    confidence:
      'NEARMISS_CONFIDENCE_V1: §11’s eight features read off the re-ranked list plus body_share (features chosen by pooled leave-one-repository-out CV log loss), fitted on all 34 repositories; with each fold’s floor chosen to keep 85 % of its top-1 hits, CV keeps 85.8 % of the hits, top-1 0.643, false trigger@1 0.045 (v4’s in-sample model: 0.852 / 0.639 / 0.048); floor 0.60, the same rule on all 34 (the folds chose 0.53–0.60) (docs/ranking.md §12); served non-increasing down the list (stages/index.ts; rank 1 and the hook unchanged, docs/ranking.md §13)',
    hook: 'NEARMISS_HOOK_RULE: rank 1 at 0.45, ranks 2–3 at 0.25, at most 3; chosen by 32 of 34 LORO folds maximising named − 6 × must-not named within 1.5 names per request: labelled skill named 0.721, must-not skill named 0.049 (35 of 711), 0.81 names per request (v4’s rule: 0.641 / 0.049 / 0.63) (docs/ranking.md §12). silent_on_small_talk: not fitted — a request made only of greetings, thanks and small-talk words (hook-rule.ts SMALL_TALK) names nothing; over the examples v4 and v5 both named email-drafter for "hi there" and "thanks!" (0.67 / 0.73); its cost on the trigger set is in bench/results/hook.md (docs/ranking.md §13)',
  }),
});
