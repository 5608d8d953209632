/**
 * Serving skills whole (the MCP Skills extension, issue #4): list the published generation's
 * skills page by page, describe one, and read one's SKILL.md with its digest verified. Archived
 * skills are not served. A read returns bytes only when they still hash to the served revision
 * (drift is an error, never stale bytes). A skill's supporting files are listed as the index
 * recorded them (in the same snapshot as the skill) and read the same way (skill-files.ts).
 */
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { DEFAULT_MAX_SKILL_BYTES, readTextCapped, realpathOrUndefined } from '../../fsx/index.js';
import {
  NO_FILES,
  servedFilesBetween,
  servedFilesOf,
  servedPage,
  servedRowOf,
  servedSkillIds,
  storedJson,
  type CatalogReader,
  type ServedRow,
  type SkillFile,
  type SkillFiles,
} from '../../catalog/index.js';
import { suggestSkillIdsIn } from './inspect.js';
import type { SkillState } from '../search/policies/types.js';
import { readRecordedFile, recordedFile } from './skill-files.js';

/** A served skill: identity, verbatim frontmatter, and the digest and size of its SKILL.md. */
export interface ServedSkill {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly name: string;
  readonly description: string;
  readonly state: SkillState;
  readonly size: number;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** One page of served skills. */
export interface ServedPage {
  readonly catalog_generation: string;
  readonly skills: readonly ServedSkill[];
  /** Opaque cursor of the next page; absent on the last page. */
  readonly next_cursor?: string;
}

/** A served skill with its recorded supporting files. */
export interface ServedSkillWithFiles extends ServedSkill {
  readonly supporting: SkillFiles;
}

/** One page of served skills, each with its supporting files. */
export interface ServedFilesPage extends ServedPage {
  readonly skills: readonly ServedSkillWithFiles[];
}

/** Default and largest page size of `listServedSkills`. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Which page of served skills a list call asks for. */
interface PageRequest {
  readonly cursor?: string;
  readonly limit?: number;
}

// The skill_id a page starts after ('' for the first page) and its size, checked.
function pageBounds(options: PageRequest): { after: string; limit: number } {
  const limit = checkLimit(options.limit);
  return { after: options.cursor === undefined ? '' : decodeCursor(options.cursor), limit };
}

/** Lists served (non-archived) skills in skill_id order, `limit` at a time after `cursor`. */
export function listServedSkills(reader: CatalogReader, options: PageRequest = {}): ServedPage {
  const { after, limit } = pageBounds(options);
  return reader.read((gen) => readPage(reader, gen.catalog_generation, after, limit));
}

/** `listServedSkills` with each skill's recorded supporting files, from the same snapshot. */
export function listServedSkillsWithFiles(
  reader: CatalogReader,
  options: PageRequest = {},
): ServedFilesPage {
  const { after, limit } = pageBounds(options);
  return reader.read((gen) => {
    const page = readPage(reader, gen.catalog_generation, after, limit);
    const last = page.skills[page.skills.length - 1];
    const files = last ? servedFilesBetween(reader, after, last.skill_id) : new Map();
    return {
      ...page,
      skills: page.skills.map((s) => ({ ...s, supporting: files.get(s.skill_id) ?? NO_FILES })),
    };
  });
}

function readPage(
  reader: CatalogReader,
  generation: string,
  after: string,
  limit: number,
): ServedPage {
  const rows = servedPage(reader, after, limit + 1);
  const page = rows.slice(0, limit).map(toServed);
  const last = page[page.length - 1];
  return {
    catalog_generation: generation,
    skills: page,
    ...(rows.length > limit && last ? { next_cursor: encodeCursor(last.skill_id) } : {}),
  };
}

function checkLimit(asked: number | undefined): number {
  const limit = asked ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
      { limit },
    );
  }
  return limit;
}

/** One served skill; SKILL_NOT_FOUND or SKILL_ARCHIVED otherwise. */
export function getServedSkill(
  reader: CatalogReader,
  skillId: string,
): ServedSkill & { catalog_generation: string } {
  return reader.read((gen) => ({
    ...lookup(reader, skillId),
    catalog_generation: gen.catalog_generation,
  }));
}

/** The verified bytes of a served skill's SKILL.md as text; INDEX_DRIFT when they no longer match. */
export function readServedSkill(
  reader: CatalogReader,
  skillId: string,
): { skill: ServedSkill; text: string; catalog_generation: string } {
  return reader.read((gen) => {
    const row = lookupRow(reader, skillId);
    const skill = toServed(row);
    // As in fetch: the indexed real path must still be its own real path (no link planted on the way).
    const moved = realpathOrUndefined(row.real_path) !== row.real_path;
    const file = readTextCapped(row.real_path, {
      maxBytes: Math.max(skill.size, DEFAULT_MAX_SKILL_BYTES),
      noFollow: true,
    });
    if (moved || !file.ok || file.sha256 !== skill.revision_id || file.size !== skill.size) {
      throw new SkilldexError(
        'INDEX_DRIFT',
        `${row.path} no longer matches revision ${skill.revision_id}: re-index`,
        {
          skill_id: skillId,
          path: row.path,
        },
      );
    }
    // Served text is the file's exact content (BOM included), so its bytes hash to the digest.
    return {
      skill,
      text: (file.hasBom ? '\ufeff' : '') + file.text,
      catalog_generation: gen.catalog_generation,
    };
  });
}

/**
 * The supporting files of a served skill as the index recorded them (src/catalog/write/skill-files.ts says
 * what is listed and the bounds).
 */
export function listServedSkillFiles(
  reader: CatalogReader,
  skillId: string,
): SkillFiles & { skill: ServedSkill; catalog_generation: string } {
  return reader.read((gen) => {
    const row = lookupRow(reader, skillId);
    return {
      skill: toServed(row),
      ...servedFilesOf(reader, row.skill_id),
      catalog_generation: gen.catalog_generation,
    };
  });
}

/**
 * The verified bytes of one supporting file of a served skill (`rel`: its recorded path).
 * FILE_NOT_FOUND when the skill records no such file; INDEX_DRIFT when its bytes no longer match.
 */
export function readServedSkillFile(
  reader: CatalogReader,
  skillId: string,
  rel: string,
): { skill: ServedSkill; file: SkillFile; bytes: Buffer; catalog_generation: string } {
  return reader.read((gen) => {
    const row = lookupRow(reader, skillId);
    const file = recordedFile(skillId, servedFilesOf(reader, row.skill_id), rel);
    return {
      skill: toServed(row),
      file,
      bytes: readRecordedFile(skillId, path.dirname(row.real_path), file),
      catalog_generation: gen.catalog_generation,
    };
  });
}

function lookup(reader: CatalogReader, skillId: string): ServedSkill {
  return toServed(lookupRow(reader, skillId));
}

function lookupRow(reader: CatalogReader, skillId: string): ServedRow {
  const row = servedRowOf(reader, skillId);
  if (!row) {
    const near = suggestSkillIdsIn(reader, skillId, 3, servedSkillIds(reader));
    throw new SkilldexError(
      'SKILL_NOT_FOUND',
      `no skill ${JSON.stringify(skillId)} is served${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''}`,
      { skill_id: skillId, did_you_mean: near },
    );
  }
  if (row.state === 'archived')
    throw new SkilldexError('SKILL_ARCHIVED', `skill ${skillId} is archived`, {
      skill_id: skillId,
    });
  return row;
}

function toServed(r: ServedRow): ServedSkill {
  return {
    skill_id: r.skill_id,
    skill_version: r.skill_version,
    revision_id: r.revision_id,
    name: r.name,
    description: r.description,
    state: r.state,
    size: r.size,
    frontmatter: storedJson<Record<string, unknown>>(r.frontmatter, 'revisions.frontmatter'),
  };
}

function encodeCursor(skillId: string): string {
  return Buffer.from(JSON.stringify({ after: skillId }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof v.after === 'string') return v.after;
  } catch {
    // Fall through to the coded error below: a cursor is opaque and must come from a previous page.
  }
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    'invalid cursor: pass the next_cursor of a previous page',
    { cursor },
  );
}
