/**
 * `skilldex init --undo` (issue 23 §1, docs/init.md): removes exactly what init added, as its
 * records say (record.ts) — the router skill, the MCP entry, the prompt hook, the config lines —
 * for every client, or for the one `--client` names. The
 * inserted text comes out byte for byte; where the user edited around it, a JSON member or element
 * that still holds init's value is removed by position instead; anything else init wrote that
 * changed since is left alone and reported `modified` (its record kept, so a later undo can try
 * again). The user config is shared by every client: it goes with the last one. The library, the
 * catalog and skills moved with --move are never deleted: the notes say where they are. Every
 * result is parsed again before a file is replaced, and a file init created is removed once
 * nothing else is left in it.
 */
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { ROUTER_FOLDER, type Client } from './clients.js';
import {
  readClientFile,
  removeClientFile,
  removeEmptyFolder,
  textDigest,
  writeClientFile,
} from './files.js';
import {
  addMember,
  deepEqual,
  parseJsonText,
  removeElement,
  removeMember,
  valueAt,
} from './json-edit.js';
import type { FileRecord, JsonRecord, TomlRecord, UndoRecord } from './record.js';
import { jsonWithComments } from './steps.js';
import { occurrences, removeTomlInsertion } from './toml-edit.js';

/** One line of the undo plan or report. */
export interface UndoStep {
  readonly client: string;
  readonly step: UndoRecord['step'];
  /**
   * `remove` (init's change taken out; a file init created deleted once empty), `restore` (a file
   * init replaced with --force put back), `unchanged` (already gone), `modified` (changed since
   * init wrote it: left as it is), `print` (for the user to do).
   */
  readonly action: 'remove' | 'restore' | 'unchanged' | 'modified' | 'print';
  readonly target: string;
  readonly detail: string;
}

/** The undo plan: its steps, the records left afterwards, and how to carry it out. */
export interface UndoPlan {
  readonly steps: readonly UndoStep[];
  /** The records still in the record file after the undo. */
  readonly keep: readonly UndoRecord[];
  readonly notes: readonly string[];
  readonly apply: () => void;
}

/**
 * Plans the undo of the records of `clients` (undefined: every client) among `records`; `force`
 * also removes a whole file init wrote that changed since.
 */
export function planUndo(
  records: readonly UndoRecord[],
  clients: readonly Client[] | undefined,
  force: boolean,
): UndoPlan {
  const chosen = (r: UndoRecord): boolean =>
    clients === undefined || (clients as readonly string[]).includes(r.client);
  const othersLeft = records.some((r) => !r.shared && !chosen(r));
  const undo = records.filter((r) => (r.shared ? !othersLeft : chosen(r)));
  const steps: UndoStep[] = [];
  const writes: (() => void)[] = [];
  const kept = new Set<UndoRecord>(records.filter((r) => !undo.includes(r)));
  const notes: string[] = [];
  // Files in the order their first record was made; each file's records undone newest first.
  const files = [...new Set(undo.map((r) => r.file))];
  for (const file of files.reverse()) {
    const mine = undo.filter((r) => r.file === file).reverse();
    const out = undoFile(file, mine, force);
    steps.push(...out.steps);
    if (out.write) writes.push(out.write);
    for (const r of out.keep) kept.add(r);
  }
  const undone = new Set(undo.map((r) => r.client));
  if (undone.has('claude-code'))
    notes.push(
      'If you registered the MCP server with Claude Code (claude mcp add), remove it with:\n  claude mcp remove --scope user skilldex',
    );
  if (undone.has('generic'))
    notes.push('Remove the skilldex entry you added to your MCP client by hand.');
  for (const r of undo)
    if (r.kind === 'moved')
      notes.push(
        `init --move moved ${r.names.length} skill folder(s) from ${r.from} to ${r.file}; they stay there. To move them back: mv ${r.names.map((n) => path.join(r.file, n)).join(' ')} ${r.from}/`,
      );
  return {
    steps,
    keep: records.filter((r) => kept.has(r)),
    notes,
    apply: () => {
      for (const w of writes) w();
    },
  };
}

interface FileUndo {
  steps: UndoStep[];
  keep: UndoRecord[];
  write?: () => void;
}

// Undoes the records of one file, newest first, over one read of it; one write at the end.
function undoFile(file: string, records: readonly UndoRecord[], force: boolean): FileUndo {
  const steps: UndoStep[] = [];
  const keep: UndoRecord[] = [];
  const read = readClientFile(file);
  let text = read?.text;
  let createdFile = false;
  let wholeFile: (() => void) | undefined;
  const say = (r: UndoRecord, action: UndoStep['action'], detail: string): void => {
    steps.push({ client: r.client, step: r.step, action, target: file, detail });
  };
  for (const r of records) {
    if (r.kind === 'moved') {
      say(r, 'print', `skill folders moved from ${r.from} stay in ${r.file}`);
      continue;
    }
    if (r.kind === 'file') {
      const out = undoWholeFile(r, read?.text, force);
      say(r, out.action, out.detail);
      if (out.action === 'modified') keep.push(r);
      else wholeFile = out.apply;
      continue;
    }
    if (text === undefined) {
      say(r, 'unchanged', 'the file is gone already');
      continue;
    }
    const next = r.kind === 'json' ? undoJson(r, text) : undoToml(r, text);
    if (next === undefined) {
      say(r, 'modified', `${describe(r)} changed since init added it: left as it is`);
      keep.push(r);
      continue;
    }
    if (next === text) {
      say(r, 'unchanged', `${describe(r)} is gone already`);
      continue;
    }
    say(
      r,
      'remove',
      `${describe(r)}${r.kind === 'json' && r.previous !== undefined ? ' (the value it replaced restored)' : ''}`,
    );
    text = next;
    createdFile ||= r.created_file;
  }
  if (wholeFile !== undefined) return { steps, keep, write: wholeFile };
  if (read === undefined || text === read.text) return { steps, keep };
  const final = text!;
  const removeFile = createdFile && isEmptyDocument(file, final);
  return {
    steps,
    keep,
    write: () => {
      if (removeFile) removeClientFile(file);
      else writeClientFile(file, final, read.mode);
    },
  };
}

function describe(r: JsonRecord | TomlRecord): string {
  if (r.kind === 'json') return r.element ? `an element of ${r.path.join('.')}` : r.path.join('.');
  return r.keys.map((k) => k.join('.')).join(', ');
}

function undoWholeFile(
  r: FileRecord,
  current: string | undefined,
  force: boolean,
): { action: UndoStep['action']; detail: string; apply?: () => void } {
  if (current === undefined) return { action: 'unchanged', detail: 'the file is gone already' };
  if (textDigest(current) !== r.sha256 && !force)
    return {
      action: 'modified',
      detail: 'changed since init wrote it: left as it is (--force removes it anyway)',
    };
  const backup = r.backup === null ? undefined : readClientFile(r.backup);
  if (r.backup !== null && backup === undefined)
    throw new SkilldexError(
      'CLIENT_CONFIG_INVALID',
      `the copy of ${r.file} init kept before replacing it (${r.backup}) is gone; restore ${r.file} by hand`,
      { file: r.backup },
    );
  return backup !== undefined
    ? {
        action: 'restore',
        detail: `the file init replaced, from ${r.backup}`,
        apply: () => {
          writeClientFile(r.file, backup.text, backup.mode);
          removeClientFile(r.backup!);
        },
      }
    : {
        action: 'remove',
        detail: r.step === 'router-skill' ? 'the router skill' : 'the file init wrote',
        apply: () => {
          removeClientFile(r.file);
          if (path.basename(path.dirname(r.file)) === ROUTER_FOLDER)
            removeEmptyFolder(path.dirname(r.file));
        },
      };
}

// The text without init's JSON member or element (the member's previous value put back), or
// undefined when it changed; the text itself when it is gone already.
function undoJson(r: JsonRecord, text: string): string | undefined {
  // Gemini CLI's settings may hold comments (init kept them): read them as white space.
  const comments = jsonWithComments(r.client);
  let doc: unknown;
  try {
    doc = parseJsonText(text, comments);
  } catch {
    return undefined;
  }
  const current = valueAt(doc, r.path);
  if (r.element) {
    const elements: unknown[] = Array.isArray(current) ? current : [];
    // No element equal to init's: gone, unless one still carries init's command (the user edited
    // init's hook, e.g. its timeout): that one is init's, changed since, and stays (issue 36 L8).
    if (!elements.some((e) => deepEqual(e, r.value)))
      return elements.some((e) => resembles(e, r.value)) ? undefined : text;
  } else if (current === undefined) return text;
  else if (!deepEqual(current, r.value)) return undefined;
  const expected = withoutValue(doc, r);
  // The inserted text where it stands (each place it occurs, the last first), else by position.
  const candidates = [
    ...occurrences(text, r.inserted).map(
      (at) => text.slice(0, at) + text.slice(at + r.inserted.length),
    ),
    structural(text, r, comments),
  ];
  for (const c of candidates) {
    if (c === undefined) continue;
    const next = r.element || r.previous === undefined ? c : restorePrevious(c, r, comments);
    if (
      next !== undefined &&
      parsesTo(next, r.previous === undefined ? expected : withPrevious(doc, r), comments)
    )
      return next;
  }
  return undefined;
}

// Whether `e` shares a distinctive string (12 characters or more: a hook's command, a server's
// path) with init's `value`: the element init inserted, edited since.
function resembles(e: unknown, value: unknown): boolean {
  const mine = new Set(stringLeaves(value).filter((s) => s.length >= 12));
  return stringLeaves(e).some((s) => mine.has(s));
}

function stringLeaves(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v !== null && typeof v === 'object')
    for (const x of Object.values(v)) stringLeaves(x, out);
  return out;
}

function undoToml(r: TomlRecord, text: string): string | undefined {
  return removeTomlInsertion(text, r.inserted, r.keys, r.created_tables);
}

function structural(text: string, r: JsonRecord, comments: boolean): string | undefined {
  try {
    return r.element
      ? removeElement(text, r.path, r.value, comments)
      : removeMember(text, r.path, comments);
  } catch {
    return undefined;
  }
}

function restorePrevious(text: string, r: JsonRecord, comments: boolean): string | undefined {
  try {
    return addMember(text, r.path.slice(0, -1), r.path[r.path.length - 1]!, r.previous, comments)
      .text;
  } catch {
    return undefined;
  }
}

// The documents undo may leave: the value gone, with or without the emptied objects on its path.
function withoutValue(doc: unknown, r: JsonRecord): unknown[] {
  const removed = edit(doc, r.path, (parent, key) => {
    if (!r.element) delete parent[key];
    else {
      const arr = parent[key] as unknown[];
      const i = arr.findIndex((e) => deepEqual(e, r.value));
      parent[key] = [...arr.slice(0, i), ...arr.slice(i + 1)];
    }
  });
  // Every depth of pruning: init may have created the array and none, some or all of the objects
  // above it (`{"hooks":{}}` got only the array: undo gives back `{"hooks":{}}`, issue 36 L11).
  const above = r.element ? r.path : r.path.slice(0, -1);
  return [removed, ...above.map((_, i) => prune(removed, above, i))];
}

function withPrevious(doc: unknown, r: JsonRecord): unknown[] {
  return [
    edit(doc, r.path, (parent, key) => {
      parent[key] = r.previous;
    }),
  ];
}

function parsesTo(text: string, docs: readonly unknown[], comments: boolean): boolean {
  let after: unknown;
  try {
    after = parseJsonText(text, comments);
  } catch {
    return false;
  }
  return docs.some((d) => deepEqual(after, d));
}

// A deep copy of `doc` with `change` applied to the parent of `path`'s last key.
function edit(
  doc: unknown,
  path: readonly string[],
  change: (parent: Record<string, unknown>, key: string) => void,
): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string, unknown>;
  change(parent, path[path.length - 1]!);
  return copy;
}

// `doc` without the objects along `path` that are (or became) empty, deepest first, down to
// (not below) `keep` keys of the path.
function prune(doc: unknown, path: readonly string[], keep = 0): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  for (let n = path.length; n > keep; n--) {
    const v = valueAt(copy, path.slice(0, n));
    const empty =
      (Array.isArray(v) && v.length === 0) ||
      (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
    if (!empty) break;
    delete (valueAt(copy, path.slice(0, n - 1)) as Record<string, unknown>)[path[n - 1]!];
  }
  return copy;
}

// Whether what is left of a file init created holds nothing of the user's.
function isEmptyDocument(file: string, text: string): boolean {
  if (text.trim() === '') return true;
  if (!file.endsWith('.json'))
    return text.split('\n').every((l) => l.trim() === '' || l.trim().startsWith('#'));
  try {
    return isHollow(parseJsonText(text));
  } catch {
    return false;
  }
}

function isHollow(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (v === null || typeof v !== 'object') return false;
  return Object.values(v).every(isHollow);
}
