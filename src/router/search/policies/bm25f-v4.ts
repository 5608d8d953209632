/**
 * Ranking policy `tf.skillrouter.bm25f.v4` (docs/ranking.md §10), frozen (the default before v5), as
 * data: one frozen `Bm25fParams` object (bm25f-core.ts reads it). BM25F over name, keywords
 * (+ tags), description, body and usage, tuned on real skills — the trigger dev set of
 * ../shared/bench/trigger (112 real skills, 847 requests their authors say should load a named
 * skill, 711 near-misses), with the 1,206 real SKILL.md files of corpus-real as distractors — and
 * checked on the tool-retrieval sets (metatool, apibench-torchhub, bfcl-curated). Its document
 * holds CJK text as character bigrams, descriptions without their boundary clauses (kept in a
 * field of their own that costs points) and bodies without template lines; a request's excluded
 * words count against the skills that have them; a name typed as a phrase earns a bonus.
 * `provenance` says where each number was chosen and on what figure.
 */
import type { Bm25fParams } from './bm25f-core.js';
import type { PerField } from './shared.js';

/** The policy id. */
export const POLICY_V4_ID = 'tf.skillrouter.bm25f.v4';

/** v4: every number it ranks with, and where each was chosen (docs/ranking.md §8, §10, §11). */
export const BM25F_V4: Bm25fParams = Object.freeze({
  kind: 'bm25f',
  id: POLICY_V4_ID,
  analyzer: Object.freeze({ cjkBigrams: true, excludedWords: true }),
  document: Object.freeze({
    kind: 'v4',
    boundaryClausesStripped: true,
    templateLinesRemoved: true,
  }),
  K1: 1.2,
  WEIGHTS: Object.freeze([3, 2, 1, 0.5, 0.5]) as PerField,
  B: Object.freeze([0.3, 0.3, 0.75, 0.9, 0.5]) as PerField,
  NAME_BONUS: 5.0,
  NAME_PHRASE_BONUS: 2.0,
  BOUNDARY_WEIGHT: 0.5,
  BOUNDARY_B: 0.5,
  EXCLUSION_WEIGHT: 0.5,
  FUZZY_WEIGHT: 2.0,
  DEPRECATED_MULTIPLIER: 0.5,
  confidence: Object.freeze({
    means: [1.735158, 0.750504, 0.195791, 0.339021, 0.661086, 1.807548, 0.343379, 0.328687],
    scales: [0.50302, 0.262993, 0.204894, 0.290083, 0.294817, 0.695113, 0.474837, 0.469736],
    weights: [0.126974, 1.725229, 0.706142, 0.690292, 0.416829, 0.649759, 0.556636, -0.115583],
    bias: -2.25953,
    floor: 0.6,
    fitted_on: 'bench/calibrate.ts, trigger dev set (5309 rows)',
  }),
  provenance: Object.freeze({
    analyzer:
      'CJK bigrams: trigger set top-1 0.727 → 0.798 clean, 0.649 → 0.720 with corpus-real; Chinese top-1 0.388 → 0.827 (Intl.Segmenter word breaks 0.68, bigrams plus single characters 0.66); tool sets unchanged. Excluded words: with the boundary clauses out, false trigger@1 0.121 → 0.113 clean, 0.077 → 0.075 with corpus-real (docs/ranking.md §10)',
    document:
      'boundary clauses out of the description: false trigger@1 0.134 → 0.121 clean (0.087 → 0.077 with corpus-real) for no top-1; template lines out (a line 10 or more served skills share): top-1 with corpus-real 0.724 → 0.749, clean −0.1 point (docs/ranking.md §10)',
    K1: 'bm25f.v3 dev split: 0.9 → 2.0 all within ±0.001 macro nDCG@10 on the tool sets (docs/ranking.md §8); kept for v4',
    WEIGHTS:
      'name/keyword 1–4 within ±0.002 macro nDCG@10 (dev split); body 0.3 ranks the trigger set better (+0.8 point top-1 clean, +1.4 with corpus-real) but costs bfcl-curated 0.9 points of nDCG@10 (0.873 → 0.864), 0.5 keeps both; usage 0.5 against 2: warm +0.021 (2 steals bfcl queries) (docs/ranking.md §8, §10)',
    B: 'body 0.9 against 0.75: +0.011 macro nDCG@10 with corpus-real distractors, ±0 clean; body 0.5: −0.005; names and keywords barely normalised (short lists), descriptions as classic BM25, usage midway (docs/ranking.md §8)',
    NAME_BONUS:
      'the query is exactly the name (mcp-builder must beat artifacts-builder where 860 skills say "MCP"); a bonus for any name contained in the query cost −0.001 (+1) to −0.005 (+3) macro nDCG@10 (docs/ranking.md §8)',
    NAME_PHRASE_BONUS:
      'the name (two terms or more) as a contiguous run of the request: +0.7 point top-1 clean, +0.6 with corpus-real (0.789 → 0.796, 0.718 → 0.724); the name terms anywhere cost bfcl-curated nDCG@10 0.868 against 0.874–0.875 (docs/ranking.md §10)',
    BOUNDARY_WEIGHT:
      '0.5 cut false trigger@1 0.121 → 0.113 clean for −0.3 point top-1; 1.0 reached 0.108 for 1.0 point of top-1, 2.0 reached 0.101 for 2.7 points (docs/ranking.md §10)',
    BOUNDARY_B: 'boundary clauses are short; not tuned further (docs/ranking.md §10)',
    EXCLUSION_WEIGHT:
      'chosen with BOUNDARY_WEIGHT, 0.5 each: false trigger@1 0.121 → 0.113 clean, 0.077 → 0.075 with corpus-real (docs/ranking.md §10)',
    FUZZY_WEIGHT:
      'per unknown word its best near term, similarity 1 − d/(allowed+1), averaged over the query terms; chosen on the dev split with bm25f.v3 (docs/ranking.md §8)',
    DEPRECATED_MULTIPLIER:
      'as v1: a deprecated skill (shown only with include_deprecated) keeps half its score (docs/ranking.md §3)',
    confidence:
      'logistic model fitted by npm run bench:calibrate on the trigger dev set alone and with corpus-real (5,309 rows); floor 0.6 from the trade-off table of bench/results/calibration.md (docs/ranking.md §11)',
  }),
});
