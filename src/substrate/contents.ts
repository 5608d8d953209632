/**
 * What a substrate holds, before any query (issue 27: the explorer's substrate page shows it
 * first): each type's INDEX.md rows (id, description, path, and for reviewers category and globs),
 * in type order, with the problems met reading the tables. Opens the five INDEX.md files only,
 * never an entry, through the same confined reader as every substrate read (docs/substrate.md).
 */
import { assertKnownOptions, optionKeys, type Problem } from '../errors.js';
import { checkRoot, openIndexes } from './load-index.js';
import { SUBSTRATE_TYPES, type SubstrateType } from './types.js';

/** One row of a type's index, as the contents list it. */
export interface SubstrateEntryRef {
  readonly id: string;
  readonly description: string;
  readonly path: string | null;
  /** Reviewer rows: category and the globs the reviewer fires on; empty for other types. */
  readonly category: string;
  readonly fires_on: readonly string[];
}

/** The contents of one substrate. */
export interface SubstrateContents {
  readonly root: string;
  /** Every type in rank order, with its rows (none when the type has no folder or index). */
  readonly types: readonly {
    readonly type: SubstrateType;
    readonly entries: readonly SubstrateEntryRef[];
  }[];
  readonly problems: readonly Problem[];
}

/** Options of `listSubstrate`. */
export interface ListSubstrateOptions {
  /** Absolute path of the substrate root. */
  readonly root: string;
  /** Size cap of an INDEX.md, in bytes. Default: the read's (1 MiB). */
  readonly maxBytes?: number;
}

const LIST_OPTION_KEYS = optionKeys<ListSubstrateOptions>()('root', 'maxBytes');

/**
 * Lists what the substrate at `options.root` holds. SUBSTRATE_NOT_FOUND when the root is not a
 * folder, INVALID_ARGUMENT for a relative root or an unknown option; bad tables are problems.
 */
export function listSubstrate(options: ListSubstrateOptions): SubstrateContents {
  assertKnownOptions(options, LIST_OPTION_KEYS, 'listSubstrate');
  checkRoot(options.root);
  const { files, tables, problems } = openIndexes(
    options,
    SUBSTRATE_TYPES,
    'contents: every index table',
  );
  return {
    root: files.root,
    types: SUBSTRATE_TYPES.map((type) => ({
      type,
      entries: (tables.find((t) => t.type === type)?.rows ?? []).map((r) => ({
        id: r.id,
        description: r.description,
        path: r.path ?? null,
        category: r.category,
        fires_on: r.fires_on,
      })),
    })),
    problems,
  };
}
