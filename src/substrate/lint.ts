/**
 * `lintSubstrate`: checks that a substrate's index rows and entry files agree (docs/substrate.md):
 * every row has a file inside its type folder, every entry file has a row, IDs are unique per
 * type, frontmatter is valid (`scope` globs, `tags`, `predicate` of the right types), every entry
 * has a `## Summary` section, and every reviewer row has `Fires on` globs. It reads every index
 * and entry through the same instrumented reader as a read, and never writes.
 */
import path from 'node:path';
import { assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import { toPosixRelative, walkFiles } from '../fsx/index.js';
import { readEntrySummary } from './entry.js';
import { DEFAULT_MAX_SUBSTRATE_BYTES, SubstrateFiles } from './files.js';
import { globProblems } from './glob.js';
import { checkRoot, loadIndexes, typesToRead } from './load-index.js';
import {
  INDEX_FILE,
  type LintTypeSummary,
  type SubstrateLintReport,
  type SubstrateType,
} from './types.js';

/** Options of `lintSubstrate`. Unknown keys are refused with INVALID_ARGUMENT. */
export interface LintSubstrateOptions {
  /** Absolute path of the substrate root. Required. */
  readonly root: string;
  /** Check only this type. Default: all five types. */
  readonly type?: SubstrateType;
  /** Size cap per file in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
}

const LINT_OPTION_KEYS = optionKeys<LintSubstrateOptions>()('root', 'type', 'maxBytes');

/**
 * Lints the substrate at `options.root`. Clean when no problem was found. Throws
 * INVALID_ARGUMENT (unknown option or type, relative root) and SUBSTRATE_NOT_FOUND.
 */
export function lintSubstrate(options: LintSubstrateOptions): SubstrateLintReport {
  assertKnownOptions(options, LINT_OPTION_KEYS, 'lintSubstrate');
  const types = typesToRead(options.type);
  checkRoot(options.root);
  const files = new SubstrateFiles(options.root, options.maxBytes ?? DEFAULT_MAX_SUBSTRATE_BYTES);
  const problems: Problem[] = [];
  const summaries: LintTypeSummary[] = [];
  for (const type of types) {
    const { tables, problems: indexProblems } = loadIndexes(
      files,
      [type],
      'lint: the index table lists the entries',
      true,
    );
    problems.push(...indexProblems);
    const rows = tables[0]?.rows ?? [];
    const listed = new Set<string>();
    for (const row of rows) {
      const label = files.indexLabel(type);
      if (type === 'reviewer') {
        if (row.fires_on.length === 0) {
          problems.push(
            problem(
              'MALFORMED_ROW',
              label,
              `${label}:${row.line}: reviewer ${row.id} has no Fires on globs`,
              row.line,
            ),
          );
        }
        const at = `${label}:${row.line}: reviewer ${row.id}: Fires on`;
        problems.push(...globProblems(row.fires_on, 'MALFORMED_ROW', label, row.line, at));
      }
      // A row without a path was reported by the index table already.
      if (row.path === undefined) continue;
      const located = files.locateEntry(row);
      if (!located.ok) {
        problems.push(located.problem);
        continue;
      }
      listed.add(located.entry.abs);
      const opened = files.open(
        located.entry.abs,
        located.entry.rel,
        'summary',
        'lint: check the frontmatter and the Summary section',
      );
      if (!opened.ok) {
        problems.push(opened.problem);
        continue;
      }
      problems.push(...readEntrySummary(opened.text, located.entry.rel).problems);
    }
    const entryFiles = findEntryFiles(files, type, problems);
    for (const f of entryFiles) {
      if (!listed.has(f.realPath)) {
        const rel = toPosixRelative(files.root, f.realPath);
        problems.push(
          problem(
            'ORPHAN_ENTRY',
            rel,
            `${rel} is not listed by any row of ${files.indexLabel(type)}`,
          ),
        );
      }
    }
    summaries.push({ type, rows: rows.length, entry_files: entryFiles.length });
  }
  return {
    root: files.root,
    type_filter: options.type ?? null,
    clean: problems.length === 0,
    types: summaries,
    problems,
  };
}

/** The `.md` files below a type folder except its own INDEX.md (listed, not opened). */
function findEntryFiles(
  files: SubstrateFiles,
  type: SubstrateType,
  problems: Problem[],
): { realPath: string }[] {
  const folder = files.typeFolder(type);
  if (!folder.ok) return [];
  const walked = walkFiles(folder.abs, (name) => name.toLowerCase().endsWith('.md'));
  for (const p of walked.problems)
    problems.push({ ...p, path: toPosixRelative(files.root, p.path) });
  const index = path.join(folder.abs, INDEX_FILE);
  return walked.files.filter((f) => f.realPath !== index && f.path !== index);
}
