/**
 * Verified reads of a served skill's supporting files (issue #12, MCP Skills extension). What a
 * skill lists is what the index recorded (src/catalog/write/skill-files.ts: confinement, skip rules and
 * bounds); this file never walks a folder. A read opens only a recorded path, checks that it is
 * still its own real path (no folder on the way swapped for a link), opens it without following a
 * link at its place, reads it once capped at the recorded size, and returns those bytes only when
 * they hash to the recorded digest: anything else is INDEX_DRIFT, as for a changed SKILL.md.
 */
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { isInside, readBytesCapped, realpathOrUndefined, sha256Of } from '../../fsx/index.js';
import type { SkillFile, SkillFiles } from '../../catalog/index.js';

/**
 * The recorded file `rel` of a listing; FILE_NOT_FOUND when the listing has none (a file added since
 * indexing, left out by a bound, a link, or a path that was never there).
 */
export function recordedFile(skillId: string, listing: SkillFiles, rel: string): SkillFile {
  const file = listing.files.find((f) => f.path === rel);
  if (file === undefined) {
    throw new SkilldexError(
      'FILE_NOT_FOUND',
      `skill ${skillId} lists no file ${JSON.stringify(rel)}`,
      { skill_id: skillId, path: rel },
    );
  }
  return file;
}

/**
 * The bytes of the recorded supporting file `file` of skill `skillId`, whose folder is `dir` (the
 * real path the index listed). The digest check and the returned bytes come from one read.
 * INDEX_DRIFT (details.problem says why when the file could not be read as indexed) when it is
 * missing, moved behind a link, grown, or its bytes no longer hash to the recorded digest.
 */
export function readRecordedFile(skillId: string, dir: string, file: SkillFile): Buffer {
  const abs = path.join(dir, ...file.path.split('/'));
  // A recorded path always lies inside its folder; one that does not was not written by an index.
  if (!isInside(dir, abs) || abs === dir) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `skill ${skillId} records the file ${JSON.stringify(file.path)} outside its folder`,
      { skill_id: skillId, path: file.path },
    );
  }
  const drift = (message: string, details: Record<string, unknown>): SkilldexError =>
    new SkilldexError('INDEX_DRIFT', `${file.path} of skill ${skillId} ${message}: re-index`, {
      skill_id: skillId,
      path: file.path,
      ...details,
    });
  const real = realpathOrUndefined(abs);
  if (real !== undefined && real !== abs)
    throw drift('no longer resolves to its indexed real path (a link on the way?)', {
      problem: 'PATH_OUTSIDE_ROOT',
    });
  const read = readBytesCapped(abs, file.size, file.path, true);
  if (!read.ok)
    throw drift(`can no longer be read as indexed (${read.problem.code})`, {
      problem: read.problem.code,
    });
  const digest = sha256Of(read.bytes);
  if (read.bytes.length !== file.size || digest !== file.digest)
    throw drift(`changed since indexing (now ${digest})`, {
      expected: file.digest,
      actual: digest,
    });
  return read.bytes;
}
