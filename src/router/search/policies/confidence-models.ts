/**
 * The fitted confidence model of each ranking policy (confidence.ts, docs/ranking.md §11): written
 * from the output of `npm run bench:calibrate` (bench/calibrate.ts; its trade-off tables are in
 * bench/results/calibration.md), which fits them on the trigger dev set of ../shared/bench/trigger
 * alone and with corpus-real as distractors. A policy's ranking never reads these: they only turn
 * its answers into probabilities, so refitting changes no ranking. Data only.
 */
import type { ConfidenceModel } from '../confidence.js';

/** The confidence model of each known policy, by id. */
export const CONFIDENCE_MODELS: ReadonlyMap<string, ConfidenceModel> = new Map<
  string,
  ConfidenceModel
>([
  [
    'tf.skillrouter.bm25f.v4',
    Object.freeze({
      means: [1.735158, 0.750504, 0.195791, 0.339021, 0.661086, 1.807548, 0.343379, 0.328687],
      scales: [0.50302, 0.262993, 0.204894, 0.290083, 0.294817, 0.695113, 0.474837, 0.469736],
      weights: [0.126974, 1.725229, 0.706142, 0.690292, 0.416829, 0.649759, 0.556636, -0.115583],
      bias: -2.25953,
      floor: 0.6,
      fitted_on: 'bench/calibrate.ts, trigger dev set (5309 rows)',
    }),
  ],
  [
    'tf.skillrouter.bm25f.v3',
    Object.freeze({
      means: [1.676758, 0.771688, 0.180532, 0.358874, 0.698103, 1.625182, 0.34517, 0.329545],
      scales: [0.540809, 0.253044, 0.206586, 0.291699, 0.27271, 0.577518, 0.475424, 0.470048],
      weights: [0.164796, 1.834414, 0.748055, 0.662241, 0.282659, 0.424713, 0.642831, 0.049732],
      bias: -2.371084,
      floor: 0.55,
      fitted_on: 'bench/calibrate.ts, trigger dev set (4928 rows)',
    }),
  ],
  [
    'tf.skillrouter.hybrid-lexical.v2',
    Object.freeze({
      means: [2.878669, 0.841271, 0.147035, 0.452166, 0.452166, 1.597562, 0.34824, 0.330642],
      scales: [0.379698, 0.180322, 0.193858, 0.25078, 0.25078, 0.565334, 0.476413, 0.470444],
      weights: [0.532187, 1.675861, 0.627778, 0.276554, 0.276554, 0.429976, 0.593187, -0.01116],
      bias: -2.263218,
      floor: 0.5,
      fitted_on: 'bench/calibrate.ts, trigger dev set (4830 rows)',
    }),
  ],
  [
    'tf.skillrouter.hybrid-lexical.v1',
    Object.freeze({
      means: [1.484204, 0.791234, 0.191105, 0.436522, 0.436522, 1.529975, 0.351221, 0.329335],
      scales: [0.411968, 0.244231, 0.251629, 0.25997, 0.25997, 0.615373, 0.477352, 0.469972],
      weights: [-0.219984, 0.469128, 0.446153, 0.583691, 0.583691, 0.939695, 1.22431, 0.302626],
      bias: -1.777129,
      floor: 0.45,
      fitted_on: 'bench/calibrate.ts, trigger dev set (4752 rows)',
    }),
  ],
]);
