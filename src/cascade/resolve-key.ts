/**
 * Resolves an index entry's key to its target (docs/cascade.md "The crawl" step 7). Keys
 * walk segment by segment from their node; a `..` segment, an absolute path, a backslash or a NUL
 * is a subtree-escape before anything is resolved, and a segment whose real path (links resolved)
 * leaves the root is a subtree-escape too, refused before the next segment is looked at.
 */
import path from 'node:path';
import { problem, type Problem } from '../errors.js';
import { isInside, toPosixRelative } from '../fsx/index.js';
import { INDEX_FILE, type ScannedEntry } from './index-file.js';
import { relJoin, type CascadeReader } from './reader.js';

/** A resolved target: its real path when it exists, and its path relative to the root. */
export interface ResolvedTarget {
  readonly ok: true;
  /** Real path of the target; undefined when a segment does not exist. */
  readonly real: string | undefined;
  /** Relative to the root, POSIX: the real location when it exists, else the lexical one. */
  readonly rel: string;
}

/** A refused target: the SUBTREE_ESCAPE problem names the key and its line. */
export interface EscapedTarget {
  readonly ok: false;
  readonly problem: Problem;
}

/** Resolves `entry`, found in the node at real path `nodeReal` (root-relative `nodeRel`). */
export function resolveEntry(
  reader: CascadeReader,
  rootReal: string,
  nodeReal: string,
  nodeRel: string,
  entry: ScannedEntry,
): ResolvedTarget | EscapedTarget {
  if (entry.kind === 'self') return { ok: true, real: nodeReal, rel: nodeRel };
  const label = relJoin(nodeRel, INDEX_FILE);
  const refuse = (why: string): EscapedTarget => ({
    ok: false,
    problem: problem(
      'SUBTREE_ESCAPE',
      label,
      `${label}:${entry.line}: key ${JSON.stringify(entry.key)} leaves the root: ${why}`,
      entry.line,
    ),
  });
  if (entry.escape !== undefined) return refuse(`it has ${entry.escape}`);
  let cur = nodeReal;
  for (let i = 0; i < entry.segments.length; i++) {
    const seg = entry.segments[i]!;
    const real = reader.realpath(path.join(cur, seg));
    if (real === undefined) {
      const rest = entry.segments.slice(i).join('/');
      return { ok: true, real: undefined, rel: relJoin(toPosixRelative(rootReal, cur), rest) };
    }
    if (!isInside(rootReal, real))
      return refuse(`segment ${JSON.stringify(seg)} is a link whose real path leaves the root`);
    cur = real;
  }
  return { ok: true, real: cur, rel: toPosixRelative(rootReal, cur) };
}

/** The lexical path of an entry's target relative to the root, for naming candidates. */
export function lexicalTarget(nodeRel: string, entry: ScannedEntry): string {
  if (entry.kind === 'self') return nodeRel;
  if (entry.escape !== undefined) return entry.key;
  return relJoin(nodeRel, entry.segments.join('/'));
}
