/**
 * The one door through which substrate reads and lints open files (docs/substrate.md). Every open goes
 * through `SubstrateFiles.open`, which records the file and why it was opened, so `--explain` can
 * show that no entry was opened that the decision did not need. Entry paths resolve inside their
 * type's folder (fsx.resolveInside: no `..` out, no absolute path, no link out); a path that
 * leaves is a PATH_OUTSIDE_ROOT problem and is never read; a missing file is a MISSING_ENTRY
 * problem. Each file is read once; a read that goes from summary to body reuses that text.
 */
import path from 'node:path';
import { problem, SkilldexError, type Problem } from '../errors.js';
import {
  readPrefixUntil,
  readTextCapped,
  realpathOrUndefined,
  resolveInside,
  toPosixRelative,
} from '../fsx/index.js';
import {
  INDEX_FILE,
  type IndexRow,
  type OpenedFile,
  type StopDepth,
  type SubstrateType,
} from './types.js';

/** Default size cap for INDEX.md and entry files read whole (index and body depth): 1 MiB. */
export const DEFAULT_MAX_SUBSTRATE_BYTES = 1024 * 1024;

/**
 * Most bytes a summary-depth read takes from the start of an entry: 64 KiB (frontmatter plus
 * Summary section; a Summary is a paragraph or two). The read stops earlier, at the heading after
 * `## Summary`; an entry whose Summary runs past the cap is judged on the part read.
 */
export const MAX_SUMMARY_READ_BYTES = 64 * 1024;

/** An entry file located inside its type folder: its absolute and root-relative paths. */
export interface EntryLocation {
  readonly abs: string;
  readonly rel: string;
}

/** A file read: its text (BOM removed) or the problem that stopped the read. */
export type OpenResult =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: Problem };

/** Confined, instrumented file access below one substrate root. */
export class SubstrateFiles {
  /** The real path of the root. */
  readonly root: string;
  private readonly maxBytes: number;
  private readonly log = new Map<string, { depth: StopDepth; why: string[] }>();
  private readonly texts = new Map<string, string>();
  // Starts of files read at summary depth only (bounded reads), by absolute path.
  private readonly heads = new Map<string, string>();
  private readonly folders = new Map<
    SubstrateType,
    { ok: true; abs: string } | { ok: false; problem: Problem }
  >();

  /** `root` must exist (callers check); `maxBytes` caps every read (INVALID_ARGUMENT unless a positive integer). */
  constructor(root: string, maxBytes: number = DEFAULT_MAX_SUBSTRATE_BYTES) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `maxBytes must be a positive whole number of bytes, got ${maxBytes}`,
        { option: 'maxBytes' },
      );
    }
    this.root = realpathOrUndefined(root) ?? path.resolve(root);
    this.maxBytes = maxBytes;
  }

  /** The absolute path of a type folder, or PATH_OUTSIDE_ROOT when a link takes it out. */
  typeFolder(type: SubstrateType): { ok: true; abs: string } | { ok: false; problem: Problem } {
    // Resolved once per read: every entry of the type is located below it.
    let known = this.folders.get(type);
    if (known === undefined) {
      known = this.resolveTypeFolder(type);
      this.folders.set(type, known);
    }
    return known;
  }

  private resolveTypeFolder(
    type: SubstrateType,
  ): { ok: true; abs: string } | { ok: false; problem: Problem } {
    return insideOrProblem(this.root, type, (err) =>
      problem(
        'PATH_OUTSIDE_ROOT',
        type,
        `folder ${type}/ leaves the substrate root: ${err.message}`,
      ),
    );
  }

  /** The root-relative label of a type's index file (`adr/INDEX.md`). */
  indexLabel(type: SubstrateType): string {
    return `${type}/${INDEX_FILE}`;
  }

  /**
   * Locates the entry file of `row` inside its type folder without opening it. Problems:
   * MISSING_PATH (no path cell), PATH_OUTSIDE_ROOT (the path leaves the folder), MISSING_ENTRY
   * (no file there). Problems name the index file and the row's line.
   */
  locateEntry(row: IndexRow): { ok: true; entry: EntryLocation } | { ok: false; problem: Problem } {
    const label = this.indexLabel(row.type);
    if (row.path === undefined) {
      return {
        ok: false,
        problem: problem(
          'MISSING_PATH',
          label,
          `${label}:${row.line}: row ${row.id} has no path to read`,
          row.line,
        ),
      };
    }
    const folder = this.typeFolder(row.type);
    if (!folder.ok) return folder;
    const inside = insideOrProblem(folder.abs, row.path, () =>
      problem(
        'PATH_OUTSIDE_ROOT',
        label,
        `${label}:${row.line}: row ${row.id} path ${row.path} leaves ${row.type}/; it is never read`,
        row.line,
      ),
    );
    if (!inside.ok) return inside;
    const abs = inside.abs;
    const rel = toPosixRelative(this.root, abs);
    if (realpathOrUndefined(abs) === undefined) {
      return {
        ok: false,
        problem: problem(
          'MISSING_ENTRY',
          label,
          `${label}:${row.line}: row ${row.id}: entry file ${rel} does not exist`,
          row.line,
        ),
      };
    }
    return { ok: true, entry: { abs, rel } };
  }

  /**
   * Opens `abs` (labelled `rel`) and records it with `depth` and `why`. A file already opened is
   * not read again: its text is reused and the new reason is added.
   */
  open(abs: string, rel: string, depth: StopDepth, why: string): OpenResult {
    this.record(rel, depth, why);
    const cached = this.texts.get(abs);
    if (cached !== undefined) return { ok: true, text: cached };
    const file = readTextCapped(abs, { maxBytes: this.maxBytes, label: rel });
    if (!file.ok) return { ok: false, problem: file.problem };
    this.texts.set(abs, file.text);
    return { ok: true, text: file.text };
  }

  /**
   * Opens `abs` at summary depth: a bounded read from the start up to the heading after
   * `## Summary` (`done` says when the text holds it), at most MAX_SUMMARY_READ_BYTES (or the
   * file cap, if smaller). Recorded like `open`; a file already read whole is reused.
   */
  openSummary(abs: string, rel: string, why: string, done: (text: string) => boolean): OpenResult {
    this.record(rel, 'summary', why);
    const cached = this.texts.get(abs) ?? this.heads.get(abs);
    if (cached !== undefined) return { ok: true, text: cached };
    const file = readPrefixUntil(abs, {
      maxBytes: Math.min(MAX_SUMMARY_READ_BYTES, this.maxBytes),
      label: rel,
      enough: done,
    });
    if (!file.ok) return { ok: false, problem: file.problem };
    if (file.complete) this.texts.set(abs, file.text);
    else this.heads.set(abs, file.text);
    return { ok: true, text: file.text };
  }

  /** Every file opened, in the order first opened, with the deepest depth and all reasons. */
  opened(): OpenedFile[] {
    return [...this.log].map(([p, e]) => ({ path: p, depth: e.depth, why: e.why.join('; ') }));
  }

  private record(rel: string, depth: StopDepth, why: string): void {
    const known = this.log.get(rel);
    if (known === undefined) {
      this.log.set(rel, { depth, why: [why] });
      return;
    }
    if (DEPTH_RANK[depth] > DEPTH_RANK[known.depth]) known.depth = depth;
    known.why.push(why);
  }
}

const DEPTH_RANK: Readonly<Record<StopDepth, number>> = { index: 0, summary: 1, body: 2 };

/**
 * `rel` resolved inside `base` (resolveInside), or the problem `outside` makes of its refusal;
 * any other failure is thrown.
 */
function insideOrProblem(
  base: string,
  rel: string,
  outside: (err: SkilldexError) => Problem,
): { ok: true; abs: string } | { ok: false; problem: Problem } {
  try {
    return { ok: true, abs: resolveInside(base, rel) };
  } catch (err) {
    if (!(err instanceof SkilldexError)) throw err;
    return { ok: false, problem: outside(err) };
  }
}
