/**
 * Finds the default substrate root (docs/substrate.md): a folder named `substrate/` at or above a
 * starting folder, the nearest one winning, the way git finds `.git/`. Only looks at names on the
 * way up; never lists a folder, never opens a file.
 */
import path from 'node:path';
import { statOrUndefined } from '../fsx/index.js';

/** The folder name a substrate root has by convention. */
export const SUBSTRATE_DIR = 'substrate';

/**
 * The absolute path of the nearest `substrate/` folder at or above `cwd` (which must be absolute):
 * `cwd/substrate`, then `cwd/../substrate`, up to the file-system root. When `cwd` itself is a
 * folder named `substrate` inside no other substrate, the search finds it from its parent.
 * Undefined when there is none: callers turn that into SUBSTRATE_NOT_FOUND.
 */
export function findSubstrateRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const candidate = path.join(dir, SUBSTRATE_DIR);
    // Missing or unreadable: not a substrate here; the search goes on upward.
    if (statOrUndefined(candidate)?.isDirectory() === true) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
