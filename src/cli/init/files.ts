/**
 * File access of `skilldex init` and `init --undo` (issues 12, 25): read a client's or the user's
 * config file with the rules skills are read with (a regular file, at most MAX_CLIENT_FILE_BYTES,
 * UTF-8: a FIFO or a link to /dev/zero is refused, never waited on), and write or remove one
 * atomically (a temporary file renamed over it) keeping the permission bits of the file it
 * replaces. A file that is a symbolic link (a dotfiles checkout) is edited where it really lives,
 * so the link stays a link. Never writes anything but the one file named.
 */
import { lstatSync, realpathSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { readTextCapped, removeInside, sha256Hex, writeInside } from '../../fsx/index.js';

/** Largest config file init reads: 4 MiB (a client's config is a few kilobytes). */
export const MAX_CLIENT_FILE_BYTES = 4 * 1024 * 1024;

/** A file as init read it: its text and permission bits. */
export interface ReadFile {
  readonly text: string;
  readonly mode: number;
}

/** Whether anything (a file, a link, a folder) stands at `file`. */
export function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The text of `file`, or undefined when nothing stands there. CLIENT_CONFIG_INVALID naming the
 * file when it is not a regular file, is over MAX_CLIENT_FILE_BYTES, or is not UTF-8 text.
 */
export function readClientFile(file: string): ReadFile | undefined {
  if (!exists(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: MAX_CLIENT_FILE_BYTES, label: file });
  if (!r.ok)
    throw new SkilldexError(
      'CLIENT_CONFIG_INVALID',
      `${file} cannot be read as a config file: ${r.problem.message}`,
      { file, problem: r.problem.code },
    );
  return { text: r.text, mode: statSync(file).mode & 0o777 };
}

/** Writes `text` to `file` atomically (folders made as needed), with `mode` (default 0o644). */
export function writeClientFile(file: string, text: string, mode = 0o644): void {
  const target = realTarget(file);
  writeInside(path.dirname(target), path.basename(target), text, undefined, mode);
}

/** Removes `file` (where it really lives) when it exists. */
export function removeClientFile(file: string): void {
  const target = realTarget(file);
  removeInside(path.dirname(target), path.basename(target));
}

/**
 * Removes the folder `dir` when it is empty; a folder with anything left in it stays. True when
 * it was removed.
 */
export function removeEmptyFolder(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    // Not empty, or already gone: either way it is not init's to remove.
    return false;
  }
}

/** The sha256 hex of `text`'s UTF-8 bytes. */
export function textDigest(text: string): string {
  return sha256Hex(text);
}

// The path a write goes to: an existing link's real path, else the path itself.
function realTarget(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}
