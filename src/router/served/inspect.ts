/**
 * Operator-side views of the catalog for people (issue #12): where each candidate lives (path and
 * scope), one skill described in full (`skilldex show`), and "did you mean" ids for an unknown
 * one. Never exposed over MCP: these read paths, states and revision history an agent does not
 * need. Read-only, one read transaction per call, against the published generation.
 */
import { SkilldexError } from '../../errors.js';
import { boundedEditDistance } from '../../text/index.js';
import {
  CatalogReader,
  knownSkillIds,
  revisionLocationOf,
  revisionsOf,
  servedIdentityOf,
  servedLocationOf,
  workingSkillOf,
} from '../../catalog/index.js';
import type { SkillState } from '../search/policies/types.js';

/** Where a served skill's file is and which scope it came from. */
export interface SkillLocation {
  readonly path: string;
  /** The scope kind the file was found in (`personal`, `project`, `plugin`, `scope`…). */
  readonly scope: string;
  /** The scope folder. */
  readonly scope_path: string;
}

/** One revision the catalog has seen for a skill. */
export interface RevisionInfo {
  readonly revision_id: string;
  readonly seq: number;
  readonly version: string | null;
  readonly path: string;
  readonly first_seen: string;
}

/** A skill described for a person. */
export interface SkillDetail {
  readonly skill_id: string;
  readonly catalog_generation: string;
  /** The published identity, or null when the skill is not in the published generation. */
  readonly published: {
    readonly skill_version: string;
    readonly revision_id: string;
    readonly name: string;
    readonly description: string;
  } | null;
  /** Working-set state (`active`, `deprecated`, `archived`), or `retired` when its file is gone. */
  readonly state: SkillState | 'retired';
  readonly reason: string | null;
  readonly replacement: string | null;
  readonly location: SkillLocation | null;
  /** The most recent revisions first, at most the number asked for. */
  readonly revisions: readonly RevisionInfo[];
  readonly revisions_total: number;
}

/** How many recent revisions `describeSkill` lists by default. */
export const DEFAULT_RECENT_REVISIONS = 5;

/** Largest edit distance a "did you mean" suggestion may have (a typo or two in an id). */
export const SUGGESTION_MAX_DISTANCE = 3;

// Opens the catalog read-only for one call.
function withReader<T>(catalog: string, fn: (reader: CatalogReader) => T): T {
  const reader = new CatalogReader(catalog);
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}

/** Path and scope of each id in the published generation of `catalog` (ids not served are left out). */
export function locateSkills(catalog: string, ids: readonly string[]): Map<string, SkillLocation> {
  return withReader(catalog, (reader) => locateServed(reader, ids));
}

/** As `locateSkills`, through a reader already open (Router.locate). */
export function locateServed(
  reader: CatalogReader,
  ids: readonly string[],
): Map<string, SkillLocation> {
  return reader.read(() => {
    const out = new Map<string, SkillLocation>();
    for (const id of ids) {
      const row = servedLocationOf(reader, id);
      if (row) out.set(id, { path: row.path, scope: row.scope, scope_path: row.scope_path });
    }
    return out;
  });
}

/**
 * Describes `skillId`: published identity, state, location and recent revisions. An id the catalog
 * has never seen is SKILL_NOT_FOUND with `details.did_you_mean` (closest ids by edit distance).
 */
export function describeSkill(
  catalog: string,
  skillId: string,
  recent = DEFAULT_RECENT_REVISIONS,
): SkillDetail {
  return withReader(catalog, (reader) => describeIn(reader, skillId, recent));
}

function describeIn(reader: CatalogReader, skillId: string, recent: number): SkillDetail {
  return reader.read((gen) => {
    const skill = workingSkillOf(reader, skillId);
    if (!skill) {
      const suggestions = suggestSkillIdsIn(reader, skillId, 3);
      throw new SkilldexError(
        'SKILL_NOT_FOUND',
        `no skill ${JSON.stringify(skillId)} in ${reader.file}${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
        { skill_id: skillId, did_you_mean: suggestions },
      );
    }
    const served = servedIdentityOf(reader, skillId);
    const revisionId = served?.revision_id ?? skill.revision_id;
    const loc = revisionId === null ? undefined : revisionLocationOf(reader, skillId, revisionId);
    const { recent: revisions, total } = revisionsOf(reader, skillId, recent);
    return {
      skill_id: skillId,
      catalog_generation: gen.catalog_generation,
      published: served ? { ...served } : null,
      state: skill.revision_id === null ? 'retired' : skill.state,
      reason: skill.reason,
      replacement: skill.replacement,
      location: loc ? { path: loc.path, scope: loc.scope, scope_path: loc.scope_path } : null,
      revisions: revisions.map((r) => ({ ...r })),
      revisions_total: total,
    };
  });
}

/**
 * The ids closest to `id` by edit distance (at most SUGGESTION_MAX_DISTANCE, and less than half
 * the id's length), nearest first, then by id; at most `max`; inside a read of `reader` already
 * open, among `pool` (default: every id the catalog has seen; the consumer faces pass the ids
 * served, so a suggestion can be fetched).
 * The one "did you mean" of skilldex: `show`, skill_fetch's SKILL_NOT_FOUND, the explorer's skill
 * page and `learn`'s skipped lines all use it.
 */
export function suggestSkillIdsIn(
  reader: CatalogReader,
  id: string,
  max = 3,
  pool: readonly string[] = knownSkillIds(reader),
): string[] {
  const k = Math.min(SUGGESTION_MAX_DISTANCE, Math.max(1, Math.floor(id.length / 2)));
  const ids = pool;
  return ids
    .map((s) => ({ s, d: boundedEditDistance(id.toLowerCase(), s.toLowerCase(), k) }))
    .filter((x) => x.d <= k)
    .sort((a, b) => a.d - b.d || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0))
    .slice(0, max)
    .map((x) => x.s);
}
