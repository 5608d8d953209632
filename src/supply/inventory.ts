/**
 * Everything in a skill folder that its listing leaves out (issue 36 L4). The listing a lock pins
 * (catalog listSupportingFiles) is what the index serves: it skips folders behind a nested
 * SKILL.md (another skill, or a junk one discovery skips), `node_modules` and the other skipped
 * folders, links and special files. A folder that gains any of those must still fail `verify`, so
 * the lock also records this inventory and `verify` compares it entry by entry.
 *
 * Each entry not in the listing, by its POSIX path in the skill folder, maps to what it is:
 * `sha256:<hex>` for a regular file (its bytes), `link:<target>` for a symbolic link (never
 * followed), `dir` for an empty folder, `special` for a FIFO, socket or device (never opened),
 * `unhashed:<size>` for a file past the byte bounds. A folder that holds anything is implied by
 * its entries. Only `.git` folders are left out: version-control data changes on every git command
 * and is never served. Bounded (MAX_ENTRIES entries, MAX_DEPTH levels, MAX_BYTES hashed): past a
 * bound the inventory is cut and `truncated` says so. Reads only inside the folder.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { readBytesCapped, sha256Of } from '../fsx/index.js';
import { compareUtf8 } from './file-changes.js';

/** Most entries recorded. */
export const MAX_ENTRIES = 10_000;
/** Deepest folder level walked. */
export const MAX_DEPTH = 32;
/** Most bytes hashed, all files together: 256 MiB. */
export const MAX_BYTES = 256 * 1024 * 1024;

/** The entries of a folder its listing leaves out, path → kind (see the header). */
export interface Inventory {
  readonly entries: ReadonlyMap<string, string>;
  readonly truncated: boolean;
}

/**
 * The inventory of the skill folder `dir` (a real path): every entry under it, but `SKILL.md` at
 * its top, the paths in `listed` and `.git` folders, in UTF-8 path order.
 */
export function inventoryOf(dir: string, listed: ReadonlySet<string>): Inventory {
  const entries = new Map<string, string>();
  let truncated = false;
  let bytes = 0;
  const add = (rel: string, kind: string): boolean => {
    if (entries.size >= MAX_ENTRIES) {
      truncated = true;
      return false;
    }
    entries.set(rel, kind);
    return true;
  };
  const walk = (abs: string, rel: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) {
      truncated = true;
      return false;
    }
    let names: string[];
    try {
      names = readdirSync(abs).sort(compareUtf8);
    } catch (err) {
      return add(rel, `unreadable:${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (names.length === 0 && rel !== '') return add(rel, 'dir');
    for (const name of names) {
      const a = path.join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      let st;
      try {
        st = lstatSync(a);
      } catch {
        continue; // Vanished while listed: not there.
      }
      if (st.isDirectory()) {
        if (name === '.git') continue;
        if (!walk(a, r, depth + 1)) return false;
        continue;
      }
      if (listed.has(r) || r === 'SKILL.md') continue;
      let kind: string;
      if (st.isSymbolicLink()) {
        let target = '';
        try {
          target = readlinkSync(a);
        } catch {
          target = '?';
        }
        kind = `link:${target}`;
      } else if (st.isFile()) {
        const read =
          st.size <= MAX_BYTES - bytes ? readBytesCapped(a, st.size, a, true) : undefined;
        if (read?.ok === true) {
          bytes += read.bytes.length;
          kind = sha256Of(read.bytes);
        } else kind = `unhashed:${st.size}`;
      } else kind = 'special';
      if (!add(r, kind)) return false;
    }
    return true;
  };
  walk(dir, '', 0);
  return { entries, truncated };
}
