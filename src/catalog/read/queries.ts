/**
 * The named, typed catalog reads of the router (issue #13: one owner for the schema): the router
 * asks for "the serving row of X", "a page of served skills", "candidates for these tokens ranked
 * by a lexical policy's partial score", and never writes SQL over catalog tables. Every function
 * runs inside the caller's `CatalogReader.read` snapshot. The BM25F reads are in
 * queries-bm25f.ts.
 */
import { SkilldexError } from '../../errors.js';
import type { CatalogReader } from './reader.js';
import type { CatalogStatement } from '../store/db-type.js';
import { decodeStoredFrontmatter } from '../store/stored.js';
import type { TokenStrings } from '../write/tokens.js';
import {
  LAYOUT_SCHEMA_VERSION,
  storedLayout,
  isRetiredLayout,
  type IndexLayout,
} from '../store/layout.js';

/** Lifecycle state of a serving row. */
export type ServingState = 'active' | 'deprecated' | 'archived';

/** What fetch needs of a serving row. */
export interface FetchRow {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly state: ServingState;
  readonly path: string;
  readonly real_path: string;
  readonly size: number;
  readonly body_offset: number;
}

/** The serving row fetch verifies against, or undefined when the generation does not serve the id. */
export function fetchRowOf(reader: CatalogReader, skillId: string): FetchRow | undefined {
  return reader
    .prepare(
      `SELECT skill_id, skill_version, revision_id, state, path, real_path, size, body_offset FROM serving WHERE skill_id = ?`,
    )
    .get(skillId) as FetchRow | undefined;
}

/** A served skill with its verbatim frontmatter (JSON text). */
export interface ServedRow {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly name: string;
  readonly description: string;
  readonly state: ServingState;
  readonly size: number;
  readonly frontmatter: string;
  readonly path: string;
  readonly real_path: string;
}

// Descriptions live on `revisions` only (migration 6; before it serving kept a copy of the same text).
const SERVED = `SELECT s.skill_id, s.skill_version, s.revision_id, s.name, r.description, s.state, s.size, r.frontmatter, s.path, s.real_path,
  r.name AS stored_name, r.keywords AS stored_keywords
  FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id`;

/** Up to `limit` non-archived served skills with ids after `after`, in skill_id order. */
export function servedPage(reader: CatalogReader, after: string, limit: number): ServedRow[] {
  return (
    reader
      .prepare(
        `${SERVED} WHERE s.state != 'archived' AND s.skill_id > ? ORDER BY s.skill_id LIMIT ?`,
      )
      .all(after, limit) as ServedRow[]
  ).map(withFrontmatter);
}

/** One served skill (any state), or undefined. */
export function servedRowOf(reader: CatalogReader, skillId: string): ServedRow | undefined {
  const row = reader.prepare(`${SERVED} WHERE s.skill_id = ?`).get(skillId) as
    ServedRow | undefined;
  return row && withFrontmatter(row);
}

// The row with its frontmatter JSON as read (the description is stored once, in its column:
// store/stored.ts encodeStoredFrontmatter).
function withFrontmatter(
  stored: ServedRow & { stored_name?: string; stored_keywords?: string },
): ServedRow {
  const { stored_name: name = '', stored_keywords: keywords = '[]', ...row } = stored;
  return row.frontmatter.startsWith('~')
    ? {
        ...row,
        frontmatter: decodeStoredFrontmatter(row.frontmatter, {
          description: row.description,
          name,
          keywords,
        }),
      }
    : row;
}

/** A serving row as the lexical policy v1 scores it: identity, text and stored token strings. */
export interface LexicalRow extends TokenStrings {
  readonly rid: number;
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly state: ServingState;
  readonly name: string;
  readonly description: string;
}

const LEXICAL = `SELECT s.rowid AS rid, s.skill_id, s.skill_version, s.revision_id, s.state, s.name, r.description, s.name_tok, s.kw_tok, s.desc_tok, s.name_st, s.kw_st, s.desc_st
  FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id`;

/** One serving row by rowid (lexical view). */
export function lexicalRowOf(reader: CatalogReader, rowid: number): LexicalRow | undefined {
  return reader.prepare(`${LEXICAL} WHERE s.rowid = ?`).get(rowid) as LexicalRow | undefined;
}

/** Every serving row (lexical view), for the brute-force scorer. */
export function allLexicalRows(reader: CatalogReader): IterableIterator<LexicalRow> {
  return reader.prepare(`${LEXICAL} ORDER BY s.rowid`).iterate() as IterableIterator<LexicalRow>;
}

/** Every term of the fuzzy vocabulary of the lexical policies (surface tokens of name, keywords, description). */
export function vocabTerms(reader: CatalogReader): string[] {
  return reader.prepare(`SELECT term FROM vocab ORDER BY term`).pluck().all() as string[];
}

/** Document frequency of a surface token in the lexical vocabulary (0 when absent). */
export function vocabDf(reader: CatalogReader, term: string): number {
  return (
    (reader.prepare(`SELECT df FROM vocab WHERE term = ?`).pluck().get(term) as
      number | undefined) ?? 0
  );
}

function states(includeDeprecated: boolean): string {
  return `'active'${includeDeprecated ? `, 'deprecated'` : ''}`;
}

/** Rowids of rankable skills matching the FTS5 expression `match` (at most `limit`; -1 for all). */
export function ftsHolders(
  reader: CatalogReader,
  match: string,
  includeDeprecated: boolean,
  limit: number,
): { rid: number }[] {
  requireFts(reader);
  return reader
    .prepare(
      `SELECT s.rowid AS rid FROM serving_fts f JOIN serving s ON s.rowid = f.rowid WHERE serving_fts MATCH ? AND s.state IN (${states(includeDeprecated)}) LIMIT ?`,
    )
    .all(match, limit) as { rid: number }[];
}

function bm25Sql(columns: readonly number[]): string {
  return `SELECT rowid AS rid, -bm25(serving_fts, ${columns.join(', ')}) AS x FROM serving_fts WHERE serving_fts MATCH ?`;
}

/** −bm25() (with these column weights) of every row matching `match`. */
export function bm25All(
  reader: CatalogReader,
  columns: readonly number[],
  match: string,
): IterableIterator<{ rid: number; x: number }> {
  requireFts(reader);
  return reader.prepare(bm25Sql(columns)).iterate(match) as IterableIterator<{
    rid: number;
    x: number;
  }>;
}

/** −bm25() of one row for `match` (0 when it does not match). */
export function bm25Of(
  reader: CatalogReader,
  columns: readonly number[],
  match: string,
  rowid: number,
): number {
  requireFts(reader);
  // FTS5 may hand back rows other than the one asked for: keep only the row whose rowid matches.
  const rows = reader
    .prepare(`${bm25Sql(columns)} AND serving_fts.rowid = ?`)
    .all(match, rowid) as { rid: number; x: number }[];
  return rows.find((r) => r.rid === rowid)?.x ?? 0;
}

/** The constants of a lexical policy the ranking statement is generated from. */
export interface LexicalRankSpec {
  readonly tiers: { readonly keyword: number; readonly name: number; readonly description: number };
  readonly ftsWeight: number;
  readonly bm25Half: number;
  readonly bm25Columns: readonly number[];
  readonly deprecatedMultiplier: number;
}

/** One row of the lexical ranking statement: rowid, −bm25() and the partial score SQLite sorted by. */
export interface RankRow {
  readonly rid: number;
  readonly skill_id: string;
  readonly state: ServingState;
  readonly x: number;
  readonly partial: number;
}

/**
 * The lexical ranking statement for `slots` query tokens, generated from the policy's own
 * constants: for every FTS match, the tier points (`instr` over the stored stems, one slot `@tN`
 * per token) plus the FTS relevance, times the deprecated multiplier; the best
 * `@heap` rows by that partial score, ties by skill_id. Bind `match`, `heap` and the slots.
 */
export function lexicalRankStatement(
  reader: CatalogReader,
  spec: LexicalRankSpec,
  slots: number,
  includeDeprecated: boolean,
): CatalogStatement {
  requireFts(reader);
  const t = spec.tiers;
  const tiers: string[] = [];
  for (let i = 0; i < slots; i++) {
    tiers.push(
      `((instr(s.kw_st, @t${i}) > 0) * ${t.keyword} + (instr(s.name_st, @t${i}) > 0) * ${t.name} + (instr(s.desc_st, @t${i}) > 0) * ${t.description})`,
    );
  }
  const x = `(-bm25(serving_fts, ${spec.bm25Columns.join(', ')}))`;
  return reader.prepare(`
    SELECT s.rowid AS rid, s.skill_id, s.state, ${x} AS x,
           ((${tiers.length > 0 ? tiers.join(' + ') : '0'}) + ${spec.ftsWeight} * (CASE WHEN ${x} > 0 THEN ${x} / (${x} + ${spec.bm25Half}) ELSE 0 END))
             * (CASE s.state WHEN 'deprecated' THEN ${spec.deprecatedMultiplier} ELSE 1 END) AS partial
    FROM serving_fts JOIN serving s ON s.rowid = serving_fts.rowid
    WHERE serving_fts MATCH @match AND s.state IN (${states(includeDeprecated)})
    ORDER BY partial DESC, s.skill_id ASC
    LIMIT @heap`);
}

/** Where a served skill's file is: its path and the scope it was found in. */
export interface ServedLocation {
  readonly path: string;
  readonly scope: string;
  readonly scope_path: string;
}

/** The path and scope of a served skill, or undefined when the generation does not serve it. */
export function servedLocationOf(
  reader: CatalogReader,
  skillId: string,
): ServedLocation | undefined {
  return reader
    .prepare(
      `SELECT s.path, r.scope, r.scope_path FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id WHERE s.skill_id = ?`,
    )
    .get(skillId) as ServedLocation | undefined;
}

/** A working-set skill's lifecycle row (revision null: retired). */
export interface WorkingSkillRow {
  readonly skill_id: string;
  readonly revision_id: string | null;
  readonly state: ServingState;
  readonly reason: string | null;
  readonly replacement: string | null;
}

/** A working-set skill's lifecycle row, or undefined when never seen. */
export function workingSkillOf(
  reader: CatalogReader,
  skillId: string,
): WorkingSkillRow | undefined {
  return reader
    .prepare(
      `SELECT skill_id, revision_id, state, reason, replacement FROM skills WHERE skill_id = ?`,
    )
    .get(skillId) as WorkingSkillRow | undefined;
}

/** The served identity and text of a skill, or undefined. */
export function servedIdentityOf(
  reader: CatalogReader,
  skillId: string,
): { skill_version: string; revision_id: string; name: string; description: string } | undefined {
  return reader
    .prepare(
      `SELECT s.skill_version, s.revision_id, s.name, r.description FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id WHERE s.skill_id = ?`,
    )
    .get(skillId) as
    { skill_version: string; revision_id: string; name: string; description: string } | undefined;
}

/** Where one revision of a skill was found. */
export function revisionLocationOf(
  reader: CatalogReader,
  skillId: string,
  revisionId: string,
): ServedLocation | undefined {
  return reader
    .prepare(`SELECT path, scope, scope_path FROM revisions WHERE skill_id = ? AND revision_id = ?`)
    .get(skillId, revisionId) as ServedLocation | undefined;
}

/** One revision seen of a skill. */
export interface RevisionSeenRow {
  readonly revision_id: string;
  readonly seq: number;
  readonly version: string | null;
  readonly path: string;
  readonly first_seen: string;
}

/** The `limit` most recent revisions of a skill (newest first) and how many it has in all. */
export function revisionsOf(
  reader: CatalogReader,
  skillId: string,
  limit: number,
): { recent: RevisionSeenRow[]; total: number } {
  const recent = reader
    .prepare(
      `SELECT revision_id, seq, version, path, first_seen FROM revisions WHERE skill_id = ? ORDER BY seq DESC, revision_id ASC LIMIT ?`,
    )
    .all(skillId, limit) as RevisionSeenRow[];
  const total = reader
    .prepare(`SELECT COUNT(*) FROM revisions WHERE skill_id = ?`)
    .pluck()
    .get(skillId) as number;
  return { recent, total };
}

/** Every skill id the catalog has seen (working set, retired ones included), in id order. */
export function knownSkillIds(reader: CatalogReader): string[] {
  return reader.prepare(`SELECT skill_id FROM skills ORDER BY skill_id`).pluck().all() as string[];
}

/** Every id the published generation serves and does not archive, in skill_id order. */
export function servedSkillIds(reader: CatalogReader): string[] {
  return reader
    .prepare(`SELECT skill_id FROM serving WHERE state != 'archived' ORDER BY skill_id`)
    .pluck()
    .all() as string[];
}

/**
 * Refuses the FTS5-based lexical policies on a catalog without FTS5 (PostgreSQL): they are defined
 * by SQLite's bm25(), which PostgreSQL cannot reproduce score for score; and on a catalog whose
 * serving tables were built for a BM25F policy (requireLayout).
 */
export function requireFts(reader: CatalogReader): void {
  if (reader.dialect === 'sqlite') return requireLayout(reader, 'lexical');
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `${reader.file}: policies v1 and v2 rank with SQLite's FTS5, which a PostgreSQL catalog does not have; use ${PG_POLICIES.join(' or ')}`,
    { catalog: reader.file, supported: [...PG_POLICIES] },
  );
}

/** The ranking policies a PostgreSQL catalog serves: the BM25F ones, scored over its postings. */
export const PG_POLICIES: readonly string[] = [
  'tf.skillrouter.bm25f.v5',
  'tf.skillrouter.bm25f.v4',
];

/**
 * REINDEX_REQUIRED when the published generation's serving tables keep another layout's data than
 * `layout` (store/layout.ts; from migration 6 a catalog keeps only its own layout's): a lexical
 * policy asked of a BM25F catalog finds no token strings, a BM25F one of a lexical catalog no
 * postings. Catalogs older than migration 6 keep both and pass.
 */
export function requireLayout(reader: CatalogReader, layout: IndexLayout): void {
  if (reader.schemaVersion() < LAYOUT_SCHEMA_VERSION) return;
  const stored = storedLayout(
    reader.prepare(`SELECT value FROM meta WHERE key = 'index_layout'`).pluck().get() as
      string | undefined,
  );
  if (stored === layout) return;
  const policy =
    (reader
      .prepare(
        `SELECT g.policy FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
      )
      .pluck()
      .get() as string | undefined) ?? 'none';
  // A catalog of a retired policy (bm25f.v3) is told to re-index under a live one (the router's
  // policyById names the exact command, with the default policy, before a search gets here).
  const command = 'skilldex index --policy ID';
  throw new SkilldexError(
    'REINDEX_REQUIRED',
    isRetiredLayout(policy)
      ? `${reader.file} was published under ${policy}, which is retired: its documents are no longer kept; run ${command} with a live policy (\`skilldex index --help\` names the default; every file is read once; usage examples, telemetry and lifecycle states are kept)`
      : `${reader.file} keeps the ${stored} data of policy ${policy}, not the ${layout} data this policy ranks with; run ${command} with the policy to serve (every file is read once for it)`,
    { catalog: reader.file, index: stored, wanted: layout, policy, command },
  );
}

/** A row of the generations table, as stored. */
export interface GenerationRow {
  readonly seq: number;
  readonly generation_id: string;
  readonly parent_seq: number | null;
  readonly policy: string;
  readonly created_at: string;
  readonly counts: string;
}

/** The generations, newest first, at most `limit` of them (every one without). */
export function generationRows(
  db: { prepare(source: string): CatalogStatement },
  limit?: number,
): GenerationRow[] {
  const sql = `SELECT seq, generation_id, parent_seq, policy, created_at, counts FROM generations ORDER BY seq DESC`;
  return (
    limit === undefined ? db.prepare(sql).all() : db.prepare(`${sql} LIMIT ?`).all(limit)
  ) as GenerationRow[];
}
