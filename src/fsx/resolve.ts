/**
 * Root-confined path resolution. Every path that comes from user input or from file content is
 * resolved here before it is opened: `..` that leaves the root, absolute paths, NUL bytes and
 * symbolic links whose real path leaves the root (or that are broken or loop) are refused with
 * PATH_OUTSIDE_ROOT.
 */
import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../errors.js';

/** True when `child` is `parent` or lies below it (both absolute, compared lexically). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/** True when `child` lies inside at least one of `roots`. */
export function isInsideAny(roots: readonly string[], child: string): boolean {
  return roots.some((r) => isInside(r, child));
}

/**
 * The real path of `p`, or undefined when it does not exist or cannot be resolved. One realpath(3)
 * call (`realpathSync.native`): Node's JS realpathSync lstats every component of the path, which
 * made a cascade tree of 1,206 skills spend most of its time in lstat (issue 27).
 */
export function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    // A missing or unresolvable path is an ordinary answer here: callers report it in context.
    return undefined;
  }
}

/**
 * Resolves `rel` inside `root` and returns its absolute real path (or, when it does not exist yet,
 * the lexical path below the real root). Throws PATH_OUTSIDE_ROOT for NUL bytes, absolute paths,
 * `..` that leaves the root, links whose real path leaves the root, and broken or looping links.
 */
export function resolveInside(root: string, rel: string): string {
  if (rel.includes('\0')) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `path ${JSON.stringify(rel)} contains a NUL byte`,
      { root, path: rel },
    );
  }
  if (path.isAbsolute(rel) || /^[a-zA-Z]:[\\/]/.test(rel)) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `path ${rel} is absolute; give a path relative to ${root}`,
      { root, path: rel },
    );
  }
  const realRoot = realpathOrUndefined(root) ?? path.resolve(root);
  const lexical = path.resolve(realRoot, rel);
  if (!isInside(realRoot, lexical)) {
    throw new SkilldexError('PATH_OUTSIDE_ROOT', `path ${rel} leaves the root ${root}`, {
      root,
      path: rel,
    });
  }
  // Resolve links on the longest existing prefix: a link anywhere on the way must stay inside.
  let probe = lexical;
  let rest = '';
  for (;;) {
    const real = realpathOrUndefined(probe);
    if (real !== undefined) {
      if (!isInside(realRoot, real)) {
        throw new SkilldexError(
          'PATH_OUTSIDE_ROOT',
          `path ${rel} resolves through a link to ${real}, outside the root ${root}`,
          {
            root,
            path: rel,
            real_path: real,
          },
        );
      }
      return rest === '' ? real : path.join(real, rest);
    }
    // A broken or looping link has no real path to check: refuse it rather than hand out a path
    // whose target could later appear outside the root.
    if (lstatOrUndefined(probe)?.isSymbolicLink() === true) {
      throw new SkilldexError(
        'PATH_OUTSIDE_ROOT',
        `path ${rel} goes through the broken or looping link ${probe}`,
        {
          root,
          path: rel,
          link: probe,
        },
      );
    }
    const parent = path.dirname(probe);
    if (parent === probe) return lexical;
    rest = rest === '' ? path.basename(probe) : path.join(path.basename(probe), rest);
    probe = parent;
  }
}

/**
 * The stat of what `p` leads to (links followed), or undefined when there is none to be had:
 * nothing there, a broken or looping link, a folder on the way that cannot be read.
 */
export function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    // An ordinary answer, as for realpathOrUndefined: callers decide what it means in context.
    return undefined;
  }
}

/** The stat of `p` itself (a link is not followed), or undefined when nothing is there to be had. */
export function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    // Nothing at `p` (the usual case for a path not created yet), or a folder that cannot be read.
    return undefined;
  }
}

/** `p` relative to `root` in POSIX form, `.` for the root itself. */
export function toPosixRelative(root: string, p: string): string {
  const rel = path.relative(root, p);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}
