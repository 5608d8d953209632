/**
 * Byte-preserving edits of a TOML file for `skilldex init` and `init --undo` (issues 25, 23): add
 * keys to a table (appending a `[table]` block when the table is missing, or inserting lines under
 * its header), and remove exactly the text an earlier edit inserted. Every edit is checked by
 * parsing the result (smol-toml, TOML 1.0): the new document must equal the old one plus the keys
 * added (or minus the keys removed), else the edit is refused with a `TomlShapeError` and the
 * caller leaves the file as it was. Strings are written as TOML basic strings with every control,
 * bidi and tag character escaped, so a path with DEL or ESC still parses. Pure: no I/O.
 */
import { toml } from '../config.js';
import { deepEqual, valueAt } from './json-edit.js';

/** Why a TOML text cannot be edited as asked; the caller turns it into a coded error naming the file. */
export class TomlShapeError extends Error {
  constructor(
    message: string,
    /** `syntax` (the file does not parse), `shape` (the edit would not give the document asked for). */
    readonly reason: 'syntax' | 'shape',
  ) {
    super(message);
  }
}

/** A value init writes: a string, a boolean, or an array of strings. */
export type TomlScalar = string | boolean | readonly string[];

// C0 and C1 controls, DEL, bidi controls, zero-width and tag characters, line and paragraph
// separators: written as \u escapes (TOML 1.0 basic strings forbid the controls raw).
const ESCAPED =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]|\udb40[\udc00-\udc7f]/g;

/** `s` as a TOML basic string: quotes, backslashes and invisible or control characters escaped. */
export function tomlString(s: string): string {
  const body = s
    .replace(/[\\"]/g, (c) => '\\' + c)
    .replace(ESCAPED, (c) => {
      const cp = c.codePointAt(0)!;
      return cp > 0xffff
        ? '\\U' + cp.toString(16).toUpperCase().padStart(8, '0')
        : '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
    });
  return `"${body}"`;
}

/** `v` as a TOML value. */
export function tomlValue(v: TomlScalar): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return tomlString(v);
  return `[${v.map(tomlString).join(', ')}]`;
}

/** A key as TOML writes it: bare when it can be, else quoted. */
export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

/** The parsed document of `text`; TomlShapeError (`syntax`) when it does not parse. */
export function parseTomlText(text: string): Record<string, unknown> {
  try {
    return toml().parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new TomlShapeError((err as Error).message.split('\n')[0]!, 'syntax');
  }
}

/**
 * `text` with `entries` added to the table at `table` (`[]`: the top level). A missing table is
 * appended as a `[a.b]` block at the end; an existing one written with a `[a.b]` header gets the
 * lines right under it; top-level keys go after the file's leading comments. Returns the new text
 * and the exact text inserted. TomlShapeError when the file does not parse, a key exists already,
 * or the result is not the old document plus the entries (a table written inline or with dotted
 * keys, an array of tables on the path).
 */
export function addTomlEntries(
  text: string,
  table: readonly string[],
  entries: Readonly<Record<string, TomlScalar>>,
): { text: string; inserted: string } {
  const before = parseTomlText(text);
  const lines = Object.entries(entries)
    .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}\n`)
    .join('');
  const existing = valueAt(before, table);
  let at: number;
  let inserted: string;
  if (table.length === 0) {
    at = leadingCommentsEnd(text);
    inserted = lines;
  } else if (existing === undefined) {
    const header = `[${table.map(tomlKey).join('.')}]\n`;
    at = text.length;
    inserted =
      text === '' ? header + lines : (text.endsWith('\n') ? '\n' : '\n\n') + header + lines;
  } else {
    const headerEnd = headerLineEnd(text, table);
    if (headerEnd === undefined)
      throw new TomlShapeError(
        `[${table.join('.')}] is not written as a [${table.join('.')}] table header (an inline table or dotted keys)`,
        'shape',
      );
    at = headerEnd;
    inserted = lines;
  }
  // A file with CRLF line ends gets CRLF in what is inserted too, not a mix (issue 35), as
  // json-edit.ts does: Codex's config.toml and the user config are often written on Windows.
  if (text.includes('\r\n')) inserted = inserted.replace(/\n/g, '\r\n');
  const next = text.slice(0, at) + inserted + text.slice(at);
  const expected = structuredCloneDoc(before);
  for (const [k, v] of Object.entries(entries)) {
    if (valueAt(before, [...table, k]) !== undefined)
      throw new TomlShapeError(`${[...table, k].join('.')} is already set`, 'shape');
    setPath(expected, [...table, k], Array.isArray(v) ? [...v] : v);
  }
  checkEqual(next, expected, `adding ${table.join('.') || 'top-level'} keys`);
  return { text: next, inserted };
}

/**
 * `text` without `inserted`, checked to be the document without `keys` (and without the tables
 * `createdTables` names once the removal left them empty). Each place `inserted` occurs is tried,
 * the last first. Undefined when it is not there verbatim or no removal passes the check: the user
 * changed that part, and it is left alone.
 */
export function removeTomlInsertion(
  text: string,
  inserted: string,
  keys: readonly (readonly string[])[],
  createdTables: readonly (readonly string[])[] = [],
): string | undefined {
  let before: Record<string, unknown>;
  try {
    before = parseTomlText(text);
  } catch {
    return undefined;
  }
  const expected = structuredCloneDoc(before);
  for (const k of keys) deletePath(expected, k);
  // Deepest first: removing [a.b] may leave [a] empty.
  for (const t of [...createdTables].sort((a, b) => b.length - a.length)) {
    const v = valueAt(expected, t);
    if (v !== null && typeof v === 'object' && Object.keys(v).length === 0) deletePath(expected, t);
  }
  for (const at of occurrences(text, inserted)) {
    const next = text.slice(0, at) + text.slice(at + inserted.length);
    try {
      checkEqual(next, expected, 'removing');
      return next;
    } catch {
      // Not this occurrence: try the one before.
    }
  }
  return undefined;
}

/** Where `piece` occurs in `text`, the last first (none for an empty piece). */
export function occurrences(text: string, piece: string): number[] {
  const out: number[] = [];
  if (piece === '') return out;
  for (
    let at = text.lastIndexOf(piece);
    at >= 0;
    at = at === 0 ? -1 : text.lastIndexOf(piece, at - 1)
  )
    out.push(at);
  return out;
}

function checkEqual(next: string, expected: unknown, what: string): void {
  let after: unknown;
  try {
    after = toml().parse(next);
  } catch (err) {
    throw new TomlShapeError(
      `${what} would leave a file that does not parse: ${(err as Error).message.split('\n')[0]}`,
      'shape',
    );
  }
  if (!deepEqual(after, expected))
    throw new TomlShapeError(
      `${what} would change other values of the file (a table written inline or with dotted keys?)`,
      'shape',
    );
}

// A deep copy of a parsed document (plain objects and arrays; dates and scalars kept as they are).
function structuredCloneDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(structuredCloneDoc) as T;
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = structuredCloneDoc(x);
    return out as T;
  }
  return v;
}

function setPath(doc: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let o = doc;
  for (const [i, k] of path.slice(0, -1).entries()) {
    if (o[k] === undefined) o[k] = {};
    const next = o[k];
    if (next === null || typeof next !== 'object' || Array.isArray(next))
      throw new TomlShapeError(`${path.slice(0, i + 1).join('.')} is not a table`, 'shape');
    o = next as Record<string, unknown>;
  }
  o[path[path.length - 1]!] = value;
}

function deletePath(doc: Record<string, unknown>, path: readonly string[]): void {
  const parent = valueAt(doc, path.slice(0, -1));
  if (parent !== null && typeof parent === 'object')
    delete (parent as Record<string, unknown>)[path[path.length - 1]!];
}

// Where the file's leading run of comment and blank lines ends: top-level keys may go there.
function leadingCommentsEnd(text: string): number {
  let at = 0;
  for (;;) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return at;
    const line = text.slice(at, nl).trim();
    if (line !== '' && !line.startsWith('#')) return at;
    at = nl + 1;
  }
}

// The end of the `[a.b]` header line of `table` (after its newline), when the file has one.
function headerLineEnd(text: string, table: readonly string[]): number | undefined {
  const want = table.join('.');
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    const m = /^\s*\[\s*([^\][]+?)\s*\]\s*(#.*)?$/.exec(text.slice(at, nl < 0 ? text.length : nl));
    if (m && m[1]!.split(/\s*\.\s*/).join('.') === want) return nl < 0 ? undefined : end;
    at = end;
  }
  return undefined;
}
