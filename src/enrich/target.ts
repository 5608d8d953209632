/**
 * The evidence target of an enrichment run (issue #7): where its artifacts may be written. The only
 * sanctioned place is `<project>/evidence/skill-enrichment/` and folders below it; a target that
 * leaves it — absolutely, through `..`, or through a symbolic link anywhere on its path — is
 * refused with PATH_OUTSIDE_ROOT before anything is read or written. Never creates a folder.
 */
import path from 'node:path';
import { SkilldexError } from '../errors.js';
import {
  isInside,
  lstatOrUndefined,
  realpathOrUndefined,
  statOrUndefined,
  toPosixRelative,
} from '../fsx/index.js';

/** The folder, below the project, that enrichment evidence is confined to. */
export const EVIDENCE_FOLDER = path.join('evidence', 'skill-enrichment');

/** A target that passed the checks. */
export interface EvidenceTarget {
  /** Real path of `<project>/evidence/skill-enrichment` (its missing tail kept lexically). */
  readonly root: string;
  /** The target relative to `root`, POSIX form, `.` for the root itself. */
  readonly rel: string;
  /** Absolute path of the target folder (real path of its existing part). */
  readonly path: string;
  /** Real path of the project: the evidence folder must stay inside it. */
  readonly project: string;
}

/**
 * Checks that `target` (absolute, or relative to `cwd`) lies inside `<project>/evidence/skill-enrichment/`
 * once links and `..` are resolved. Throws PATH_OUTSIDE_ROOT when it does not, FILE_NOT_FOUND when
 * the project is missing and INVALID_ARGUMENT when the target exists but is not a folder.
 */
export function resolveEvidenceTarget(
  project: string,
  target: string,
  cwd: string,
): EvidenceTarget {
  const realProject = realpathOrUndefined(project);
  if (realProject === undefined) {
    throw new SkilldexError('FILE_NOT_FOUND', `project folder ${project} does not exist`, {
      project,
    });
  }
  const allowedLexical = path.join(project, EVIDENCE_FOLDER);
  const root = realOfExistingPrefix(allowedLexical);
  // The evidence folder itself must not lead out of the project (e.g. `evidence` as a link elsewhere).
  if (!isInside(realProject, root)) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `evidence folder ${allowedLexical} resolves to ${root}, outside the project ${project}`,
      { project, evidence_folder: allowedLexical, real_path: root },
    );
  }
  if (target.includes('\0')) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `EVIDENCE_TARGET ${JSON.stringify(target)} contains a NUL byte`,
      { target },
    );
  }
  const absolute = path.resolve(cwd, target);
  const real = realOfExistingPrefix(absolute);
  if (!isInside(root, real)) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `EVIDENCE_TARGET ${target} resolves to ${real}, outside ${allowedLexical}; evidence is written only there`,
      { target, real_path: real, allowed: allowedLexical },
    );
  }
  // A target that vanished since it was resolved is created again by the writer: not refused.
  if (realpathOrUndefined(real) !== undefined && statOrUndefined(real)?.isDirectory() === false) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `EVIDENCE_TARGET ${target} is a file; give a folder`,
      { target },
    );
  }
  return { root, rel: toPosixRelative(root, real), path: real, project: realProject };
}

/**
 * The real path of `p`'s longest existing prefix with the missing rest appended: a link anywhere on
 * the existing part is resolved, so `…/skill-enrichment/link/run` is judged by where `link` leads.
 * A broken link on the way is refused: where it would lead cannot be judged.
 */
export function realOfExistingPrefix(p: string): string {
  let probe = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    const real = realpathOrUndefined(probe);
    if (real !== undefined) return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    // Missing (or unreadable): keep climbing to an existing parent.
    if (lstatOrUndefined(probe) !== undefined) {
      throw new SkilldexError(
        'PATH_OUTSIDE_ROOT',
        `${probe} is a broken or looping link; its target cannot be checked`,
        {
          path: probe,
        },
      );
    }
    const parent = path.dirname(probe);
    if (parent === probe) return path.resolve(p);
    rest.push(path.basename(probe));
    probe = parent;
  }
}
