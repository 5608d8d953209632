/**
 * Crawls a skill.index cascade for one need (docs/cascade.md), exactly as the cascade issue spells it:
 * open the root's index, record malformed lines and stamp problems, match the case-folded need as
 * a substring of keys and keywords, rank self entries and leaves above descents, let a trusted
 * overlay break ties, and follow the one surviving descent until a leaf, a miss, or a failure.
 * Reads only index nodes: never a skill's contents, never a directory listing, never a path
 * outside the root (symbolic links resolved first). Every node is tracked by real path, so the
 * crawl always terminates.
 */
import { assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import { compareStrings } from '../text/index.js';
import { INDEX_FILE, type ScannedEntry } from './index-file.js';
import { bestHits, breakTie, entryHits, nearEntries, prepareNeed } from './match.js';
import { loadNode, loadOverlay, rootContext, type NodeContext } from './node.js';
import { DEFAULT_MAX_INDEX_BYTES, FS_READER, relJoin, type CascadeReader } from './reader.js';
import type { CrawlOutcome, CrawlReport, EntryRef } from './report.js';
import { lexicalTarget, resolveEntry } from './resolve-key.js';

/** Options of `crawlCascade`. */
export interface CrawlOptions {
  /** File access; default `FS_READER`. Tests pass an instrumented reader to audit every path touched. */
  readonly reader?: CascadeReader;
  /** Size cap of a skill.index and of its overlay, in bytes. Default 4 MiB (`DEFAULT_MAX_INDEX_BYTES`). */
  readonly maxIndexBytes?: number;
}

/** Defaults of `crawlCascade`. */
export const DEFAULT_CRAWL_OPTIONS = Object.freeze({ maxIndexBytes: DEFAULT_MAX_INDEX_BYTES });

const CRAWL_OPTION_KEYS = optionKeys<CrawlOptions>()('reader', 'maxIndexBytes');

/**
 * Crawls the cascade at `root` for `need` and returns the report: the outcome, the hit (or the
 * tied candidates), the nodes visited and every inconsistency met. Throws INVALID_QUERY for an
 * empty need, FILE_NOT_FOUND when `root` does not exist, INVALID_ARGUMENT for an unknown option.
 */
export function crawlCascade(root: string, need: string, options: CrawlOptions = {}): CrawlReport {
  assertKnownOptions(options, CRAWL_OPTION_KEYS, 'crawlCascade');
  const reader = options.reader ?? FS_READER;
  const prepared = prepareNeed(need);
  const ctx = rootContext(
    root,
    reader,
    options.maxIndexBytes ?? DEFAULT_CRAWL_OPTIONS.maxIndexBytes,
  );
  return crawlIn(ctx, prepared);
}

/**
 * The crawl of `crawlCascade` for a need already prepared, in a node context the caller keeps
 * (the audit crawls every skill's name through one context, so each node is parsed once).
 */
export function crawlIn(ctx: NodeContext, prepared: ReturnType<typeof prepareNeed>): CrawlReport {
  const { reader, rootReal } = ctx;
  const visited: string[] = [];
  const visitedReal = new Set<string>();
  const inconsistencies: Problem[] = [];
  const end = (
    outcome: CrawlOutcome,
    extra: Partial<Pick<CrawlReport, 'hit' | 'candidates' | 'suggestions'>> = {},
  ): CrawlReport => ({
    outcome,
    ...extra,
    visited,
    inconsistencies,
  });

  let nodeReal = rootReal;
  let nodeRel = '.';
  // The entry that led to the current node; undefined at the root.
  let via: { entry: ScannedEntry; from: string } | undefined;
  for (;;) {
    const load = loadNode(ctx, nodeReal, nodeRel);
    if (!load.ok) {
      if (load.failure === 'missing') {
        if (via === undefined) return end('no index here');
        const from = relJoin(via.from, INDEX_FILE);
        const msg = `${from}:${via.entry.line}: descent ${JSON.stringify(via.entry.key)} leads to ${nodeRel}, which has no ${INDEX_FILE}`;
        inconsistencies.push(problem('BROKEN_DESCENT', from, msg, via.entry.line));
        return end('broken descent');
      }
      inconsistencies.push(load.problem);
      return end(load.failure === 'escape' ? 'subtree-escape' : 'unreadable node');
    }
    const node = load.node;
    visited.push(nodeRel);
    visitedReal.add(nodeReal);
    inconsistencies.push(...node.problems);
    const entries = node.index.entries;

    // A combo entry (a descent into a node that is itself a skill) is tried as a leaf first.
    if (via !== undefined) {
      const self = entries.find((e) => e.kind === 'self');
      if (self !== undefined && entryHits(self, prepared, node.ascii))
        return end('hit', { hit: { key: self.key, path: nodeRel } });
    }

    let best = bestHits(entries, prepared, node.ascii);
    if (best.length === 0) {
      const suggestions = nearEntries(entries, prepared).map((n) => ({
        key: n.entry.key,
        path: lexicalTarget(nodeRel, n.entry),
        closest: n.closest,
      }));
      return end('no match', suggestions.length > 0 ? { suggestions } : {});
    }
    if (best.length > 1) {
      // A missing or stale stamp makes the overlay untrusted: loadOverlay returns nothing then.
      const overlay = loadOverlay(ctx, node);
      if (overlay.problem) inconsistencies.push(overlay.problem);
      if (overlay.sections) best = breakTie(best, overlay.sections, prepared.tokens);
    }
    if (best.length > 1) {
      const candidates: EntryRef[] = best
        .map((e) => ({ key: e.key, path: lexicalTarget(nodeRel, e) }))
        .sort((a, b) => compareStrings(a.key, b.key));
      return end('ambiguous', { candidates });
    }

    const chosen = best[0]!;
    const target = resolveEntry(reader, rootReal, nodeReal, nodeRel, chosen);
    if (!target.ok) {
      inconsistencies.push(target.problem);
      return end('subtree-escape');
    }
    if (chosen.kind !== 'descent')
      return end('hit', { hit: { key: chosen.key, path: target.rel } });
    if (target.real === undefined) {
      const from = relJoin(nodeRel, INDEX_FILE);
      const msg = `${from}:${chosen.line}: descent ${JSON.stringify(chosen.key)} leads to ${target.rel}, which does not exist`;
      inconsistencies.push(problem('BROKEN_DESCENT', from, msg, chosen.line));
      return end('broken descent');
    }
    if (visitedReal.has(target.real)) {
      const from = relJoin(nodeRel, INDEX_FILE);
      const msg = `${from}:${chosen.line}: descent ${JSON.stringify(chosen.key)} leads back to ${target.rel}, already visited (${[...visited, target.rel].join(' → ')})`;
      inconsistencies.push(problem('REFERENCE_LOOP', from, msg, chosen.line));
      return end('reference loop');
    }
    via = { entry: chosen, from: nodeRel };
    nodeReal = target.real;
    nodeRel = target.rel;
  }
}
