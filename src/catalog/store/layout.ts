/**
 * What a catalog stores for the policy it publishes under: the one place the catalog tells the
 * policy families apart (no other catalog code compares policy ids). A catalog keeps only what a
 * policy of its family reads (issue 33 item 4):
 *
 * - `lexical` (hybrid-lexical policies, v1): the serving rows' token strings (`name_tok` …
 *   `desc_st`), their FTS5 index `serving_fts` (SQLite only) and the fuzzy vocabulary `vocab`; no
 *   body is kept (v1 ranks on name, keywords and description) and no postings.
 * - `bm25f` (every BM25F parameter set, v4 and any later one): each revision's body lines and
 *   template keys (`revisions.body_lines`, `line_keys`), the serving rows' forward terms and body
 *   counts, the inverted index `postings` and the row statistics `serving_docs`; the token strings
 *   are written empty and FTS5 and `vocab` stay empty.
 *
 * The layout a catalog was built for is its meta `index_layout` (its serving tables) and
 * `body_layout` (what its revisions kept of their bodies); migration 6 set both from the index
 * kinds before (`v4` → bm25f, anything else → lexical).
 */
import { SkilldexError } from '../../errors.js';

/** The schema version from which a catalog keeps only its layout's data (migration 6). */
export const LAYOUT_SCHEMA_VERSION = 6;

/** The data a catalog keeps for its policy's family. */
export type IndexLayout = 'lexical' | 'bm25f';

/** What each layout stores. */
export interface LayoutParts {
  /** Token strings on the serving rows, FTS5 (SQLite) and the fuzzy vocabulary. */
  readonly lexical: boolean;
  /** Body lines on revisions; forward terms, body counts, postings and row statistics on serving. */
  readonly postings: boolean;
}

const PARTS: Readonly<Record<IndexLayout, LayoutParts>> = {
  lexical: { lexical: true, postings: false },
  bm25f: { lexical: false, postings: true },
};

// The policy families by id prefix (docs/ranking.md): a new parameter set of a family gets its
// family's layout without a change here.
const FAMILIES: readonly (readonly [prefix: string, layout: IndexLayout])[] = [
  ['tf.skillrouter.hybrid-lexical.', 'lexical'],
  ['tf.skillrouter.bm25f.', 'bm25f'],
];

// Policies whose documents no catalog stores any more (migration 6 dropped v3's body terms and
// postings). Which live policy such a catalog is upgraded to is the router's to say (its
// RETIRED_POLICIES, the default policy); the catalog names none.
const RETIRED: ReadonlySet<string> = new Set(['tf.skillrouter.bm25f.v3']);

/**
 * The layout a catalog published under `policy` keeps. POLICY_RETIRED for a retired policy or
 * INVALID_ARGUMENT for one of no known family.
 */
export function layoutOf(policy: string): IndexLayout {
  if (RETIRED.has(policy)) {
    throw new SkilldexError(
      'POLICY_RETIRED',
      `policy ${policy} is retired: catalogs no longer store its documents; index under a live policy (skilldex index --policy ID; \`skilldex index --help\` names the default), which keeps usage examples, telemetry and lifecycle states`,
      { policy },
    );
  }
  for (const [prefix, layout] of FAMILIES) if (policy.startsWith(prefix)) return layout;
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `policy ${policy} belongs to no family a catalog can store (${FAMILIES.map(([p]) => `${p}*`).join(', ')})`,
    { policy },
  );
}

/** Whether `policy` is one whose documents no catalog stores any more (bm25f.v3). */
export function isRetiredLayout(policy: string): boolean {
  return RETIRED.has(policy);
}

/** What `layout` stores. */
export function layoutParts(layout: IndexLayout): LayoutParts {
  return PARTS[layout];
}

/** A stored meta value read as a layout (absent or unknown: lexical, what catalogs before kept). */
export function storedLayout(value: string | undefined): IndexLayout {
  return value === 'bm25f' ? 'bm25f' : 'lexical';
}
