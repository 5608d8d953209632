/**
 * skill_fetch (DESIGN.md §3): returns a skill's body only when every pin holds — the generation is
 * the published one, the skill exists and is not archived, its revision is the expected one, and
 * the file's bytes still hash to that revision. The hash and the returned body come from one read
 * of the file (DESIGN.md §9), so a file swapped between check and read can never slip through.
 */
import { SkilldexError } from '../errors.js';
import { DEFAULT_MAX_SKILL_BYTES, readTextCapped, realpathOrUndefined } from '../fsx/index.js';
import type { CatalogReader } from '../catalog/index.js';
import type { SkillState } from './policies/hybrid-lexical-v1.js';

/** A skill_fetch request: all four fields required. */
export interface FetchRequest {
  readonly skill_id: string;
  readonly expected_revision: string;
  readonly catalog_generation: string;
  /** Why the consumer fetches (the task at hand); stored in telemetry, never interpreted. */
  readonly context: string;
}

/** The verified skill. `body` is the Markdown after the frontmatter. */
export interface FetchResult {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly catalog_generation: string;
  readonly path: string;
  readonly body: string;
}

/** Checks that a fetch request carries its four fields as strings (INVALID_ARGUMENT otherwise). */
export function checkFetchRequest(req: Partial<Record<keyof FetchRequest, unknown>>): FetchRequest {
  for (const k of ['skill_id', 'expected_revision', 'catalog_generation', 'context'] as const) {
    if (typeof req[k] !== 'string') {
      throw new SkilldexError('INVALID_ARGUMENT', `skill_fetch needs ${k} (a string): fetch with every identity field from skill_search`, {
        field: k,
      });
    }
  }
  return req as FetchRequest;
}

/** Fetches a pinned skill, verifying every pin; throws one of the five contract errors. */
export function fetchSkill(reader: CatalogReader, request: FetchRequest): FetchResult {
  const req = checkFetchRequest(request);
  return reader.read((gen) => {
    if (req.catalog_generation !== gen.catalog_generation) {
      throw new SkilldexError(
        'CATALOG_GENERATION_MISMATCH',
        `generation ${req.catalog_generation} is not the published one (${gen.catalog_generation}): search again`,
        { expected: req.catalog_generation, current: gen.catalog_generation },
      );
    }
    const row = reader
      .prepare(`SELECT skill_id, skill_version, revision_id, state, path, real_path, size, body_offset FROM serving WHERE skill_id = ?`)
      .get(req.skill_id) as
      | { skill_id: string; skill_version: string; revision_id: string; state: SkillState; path: string; real_path: string; size: number; body_offset: number }
      | undefined;
    if (!row) {
      throw new SkilldexError('SKILL_NOT_FOUND', `no skill ${JSON.stringify(req.skill_id)} in generation ${gen.catalog_generation}`, {
        skill_id: req.skill_id,
      });
    }
    if (row.state === 'archived') {
      throw new SkilldexError('SKILL_ARCHIVED', `skill ${req.skill_id} is archived`, { skill_id: req.skill_id });
    }
    if (row.revision_id !== req.expected_revision) {
      throw new SkilldexError(
        'REVISION_MISMATCH',
        `skill ${req.skill_id} is at revision ${row.revision_id}, not ${req.expected_revision}`,
        { skill_id: req.skill_id, expected: req.expected_revision, current: row.revision_id },
      );
    }
    // The indexed real path lay inside a sanctioned scope: a link now on the way (a folder swapped
    // since indexing) could lead anywhere, so the path must still be its own real path.
    if (realpathOrUndefined(row.real_path) !== row.real_path) {
      throw new SkilldexError('INDEX_DRIFT', `${row.path} no longer resolves to its indexed real path (a link on the way?): re-index`, {
        skill_id: req.skill_id,
        path: row.path,
        problem: 'PATH_OUTSIDE_ROOT',
      });
    }
    const file = readTextCapped(row.real_path, { maxBytes: Math.max(row.size, DEFAULT_MAX_SKILL_BYTES), noFollow: true });
    if (!file.ok) {
      throw new SkilldexError('INDEX_DRIFT', `${row.path} can no longer be read as indexed (${file.problem.code}): re-index`, {
        skill_id: req.skill_id,
        path: row.path,
        problem: file.problem.code,
      });
    }
    if (file.sha256 !== row.revision_id) {
      throw new SkilldexError('INDEX_DRIFT', `${row.path} changed since indexing (now ${file.sha256}): re-index`, {
        skill_id: req.skill_id,
        path: row.path,
        expected: row.revision_id,
        actual: file.sha256,
      });
    }
    return {
      skill_id: row.skill_id,
      skill_version: row.skill_version,
      revision_id: row.revision_id,
      catalog_generation: gen.catalog_generation,
      path: row.path,
      body: file.text.slice(row.body_offset),
    };
  });
}
