/**
 * The shape of a cascade at a glance, for the explorer's cascade view (issue 27): every node reached
 * from the root by following descents, each with its entries (key, kind, keywords, the path it
 * leads to), and the problems the index files themselves show: malformed lines, missing or wrong
 * stamps, unreadable nodes, descents that are broken, leave the root or loop. Fast: it reads only
 * skill.index files and their stamps and resolves only descents (one realpath per key segment);
 * whether each leaf holds a SKILL.md, and the ambiguity checks that crawl every skill's own name,
 * are `auditCascade`'s. A `fingerprint` over the nodes' digests tells when the tree changed.
 */
import { assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import { sha256Hex } from '../fsx/index.js';
import { INDEX_FILE, splitKeywords, type IndexEntry } from './index-file.js';
import { loadNode, rootContext, type NodeFailure } from './node.js';
import { DEFAULT_MAX_INDEX_BYTES, FS_READER, relJoin, type CascadeReader } from './reader.js';
import { lexicalTarget, resolveEntry } from './resolve-key.js';

/**
 * One entry of a node as the tree shows it: the parsed line's key, kind, line and keywords (one
 * definition, IndexEntry's), and where it leads.
 */
export interface CascadeTreeEntry extends Pick<IndexEntry, 'key' | 'kind' | 'line' | 'keywords'> {
  /** The path (relative to the root) the entry leads to: a node for a descent, a skill folder otherwise. */
  readonly target: string;
}

/** One node: its path relative to the root (`.` for the root) and its entries. */
export interface CascadeTreeNode {
  readonly node: string;
  readonly entries: readonly CascadeTreeEntry[];
}

/** The tree of a cascade and what its structural walk found. */
export interface CascadeTree {
  readonly nodes: readonly CascadeTreeNode[];
  /** Entries that name a skill (leaves and self entries); whether each holds a SKILL.md is the audit's. */
  readonly reached: number;
  /** Problems the index files show (see the header), sorted by path and line. */
  readonly problems: readonly Problem[];
  /** sha256 hex over every node's path and index digest: equal trees have equal fingerprints. */
  readonly fingerprint: string;
}

/** Options of `readCascadeTree`. */
export interface TreeOptions {
  /** Size cap of a skill.index, in bytes. Default 4 MiB. */
  readonly maxIndexBytes?: number;
  /** Where index and stamp files are read from. Default: the file system. */
  readonly reader?: CascadeReader;
}

const TREE_OPTION_KEYS = optionKeys<TreeOptions>()('maxIndexBytes', 'reader');

/** Reads the tree of the cascade at `root`. FILE_NOT_FOUND when the root does not exist. */
export function readCascadeTree(root: string, options: TreeOptions = {}): CascadeTree {
  assertKnownOptions(options, TREE_OPTION_KEYS, 'readCascadeTree');
  const reader = options.reader ?? FS_READER;
  const ctx = rootContext(root, reader, options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES);
  const rootReal = ctx.rootReal;
  const nodes: CascadeTreeNode[] = [];
  const digests: string[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>([rootReal]);
  let reached = 0;
  // Breadth first from the root; each node once, by real path (a descent back is a loop).
  const queue: { real: string; rel: string; via?: { from: string; line: number; key: string } }[] =
    [{ real: rootReal, rel: '.' }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const load = loadNode(ctx, next.real, next.rel);
    if (!load.ok) {
      problems.push(nodeFailure(load.failure, load.problem, next));
      continue;
    }
    const node = load.node;
    digests.push(`${node.rel}\t${node.sha256}\n`);
    problems.push(...node.problems);
    const label = relJoin(node.rel, INDEX_FILE);
    for (const e of node.index.entries) {
      if (e.kind !== 'descent') {
        reached++;
        continue;
      }
      const target = resolveEntry(reader, rootReal, node.real, node.rel, e);
      if (!target.ok) problems.push(target.problem);
      else if (target.real === undefined)
        problems.push(
          problem(
            'BROKEN_DESCENT',
            label,
            `${label}:${e.line}: descent ${JSON.stringify(e.key)} leads to ${target.rel}, which does not exist`,
            e.line,
          ),
        );
      else if (seen.has(target.real))
        problems.push(
          problem(
            'REFERENCE_LOOP',
            label,
            `${label}:${e.line}: descent ${JSON.stringify(e.key)} leads to ${target.rel}, a node already reached`,
            e.line,
          ),
        );
      else {
        seen.add(target.real);
        queue.push({
          real: target.real,
          rel: target.rel,
          via: { from: label, line: e.line, key: e.key },
        });
      }
    }
    nodes.push({
      node: node.rel,
      entries: node.index.entries.map((e) => ({
        key: e.key,
        kind: e.kind,
        line: e.line,
        keywords: splitKeywords(e.keywordText),
        target: lexicalTarget(node.rel, e),
      })),
    });
  }
  problems.sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  nodes.sort((a, b) => (a.node === '.' ? -1 : b.node === '.' ? 1 : a.node < b.node ? -1 : 1));
  return { nodes, reached, problems, fingerprint: sha256Hex(digests.sort().join('')) };
}

// The problem of a node that could not be loaded: a descent to a folder without an index is a
// broken descent named at the descent's line; the root without one is INDEX_MISSING.
function nodeFailure(
  failure: NodeFailure,
  found: Problem,
  at: { rel: string; via?: { from: string; line: number; key: string } },
): Problem {
  if (failure !== 'missing') return found;
  if (at.via === undefined)
    return problem('INDEX_MISSING', INDEX_FILE, `the cascade root has no ${INDEX_FILE}`);
  return problem(
    'BROKEN_DESCENT',
    at.via.from,
    `${at.via.from}:${at.via.line}: descent ${JSON.stringify(at.via.key)} leads to ${at.rel}, which has no ${INDEX_FILE}`,
    at.via.line,
  );
}
