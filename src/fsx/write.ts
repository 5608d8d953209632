/**
 * Confined, atomic writes. A command writes only inside the folder it owns: `writeInside` resolves
 * the target inside that folder first (PATH_OUTSIDE_ROOT otherwise), then writes a temporary file
 * beside it and renames it over the target, so a crash never leaves half a file.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveInside } from './resolve.js';

/** Writes `data` to `rel` inside `root` atomically, creating folders below `root` as needed. */
export function writeInside(root: string, rel: string, data: string | Uint8Array): string {
  const target = resolveInside(root, rel);
  mkdirSync(path.dirname(target), { recursive: true });
  // Re-check after creating folders: a link planted on the way must not redirect the write.
  const checked = resolveInside(root, rel);
  const tmp = `${checked}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, checked);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return checked;
}
