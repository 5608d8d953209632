/**
 * Helpers for the cascade tests: an instrumented reader that records every path a crawl touches,
 * and a tiny writer of stamped index files for trees made at test time.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { type CascadeReader } from '../../src/cascade/index.js';
import { FS_READER } from '../../src/cascade/reader.js';
import { writeTree } from '../support/cli.js';

/** A reader that logs the paths it is asked to resolve and to read. */
export interface LoggingReader extends CascadeReader {
  readonly resolved: string[];
  readonly read: string[];
}

/** Wraps the file-system reader and records every call. */
export function loggingReader(): LoggingReader {
  const resolved: string[] = [];
  const read: string[] = [];
  return {
    resolved,
    read,
    realpath: (p) => {
      resolved.push(p);
      return FS_READER.realpath(p);
    },
    readBytes: (p, maxBytes, label) => {
      read.push(p);
      return FS_READER.readBytes(p, maxBytes, label);
    },
  };
}

/** True when `p` is `root` or lies below it, compared lexically. */
export function under(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Writes `indexes` (node folder → skill.index text) below `root`, each with a matching stamp. */
export function writeStampedIndexes(root: string, indexes: Record<string, string>): void {
  const files: Record<string, string> = {};
  for (const [dir, text] of Object.entries(indexes)) {
    const base = dir === '.' ? '' : `${dir}/`;
    files[`${base}skill.index`] = text;
    files[`${base}skill.index.sha256`] =
      `${createHash('sha256').update(text).digest('hex')}  skill.index\n`;
  }
  writeTree(root, files);
}

/** The real path of `p` (temp folders may sit behind a link, as /tmp does on macOS). */
export function real(p: string): string {
  return realpathSync(p);
}
