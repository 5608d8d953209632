/**
 * The vocabulary of substrates (docs/substrate.md): the five entry types, their rank order, the index
 * row record, and the report shapes of a read and a lint. Pure data and types; no I/O here.
 * Contract fields are snake_case because they cross into `--json`, `--yaml` and MCP as they are.
 */
import type { Problem } from '../errors.js';

/** The five entry types a substrate holds, one folder each. */
export type SubstrateType = 'vocabulary' | 'adr' | 'anti-pattern' | 'solution' | 'reviewer';

/**
 * The types in rank order (docs/substrate.md): anti-patterns first because they warn, then decisions,
 * then solutions, vocabulary and reviewers. Reads also open the index tables in this order.
 */
export const SUBSTRATE_TYPES: readonly SubstrateType[] = Object.freeze([
  'anti-pattern',
  'adr',
  'solution',
  'vocabulary',
  'reviewer',
]);

/** True when `value` names one of the five substrate types. */
export function isSubstrateType(value: string): value is SubstrateType {
  return (SUBSTRATE_TYPES as readonly string[]).includes(value);
}

/** The name of the index table file in every type folder. */
export const INDEX_FILE = 'INDEX.md';

/** How far a read went for one entry: the index row, the summary, or the whole body. */
export type StopDepth = 'index' | 'summary' | 'body';

/** Whether a hit matched every part of the query (`full`) or only enough of it (`partial`). */
export type MatchStrength = 'full' | 'partial';

/** The three kinds of query: a topic in words, a path glob (has `/` or `*`), or `tag:value`. */
export type QueryKind = 'topic' | 'path glob' | 'tag';

/** One resolved row of a type's INDEX.md table. */
export interface IndexRow {
  readonly type: SubstrateType;
  readonly id: string;
  readonly description: string;
  /** The Path cell with link and code markup removed; undefined when the cell is empty. */
  readonly path?: string;
  /** Reviewer rows: the Category cell ('' when absent). */
  readonly category: string;
  /** Reviewer rows: the Fires on globs, split at commas and spaces outside braces. */
  readonly fires_on: readonly string[];
  /** Cells of columns beyond the standard ones, by header name. */
  readonly extra: Readonly<Record<string, string>>;
  /** 1-based line of the row in INDEX.md. */
  readonly line: number;
}

/** One hit of a read. The `--yaml` output prints `type`, `id`, `description` and `stop_depth`. */
export interface SubstrateHit {
  readonly type: SubstrateType;
  readonly id: string;
  readonly description: string;
  readonly stop_depth: StopDepth;
  readonly match: MatchStrength;
  /** The entry file relative to the substrate root (POSIX), when the row names one. */
  readonly path?: string;
}

/** One file a read or lint opened, in open order, with the deepest part considered and why. */
export interface OpenedFile {
  /** Relative to the substrate root, POSIX. */
  readonly path: string;
  /** `index` for INDEX.md tables; `summary` or `body` for entry files. */
  readonly depth: StopDepth;
  readonly why: string;
}

/** The report of `readSubstrate`: the same object feeds `--json`, `--yaml` and MCP. */
export interface SubstrateReport {
  readonly query: string;
  readonly query_kind: QueryKind;
  /** The type filter, or null when every type was read. */
  readonly type_filter: SubstrateType | null;
  /** Absolute path of the substrate root. */
  readonly root: string;
  /** Topic queries: the distinct Porter stems compared with the entries (empty otherwise). */
  readonly terms: readonly string[];
  readonly hits: readonly SubstrateHit[];
  readonly problems: readonly Problem[];
  /** Present when `explain` was asked: every file opened, in order, and why. */
  readonly opened?: readonly OpenedFile[];
  /**
   * Present when `explain` was asked for a tag query: entries with a tag that differs from the
   * query's only by case or white space (not a match: tags match exactly), in index order.
   */
  readonly tag_near_misses?: readonly TagNearMiss[];
}

/** An entry tag that is not the queried tag but differs from it only by case or white space. */
export interface TagNearMiss {
  readonly type: SubstrateType;
  readonly id: string;
  /** The tag as the entry writes it. */
  readonly tag: string;
}

/** Counts for one type folder in a lint report. */
export interface LintTypeSummary {
  readonly type: SubstrateType;
  readonly rows: number;
  readonly entry_files: number;
}

/** The report of `lintSubstrate`: clean when `problems` is empty. */
export interface SubstrateLintReport {
  readonly root: string;
  readonly type_filter: SubstrateType | null;
  readonly clean: boolean;
  readonly types: readonly LintTypeSummary[];
  readonly problems: readonly Problem[];
}
