/**
 * The ranking policies by id. A catalog records the policy of each published generation (it is part
 * of the generation id); search scores with that policy. New catalogs use DEFAULT_POLICY_ID.
 */
import { SkilldexError } from '../../errors.js';
import { HYBRID_LEXICAL_V1 } from './hybrid-lexical-v1.js';
import { HYBRID_LEXICAL_V2 } from './hybrid-lexical-v2.js';
import type { RankingPolicy } from './policy.js';

/** Every known policy, by id. */
export const POLICIES: ReadonlyMap<string, RankingPolicy> = new Map([
  [HYBRID_LEXICAL_V1.id, HYBRID_LEXICAL_V1],
  [HYBRID_LEXICAL_V2.id, HYBRID_LEXICAL_V2],
]);

/**
 * The policy new catalogs are published under: v1, the design's policy, which meets the speed
 * targets; v2 ranks better on real, long descriptions at several times the cost on broad queries
 * (docs/ranking.md §7) and is one `--policy` away.
 */
export const DEFAULT_POLICY_ID = HYBRID_LEXICAL_V1.id;

/** The policy `id`; CATALOG_TOO_NEW when a catalog names one this skilldex does not know. */
export function policyById(id: string): RankingPolicy {
  const p = POLICIES.get(id);
  if (!p) {
    throw new SkilldexError('CATALOG_TOO_NEW', `the catalog is published under policy ${id}, which this skilldex does not know`, {
      policy: id,
      known: [...POLICIES.keys()],
    });
  }
  return p;
}

/** Checks a policy id given by an operator (INVALID_ARGUMENT lists the known ones). */
export function checkPolicyId(id: string): string {
  if (!POLICIES.has(id)) {
    throw new SkilldexError('INVALID_ARGUMENT', `unknown policy ${JSON.stringify(id)}; known: ${[...POLICIES.keys()].join(', ')}`, { policy: id });
  }
  return id;
}
