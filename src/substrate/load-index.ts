/**
 * Opens the INDEX.md tables of a substrate (docs/substrate.md) through the instrumented reader, and
 * checks the root a read or lint is given. Opens index files only, never an entry: every read
 * starts here and decides what it can before any entry file is touched.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { problem, SkilldexError, type Problem } from '../errors.js';
import { realpathOrUndefined, resolveInside } from '../fsx/index.js';
import { DEFAULT_MAX_SUBSTRATE_BYTES, SubstrateFiles } from './files.js';
import { resolveIndexTable, type IndexTable } from './index-table.js';
import { INDEX_FILE, SUBSTRATE_TYPES, isSubstrateType, type SubstrateType } from './types.js';

/** Throws SUBSTRATE_NOT_FOUND unless `root` is an existing folder; INVALID_ARGUMENT if relative. */
export function checkRoot(root: string): void {
  if (!path.isAbsolute(root)) {
    throw new SkilldexError('INVALID_ARGUMENT', `substrate root ${root} must be an absolute path`, {
      root,
    });
  }
  let isDir = false;
  try {
    isDir = existsSync(root) && statSync(root).isDirectory();
  } catch (err) {
    throw new SkilldexError(
      'SUBSTRATE_NOT_FOUND',
      `substrate root ${root} cannot be read`,
      { root },
      { cause: err },
    );
  }
  if (!isDir)
    throw new SkilldexError('SUBSTRATE_NOT_FOUND', `substrate root ${root} is not a folder`, {
      root,
    });
}

/** The types to read: `type` alone, or all five in rank order. Throws INVALID_ARGUMENT for an unknown type. */
export function typesToRead(type: string | undefined): readonly SubstrateType[] {
  if (type === undefined) return SUBSTRATE_TYPES;
  if (!isSubstrateType(type)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `type ${JSON.stringify(type)} is not one of ${SUBSTRATE_TYPES.join(', ')}`,
      { type },
    );
  }
  return [type];
}

/**
 * A read's reader of the substrate at `root` (every file capped at `maxBytes`, default 1 MiB) and
 * the INDEX.md tables of `types` it opened first, `why` (loadIndexes; a missing type folder is a
 * type without entries).
 */
export function openIndexes(
  options: { readonly root: string; readonly maxBytes?: number | undefined },
  types: readonly SubstrateType[],
  why: string,
): { files: SubstrateFiles; tables: IndexTable[]; problems: Problem[] } {
  const files = new SubstrateFiles(options.root, options.maxBytes ?? DEFAULT_MAX_SUBSTRATE_BYTES);
  return { files, ...loadIndexes(files, types, why, false) };
}

/**
 * Opens and resolves the INDEX.md of each of `types`, in order. A folder without INDEX.md is a
 * MISSING_INDEX problem, and so is a missing type folder when `requireFolders` is set (lint);
 * a read takes a missing folder as a type with no entries. A folder or index that a link takes
 * out of the root is PATH_OUTSIDE_ROOT.
 */
export function loadIndexes(
  files: SubstrateFiles,
  types: readonly SubstrateType[],
  why: string,
  requireFolders: boolean,
): { tables: IndexTable[]; problems: Problem[] } {
  const tables: IndexTable[] = [];
  const problems: Problem[] = [];
  for (const type of types) {
    const label = files.indexLabel(type);
    const folder = files.typeFolder(type);
    if (!folder.ok) {
      problems.push(folder.problem);
      continue;
    }
    if (realpathOrUndefined(folder.abs) === undefined) {
      if (requireFolders)
        problems.push(problem('MISSING_INDEX', `${type}/`, `the substrate has no ${type}/ folder`));
      continue;
    }
    let abs: string;
    try {
      abs = resolveInside(folder.abs, INDEX_FILE);
    } catch (err) {
      if (!(err instanceof SkilldexError)) throw err;
      problems.push(
        problem('PATH_OUTSIDE_ROOT', label, `${label} leaves the substrate root; it is never read`),
      );
      continue;
    }
    if (realpathOrUndefined(abs) === undefined) {
      problems.push(problem('MISSING_INDEX', label, `folder ${type}/ has no ${INDEX_FILE}`));
      continue;
    }
    const opened = files.open(abs, label, 'index', why);
    if (!opened.ok) {
      problems.push(opened.problem);
      continue;
    }
    const table = resolveIndexTable(type, opened.text, label);
    problems.push(...table.problems);
    tables.push(table);
  }
  return { tables, problems };
}
