/**
 * `skilldex diff` (issue #28): what changed in one skill between two states the catalog has seen —
 * each frontmatter field, the body as unified-diff hunks, the supporting files by digest — and what
 * changed between two generations (skills added, removed, changed). A state is a generation, the
 * working set (`working`: what the next publish serves) or a revision of the skill. Reads the catalog
 * (one read-only connection, one snapshot): the body comes from the revision texts the catalog
 * stored at index time (catalog/write/revision-texts.ts). Then the skill's folder on disk is compared with
 * the catalog's working set by digest (issue 35: a file edited since the last index differs from
 * every state the catalog has seen), reading that folder only. Skill text comes back as data; the
 * faces sanitise it.
 */
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import {
  DEFAULT_MAX_SKILL_BYTES,
  lstatOrUndefined,
  readBytesCapped,
  realpathOrUndefined,
  sha256Of,
} from '../fsx/index.js';
import {
  TEXTS_SCHEMA_VERSION,
  compareMembers,
  findGeneration,
  findRevisions,
  generationBefore,
  skillSeen,
  listingById,
  listSupportingFiles,
  membersOf,
  openCatalogReadOnly,
  readRevisionText,
  revisionFields,
  skillHistory,
  type Db,
  type GenerationRef,
  type HistorySource,
  type MemberState,
  type RevisionFields,
  type ServedHistory,
  type SkillFile,
} from '../catalog/index.js';
import { diffLines, splitLines, unifiedHunks, type DiffHunk } from '../text/index.js';
import { sameJson } from './canonical-json.js';
import { digestChanges } from './file-changes.js';

/** One side of a diff: where it was taken from and what the skill was there. */
export interface DiffSide {
  readonly kind: 'generation' | 'working' | 'revision';
  /** The generation's sequence number (kind generation). */
  readonly seq: number | null;
  readonly catalog_generation: string | null;
  /** The skill's revision there; null when the skill was not there. */
  readonly revision_id: string | null;
  readonly state: string | null;
  readonly manifest_id: string | null;
  readonly version: string | null;
  readonly path: string | null;
}

/** One frontmatter field that differs. */
export interface FieldChange {
  readonly field: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly from?: unknown;
  readonly to?: unknown;
}

/** One supporting file that differs, by its path in the skill folder. */
export interface FileChange {
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly from_digest?: string;
  readonly to_digest?: string;
}

/** The body comparison: its hunks, or why it could not be made. */
export interface BodyDiff {
  readonly status: 'same' | 'changed' | 'unavailable';
  /** Why the body could not be compared (a text not stored, or pruned past --keep-revisions). */
  readonly reason?: string;
  readonly hunks: readonly DiffHunk[];
  readonly added_lines: number;
  readonly removed_lines: number;
}

/**
 * The skill's folder on disk against the catalog's working set (issue 35): the catalog's states
 * are what the last index read, and a file edited since differs from all of them.
 */
export interface DiskCheck {
  /** The SKILL.md the catalog recorded for the working set (absolute); null when it has none. */
  readonly path: string | null;
  /**
   * `same`: SKILL.md and the supporting files are as the catalog's working set has them;
   * `differs`: some differ (`changes`); `missing`: no SKILL.md there now; `unreadable`: it could not
   * be read (`reason`); `unknown`: the catalog recorded no path to look at.
   */
  readonly status: 'same' | 'differs' | 'missing' | 'unreadable' | 'unknown';
  /** The revision the catalog's working set holds, and the SKILL.md's digest on disk now. */
  readonly catalog_revision_id: string | null;
  readonly disk_revision_id: string | null;
  /** SKILL.md and supporting files whose digests differ, catalog first. */
  readonly changes: readonly {
    readonly path: string;
    readonly change: 'added' | 'removed' | 'changed';
    readonly catalog_digest?: string;
    readonly disk_digest?: string;
  }[];
  readonly reason?: string;
}

/** The diff of one skill between two states. */
export interface SkillDiffReport {
  readonly skill_id: string;
  readonly from: DiffSide;
  readonly to: DiffSide;
  /** True when both sides hold the same revision, files and state. */
  readonly identical: boolean;
  readonly frontmatter: readonly FieldChange[];
  readonly body: BodyDiff;
  readonly files: {
    readonly changes: readonly FileChange[];
    /** A side whose listing a bound cut short (its missing files may differ too). */
    readonly truncated: boolean;
  };
  /** The folder on disk now against the catalog's working set (`identical` is the catalog's). */
  readonly disk: DiskCheck;
}

/** Options of `diffSkill`. */
export interface SkillDiffOptions {
  readonly catalog: string;
  readonly skill_id: string;
  /** Default: the latest state before `to` that differs from it. */
  readonly from?: string;
  /** Default: `working`. */
  readonly to?: string;
}

/** One skill in a generation comparison. */
export interface GenerationMember {
  readonly skill_id: string;
  readonly revision_id: string;
  readonly state: string;
}

/** The comparison of two generations (or a generation and the working set). */
export interface GenerationDiffReport {
  readonly from: GenerationRef | 'working';
  readonly to: GenerationRef | 'working';
  readonly added: readonly GenerationMember[];
  readonly removed: readonly GenerationMember[];
  readonly changed: readonly (GenerationMember & {
    readonly from_revision_id: string;
    readonly from_state: string;
    readonly revision_changed: boolean;
    readonly files_changed: boolean;
    readonly state_changed: boolean;
  })[];
  readonly counts: {
    readonly added: number;
    readonly removed: number;
    readonly changed: number;
    readonly unchanged: number;
  };
}

/**
 * The diff of `skill_id` between two of its states. SKILL_NOT_FOUND when the catalog never saw
 * the skill; GENERATION_NOT_FOUND or REVISION_NOT_FOUND for a side that names nothing;
 * INVALID_ARGUMENT for a side that names both a generation and a revision, or several revisions.
 */
export function diffSkill(options: SkillDiffOptions): SkillDiffReport {
  assertKnownOptions(options, DIFF_SKILL_OPTION_KEYS, 'diffSkill');
  return withSnapshot(options.catalog, (src) => skillDiffOf(src, options));
}

/**
 * The comparison of generations `from` and `to` (sequence number, id or prefix, `published`, or
 * `working`). Defaults: `to` the published generation, `from` the generation published before it.
 */
export function diffGenerations(options: {
  readonly catalog: string;
  readonly from?: string;
  readonly to?: string;
}): GenerationDiffReport {
  assertKnownOptions(options, DIFF_GENERATIONS_OPTION_KEYS, 'diffGenerations');
  return withSnapshot(options.catalog, (src) => generationDiffOf(src, options.from, options.to));
}

// One read-only connection and one read transaction: every query sees the same snapshot.
function withSnapshot<T>(catalog: string, fn: (src: HistorySource) => T): T {
  const db: Db = openCatalogReadOnly(catalog);
  try {
    const src: HistorySource = {
      prepare: (sql) => db.prepare(sql),
      schemaVersion: () => db.pragma('user_version', { simple: true }) as number,
    };
    return db.transaction(() => fn(src))();
  } finally {
    db.close();
  }
}

/** `diffSkill` over an open snapshot. */
export function skillDiffOf(
  src: HistorySource,
  options: Omit<SkillDiffOptions, 'catalog'>,
): SkillDiffReport {
  const id = options.skill_id;
  const history = skillHistory(src, id);
  if (!skillSeen(src, id))
    throw new SkilldexError(
      'SKILL_NOT_FOUND',
      `the catalog never saw a skill ${JSON.stringify(id)}`,
      {
        skill_id: id,
      },
    );
  const to = resolveSide(src, history, id, options.to ?? 'working', '--to');
  const from =
    options.from !== undefined
      ? resolveSide(src, history, id, options.from, '--from')
      : previousSide(history, to);
  return { ...compareSides(src, id, from, to), disk: diskCheck(src, id, history) };
}

// The skill's folder now against the working set (else the latest generation that served it):
// SKILL.md by its digest, the supporting files listed as the index lists them. Reads the folder.
function diskCheck(src: HistorySource, id: string, history: ServedHistory): DiskCheck {
  const points = [...history.generations, history.working].filter((p) => p.revision_id !== null);
  const base = points[points.length - 1];
  const fields = base ? revisionFields(src, id, base.revision_id!) : undefined;
  const none = { catalog_revision_id: base?.revision_id ?? null, disk_revision_id: null };
  if (!base || !fields || !path.isAbsolute(fields.path))
    return { path: null, status: 'unknown', ...none, changes: [] };
  const md = fields.path;
  if (lstatOrUndefined(md) === undefined)
    return { path: md, status: 'missing', ...none, changes: [] };
  const read = readBytesCapped(md, DEFAULT_MAX_SKILL_BYTES, md);
  if (!read.ok)
    return {
      path: md,
      status: 'unreadable',
      ...none,
      changes: [],
      reason: read.problem.message,
    };
  const diskRevision = sha256Of(read.bytes);
  const dir = realpathOrUndefined(path.dirname(md)) ?? path.dirname(md);
  const catalogFiles = new Map([
    ['SKILL.md', base.revision_id!],
    ...listingById(src, base.manifest_id).files.map((f) => [f.path, f.digest] as const),
  ]);
  const diskFiles = new Map([
    ['SKILL.md', diskRevision],
    ...listSupportingFiles(dir).files.map((f) => [f.path, f.digest] as const),
  ]);
  const changes = digestChanges(catalogFiles, diskFiles, ['catalog_digest', 'disk_digest']);
  return {
    path: md,
    status: changes.length === 0 ? 'same' : 'differs',
    catalog_revision_id: base.revision_id,
    disk_revision_id: diskRevision,
    changes,
  };
}

// A point of the skill's timeline: a generation or the working set, with the skill's state there.
type Point = { kind: 'generation'; ref: GenerationRef } | { kind: 'working' };

interface ResolvedSide {
  readonly point?: Point;
  readonly revision_id: string | null;
  readonly state: string | null;
  readonly manifest_id: string | null;
  readonly kind: DiffSide['kind'];
}

function resolveSide(
  src: HistorySource,
  history: ServedHistory,
  id: string,
  spec: string,
  option: string,
): ResolvedSide {
  if (spec === 'working')
    return { kind: 'working', point: { kind: 'working' }, ...history.working };
  const generation = findGeneration(src, spec, option);
  const revisions =
    /^\d+$/.test(spec) || spec === 'published' ? [] : findRevisions(src, id, spec, option);
  if (generation && revisions.length > 0)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} ${spec} names both generation ${generation.seq} and a revision of ${id}: give more hex digits`,
      { option, value: spec },
    );
  if (revisions.length > 1)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} ${spec} names ${revisions.length} revisions of ${id}: give more hex digits`,
      { option, value: spec, revisions },
    );
  if (generation) {
    const at = history.generations.find((g) => g.seq === generation.seq)!;
    return { kind: 'generation', point: { kind: 'generation', ref: generation }, ...at };
  }
  const revision = revisions[0];
  if (revision === undefined) {
    const generationSpec = /^\d+$/.test(spec) || spec === 'published';
    throw new SkilldexError(
      generationSpec ? 'GENERATION_NOT_FOUND' : 'REVISION_NOT_FOUND',
      generationSpec
        ? `${option} ${spec}: no such generation in this catalog`
        : `${option} ${spec}: no generation and no revision of ${id} has that id`,
      { option, value: spec },
    );
  }
  // A revision alone names no listing: take the one it was last served or staged with.
  const points = [...history.generations, history.working];
  const last = [...points].reverse().find((p) => p.revision_id === revision);
  return {
    kind: 'revision',
    revision_id: revision,
    state: last?.state ?? null,
    manifest_id: last?.manifest_id ?? null,
  };
}

// The latest point before `to` on the timeline (generations, then the working set) where the skill
// differs from `to`; `to` itself when none does.
function previousSide(history: ServedHistory, to: ResolvedSide): ResolvedSide {
  const points = [
    ...history.generations.map((g) => ({ kind: 'generation' as const, g })),
    { kind: 'working' as const, g: history.working },
  ];
  let at = points.length - 1;
  if (to.point?.kind === 'generation') {
    const seq = to.point.ref.seq;
    at = points.findIndex((p) => p.kind === 'generation' && 'seq' in p.g && p.g.seq === seq);
  } else if (to.kind === 'revision') {
    at = points.map((p) => p.g.revision_id).lastIndexOf(to.revision_id);
    if (at < 0) at = points.length;
  }
  for (let i = at - 1; i >= 0; i--) {
    const p = points[i]!;
    if (p.g.revision_id !== to.revision_id || p.g.manifest_id !== to.manifest_id) {
      if (p.kind === 'working') return { kind: 'working', point: { kind: 'working' }, ...p.g };
      const g = p.g as GenerationRef & typeof p.g;
      return {
        kind: 'generation',
        point: {
          kind: 'generation',
          ref: { seq: g.seq, catalog_generation: g.catalog_generation, created_at: g.created_at },
        },
        revision_id: g.revision_id,
        state: g.state,
        manifest_id: g.manifest_id,
      };
    }
  }
  return to;
}

function compareSides(
  src: HistorySource,
  id: string,
  a: ResolvedSide,
  b: ResolvedSide,
): Omit<SkillDiffReport, 'disk'> {
  const fa = a.revision_id !== null ? revisionFields(src, id, a.revision_id) : undefined;
  const fb = b.revision_id !== null ? revisionFields(src, id, b.revision_id) : undefined;
  const files = fileChanges(src, a.manifest_id, b.manifest_id);
  const sameRevision = a.revision_id === b.revision_id;
  return {
    skill_id: id,
    from: sideOf(a, fa),
    to: sideOf(b, fb),
    identical: sameRevision && a.manifest_id === b.manifest_id && a.state === b.state,
    frontmatter: sameRevision ? [] : fieldChanges(fa?.frontmatter ?? {}, fb?.frontmatter ?? {}),
    body: sameRevision ? SAME_BODY : bodyDiff(src, fa, fb),
    files,
  };
}

const SAME_BODY: BodyDiff = { status: 'same', hunks: [], added_lines: 0, removed_lines: 0 };

function sideOf(s: ResolvedSide, f: RevisionFields | undefined): DiffSide {
  const ref = s.point?.kind === 'generation' ? s.point.ref : undefined;
  return {
    kind: s.kind,
    seq: ref?.seq ?? null,
    catalog_generation: ref?.catalog_generation ?? null,
    revision_id: s.revision_id,
    state: s.state,
    manifest_id: s.manifest_id,
    version: f?.version ?? null,
    path: f?.path ?? null,
  };
}

/** The frontmatter fields that differ between `a` and `b`, in field-name order (pure). */
export function fieldChanges(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const inA = Object.hasOwn(a, field);
    const inB = Object.hasOwn(b, field);
    if (inA && !inB) out.push({ field, change: 'removed', from: a[field] });
    else if (!inA && inB) out.push({ field, change: 'added', to: b[field] });
    else if (!sameJson(a[field], b[field]))
      out.push({ field, change: 'changed', from: a[field], to: b[field] });
  }
  return out;
}

// The body lines of each side from the stored texts (an absent side has none).
function bodyDiff(
  src: HistorySource,
  a: RevisionFields | undefined,
  b: RevisionFields | undefined,
): BodyDiff {
  const version = src.schemaVersion();
  const body = (f: RevisionFields | undefined): { lines: string[] } | { reason: string } => {
    if (!f) return { lines: [] };
    const t = readRevisionText(src, f.revision_id, version);
    if (!t.ok)
      return {
        reason:
          version < TEXTS_SCHEMA_VERSION
            ? 'the catalog predates stored revision texts: run skilldex index'
            : `the text of ${f.revision_id} is not stored (older than --keep-revisions, or larger than 1 MiB)`,
      };
    return { lines: splitLines(t.text.slice(f.body_offset)) };
  };
  const x = body(a);
  const y = body(b);
  if ('reason' in x || 'reason' in y) {
    const reason = ('reason' in x ? x.reason : undefined) ?? (y as { reason: string }).reason;
    return { status: 'unavailable', reason, hunks: [], added_lines: 0, removed_lines: 0 };
  }
  const script = diffLines(x.lines, y.lines);
  const added = script.filter((d) => d.kind === 'insert').length;
  const removed = script.filter((d) => d.kind === 'delete').length;
  return {
    status: added + removed === 0 ? 'same' : 'changed',
    hunks: unifiedHunks(script),
    added_lines: added,
    removed_lines: removed,
  };
}

// The supporting files of two listings compared by path and digest, in path order.
function fileChanges(
  src: HistorySource,
  a: string | null,
  b: string | null,
): SkillDiffReport['files'] {
  if (a === b) return { changes: [], truncated: false };
  const la = listingById(src, a);
  const lb = listingById(src, b);
  const byPath = (fs: readonly SkillFile[]): Map<string, string> =>
    new Map(fs.map((f) => [f.path, f.digest]));
  const pa = byPath(la.files);
  const pb = byPath(lb.files);
  const changes = digestChanges(pa, pb, ['from_digest', 'to_digest']);
  return { changes, truncated: la.truncated || lb.truncated };
}

/** `diffGenerations` over an open snapshot (the explorer calls it on its own reader). */
export function generationDiffOf(
  src: HistorySource,
  fromSpec: string | undefined,
  toSpec: string | undefined,
): GenerationDiffReport {
  const to = pointOf(src, toSpec ?? 'published', '--to');
  let from: GenerationRef | 'working';
  if (fromSpec !== undefined) from = pointOf(src, fromSpec, '--from');
  else {
    const before =
      to === 'working' ? findGeneration(src, 'published', '--from') : generationBefore(src, to.seq);
    if (!before)
      throw new SkilldexError(
        'GENERATION_NOT_FOUND',
        `there is no generation before ${to === 'working' ? 'the working set' : `generation ${to.seq}`} to compare with`,
        {},
      );
    from = before;
  }
  const members = (p: GenerationRef | 'working'): Map<string, MemberState> =>
    membersOf(src, p === 'working' ? null : p.seq);
  const c = compareMembers(members(from), members(to));
  const plain = (m: { skill_id: string } & MemberState): GenerationMember => ({
    skill_id: m.skill_id,
    revision_id: m.revision_id,
    state: m.state,
  });
  return {
    from,
    to,
    added: c.added.map(plain),
    removed: c.removed.map(plain),
    changed: c.changed.map((x) => ({
      skill_id: x.skill_id,
      revision_id: x.to.revision_id,
      state: x.to.state,
      from_revision_id: x.from.revision_id,
      from_state: x.from.state,
      revision_changed: x.revision_changed,
      files_changed: x.files_changed,
      state_changed: x.state_changed,
    })),
    counts: {
      added: c.added.length,
      removed: c.removed.length,
      changed: c.changed.length,
      unchanged: c.unchanged,
    },
  };
}

function pointOf(src: HistorySource, spec: string, option: string): GenerationRef | 'working' {
  if (spec === 'working') return 'working';
  const g = findGeneration(src, spec, option);
  if (!g)
    throw new SkilldexError(
      'GENERATION_NOT_FOUND',
      `${option} ${spec}: no such generation in this catalog`,
      { option, value: spec },
    );
  return g;
}

/** The keys `diffGenerations` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const DIFF_GENERATIONS_OPTION_KEYS = optionKeys<
  NonNullable<Parameters<typeof diffGenerations>[0]>
>()('catalog', 'from', 'to');

/** The keys `diffSkill` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const DIFF_SKILL_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof diffSkill>[0]>>()(
  'catalog',
  'skill_id',
  'from',
  'to',
);
