/**
 * Read-only queries over what a catalog has served (issue #28, `skilldex diff`): a skill's state in
 * every generation and in the working set, a generation or revision named by a user's argument,
 * one revision's recorded fields, every member of a generation, a supporting-files listing by id,
 * and the comparison of two generations' members. Answers from whatever snapshot the caller's
 * connection holds; never writes, never reads a skill's file.
 */
import { SkilldexError } from '../../errors.js';
import type { CatalogStatement } from '../store/db-type.js';
import { parseStoredFrontmatter } from '../store/stored.js';
import { listingOf, type ManifestRow } from '../write/file-manifests.js';
import { FILES_SCHEMA_VERSION } from './queries-files.js';
import { NO_FILES, type SkillFiles } from '../write/skill-files.js';

/** What the history queries read through: a connection's statements and its schema version. */
export interface HistorySource {
  prepare(sql: string): CatalogStatement;
  schemaVersion(): number;
}

/** One generation as the history names it. */
export interface GenerationRef {
  readonly seq: number;
  readonly catalog_generation: string;
  readonly created_at: string;
}

/** A skill in one generation or in the working set (revision null: not there). */
export interface SkillState {
  readonly revision_id: string | null;
  readonly state: string | null;
  /** The supporting-files listing (null: none, or a catalog before migration 3). */
  readonly manifest_id: string | null;
}

/** A skill's states: in each generation (oldest first), in the working set, and which is published. */
export interface ServedHistory {
  readonly generations: readonly (GenerationRef & SkillState)[];
  readonly working: SkillState;
  readonly published_seq: number | null;
}

/** One revision's recorded fields. */
export interface RevisionFields {
  readonly skill_id: string;
  readonly revision_id: string;
  readonly seq: number;
  readonly version: string | null;
  readonly path: string;
  readonly size: number;
  readonly body_offset: number;
  readonly first_seen: string;
  /** The parsed frontmatter as the index stored it. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** One member of a generation (or of the working set). */
export type MemberState = SkillState & { readonly revision_id: string; readonly state: string };

const files = (src: HistorySource): boolean => src.schemaVersion() >= FILES_SCHEMA_VERSION;

/** The states of `skillId` in every generation and in the working set. */
export function skillHistory(src: HistorySource, skillId: string): ServedHistory {
  const m = files(src) ? 'm.manifest_id' : 'NULL';
  const generations = src
    .prepare(
      `SELECT g.seq, g.generation_id AS catalog_generation, g.created_at, m.revision_id, m.state, ${m} AS manifest_id
       FROM generations g LEFT JOIN generation_members m ON m.seq = g.seq AND m.skill_id = ? ORDER BY g.seq`,
    )
    .all(skillId) as (GenerationRef & SkillState)[];
  const w = src
    .prepare(
      `SELECT revision_id, state, ${files(src) ? 'manifest_id' : 'NULL AS manifest_id'} FROM skills WHERE skill_id = ?`,
    )
    .get(skillId) as SkillState | undefined;
  const published = src.prepare(`SELECT seq FROM published WHERE id = 1`).get() as
    { seq: number } | undefined;
  return {
    generations,
    working:
      w && w.revision_id !== null ? w : { revision_id: null, state: null, manifest_id: null },
    published_seq: published?.seq ?? null,
  };
}

/**
 * The generation a user's argument names: its sequence number, or its id (`sha256:…` or at least 8
 * hex digits; the newest generation with that id prefix), or `published`. Undefined when none does.
 * INVALID_ARGUMENT for an argument that is none of these forms.
 */
export function findGeneration(
  src: HistorySource,
  spec: string,
  option: string,
): GenerationRef | undefined {
  const cols = `seq, generation_id AS catalog_generation, created_at`;
  if (spec === 'published') {
    return src
      .prepare(
        `SELECT ${cols} FROM generations WHERE seq = (SELECT seq FROM published WHERE id = 1)`,
      )
      .get() as GenerationRef | undefined;
  }
  if (/^\d{1,15}$/.test(spec))
    return src.prepare(`SELECT ${cols} FROM generations WHERE seq = ?`).get(Number(spec)) as
      GenerationRef | undefined;
  const hex = hexOf(spec, option);
  return src
    .prepare(
      `SELECT ${cols} FROM generations WHERE substr(generation_id, 8, ?) = ? ORDER BY seq DESC LIMIT 1`,
    )
    .get(hex.length, hex) as GenerationRef | undefined;
}

/** True when the catalog has seen any revision of `skillId`. */
export function skillSeen(src: HistorySource, skillId: string): boolean {
  return (
    src.prepare(`SELECT 1 AS x FROM revisions WHERE skill_id = ? LIMIT 1`).get(skillId) !==
    undefined
  );
}

/** The generation published just before sequence `seq` (by sequence), or undefined. */
export function generationBefore(src: HistorySource, seq: number): GenerationRef | undefined {
  return src
    .prepare(
      `SELECT seq, generation_id AS catalog_generation, created_at FROM generations WHERE seq < ? ORDER BY seq DESC LIMIT 1`,
    )
    .get(seq) as GenerationRef | undefined;
}

/** The revisions of `skillId` whose id starts with the hex of `spec` (`sha256:…`, 8+ hex digits). */
export function findRevisions(
  src: HistorySource,
  skillId: string,
  spec: string,
  option: string,
): string[] {
  if (/^\d{1,15}$/.test(spec) || spec === 'published' || spec === 'working') return [];
  const hex = hexOf(spec, option);
  return (
    src
      .prepare(
        `SELECT revision_id FROM revisions WHERE skill_id = ? AND substr(revision_id, 8, ?) = ? ORDER BY revision_id`,
      )
      .all(skillId, hex.length, hex) as { revision_id: string }[]
  ).map((r) => r.revision_id);
}

function hexOf(spec: string, option: string): string {
  const hex = spec.replace(/^sha256:/, '').toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(hex)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} must be a generation (its sequence number, id sha256:… or 8+ hex digits, or "published"), a revision id (sha256:… or 8+ hex digits) or "working", got ${JSON.stringify(spec)}`,
      { option, value: spec },
    );
  }
  return hex;
}

/** The recorded fields of revision `revisionId` of `skillId`, or undefined. */
export function revisionFields(
  src: HistorySource,
  skillId: string,
  revisionId: string,
): RevisionFields | undefined {
  const r = src
    .prepare(
      `SELECT skill_id, revision_id, seq, version, path, size, body_offset, first_seen, frontmatter,
              description AS stored_description, name AS stored_name, keywords AS stored_keywords
       FROM revisions WHERE skill_id = ? AND revision_id = ?`,
    )
    .get(skillId, revisionId) as
    | (Omit<RevisionFields, 'frontmatter'> & {
        frontmatter: string;
        stored_description: string;
        stored_name: string;
        stored_keywords: string;
      })
    | undefined;
  if (!r) return undefined;
  const {
    stored_description: description,
    stored_name: name,
    stored_keywords: keywords,
    ...fields
  } = r;
  let fm: unknown;
  try {
    // The description is stored once, in its column (store/stored.ts encodeStoredFrontmatter).
    fm = parseStoredFrontmatter(r.frontmatter, { description, name, keywords });
  } catch (err) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the stored frontmatter of ${skillId} revision ${revisionId} is not JSON`,
      { skill_id: skillId, revision_id: revisionId },
      { cause: err },
    );
  }
  return {
    ...fields,
    frontmatter: fm !== null && typeof fm === 'object' ? (fm as Record<string, unknown>) : {},
  };
}

/** Every member of generation `seq` (or of the working set when `seq` is null), by skill_id. */
export function membersOf(src: HistorySource, seq: number | null): Map<string, MemberState> {
  const m = files(src) ? 'manifest_id' : 'NULL AS manifest_id';
  const rows = (
    seq === null
      ? src
          .prepare(
            `SELECT skill_id, revision_id, state, ${m} FROM skills WHERE revision_id IS NOT NULL ORDER BY skill_id`,
          )
          .all()
      : src
          .prepare(
            `SELECT skill_id, revision_id, state, ${m} FROM generation_members WHERE seq = ? ORDER BY skill_id`,
          )
          .all(seq)
  ) as (MemberState & { skill_id: string })[];
  return new Map(
    rows.map((r) => [
      r.skill_id,
      { revision_id: r.revision_id, state: r.state, manifest_id: r.manifest_id },
    ]),
  );
}

/** The supporting files a listing id names (NO_FILES for null or a catalog before migration 3). */
export function listingById(src: HistorySource, manifestId: string | null): SkillFiles {
  if (manifestId === null || !files(src)) return NO_FILES;
  const row = src
    .prepare(`SELECT truncated, files FROM file_manifests WHERE manifest_id = ?`)
    .get(manifestId) as Pick<ManifestRow, 'truncated' | 'files'> | undefined;
  if (!row)
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the files listing ${manifestId} is named but not stored`,
      { manifest_id: manifestId },
    );
  return listingOf(row);
}

/** A skill present in both member lists with a different revision, listing or state. */
export interface MemberChange {
  readonly skill_id: string;
  readonly from: MemberState;
  readonly to: MemberState;
  readonly revision_changed: boolean;
  readonly files_changed: boolean;
  readonly state_changed: boolean;
}

/** What differs between two member lists, every list in skill_id order. */
export interface MemberComparison {
  readonly added: readonly ({ skill_id: string } & MemberState)[];
  readonly removed: readonly ({ skill_id: string } & MemberState)[];
  readonly changed: readonly MemberChange[];
  readonly unchanged: number;
}

/** Compares two member lists (pure). */
export function compareMembers(
  from: ReadonlyMap<string, MemberState>,
  to: ReadonlyMap<string, MemberState>,
): MemberComparison {
  const added: ({ skill_id: string } & MemberState)[] = [];
  const removed: ({ skill_id: string } & MemberState)[] = [];
  const changed: MemberChange[] = [];
  let unchanged = 0;
  for (const [id, b] of to) {
    const a = from.get(id);
    if (!a) {
      added.push({ skill_id: id, ...b });
      continue;
    }
    const change = {
      revision_changed: a.revision_id !== b.revision_id,
      files_changed: (a.manifest_id ?? null) !== (b.manifest_id ?? null),
      state_changed: a.state !== b.state,
    };
    if (change.revision_changed || change.files_changed || change.state_changed)
      changed.push({ skill_id: id, from: a, to: b, ...change });
    else unchanged++;
  }
  for (const [id, a] of from) if (!to.has(id)) removed.push({ skill_id: id, ...a });
  const byId = (x: { skill_id: string }, y: { skill_id: string }): number =>
    x.skill_id < y.skill_id ? -1 : x.skill_id > y.skill_id ? 1 : 0;
  return {
    added: added.sort(byId),
    removed: removed.sort(byId),
    changed: changed.sort(byId),
    unchanged,
  };
}
