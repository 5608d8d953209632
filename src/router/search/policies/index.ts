/**
 * The ranking policies by id. A catalog records the policy of each published generation (it is part
 * of the generation id); search scores with that policy. New catalogs use DEFAULT_POLICY_ID. The
 * live policies are v1 (lexical, FTS5), v4 and v5 (BM25F parameter sets); v2 and v3 are retired
 * (RETIRED_POLICIES): an index under them is refused, a catalog published under them must be
 * re-indexed.
 */
import { SkilldexError } from '../../../errors.js';
import { escapeInvisible } from '../../../text/index.js';
import { HYBRID_LEXICAL_V1 } from './hybrid-lexical-v1.js';
import { BM25F_V4 } from './bm25f-v4.js';
import { BM25F_V5 } from './bm25f-v5.js';
import { BM25F_V4_PLAIN } from './bm25f-v4-plain.js';
import type { Bm25fParams } from './bm25f-core.js';
import type { Policy } from './policy.js';

/** Every live policy, by id. */
export const POLICIES: ReadonlyMap<string, Policy> = new Map<string, Policy>([
  [HYBRID_LEXICAL_V1.id, HYBRID_LEXICAL_V1],
  [BM25F_V4.id, BM25F_V4],
  [BM25F_V5.id, BM25F_V5],
]);

/**
 * Parameter sets a search may rank with beside the live policies (the explorer's comparison), never
 * a catalog's policy: each reads the stored document of a live BM25F policy.
 */
export const COMPARISON_SETS: ReadonlyMap<string, Bm25fParams> = new Map([
  [BM25F_V4_PLAIN.id, BM25F_V4_PLAIN],
]);

/**
 * The policy new catalogs are published under: bm25f.v5, v4's parameters (tuned on real skills and
 * their authors' trigger requests, docs/ranking.md §10) with the near-miss re-rank stage, its
 * confidence model and the hook's rule (§13). v4 and v1 stay selectable with `--policy` and rank
 * as before.
 */
export const DEFAULT_POLICY_ID = BM25F_V5.id;

/**
 * Retired policies, by id, with the live policy a catalog published under each is upgraded to: the
 * default. hybrid-lexical.v2 and bm25f.v3 were superseded by bm25f.v4 (v3 is v4 without its CJK,
 * boundary, exclusion, template-line and name-phrase parts; v2 is v1 with IDF-weighted tiers, below
 * v3 and v4 on every measured set), which v5 extends; v4 stays live, but an upgrade goes to the
 * policy a new catalog gets.
 */
export const RETIRED_POLICIES: ReadonlyMap<string, string> = new Map([
  ['tf.skillrouter.hybrid-lexical.v2', DEFAULT_POLICY_ID],
  ['tf.skillrouter.bm25f.v3', DEFAULT_POLICY_ID],
]);

/** The command that re-indexes `catalog` under the policy that replaces a retired one. */
export function reindexCommand(catalog: string, retired: string): string {
  return indexCommand(catalog, RETIRED_POLICIES.get(retired) ?? DEFAULT_POLICY_ID);
}

/** The command that re-indexes `catalog` under the live policy `policy`. */
export function indexCommand(catalog: string, policy: string): string {
  return `skilldex index --catalog ${shellWord(catalog)} --policy ${policy}`;
}

// A path as one shell word, as cli/render/shell.ts writes one (the router may not import the CLI):
// bare when it holds only safe characters, else single-quoted with invisible characters escaped.
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${escapeInvisible(s).replace(/'/g, `'\\''`)}'`;
}

/**
 * The policy `id` a catalog's published generation names. REINDEX_REQUIRED for a retired policy
 * (the message names `catalog`, the hint the command that upgrades it); CATALOG_TOO_NEW for an id
 * this skilldex does not know.
 */
export function policyById(id: string, catalog = 'the catalog'): Policy {
  const p = POLICIES.get(id);
  if (p) return p;
  const live = RETIRED_POLICIES.get(id);
  if (live !== undefined) {
    const command = reindexCommand(catalog, id);
    throw new SkilldexError(
      'REINDEX_REQUIRED',
      `${catalog} is published under policy ${id}, which this skilldex retired (replaced by ${live}); re-index it`,
      { catalog, policy: id, replaced_by: live, command },
      { hint: `run ${command}` },
    );
  }
  throw new SkilldexError(
    'CATALOG_TOO_NEW',
    `the catalog is published under policy ${id}, which this skilldex does not know`,
    {
      policy: id,
      known: [...POLICIES.keys()],
    },
  );
}

/**
 * Checks a policy id given by an operator: POLICY_RETIRED for a retired one (naming the live
 * policies), INVALID_ARGUMENT listing the live ones for any other unknown id.
 */
export function checkPolicyId(id: string): string {
  const live = RETIRED_POLICIES.get(id);
  if (live !== undefined) {
    throw new SkilldexError(
      'POLICY_RETIRED',
      `policy ${id} is retired (replaced by ${live}); live policies: ${[...POLICIES.keys()].join(', ')}`,
      { policy: id, replaced_by: live, live: [...POLICIES.keys()] },
    );
  }
  if (!POLICIES.has(id)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unknown policy ${JSON.stringify(id)}; known: ${[...POLICIES.keys()].join(', ')}`,
      { policy: id },
    );
  }
  return id;
}

/**
 * A policy or comparison parameter set a search request names (`SearchRequest.policy`):
 * INVALID_ARGUMENT listing them for any other id.
 */
export function rankingById(id: string): Policy {
  const p = POLICIES.get(id) ?? COMPARISON_SETS.get(id);
  if (p) return p;
  const known = [...POLICIES.keys(), ...COMPARISON_SETS.keys()];
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `unknown policy ${JSON.stringify(id)}; known: ${known.join(', ')}`,
    { policy: id, known },
  );
}

/**
 * True when `p` ranks over the stored document of a catalog published under `catalogPolicy`: a
 * BM25F parameter set needs a catalog whose own BM25F policy reads the same document (a v1
 * catalog keeps another); v1 reads the FTS5 table every SQLite catalog keeps.
 */
export function readsDocumentOf(p: Policy, catalogPolicy: string): boolean {
  if (p.kind !== 'bm25f') return true;
  const own = POLICIES.get(catalogPolicy);
  return own?.kind === 'bm25f' && own.document.kind === p.document.kind;
}

/** The comparison parameter sets that rank over the stored document of a `catalogPolicy` catalog. */
export function comparisonSetsFor(catalogPolicy: string): string[] {
  return [...COMPARISON_SETS.values()]
    .filter((p) => readsDocumentOf(p, catalogPolicy))
    .map((p) => p.id);
}
