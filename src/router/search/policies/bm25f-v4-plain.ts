/**
 * A comparison parameter set, not a policy a catalog can be published under: bm25f.v4 without the
 * parts issue 22 added to v3 that read the request against the skill — no name-phrase bonus, no
 * boundary or exclusion penalty, excluded words read as wanted ones — over v4's stored document.
 * The explorer's "compare policies" ranks with it beside v4 (docs/explorer.md), to show what those
 * parts do to one query; it is what the retired v3 was, minus v3's own document.
 */
import type { Bm25fParams } from './bm25f-core.js';
import { BM25F_V4 } from './bm25f-v4.js';

/** The parameter set's id (the `compare:` prefix: never a catalog's policy). */
export const BM25F_V4_PLAIN_ID = 'compare:bm25f.v4-plain';

/** v4's numbers with its request-side parts turned off. */
export const BM25F_V4_PLAIN: Bm25fParams = Object.freeze({
  ...BM25F_V4,
  id: BM25F_V4_PLAIN_ID,
  analyzer: Object.freeze({ cjkBigrams: true, excludedWords: false }),
  NAME_PHRASE_BONUS: 0,
  BOUNDARY_WEIGHT: 0,
  EXCLUSION_WEIGHT: 0,
  provenance: Object.freeze({
    ...BM25F_V4.provenance,
    analyzer:
      "v4's CJK bigrams (the stored document has them); excluded words off: a request's every word is wanted, as v3 read it",
    NAME_PHRASE_BONUS: 'off (0): v3 had no name-phrase bonus',
    BOUNDARY_WEIGHT: 'off (0): v3 charged nothing for boundary clauses',
    EXCLUSION_WEIGHT: 'off (0): v3 had no excluded words',
    confidence:
      "v4's model, not refitted for this set: its confidences are indicative only (bench/calibrate.ts fits live policies)",
  }),
});
