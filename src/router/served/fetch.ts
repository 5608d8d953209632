/**
 * skill_fetch (docs/integration.md): returns a skill's body only when every pin holds — the generation is
 * the published one, the skill exists and is not archived, its revision is the expected one, and
 * the file's bytes still hash to that revision. The hash and the returned body come from one read
 * of the file (docs/integration.md §3), so a file swapped between check and read can never slip through.
 */
import { SkilldexError } from '../../errors.js';
import { DEFAULT_MAX_SKILL_BYTES, readTextCapped, realpathOrUndefined } from '../../fsx/index.js';
import { fetchRowOf, servedSkillIds, type CatalogReader } from '../../catalog/index.js';
import { suggestSkillIdsIn } from './inspect.js';

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

/** Longest `context` a fetch accepts, in characters (the telemetry store keeps this much). */
export const MAX_FETCH_CONTEXT_CHARS = 2_000;

/** Longest skill_id, revision_id or catalog_generation a fetch accepts, in characters. */
export const MAX_PIN_CHARS = 1_024;

/**
 * Checks that a fetch request carries its four fields as strings (INVALID_ARGUMENT otherwise, the
 * field named in `details.field`): the three pins non-empty and at most MAX_PIN_CHARS, the context
 * (which may be empty) at most MAX_FETCH_CONTEXT_CHARS.
 */
export function checkFetchRequest(req: Partial<Record<keyof FetchRequest, unknown>>): FetchRequest {
  for (const k of ['skill_id', 'expected_revision', 'catalog_generation', 'context'] as const) {
    const v = req[k];
    if (typeof v !== 'string') {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `skill_fetch needs ${k} (a string): fetch with every identity field from skill_search`,
        { field: k },
        {
          hint:
            k === 'context'
              ? 'pass context: one line on the task the skill is fetched for (an empty string is allowed)'
              : 'pass skill_id, expected_revision (its revision_id) and catalog_generation from one skill_search candidate, and context',
        },
      );
    }
    const max = k === 'context' ? MAX_FETCH_CONTEXT_CHARS : MAX_PIN_CHARS;
    if ((k !== 'context' && v === '') || v.length > max) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `skill_fetch ${k} must be ${k === 'context' ? '' : '1 to '}${max} characters, got ${v.length}`,
        {
          field: k,
          length: v.length,
          max,
        },
      );
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
    const row = fetchRowOf(reader, req.skill_id);
    if (!row) {
      const near = suggestSkillIdsIn(reader, req.skill_id, 3, servedSkillIds(reader));
      throw new SkilldexError(
        'SKILL_NOT_FOUND',
        `no skill ${JSON.stringify(req.skill_id)} in generation ${gen.catalog_generation}${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''}`,
        { skill_id: req.skill_id, did_you_mean: near },
      );
    }
    if (row.state === 'archived') {
      throw new SkilldexError('SKILL_ARCHIVED', `skill ${req.skill_id} is archived`, {
        skill_id: req.skill_id,
      });
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
      throw new SkilldexError(
        'INDEX_DRIFT',
        `${row.path} no longer resolves to its indexed real path (a link on the way?): re-index`,
        {
          skill_id: req.skill_id,
          path: row.path,
          problem: 'PATH_OUTSIDE_ROOT',
        },
      );
    }
    const file = readTextCapped(row.real_path, {
      maxBytes: Math.max(row.size, DEFAULT_MAX_SKILL_BYTES),
      noFollow: true,
    });
    if (!file.ok) {
      throw new SkilldexError(
        'INDEX_DRIFT',
        `${row.path} can no longer be read as indexed (${file.problem.code}): re-index`,
        {
          skill_id: req.skill_id,
          path: row.path,
          problem: file.problem.code,
        },
      );
    }
    if (file.sha256 !== row.revision_id) {
      throw new SkilldexError(
        'INDEX_DRIFT',
        `${row.path} changed since indexing (now ${file.sha256}): re-index`,
        {
          skill_id: req.skill_id,
          path: row.path,
          expected: row.revision_id,
          actual: file.sha256,
        },
      );
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
