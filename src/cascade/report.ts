/**
 * Report types of the index cascade (docs/cascade.md): the crawl outcomes with their exit codes
 * (docs/integration.md §4), the crawl report, and the reports of build and audit. Plain readonly data:
 * the CLI renders them, the MCP server returns them, the tests assert them. No logic, no I/O.
 */
import type { ExitCode, Problem } from '../errors.js';

/** How a crawl ended; spelled as docs/cascade.md spells them. */
export type CrawlOutcome =
  | 'hit'
  | 'no match'
  | 'ambiguous'
  | 'no index here'
  | 'reference loop'
  | 'subtree-escape'
  | 'unreadable node'
  | 'broken descent';

/** Every crawl outcome, in the order docs/cascade.md lists them. */
export const CRAWL_OUTCOMES: readonly CrawlOutcome[] = Object.freeze([
  'hit',
  'no match',
  'ambiguous',
  'no index here',
  'reference loop',
  'subtree-escape',
  'unreadable node',
  'broken descent',
]);

/**
 * Exit code of each crawl outcome (docs/integration.md §4): 0 a hit; 1 ran but found nothing usable (no
 * match, ambiguous, no index here); 2 refused a path outside its root (subtree-escape); 3 the
 * cascade itself failed an integrity check (a loop, an unreadable node, a broken descent).
 */
export const CRAWL_EXIT_CODES: Readonly<Record<CrawlOutcome, ExitCode>> = Object.freeze({
  hit: 0,
  'no match': 1,
  ambiguous: 1,
  'no index here': 1,
  'subtree-escape': 2,
  'reference loop': 3,
  'unreadable node': 3,
  'broken descent': 3,
});

/** An index entry as a crawl names it: its key and where it leads, relative to the root. */
export interface EntryRef {
  /** The key as written in the node's skill.index (`pdf-toolkit`, `docs/`, `.`, `a/b/c`). */
  readonly key: string;
  /** The entry's target relative to the root in POSIX form, `.` for the root itself. */
  readonly path: string;
}

/** An entry offered after `no match`: where it leads and the word of it closest to the need. */
export interface Suggestion extends EntryRef {
  /** The entry's key or keyword nearest the need, case-folded. */
  readonly closest: string;
}

/** The result of one crawl (docs/cascade.md). Paths are relative to the root, POSIX, `.` for the root. */
export interface CrawlReport {
  readonly outcome: CrawlOutcome;
  /** The skill reached: present only when `outcome` is `hit`. */
  readonly hit?: EntryRef;
  /** The tied hits, sorted by key: present only when `outcome` is `ambiguous`. */
  readonly candidates?: readonly EntryRef[];
  /**
   * With `no match`: the entries of the node the crawl stopped at, closest to the need first (at
   * most 10), each with its key or keyword nearest the need: what to try instead.
   */
  readonly suggestions?: readonly Suggestion[];
  /** Nodes whose skill.index was read and parsed, in crawl order. */
  readonly visited: readonly string[];
  /**
   * Everything wrong that the crawl met, in the order met: malformed lines, missing or wrong
   * stamps, and the problem that ended the crawl (SUBTREE_ESCAPE, REFERENCE_LOOP…).
   */
  readonly inconsistencies: readonly Problem[];
}

/** One file that `cascade build` writes (or, with `--check`, would write). */
export interface BuildChange {
  /** Path relative to the built folder, POSIX. */
  readonly path: string;
  readonly change: 'create' | 'update';
}

/** The result of `cascade build`. */
export interface BuildReport {
  /** True when nothing was written (`--check`). */
  readonly check: boolean;
  /** Skills placed in the cascade. */
  readonly skills: number;
  /** Nodes (folders with a skill.index) in the cascade, relative paths sorted. */
  readonly nodes: readonly string[];
  /** Files that differ from what build produces: written, or with `--check` to be written. */
  readonly changes: readonly BuildChange[];
  /** Files already equal to what build produces. */
  readonly unchanged: number;
  /** Skipped SKILL.md files, folder names that cannot be keys, stale index files. */
  readonly problems: readonly Problem[];
  /**
   * What `cascade audit` reports for the cascade as built (with `check`: as it would be built),
   * e.g. skills whose own name reaches another skill. Absent when the build was asked not to audit.
   */
  readonly audit?: AuditReport;
}

/** The result of `cascade audit`. */
export interface AuditReport {
  /** True when no problem was found. */
  readonly clean: boolean;
  /** Nodes reached from the root, relative paths in the order audited. */
  readonly nodes: readonly string[];
  /** SKILL.md files found below the root. */
  readonly skills: number;
  /** Of those, how many an index entry leads to. */
  readonly reachable: number;
  /** Every problem a crawl could meet, sorted by path, line and code. */
  readonly problems: readonly Problem[];
}
