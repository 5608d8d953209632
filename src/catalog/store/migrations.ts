/**
 * Catalog schema as numbered migrations gated by `PRAGMA user_version` (on PostgreSQL a `meta` row,
 * pg.ts), each applied inside one
 * immediate transaction. Tests run these real migrations; there is no other DDL.
 *
 * Tables: `revisions` (every revision ever seen), `files` (the last enumeration, for incremental
 * re-index), `skills` (the working set with lifecycle state), `generations` + `generation_members`
 * (every published set) with the `published` pointer, and the serving tables of the published
 * generation: `serving`, its FTS5 index `serving_fts` and the fuzzy vocabulary `vocab`; from
 * migration 2 also the bm25f.v3 inverted index `postings` and the per-row statistics `serving_docs`;
 * from migration 3 the supporting-file listings `file_manifests` and their stats `file_stats`; from
 * migration 4 the compressed SKILL.md text of recent revisions, `revision_texts` (revision-texts.ts).
 * Migration 6 keeps only what the catalog's layout reads (layout.ts): a lexical catalog its token
 * strings, FTS5 and `vocab`; a BM25F one its postings and row statistics; neither v3's body terms,
 * and descriptions only on `revisions`.
 */
import { SkilldexError } from '../../errors.js';
import { dialectOf, foreignMessage, tableCount, type Db } from './db-type.js';
import { pgSideSchema } from '../side/side-schema.js';

/** Value of meta.format that marks a skilldex catalog. */
export const CATALOG_FORMAT = 'skilldex-catalog';

// The data part of migration 6 (layout.ts): the index kinds renamed to layouts and each catalog's
// other-family data dropped. Also run by `catalog copy` on what it copied from a catalog older than
// migration 6 (copy.ts), whose rows arrive as they were.
const LAYOUT_DATA = `
  INSERT INTO meta (key, value) SELECT 'index_layout', CASE WHEN value = 'v4' THEN 'bm25f' ELSE 'lexical' END FROM meta WHERE key = 'index_kind';
  INSERT INTO meta (key, value) SELECT 'body_layout', CASE WHEN value = 'v4' THEN 'bm25f' ELSE 'lexical' END FROM meta WHERE key = 'body_kind';
  DELETE FROM meta WHERE key IN ('index_kind', 'body_kind');
  INSERT INTO serving_fts (serving_fts) SELECT 'delete-all' WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
  DELETE FROM vocab WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
  UPDATE serving SET name_tok = '', kw_tok = '', desc_tok = '', name_st = '', kw_st = '', desc_st = ''
    WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
  DELETE FROM postings WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
  DELETE FROM serving_docs WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
  UPDATE serving SET fwd = '{}', len_n = 0, len_k = 0, len_d = 0, len_b = 0, len_x = 0, name_terms = 0, body_tf = NULL
    WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'index_layout' AND value = 'bm25f');
`;

/**
 * The data part of migration 6 for `dialect` (PostgreSQL has no FTS5 table): run on rows copied
 * from a catalog older than that migration.
 */
export function layoutDataSql(dialect: 'sqlite' | 'pg'): string {
  return dialect === 'pg' ? withoutFts(LAYOUT_DATA) : LAYOUT_DATA;
}

function withoutFts(sql: string): string {
  return sql.replace(/INSERT INTO serving_fts[^\n]*\n/g, '');
}

const MIGRATIONS: readonly string[] = [
  // 1: the initial schema.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  INSERT INTO meta (key, value) VALUES ('format', '${CATALOG_FORMAT}');

  CREATE TABLE revisions (
    skill_id TEXT NOT NULL,
    revision_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    version TEXT,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    when_to_use TEXT,
    keywords TEXT NOT NULL,
    tags TEXT NOT NULL,
    path TEXT NOT NULL,
    real_path TEXT NOT NULL,
    scope TEXT NOT NULL,
    scope_path TEXT NOT NULL,
    plugin TEXT,
    size INTEGER NOT NULL,
    normalized_sha256 TEXT NOT NULL,
    body_offset INTEGER NOT NULL,
    frontmatter TEXT NOT NULL,
    warnings TEXT NOT NULL,
    flags TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    PRIMARY KEY (skill_id, revision_id)
  ) STRICT;

  CREATE TABLE files (
    path TEXT PRIMARY KEY,
    real_path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    skill_id TEXT NOT NULL,
    revision_id TEXT NOT NULL
  ) STRICT;

  CREATE TABLE skills (
    skill_id TEXT PRIMARY KEY,
    revision_id TEXT,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deprecated', 'archived')),
    reason TEXT,
    replacement TEXT,
    provenance TEXT NOT NULL DEFAULT '[]'
  ) STRICT;

  CREATE TABLE generations (
    seq INTEGER PRIMARY KEY,
    generation_id TEXT NOT NULL,
    parent_seq INTEGER,
    policy TEXT NOT NULL,
    created_at TEXT NOT NULL,
    counts TEXT NOT NULL
  ) STRICT;

  CREATE TABLE generation_members (
    seq INTEGER NOT NULL REFERENCES generations (seq),
    skill_id TEXT NOT NULL,
    revision_id TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (seq, skill_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE published (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL REFERENCES generations (seq)
  ) STRICT;

  CREATE TABLE serving (
    rowid INTEGER PRIMARY KEY,
    skill_id TEXT NOT NULL UNIQUE,
    revision_id TEXT NOT NULL,
    skill_version TEXT NOT NULL,
    state TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    path TEXT NOT NULL,
    real_path TEXT NOT NULL,
    size INTEGER NOT NULL,
    body_offset INTEGER NOT NULL,
    name_tok TEXT NOT NULL,
    kw_tok TEXT NOT NULL,
    desc_tok TEXT NOT NULL,
    name_st TEXT NOT NULL,
    kw_st TEXT NOT NULL,
    desc_st TEXT NOT NULL
  ) STRICT;

  CREATE VIRTUAL TABLE serving_fts USING fts5 (
    name_tok, kw_tok, desc_tok,
    content = 'serving', content_rowid = 'rowid',
    tokenize = 'porter unicode61', prefix = '3'
  );

  CREATE TABLE vocab (term TEXT PRIMARY KEY, df INTEGER NOT NULL) STRICT, WITHOUT ROWID;
  `,
  // 2: policy bm25f.v3 (docs/ranking.md §8). Each revision keeps its body's terms (computed from the
  // one read at ingest); each serving row its forward terms and field lengths; `postings` is the
  // inverted index and `serving_docs` the per-row lengths and states a search reads in one go.
  // Existing catalogs re-read every file on the next index (the files table is cleared) and rebuild
  // their serving tables on the next publish.
  `
  ALTER TABLE revisions ADD COLUMN body_terms TEXT;
  ALTER TABLE serving ADD COLUMN fwd TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE serving ADD COLUMN len_n INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE serving ADD COLUMN len_k INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE serving ADD COLUMN len_d INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE serving ADD COLUMN len_b INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE serving ADD COLUMN name_terms INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE postings (term TEXT PRIMARY KEY, df INTEGER NOT NULL, data BLOB NOT NULL) STRICT, WITHOUT ROWID;
  CREATE TABLE serving_docs (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    docs INTEGER NOT NULL,
    sums TEXT NOT NULL,
    data BLOB NOT NULL
  ) STRICT;
  DELETE FROM files;
  INSERT INTO meta (key, value) VALUES ('serving_rebuild', '1') ON CONFLICT (key) DO UPDATE SET value = '1';
  `,
  // 3: supporting files recorded at index time (issue #12; file-manifests.ts). A listing is a
  // content-addressed row of `file_manifests`; the working set, each generation's members and the
  // serving rows name theirs (null: no supporting files). `file_stats` keeps each skill folder's
  // file sizes, mtimes and digests for the next incremental index. Existing rows get null: the next
  // index lists every skill's folder, and only skills with supporting files change their line in the
  // generation (generation.ts), so a catalog of SKILL.md-only skills keeps its generation id.
  `
  CREATE TABLE file_manifests (
    manifest_id TEXT PRIMARY KEY,
    truncated INTEGER NOT NULL CHECK (truncated IN (0, 1)),
    files TEXT NOT NULL
  ) STRICT;
  CREATE TABLE file_stats (dir TEXT PRIMARY KEY, stats TEXT NOT NULL) STRICT;
  ALTER TABLE skills ADD COLUMN manifest_id TEXT;
  ALTER TABLE generation_members ADD COLUMN manifest_id TEXT;
  ALTER TABLE serving ADD COLUMN manifest_id TEXT;
  `,
  // 4: policy bm25f.v4 (docs/ranking.md §10; documents-v4.ts). A revision ingested for v4 keeps its
  // body's v4 term counts (body_v4, JSON as body_terms), its lines of terms with their template keys
  // (body_lines, deflated; read by publishes only) and the sorted set of those keys (line_keys); a
  // serving row its boundary field's length (len_x) and, when template lines were taken out of its
  // body, the counts that remain (body_tf). Catalogs of other policies are untouched: the columns
  // stay null until an index runs under v4. Since issue #26 an ingest no longer writes body_v4 and
  // a publish writes body_tf for every row (documents-v4.ts), and body_tf and a v4 row's fwd are
  // compact text (body-counts.ts); rows written before read as they were. Since issue 33 a publish
  // writes body_tf null: the postings hold the body counts (publish.ts, router/search/bm25f.ts).
  `
  ALTER TABLE revisions ADD COLUMN body_v4 TEXT;
  ALTER TABLE revisions ADD COLUMN body_lines BLOB;
  ALTER TABLE revisions ADD COLUMN line_keys BLOB;
  ALTER TABLE serving ADD COLUMN len_x INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE serving ADD COLUMN body_tf TEXT;
  `,
  // 5: the text of each recent revision's SKILL.md (issue #28; revision-texts.ts), for `skilldex
  // diff`. One row per revision_id (the sha256 of the bytes, so byte-identical files of two skills
  // share a row): the bytes compressed by `codec`, their size. A table of its own that nothing else
  // reads or joins to; existing catalogs get the texts of their current revisions on the next index.
  // A rowid table, not WITHOUT ROWID: its rows run to kilobytes, past what SQLite keeps well inline.
  `
  CREATE TABLE revision_texts (
    revision_id TEXT PRIMARY KEY,
    codec TEXT NOT NULL,
    size INTEGER NOT NULL,
    data BLOB NOT NULL
  ) STRICT;
  `,
  // 6: each thing stored once, and only what a live policy reads (issue 33; layout.ts). The index
  // kinds become layouts (`v4` → bm25f, anything else → lexical): a BM25F catalog drops its token
  // strings, FTS5 entries and vocabulary (only the lexical policies read them); a lexical one the
  // postings, row statistics and forward terms that only policy bm25f.v3 read; every catalog v3's
  // body terms and the copy of each description on its serving rows (readers join `revisions`).
  // A v2/v3 catalog is thereby lexical: `skilldex index --policy` of the default policy re-reads
  // its files and rebuilds its serving tables (usage, telemetry and lifecycle states are kept).
  // The FTS5 statement is SQLite's only (pgMigration drops it).
  `${LAYOUT_DATA}
  ALTER TABLE revisions DROP COLUMN body_terms;
  ALTER TABLE serving DROP COLUMN description;
  `,
];

/**
 * Migration `v` (0-based) for PostgreSQL: the same DDL with PostgreSQL's types (text in the "C"
 * collation, so ORDER BY sorts as SQLite's BINARY does; BIGINT; DOUBLE PRECISION; BYTEA), without
 * STRICT and without the FTS5 table and its statements (the lexical policies are SQLite-only); migration 1 also creates
 * the telemetry tables.
 */
export function pgMigration(v: number): string {
  const ddl = withoutFts(MIGRATIONS[v]! + (v === 0 ? pgSideSchema() : ''))
    .replace(/CREATE VIRTUAL TABLE[\s\S]*?\);\n/g, '')
    .replace(/\)\s*STRICT(?:,\s*WITHOUT ROWID)?;/g, ');')
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
    .replace(/\bBLOB\b/g, 'BYTEA');
  return ddl;
}

/** The schema version this code writes. */
export const LATEST_VERSION = MIGRATIONS.length;

/**
 * Applies every migration newer than the catalog's `user_version` up to `target` (default: all of
 * them), each in its own transaction. Tests pass a `target` to build a catalog of an older schema.
 */
export function migrate(db: Db, file: string, target: number = LATEST_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > LATEST_VERSION) {
    throw new SkilldexError(
      'CATALOG_TOO_NEW',
      `${file} has schema version ${current}; this skilldex writes up to ${LATEST_VERSION}`,
      {
        catalog: file,
      },
    );
  }
  if (current === 0) {
    if (tableCount(db) > 0) {
      throw new SkilldexError('CATALOG_CORRUPT', foreignMessage(db, file), { catalog: file });
    }
  }
  const pg = dialectOf(db) === 'pg';
  for (let v = current; v < Math.min(target, LATEST_VERSION); v++) {
    db.transaction(() => {
      db.exec(pg ? pgMigration(v) : MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
