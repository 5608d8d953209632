/**
 * The only way the cascade touches the file system: a `CascadeReader` that resolves real paths and
 * reads size-capped files, plus the options every cascade operation checks. The default reader is
 * fsx (realpath, single-read capped text). The crawl asks it for three names per node and never
 * for a directory listing; tests pass an instrumented reader to see every path the crawl touched.
 */
import { readBytesCapped, realpathOrUndefined, type RefusedFile } from '../fsx/index.js';

/** File access of a cascade operation: real paths and capped reads, nothing else. */
export interface CascadeReader {
  /** The real path of `p`, or undefined when it does not exist (or a link on the way is broken or loops). */
  realpath(p: string): string | undefined;
  /**
   * Reads the exact bytes of the regular file at the real path `p`, at most `maxBytes`. Never
   * throws for a bad file: the refusal carries a coded Problem labelled with `label`.
   */
  readBytes(p: string, maxBytes: number, label: string): { ok: true; bytes: Buffer } | RefusedFile;
}

/** The file-system reader: fsx's realpath and its single-read, size-capped byte read. */
export const FS_READER: CascadeReader = Object.freeze({
  realpath: realpathOrUndefined,
  readBytes: (p: string, maxBytes: number, label: string) => readBytesCapped(p, maxBytes, label),
});

/** Largest skill.index or skill.index.md read by default: 4 MiB. A build of 100,000 skills stays below it. */
export const DEFAULT_MAX_INDEX_BYTES = 4 * 1024 * 1024;

/** Largest stamp read: a `sha256sum` line with a long file name fits many times over. */
export const MAX_STAMP_BYTES = 4096;

/** Joins a node path relative to the root (`.` for the root) with a name, in POSIX form. */
export function relJoin(rel: string, name: string): string {
  return rel === '.' ? name : `${rel}/${name}`;
}
