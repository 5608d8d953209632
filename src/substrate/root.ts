/**
 * Finds the default substrate root (docs/substrate.md): a folder named `substrate/` at or above a
 * starting folder, the nearest one winning, the way git finds `.git/`. Only looks at names on the
 * way up; never lists a folder, never opens a file.
 *
 * A substrate found this way is project input, read under the same rules as the project config
 * (issue 36 M5, fsx/project-walk): the walk stops at the repository root and below the home folder,
 * and a `substrate/` folder another user owns is refused, not served.
 */
import os from 'node:os';
import path from 'node:path';
import { ownedByAnotherUser, projectAncestors, statOrUndefined } from '../fsx/index.js';

/** The folder name a substrate root has by convention. */
export const SUBSTRATE_DIR = 'substrate';

/** Where the walk for a substrate root stops, and whose folders it accepts. */
export interface SubstrateRootOptions {
  /** The home folder: the walk never reaches it or anything above it. Default: os.homedir(). */
  readonly home?: string;
  /** The running user; a `substrate/` folder another user owns is refused. Default: getuid(). */
  readonly uid?: number;
}

/** The outcome of the walk: the root found, or the nearest folder refused and why. */
export interface SubstrateRootSearch {
  readonly root?: string;
  readonly refused?: { readonly path: string; readonly uid: number; readonly reason: string };
}

/**
 * The nearest `substrate/` folder at or above `cwd`, or the reason the nearest one is refused:
 * `cwd/substrate`, then `cwd/../substrate`, up to the first repository root (a folder holding
 * `.git`), never reaching the home folder. When `cwd` itself is a folder named `substrate` inside
 * no other substrate, the search finds it from its parent. A `substrate/` folder owned by another
 * user (not the running user, not root) ends the search refused: the walk does not go on past it.
 */
export function searchSubstrateRoot(
  cwd: string,
  options: SubstrateRootOptions = {},
): SubstrateRootSearch {
  const home = options.home ?? os.homedir();
  for (const dir of projectAncestors(cwd, home)) {
    const candidate = path.join(dir, SUBSTRATE_DIR);
    // Missing or unreadable: not a substrate here; the search goes on upward.
    const st = statOrUndefined(candidate);
    if (st?.isDirectory() !== true) continue;
    if (ownedByAnotherUser(st.uid, options.uid ?? process.getuid?.())) {
      return {
        refused: {
          path: candidate,
          uid: st.uid,
          reason: `the folder belongs to another user (uid ${st.uid}); not read`,
        },
      };
    }
    return { root: candidate };
  }
  return {};
}

/**
 * The absolute path of the nearest acceptable `substrate/` folder at or above `cwd` (see
 * searchSubstrateRoot). Undefined when there is none or the nearest is refused: callers turn that
 * into SUBSTRATE_NOT_FOUND.
 */
export function findSubstrateRoot(
  cwd: string,
  options: SubstrateRootOptions = {},
): string | undefined {
  return searchSubstrateRoot(cwd, options).root;
}
