/**
 * The `computedHash` of vercel-labs/skills `skills-lock.json`, recomputed the way its installer
 * computes it (src/local-lock.ts `computeSkillFolderHash`), so `skilldex verify` can check such a
 * lock: every regular file under the skill folder (links are neither files nor folders there, so
 * they are left out; `.git` and `node_modules` folders are skipped), sorted by relative path with
 * `localeCompare`, hashed as path then bytes into one sha256, lowercase hex. Bounded: past
 * MAX_FILES files, MAX_BYTES bytes or MAX_DEPTH levels no hash is given (undefined). Reads only
 * inside the folder.
 *
 * That framing is ambiguous (issue 36 L5): with no separator or length between a path and its
 * bytes, the same hash covers different splits of the same byte stream — a SKILL.md whose tail is
 * `zz-setup.sh` + a script hashes like a shorter SKILL.md beside a new `zz-setup.sh`. It is kept
 * as the installer defines it, for compatibility, and used only to prove a change: verify.ts never
 * counts a match as a pass (HASH_AMBIGUOUS). skilldex's own digests frame every file unambiguously
 * (catalog/read/folder-digest.ts: one `<path as JSON> \t <sha256:…> \t <size>` line per file).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readBytesCapped } from '../fsx/index.js';
import { createHash } from 'node:crypto';

/** Most files hashed. */
export const MAX_FILES = 10_000;
/** Most bytes hashed, all files together: 256 MiB. */
export const MAX_BYTES = 256 * 1024 * 1024;
/** Deepest folder level walked. */
export const MAX_DEPTH = 32;

/** The skills-lock.json `computedHash` of the folder `dir`, or undefined past a bound or on a read error. */
export function skillsLockHash(dir: string): string | undefined {
  const files: { rel: string; abs: string }[] = [];
  const walk = (abs: string, rel: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) return false;
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const a = path.join(abs, e.name);
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name === '.git' || e.name === 'node_modules') continue;
        if (!walk(a, r, depth + 1)) return false;
      } else if (e.isFile()) {
        files.push({ rel: r, abs: a });
        if (files.length > MAX_FILES) return false;
      }
    }
    return true;
  };
  if (!walk(dir, '', 0)) return undefined;
  files.sort((a, b) => a.rel.localeCompare(b.rel));
  const hash = createHash('sha256');
  let total = 0;
  for (const f of files) {
    const read = readBytesCapped(f.abs, MAX_BYTES - total, f.abs, true);
    if (!read.ok) return undefined;
    total += read.bytes.length;
    hash.update(f.rel);
    hash.update(read.bytes);
  }
  return hash.digest('hex');
}
