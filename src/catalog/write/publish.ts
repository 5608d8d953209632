/**
 * Publishing (docs/integration.md §1, §5): in one immediate transaction, freeze the working set into a new
 * generation (content-derived id, monotonically increasing sequence; each member keeps its
 * supporting-files listing), bring the serving tables — `serving` and what the policy's layout
 * keeps (store/layout.ts: FTS5 and the fuzzy vocabulary for a lexical policy, postings and row
 * statistics for a BM25F one) — to exactly that set by diff, and move the published pointer. Readers in WAL mode keep their snapshot until their read ends, so they never
 * see half a generation; a crash before COMMIT leaves the previous generation serving.
 */
import { SkilldexError } from '../../errors.js';
import type { Db } from '../db.js';
import { dialectOf } from '../store/db-type.js';
import type { RevisionRow } from '../store/rows.js';
import { computeGeneration, type Member } from './generation.js';
import { tokenSet, tokenStrings, type TokenStrings } from './tokens.js';
import { readMeta, writeMeta } from '../store/meta.js';
import { parseStoredFrontmatter } from '../store/stored.js';
import { PackedPostings, type FieldCounts } from './postings.js';
import { applyPostings, writeServingDocs } from './postings-store.js';
import { decodeBodyCounts } from './body-counts.js';
import {
  decodeBodyV4,
  decodeForwardV4,
  decodeLineKeys,
  decodeTemplateKeys,
  documentTermsV4,
  encodeForwardV4,
  encodeTemplateKeys,
  flatLines,
  templateKeysOf,
  type BodyHandoff,
  type V4Counts,
} from './documents-v4.js';
import {
  layoutOf,
  layoutParts,
  storedLayout,
  type IndexLayout,
  type LayoutParts,
} from '../store/layout.js';
import { MAX_IN_LIST, insertRows, runIn, selectIn } from '../store/batch.js';

/** What a publish did. */
export interface PublishResult {
  /** False when the working set equals the published generation (nothing written). */
  readonly changed: boolean;
  readonly seq: number;
  readonly catalog_generation: string;
  readonly counts: GenerationCounts;
}

/** Counts of a generation by state. */
export interface GenerationCounts {
  readonly total: number;
  readonly active: number;
  readonly deprecated: number;
  readonly archived: number;
}

/**
 * Publishes the working set under `policy`; `now` gives the timestamp recorded (never hashed). The
 * serving tables are built for the policy's layout (store/layout.ts); a catalog whose serving tables
 * were built for the other layout is rebuilt. REINDEX_REQUIRED when a BM25F policy would serve
 * revisions whose body lines were not kept (read for a lexical policy): nothing is written.
 * `handoff` holds the body lines the ingest of the same `index` analysed (read from the catalog
 * for any revision it does not hold).
 */
export function publishWorkingSet(
  db: Db,
  policy: string,
  now: () => Date,
  handoff?: BodyHandoff,
): PublishResult {
  return db
    .transaction((): PublishResult => {
      const members = db
        .prepare(
          `SELECT s.skill_id, s.revision_id, s.state, s.manifest_id, r.real_path FROM skills s
           JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id ORDER BY s.skill_id`,
        )
        .all() as ServingMember[];
      const layout = layoutOf(policy);
      requireBodiesOf(db, policy, layout);
      const generation = computeGeneration(members, policy);
      const counts = countStates(members);
      const current = db
        .prepare(
          `SELECT g.seq, g.generation_id FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
        )
        .get() as { seq: number; generation_id: string } | undefined;
      const rebuild =
        readMeta(db, 'serving_rebuild') === '1' ||
        storedLayout(readMeta(db, 'index_layout')) !== layout;
      if (rebuild) clearServing(db);
      if (current && current.generation_id === generation) {
        // Same content: nothing to publish, but a file that moved must be served from its new path
        // (and serving tables cleared by a migration must be rebuilt).
        if (rebuild || servingStale(db, members)) syncServing(db, members, layout, handoff);
        return { changed: false, seq: current.seq, catalog_generation: generation, counts };
      }
      const seq =
        ((db.prepare(`SELECT max(seq) AS m FROM generations`).get() as { m: number | null }).m ??
          0) + 1;
      db.prepare(
        `INSERT INTO generations (seq, generation_id, parent_seq, policy, created_at, counts) VALUES (@seq, @generation_id, @parent, @policy, @created_at, @counts)`,
      ).run({
        seq,
        generation_id: generation,
        parent: current?.seq ?? null,
        policy,
        created_at: now().toISOString(),
        counts: JSON.stringify(counts),
      });
      insertRows(
        db,
        'generation_members',
        ['seq', 'skill_id', 'revision_id', 'state', 'manifest_id'],
        members.map((m) => ({
          seq,
          skill_id: m.skill_id,
          revision_id: m.revision_id,
          state: m.state,
          manifest_id: m.manifest_id ?? null,
        })),
      );
      syncServing(db, members, layout, handoff);
      db.prepare(
        `INSERT INTO published (id, seq) VALUES (1, @seq) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`,
      ).run({ seq });
      return { changed: true, seq, catalog_generation: generation, counts };
    })
    .immediate();
}

// REINDEX_REQUIRED when a BM25F policy would serve a working-set revision without its body lines
// (a lexical policy reads no body).
function requireBodiesOf(db: Db, policy: string, layout: IndexLayout): void {
  if (!layoutParts(layout).postings) return;
  const missing = db
    .prepare(
      `SELECT count(*) AS n FROM skills s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id WHERE r.body_lines IS NULL`,
    )
    .get() as { n: number };
  if (Number(missing.n) === 0) return;
  throw new SkilldexError(
    'REINDEX_REQUIRED',
    `policy ${policy} reads skill bodies as the ${layout} layout keeps them, and ${missing.n} skills of the working set were read for another layout; nothing was published`,
    { policy, index: layout, skills: Number(missing.n) },
  );
}

/** A member plus where its file is now (a moved file keeps its revision but changes path). */
interface ServingMember extends Member {
  readonly real_path: string;
  readonly manifest_id: string | null;
}

// True when a serving row's file moved (same content, same generation, new path), or names another
// files listing than its member (rows served before migration 3 name none).
function servingStale(db: Db, members: readonly ServingMember[]): boolean {
  const rows = new Map<string, { real_path: string; manifest_id: string | null }>();
  for (const r of db
    .prepare(`SELECT skill_id, real_path, manifest_id FROM serving`)
    .iterate() as Iterable<{ skill_id: string; real_path: string; manifest_id: string | null }>) {
    rows.set(r.skill_id, r);
  }
  return members.some((m) => {
    const r = rows.get(m.skill_id);
    return r?.real_path !== m.real_path || r.manifest_id !== m.manifest_id;
  });
}

// The serving columns a publish writes, in the order of the INSERT.
const SERVING_COLUMNS = [
  'rowid',
  'skill_id',
  'revision_id',
  'skill_version',
  'state',
  'name',
  'path',
  'real_path',
  'size',
  'body_offset',
  'name_tok',
  'kw_tok',
  'desc_tok',
  'name_st',
  'kw_st',
  'desc_st',
  'fwd',
  'len_n',
  'len_k',
  'len_d',
  'len_b',
  'len_x',
  'body_tf',
  'name_terms',
  'manifest_id',
] as const;

/** What a publish reads of a revision to serve it. */
type ServedRevision = Pick<
  RevisionRow,
  | 'skill_id'
  | 'revision_id'
  | 'seq'
  | 'version'
  | 'name'
  | 'description'
  | 'when_to_use'
  | 'keywords'
  | 'tags'
  | 'path'
  | 'real_path'
  | 'size'
  | 'body_offset'
> & {
  body_v4: string | null;
  /** Read only for a revision whose lines the handoff does not hold (null otherwise). */
  body_lines: Buffer | null;
  /** Whether the stored body lines are null (read for the lexical layout, or before they were kept); 0/1 or a boolean (PostgreSQL). */
  no_lines: number | boolean;
  line_keys: Buffer | null;
  frontmatter: string | null;
};

/** A serving row as the diff reads it. */
interface ServingEntry {
  rowid: number;
  revision_id: string;
  state: string;
  real_path: string;
  manifest_id: string | null;
  name_tok: string;
  kw_tok: string;
  desc_tok: string;
}

// Brings `serving` (and what `layout` keeps beside it) to exactly `members`, touching only what
// differs. Reads and writes many rows per statement (batch.ts): on PostgreSQL each is a round trip.
// `handoff` holds body lines this index's ingest analysed.
function syncServing(
  db: Db,
  members: readonly ServingMember[],
  layout: IndexLayout,
  handoff?: BodyHandoff,
): void {
  const parts = layoutParts(layout);
  const serving = readServing(db);
  const diff = diffServing(db, serving, members);
  // BM25F: the template lines of the new member set.
  const template = parts.postings ? templateOf(db, members) : undefined;
  if (template)
    serveTemplatedAgain(members, serving, diff, template, readMeta(db, 'template_keys'));
  for (const [state, rowids] of diff.restate)
    runIn(db, `UPDATE serving SET state = ? WHERE rowid IN (%s)`, rowids, [state]);
  const changes: IndexChanges = { df: new Map(), removed: new Map(), added: new PackedPostings() };
  const fts = parts.lexical ? ftsStatements(db) : undefined;
  removeServed(db, diff.gone, parts, changes, fts);
  // Rowids are assigned here rather than by the engine, so both backends number rows alike.
  let nextRowid =
    ((db.prepare(`SELECT max(rowid) AS m FROM serving`).get() as { m: number | null }).m ?? 0) + 1;
  // The members to add a chunk at a time: their revisions read in one statement, their rows
  // written in a few, so a rebuild never holds every revision's text at once.
  for (let c = 0; c < diff.adds.length; c += MAX_IN_LIST) {
    const chunk = diff.adds.slice(c, c + MAX_IN_LIST);
    const served = { parts, template: template?.keys, handoff, fts, changes };
    nextRowid = addServed(db, chunk, nextRowid, served);
  }
  if (parts.lexical) writeVocab(db, changes.df);
  if (parts.postings) {
    applyPostings(db, changes.removed, changes.added);
    writeServingDocs(db);
  }
  writeMeta(db, 'serving_rebuild', '0');
  writeMeta(db, 'index_layout', layout);
  writeMeta(db, 'template_keys', template ? encodeTemplateKeys(template.keys) : '');
}

/** What a publish changes in the vocabulary and the postings, gathered row by row. */
interface IndexChanges {
  /** Per fuzzy-vocabulary token, the change of its document frequency. */
  readonly df: Map<string, number>;
  /** bm25f postings: rows removed per term. */
  readonly removed: Map<string, number[]>;
  /** bm25f postings added, packed per term. */
  readonly added: PackedPostings;
}

/** The difference between the serving rows and the members to serve. */
interface ServingDiff {
  /** Rowids whose state alone changes, by new state. */
  readonly restate: Map<string, number[]>;
  /** Rows to remove. */
  readonly gone: ServingEntry[];
  /** Members to add. */
  readonly adds: ServingMember[];
  /** The skill_ids of the members. */
  readonly wanted: Set<string>;
}

function readServing(db: Db): Map<string, ServingEntry> {
  const serving = new Map<string, ServingEntry>();
  for (const r of db
    .prepare(
      `SELECT rowid, skill_id, revision_id, state, real_path, manifest_id, name_tok, kw_tok, desc_tok FROM serving`,
    )
    .iterate() as Iterable<ServingEntry & { skill_id: string }>) {
    serving.set(r.skill_id, r);
  }
  return serving;
}

// The diff of the serving rows against the members; a supporting-file change alone is written at
// once (it leaves the row's text, tokens and postings as they are).
function diffServing(
  db: Db,
  serving: ReadonlyMap<string, ServingEntry>,
  members: readonly ServingMember[],
): ServingDiff {
  const setManifest = db.prepare(`UPDATE serving SET manifest_id = ? WHERE rowid = ?`);
  const diff: ServingDiff = { restate: new Map(), gone: [], adds: [], wanted: new Set() };
  for (const m of members) {
    diff.wanted.add(m.skill_id);
    const cur = serving.get(m.skill_id);
    if (cur && cur.revision_id === m.revision_id && cur.real_path === m.real_path) {
      if (cur.state !== m.state) {
        const l = diff.restate.get(m.state);
        if (l) l.push(cur.rowid);
        else diff.restate.set(m.state, [cur.rowid]);
      }
      if (cur.manifest_id !== m.manifest_id) setManifest.run(m.manifest_id, cur.rowid);
      continue;
    }
    if (cur) diff.gone.push(cur);
    diff.adds.push(m);
  }
  for (const [id, row] of serving) if (!diff.wanted.has(id)) diff.gone.push(row);
  return diff;
}

// v4: kept rows whose body gains or loses a template line (against the generation served before,
// whose template keys are `storedKeys`) are served again: their body terms change, nothing else.
function serveTemplatedAgain(
  members: readonly ServingMember[],
  serving: ReadonlyMap<string, ServingEntry>,
  diff: ServingDiff,
  template: { keys: Set<number>; byRevision: Map<string, number[]> },
  storedKeys: string | undefined,
): void {
  const moved = symmetricDifference(template.keys, decodeTemplateKeys(storedKeys));
  if (moved.size === 0) return;
  const changing = new Set([
    ...diff.gone.map((g) => g.revision_id),
    ...diff.adds.map((a) => a.revision_id),
  ]);
  for (const m of members) {
    const cur = serving.get(m.skill_id);
    if (!cur || changing.has(m.revision_id) || !diff.wanted.has(m.skill_id)) continue;
    if (cur.revision_id !== m.revision_id || cur.real_path !== m.real_path) continue;
    const keys = template.byRevision.get(m.revision_id);
    if (keys && keys.some((k) => moved.has(k))) {
      diff.gone.push(cur);
      diff.adds.push(m);
    }
  }
}

/** The FTS5 statements of the lexical layout (SQLite only). */
interface FtsStatements {
  readonly del: { run(row: Record<string, unknown>): unknown };
  readonly ins: { run(row: Record<string, unknown>): unknown };
}

function ftsStatements(db: Db): FtsStatements | undefined {
  // The FTS5 index of the lexical layout exists on SQLite only.
  if (dialectOf(db) !== 'sqlite') return undefined;
  return {
    del: db.prepare(
      `INSERT INTO serving_fts (serving_fts, rowid, name_tok, kw_tok, desc_tok) VALUES ('delete', @rowid, @name_tok, @kw_tok, @desc_tok)`,
    ),
    ins: db.prepare(
      `INSERT INTO serving_fts (rowid, name_tok, kw_tok, desc_tok) VALUES (@rowid, @name_tok, @kw_tok, @desc_tok)`,
    ),
  };
}

// Counts the distinct tokens of a row's token strings into the vocabulary's df changes.
function bumpDf(
  df: Map<string, number>,
  toks: { name_tok: string; kw_tok: string; desc_tok: string },
  by: number,
): void {
  for (const t of tokenSet(toks.name_tok + toks.kw_tok + toks.desc_tok))
    df.set(t, (df.get(t) ?? 0) + by);
}

// Removes the `gone` rows: their postings (as they were indexed) or vocabulary counts noted in
// `changes`, their FTS entries and rows deleted. Before the inserts: a changed skill's new row
// reuses its skill_id.
function removeServed(
  db: Db,
  gone: readonly ServingEntry[],
  parts: LayoutParts,
  changes: IndexChanges,
  fts: FtsStatements | undefined,
): void {
  const oldTerms = new Map<number, OldTerms>();
  if (parts.postings)
    for (const r of selectIn(
      db,
      `SELECT s.rowid AS rowid, s.fwd, s.body_tf, r.body_v4, r.body_lines FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id WHERE s.rowid IN (%s)`,
      gone.map((g) => g.rowid),
    ) as OldTerms[])
      oldTerms.set(r.rowid, r);
  for (const row of gone) {
    const old = oldTerms.get(row.rowid);
    for (const term of old ? termsOfRow(old) : []) {
      let l = changes.removed.get(term);
      if (!l) changes.removed.set(term, (l = []));
      l.push(row.rowid);
    }
    if (parts.lexical) {
      fts?.del.run(row as unknown as Record<string, unknown>);
      bumpDf(changes.df, row, -1);
    }
  }
  runIn(
    db,
    `DELETE FROM serving WHERE rowid IN (%s)`,
    gone.map((g) => g.rowid),
  );
}

/** How the rows of a publish are built: the layout's parts and what it reads besides the revisions. */
interface ServedBuild {
  readonly parts: LayoutParts;
  /** BM25F: the generation's template keys. */
  readonly template: ReadonlySet<number> | undefined;
  readonly handoff: BodyHandoff | undefined;
  readonly fts: FtsStatements | undefined;
  readonly changes: IndexChanges;
}

// Writes the serving rows of `chunk` (at most MAX_IN_LIST members) from rowid `nextRowid` on, with
// their FTS entries, and notes their postings and vocabulary counts; returns the next free rowid.
function addServed(
  db: Db,
  chunk: readonly ServingMember[],
  nextRowid: number,
  b: ServedBuild,
): number {
  const revisions = readServedRevisions(db, chunk, b);
  const rows: Record<string, unknown>[] = [];
  for (const m of chunk) {
    const rev = revisions.get(`${m.skill_id}\t${m.revision_id}`);
    if (!rev)
      throw new Error(
        `working set names revision ${m.revision_id} of ${m.skill_id}, which the catalog does not hold`,
      );
    const fields = {
      name: rev.name,
      keywords: JSON.parse(rev.keywords) as string[],
      tags: JSON.parse(rev.tags) as string[],
      description: rev.description,
      when_to_use: rev.when_to_use,
    };
    const toks = b.parts.lexical ? tokenStrings(fields) : NO_TOKENS;
    const built = b.parts.postings ? servedV4(rev, fields, b.template!, b.handoff) : NO_TERMS;
    const rowid = nextRowid++;
    rows.push(servingRow(rowid, m, rev, toks, built));
    // A term only in boundary clauses has no posting: it never counts for the skill.
    for (const [term, c] of built.terms)
      if (c[0] + c[1] + c[2] + c[3] > 0) b.changes.added.add(term, rowid, c);
    if (b.parts.lexical) {
      b.fts?.ins.run({
        rowid,
        name_tok: toks.name_tok,
        kw_tok: toks.kw_tok,
        desc_tok: toks.desc_tok,
      });
      bumpDf(b.changes.df, toks, +1);
    }
  }
  insertRows(db, 'serving', SERVING_COLUMNS, rows);
  return nextRowid;
}

// The revisions of `chunk` in one statement, by `skill_id \t revision_id`. A BM25F build reads the
// stored body lines only of revisions the handoff does not hold.
function readServedRevisions(
  db: Db,
  chunk: readonly ServingMember[],
  b: ServedBuild,
): Map<string, ServedRevision> {
  const v4 = b.parts.postings
    ? 'body_v4, NULL AS body_lines, body_lines IS NULL AS no_lines, line_keys, frontmatter'
    : 'NULL AS body_v4, NULL AS body_lines, 1 AS no_lines, NULL AS line_keys, NULL AS frontmatter';
  const revisions = new Map<string, ServedRevision>();
  const unheld: ServedRevision[] = [];
  for (const r of selectIn(
    db,
    `SELECT skill_id, revision_id, seq, version, name, description, when_to_use, keywords, tags, path, real_path, size, body_offset, ${v4}
       FROM revisions WHERE (skill_id, revision_id) IN (VALUES %s)`,
    chunk,
    2,
    (m) => [m.skill_id, m.revision_id],
  ) as ServedRevision[]) {
    revisions.set(`${r.skill_id}\t${r.revision_id}`, r);
    if (b.parts.postings && !r.no_lines && !b.handoff?.get(r.revision_id)) unheld.push(r);
  }
  // The stored lines of the rest (none in the publish of an index that read every file).
  for (const r of selectIn(
    db,
    `SELECT skill_id, revision_id, body_lines FROM revisions WHERE (skill_id, revision_id) IN (VALUES %s)`,
    unheld,
    2,
    (m) => [m.skill_id, m.revision_id],
  ) as { skill_id: string; revision_id: string; body_lines: Buffer }[])
    revisions.get(`${r.skill_id}\t${r.revision_id}`)!.body_lines = r.body_lines;
  return revisions;
}

// The serving row of member `m` at `rowid`.
function servingRow(
  rowid: number,
  m: ServingMember,
  rev: ServedRevision,
  toks: TokenStrings,
  built: ServedTerms,
): Record<string, unknown> {
  return {
    rowid,
    skill_id: m.skill_id,
    revision_id: m.revision_id,
    skill_version: rev.version ?? `r${rev.seq}`,
    state: m.state,
    name: rev.name,
    path: rev.path,
    real_path: rev.real_path,
    size: rev.size,
    body_offset: rev.body_offset,
    ...toks,
    fwd: built.fwd,
    len_n: built.lens[0],
    len_k: built.lens[1],
    len_d: built.lens[2],
    len_b: built.lens[3],
    len_x: built.lenX,
    // No body counts on the row since issue 33: the postings hold them (a search reads them there).
    body_tf: null,
    name_terms: built.nameTerms,
    manifest_id: m.manifest_id ?? null,
  };
}

// Applies the vocabulary's df changes; a token no row holds any more is deleted.
function writeVocab(db: Db, df: ReadonlyMap<string, number>): void {
  const changes = [...df].filter(([, d]) => d !== 0);
  insertRows(
    db,
    'vocab',
    ['term', 'df'],
    changes.map(([term, d]) => ({ term, df: d })),
    `ON CONFLICT (term) DO UPDATE SET df = vocab.df + excluded.df`,
  );
  runIn(
    db,
    `DELETE FROM vocab WHERE df <= 0 AND term IN (%s)`,
    changes.filter(([, d]) => d < 0).map(([term]) => term),
  );
}

// What a removal reads of a serving row to know which postings hold it.
interface OldTerms {
  rowid: number;
  fwd: string;
  body_v4: string | null;
  body_tf: string | null;
  body_lines: Buffer | null;
}

// The terms whose postings may list a serving row: those of its name, keywords and description
// (serving.fwd) and every term of its revision's body, template lines included (a superset of the
// body as served: a list that does not hold the row is rewritten unchanged). Rows published before
// issue 33 also kept their served body counts (body_tf, or the revision's body_v4).
function termsOfRow(old: OldTerms): string[] {
  const out = new Set<string>();
  for (const [t, c] of decodeForwardV4(old.fwd, decodeBodyCounts(old.body_tf ?? old.body_v4)))
    if (c[0] + c[1] + c[2] + c[3] > 0) out.add(t);
  for (const line of decodeBodyV4(old.body_lines)) for (const t of line.terms) out.add(t);
  return [...out];
}

/** A serving row's BM25F data as a publish writes it. */
interface ServedTerms {
  readonly fwd: string;
  readonly lens: FieldCounts;
  /** Length of the boundary field. */
  readonly lenX: number;
  readonly nameTerms: number;
  /**
   * Per term its frequencies in name, keywords, description, body and boundary clauses: the
   * postings entries are those with a count in one of the first four.
   */
  readonly terms: ReadonlyMap<string, V4Counts>;
}

type ServedFields = {
  name: string;
  keywords: string[];
  tags: string[];
  description: string;
  when_to_use: string | null;
};

// The serving columns a lexical row leaves empty: it keeps no terms, lengths or postings.
const NO_TERMS: ServedTerms = {
  fwd: '{}',
  lens: [0, 0, 0, 0],
  lenX: 0,
  nameTerms: 0,
  terms: new Map(),
};

// The token strings a BM25F row leaves empty (the columns are NOT NULL; nothing reads them).
const NO_TOKENS: TokenStrings = {
  name_tok: '',
  kw_tok: '',
  desc_tok: '',
  name_st: '',
  kw_st: '',
  desc_st: '',
};

function servedV4(
  rev: ServedRevision,
  fields: ServedFields,
  template: ReadonlySet<number>,
  handoff: BodyHandoff | undefined,
): ServedTerms {
  // The body without its template lines, from the lines this index's ingest analysed or the stored
  // ones; a revision ingested before body lines were kept for v4 has only its counts (body_v4).
  const lines = handoff?.get(rev.revision_id) ?? flatLines(decodeBodyV4(rev.body_lines));
  const body =
    rev.no_lines && lines.keys.length === 0 ? decodeBodyCounts(rev.body_v4) : { lines, template };
  const frontmatter = rev.frontmatter
    ? (parseStoredFrontmatter(rev.frontmatter, {
        description: fields.description,
        name: rev.name,
        keywords: rev.keywords,
      }) as Record<string, unknown>)
    : {};
  const doc = documentTermsV4({ ...fields, frontmatter }, body);
  let nameTerms = 0;
  for (const c of doc.terms.values()) if (c[0] > 0) nameTerms++;
  return {
    fwd: encodeForwardV4(doc.terms),
    lens: [doc.lens[0], doc.lens[1], doc.lens[2], doc.lens[3]],
    lenX: doc.lens[4],
    nameTerms,
    terms: doc.terms,
  };
}

// The template keys of a member set: the keys at least TEMPLATE_MIN_SKILLS of its unarchived
// revisions share, and each revision's keys.
function templateOf(
  db: Db,
  members: readonly ServingMember[],
): { keys: Set<number>; byRevision: Map<string, number[]> } {
  const byRevision = new Map<string, number[]>();
  const live = members.filter((m) => m.state !== 'archived');
  for (let c = 0; c < live.length; c += MAX_IN_LIST) {
    for (const r of selectIn(
      db,
      `SELECT revision_id, line_keys FROM revisions WHERE (skill_id, revision_id) IN (VALUES %s)`,
      live.slice(c, c + MAX_IN_LIST),
      2,
      (m) => [m.skill_id, m.revision_id],
    ) as { revision_id: string; line_keys: Buffer | null }[])
      byRevision.set(r.revision_id, [...decodeLineKeys(r.line_keys)]);
  }
  return {
    keys: templateKeysOf([...byRevision.values()].map((k) => Uint32Array.from(k))),
    byRevision,
  };
}

function symmetricDifference(a: ReadonlySet<number>, b: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  for (const k of a) if (!b.has(k)) out.add(k);
  for (const k of b) if (!a.has(k)) out.add(k);
  return out;
}

// Empties every serving table (a migration asked for a rebuild from the working set).
function clearServing(db: Db): void {
  db.exec(
    `DELETE FROM serving; DELETE FROM vocab; DELETE FROM postings; DELETE FROM serving_docs;`,
  );
  if (dialectOf(db) === 'sqlite')
    db.exec(`INSERT INTO serving_fts (serving_fts) VALUES ('delete-all')`);
}

function countStates(members: readonly Member[]): GenerationCounts {
  let active = 0;
  let deprecated = 0;
  let archived = 0;
  for (const m of members) {
    if (m.state === 'active') active++;
    else if (m.state === 'deprecated') deprecated++;
    else archived++;
  }
  return { total: members.length, active, deprecated, archived };
}
