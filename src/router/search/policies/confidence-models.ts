/**
 * The fitted confidence model of each ranking policy (confidence.ts, docs/ranking.md §11): written
 * from the output of `npm run bench:calibrate` (bench/calibrate.ts; its trade-off tables are in
 * bench/results/calibration.md), which fits them on the trigger dev set of ../shared/bench/trigger
 * alone and with corpus-real as distractors. A BM25F policy carries its model in its parameter
 * object (bm25f-v4.ts); v1's is here. A policy's ranking never reads these: they only turn its
 * answers into probabilities, so refitting changes no ranking. Data only.
 */
import { BM25F_V4 } from './bm25f-v4.js';
import { BM25F_V5 } from './bm25f-v5.js';
import type { ConfidenceModel } from './types.js';
import { POLICY_ID } from './hybrid-lexical-v1.js';

/** v1's fitted model. */
const V1_CONFIDENCE: ConfidenceModel = Object.freeze({
  means: [1.484204, 0.791234, 0.191105, 0.436522, 0.436522, 1.529975, 0.351221, 0.329335],
  scales: [0.411968, 0.244231, 0.251629, 0.25997, 0.25997, 0.615373, 0.477352, 0.469972],
  weights: [-0.219984, 0.469128, 0.446153, 0.583691, 0.583691, 0.939695, 1.22431, 0.302626],
  bias: -1.777129,
  floor: 0.45,
  fitted_on: 'bench/calibrate.ts, trigger dev set (4752 rows)',
});

/** The confidence model of each known policy, by id. */
export const CONFIDENCE_MODELS: ReadonlyMap<string, ConfidenceModel> = new Map<
  string,
  ConfidenceModel
>([
  [BM25F_V4.id, BM25F_V4.confidence],
  [BM25F_V5.id, BM25F_V5.confidence],
  [POLICY_ID, V1_CONFIDENCE],
]);
