/**
 * The ranking policies by id. A catalog records the policy of each published generation (it is part
 * of the generation id); search scores with that policy. New catalogs use DEFAULT_POLICY_ID.
 */
import { SkilldexError } from '../../../errors.js';
import { HYBRID_LEXICAL_V1 } from './hybrid-lexical-v1.js';
import { HYBRID_LEXICAL_V2 } from './hybrid-lexical-v2.js';
import { BM25F_V3 } from './bm25f-v3.js';
import { BM25F_V4 } from './bm25f-v4.js';
import type { Policy } from './policy.js';

/** Every known policy, by id. */
export const POLICIES: ReadonlyMap<string, Policy> = new Map<string, Policy>([
  [HYBRID_LEXICAL_V1.id, HYBRID_LEXICAL_V1],
  [HYBRID_LEXICAL_V2.id, HYBRID_LEXICAL_V2],
  [BM25F_V3.id, BM25F_V3],
  [BM25F_V4.id, BM25F_V4],
]);

/**
 * The policy new catalogs are published under: bm25f.v4, tuned on real skills and their authors'
 * trigger requests (docs/ranking.md §10). v1, v2 and v3 stay selectable with `--policy` and rank as
 * before.
 */
export const DEFAULT_POLICY_ID = BM25F_V4.id;

/** The policy `id`; CATALOG_TOO_NEW when a catalog names one this skilldex does not know. */
export function policyById(id: string): Policy {
  const p = POLICIES.get(id);
  if (!p) {
    throw new SkilldexError(
      'CATALOG_TOO_NEW',
      `the catalog is published under policy ${id}, which this skilldex does not know`,
      {
        policy: id,
        known: [...POLICIES.keys()],
      },
    );
  }
  return p;
}

/** Checks a policy id given by an operator (INVALID_ARGUMENT lists the known ones). */
export function checkPolicyId(id: string): string {
  if (!POLICIES.has(id)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unknown policy ${JSON.stringify(id)}; known: ${[...POLICIES.keys()].join(', ')}`,
      { policy: id },
    );
  }
  return id;
}
