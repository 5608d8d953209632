/**
 * What `skilldex init` added, kept so `init --undo` removes exactly that (issue 23 §1, docs/init.md).
 * One JSON file, `$XDG_STATE_HOME/skilldex/init.json` (default `~/.local/state/skilldex/init.json`),
 * holds one record per change: a whole file init wrote (the router skill; a config replaced with
 * --force, with a backup of what it replaced), a member or element init inserted into a JSON file
 * (an MCP entry, a hook), keys init inserted into a TOML file (config lines, a Codex MCP table),
 * or skill folders init moved. Each record carries the exact text inserted, so undo can take it
 * out byte for byte. A later step (a hook) registers into undo by returning one more record of
 * these kinds. Reads and writes only the record file and the backups folder beside it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { xdgBaseDir } from '../../fsx/index.js';
import { readClientFile, removeEmptyFolder, writeClientFile } from './files.js';
import { parseJsonText, JsonShapeError } from './json-edit.js';

/** Version of the record file's format. */
export const RECORD_VERSION = 1;

/** The steps a record can belong to (InitStep['step'] and the steps that later add records). */
export type RecordStep = 'config' | 'move' | 'router-skill' | 'mcp' | 'hook';

interface RecordBase {
  /** The client whose init made the change. */
  readonly client: string;
  /** True for a change every client's setup relies on (the user config): undone with the last client. */
  readonly shared?: boolean;
  readonly step: RecordStep;
  /** The file changed (for `moved`: the folder the skills went to). */
  readonly file: string;
  /**
   * The folders init made to hold `file`, deepest first (absent: none, or a record written before
   * init kept them). Undo removes each that is empty once the file is gone, and only folders that
   * hold `file`: a record naming any other folder has it ignored.
   */
  readonly created_folders?: readonly string[];
}

/** A whole file init wrote; `backup` holds what it replaced (null: the file did not exist). */
export interface FileRecord extends RecordBase {
  readonly kind: 'file';
  /** sha256 hex of the text init wrote: undo removes or restores only a file still holding it. */
  readonly sha256: string;
  readonly backup: string | null;
}

/** A member (`element: false`) or array element (`element: true`) init inserted into a JSON file. */
export interface JsonRecord extends RecordBase {
  readonly kind: 'json';
  /** The member's path (last key included), or the array's path for an element. */
  readonly path: readonly string[];
  readonly element: boolean;
  readonly value: unknown;
  /** The exact text inserted. */
  readonly inserted: string;
  /** The value this member replaced (--force), restored by undo; absent when there was none. */
  readonly previous?: unknown;
  /** True when init created the file: undo removes it once nothing else is left in it. */
  readonly created_file: boolean;
}

/** Keys init inserted into a TOML file, as one piece of text. */
export interface TomlRecord extends RecordBase {
  readonly kind: 'toml';
  /** The paths of the keys the inserted text defines. */
  readonly keys: readonly (readonly string[])[];
  /** Tables the inserted text created (a `[library]` header): removed with it when empty. */
  readonly created_tables: readonly (readonly string[])[];
  readonly inserted: string;
  readonly created_file: boolean;
}

/** Skill folders `--move` moved out of a natively loaded folder; undo says how to move them back. */
export interface MovedRecord extends RecordBase {
  readonly kind: 'moved';
  readonly from: string;
  readonly names: readonly string[];
}

/** One change init made. */
export type UndoRecord = FileRecord | JsonRecord | TomlRecord | MovedRecord;

/** The record file of a home: `$XDG_STATE_HOME/skilldex/init.json`, else `~/.local/state/skilldex/init.json`. */
export function recordPath(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  return path.join(xdgBaseDir('XDG_STATE_HOME', env, home), 'skilldex', 'init.json');
}

/** The folder beside the record file where init keeps copies of the files it replaced. */
export function backupsDir(record: string): string {
  return path.join(path.dirname(record), 'init-backups');
}

/** The records in `file` (none when it does not exist). CLIENT_CONFIG_INVALID when it is damaged. */
export function readRecords(file: string): UndoRecord[] {
  const read = readClientFile(file);
  if (read === undefined) return [];
  const damaged = (why: string): SkilldexError =>
    new SkilldexError(
      'CLIENT_CONFIG_INVALID',
      `${file} (what skilldex init added, for init --undo) ${why}; undo cannot tell what to remove: remove the file, and remove skilldex's entries by hand`,
      { file },
    );
  let doc: unknown;
  try {
    doc = parseJsonText(read.text);
  } catch (err) {
    if (err instanceof JsonShapeError) throw damaged(err.message);
    throw err;
  }
  const o = doc as { version?: unknown; records?: unknown } | null;
  if (o === null || typeof o !== 'object' || o.version !== RECORD_VERSION)
    throw damaged(`is not a version ${RECORD_VERSION} record`);
  if (!Array.isArray(o.records) || !o.records.every(isRecord))
    throw damaged('holds a record of an unknown shape');
  return o.records as UndoRecord[];
}

/** Writes `records` to `file` (mode 0600: it names the user's files), or keeps none when empty. */
export function writeRecords(file: string, records: readonly UndoRecord[]): void {
  writeClientFile(
    file,
    JSON.stringify({ version: RECORD_VERSION, records }, null, 2) + '\n',
    0o600,
  );
}

function isRecord(r: unknown): r is UndoRecord {
  if (r === null || typeof r !== 'object') return false;
  const o = r as Record<string, unknown>;
  const str = (k: string): boolean => typeof o[k] === 'string';
  if (!str('client') || !str('step') || !str('file')) return false;
  if (o['created_folders'] !== undefined && !isPath(o['created_folders'])) return false;
  switch (o['kind']) {
    case 'file':
      return str('sha256') && (o['backup'] === null || str('backup'));
    case 'json':
      return isPath(o['path']) && str('inserted') && typeof o['element'] === 'boolean';
    case 'toml':
      return (
        str('inserted') &&
        Array.isArray(o['keys']) &&
        o['keys'].every(isPath) &&
        Array.isArray(o['created_tables']) &&
        o['created_tables'].every(isPath)
      );
    case 'moved':
      return str('from') && isPath(o['names']);
    default:
      return false;
  }
}

function isPath(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** The files init itself writes for one client's step (a record naming another file is refused). */
export type KnownTargets = (client: string, step: RecordStep) => readonly string[];

/**
 * Checks that every record names only what init itself could have written (issue 36 L9): the
 * record file is input like any other, and a hand-made record must not make undo overwrite or
 * delete an arbitrary file. A record's file must be one `known` lists for its client and step; a
 * backup must lie in init's own backups folder beside `file`, named after the file it copies with
 * init's digest suffix. CLIENT_CONFIG_INVALID naming the record file and the entry otherwise,
 * before anything is changed.
 */
export function checkRecordTargets(
  file: string,
  records: readonly UndoRecord[],
  known: KnownTargets,
): void {
  const backups = backupsDir(file);
  records.forEach((r, i) => {
    const refuse = (why: string): SkilldexError =>
      new SkilldexError(
        'CLIENT_CONFIG_INVALID',
        `${file} (what skilldex init added, for init --undo): entry ${i} ${why}; undo changed nothing. ` +
          "If you ran init with --config or $SKILLDEX_CONFIG (or another $CODEX_HOME), run init --undo with the same; otherwise remove that entry or the file, and remove skilldex's entries by hand",
        { file, entry: i, target: r.file },
      );
    if (r.kind === 'moved') return; // Only printed: undo never touches moved skills.
    const wanted = known(r.client, r.step).map((p) => path.resolve(p));
    if (!wanted.includes(path.resolve(r.file)))
      throw refuse(
        `names ${r.file} for the ${r.step} step of ${r.client}, which is not a file init writes there` +
          (wanted.length > 0 ? ` (${wanted.join(', ')})` : ''),
      );
    if (r.kind !== 'file' || r.backup === null) return;
    const name = path.basename(r.backup);
    const digestName = new RegExp(`^${escapeRegExp(path.basename(r.file))}\\.[0-9a-f]{16}\\.bak$`);
    if (path.resolve(path.dirname(r.backup)) !== path.resolve(backups) || !digestName.test(name))
      throw refuse(
        `names ${r.backup} as the copy of ${r.file}, which is not a copy init keeps (those are ${path.join(backups, `${path.basename(r.file)}.<digest>.bak`)})`,
      );
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The folders above `file` that do not exist yet, deepest first: what a write of `file` would
 * create (recorded as `created_folders`).
 */
export function missingFolders(file: string): string[] {
  const out: string[] = [];
  for (let d = path.dirname(path.resolve(file)); path.dirname(d) !== d; d = path.dirname(d)) {
    if (existsSync(d)) break;
    out.push(d);
  }
  return out;
}

/**
 * Removes the created folders of `records` (those undo took out) that are empty, deepest first
 * across all of them (one folder may hold the files of several records), each only once its
 * record's file is gone and only when it holds that file: a hand-made record naming any other
 * folder has it ignored. Returns the folders removed.
 */
export function removeCreatedFolders(records: readonly UndoRecord[]): string[] {
  const folders = new Set<string>();
  for (const r of records) {
    if (existsSync(r.file)) continue;
    const file = path.resolve(r.file);
    for (const f of r.created_folders ?? []) {
      const dir = path.resolve(f);
      if (file.startsWith(dir + path.sep)) folders.add(dir);
    }
  }
  // Deepest first; a folder still holding something (of the user's, or another file init keeps) stays.
  return [...folders]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .filter((f) => removeEmptyFolder(f));
}
