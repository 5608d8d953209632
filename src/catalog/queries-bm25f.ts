/**
 * The named, typed catalog reads of policy bm25f.v3 (the router never writes SQL over catalog
 * tables): a term's postings, the published generation's row statistics, one serving row, every
 * serving row (for the brute-force scorer), rowids of skills, and the term vocabulary for fuzzy
 * expansion. Each runs inside the caller's CatalogReader.read snapshot.
 */
import type { CatalogReader } from './reader.js';
import { decodeServingDocs, type ServingDocs } from './postings-store.js';

/** A serving row as the BM25F scorer reads it. */
export interface Bm25fRow {
  readonly rowid: number;
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly state: 'active' | 'deprecated' | 'archived';
  readonly name: string;
  readonly description: string;
  /** JSON `{ term: [n, k, d] }` (postings.ts encodeForward). */
  readonly fwd: string;
  /** The revision's body terms (JSON BodyTerms), null for a revision read before migration 2. */
  readonly body_terms: string | null;
  readonly len_n: number;
  readonly len_k: number;
  readonly len_d: number;
  readonly len_b: number;
}

const ROW = `SELECT s.rowid AS rowid, s.skill_id, s.skill_version, s.revision_id, s.state, s.name, s.description, s.fwd, r.body_terms,
  s.len_n, s.len_k, s.len_d, s.len_b FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id`;

/** The postings of `term` (document frequency and packed list), or undefined when no document has it. */
export function postingsOf(
  reader: CatalogReader,
  term: string,
): { df: number; data: Buffer } | undefined {
  return reader.prepare(`SELECT df, data FROM postings WHERE term = ?`).get(term) as
    { df: number; data: Buffer } | undefined;
}

/** The per-row lengths and states of the published generation. */
export function servingDocsOf(reader: CatalogReader): ServingDocs {
  return decodeServingDocs(
    reader.prepare(`SELECT docs, sums, data FROM serving_docs WHERE id = 1`).get() as
      { docs: number; sums: string; data: Buffer } | undefined,
  );
}

/** One serving row by rowid. */
export function bm25fRow(reader: CatalogReader, rowid: number): Bm25fRow | undefined {
  return reader.prepare(`${ROW} WHERE s.rowid = ?`).get(rowid) as Bm25fRow | undefined;
}

/** Every serving row, in rowid order. */
export function allBm25fRows(reader: CatalogReader): IterableIterator<Bm25fRow> {
  return reader.prepare(`${ROW} ORDER BY s.rowid`).iterate() as IterableIterator<Bm25fRow>;
}

/** The rowid and state of a served skill, or undefined. */
export function servingRowidOf(
  reader: CatalogReader,
  skillId: string,
): { rowid: number; state: string } | undefined {
  return reader.prepare(`SELECT rowid, state FROM serving WHERE skill_id = ?`).get(skillId) as
    { rowid: number; state: string } | undefined;
}

/** Every term of the published generation's postings (the fuzzy vocabulary of v3). */
export function postingTerms(reader: CatalogReader): string[] {
  return reader.prepare(`SELECT term FROM postings ORDER BY term`).pluck().all() as string[];
}

/** The skill_id of a serving row, or undefined. */
export function servingSkillIdOf(reader: CatalogReader, rowid: number): string | undefined {
  return reader.prepare(`SELECT skill_id FROM serving WHERE rowid = ?`).pluck().get(rowid) as
    string | undefined;
}
