/**
 * The edits `skilldex init` makes inside a config file, as pure functions of its text (issues 12,
 * 25, 27): add one JSON member (an MCP server entry), one JSON array element (a hook), or TOML keys
 * (config lines, a Codex MCP table), each keeping every other byte of the file. Each returns the
 * step's action (`create`, `merge`, `replace`, `unchanged`), the new text and the record of what
 * it inserted, or refuses: CLIENT_CONFIG_INVALID naming the file for a file it cannot parse or a
 * shape it cannot merge into (the message says what to add by hand), FILE_EXISTS for a differing
 * entry of the user's without --force. Every new text is parsed again and compared with the
 * document asked for before it is returned: what init writes always parses.
 */
import { SkilldexError } from '../../errors.js';
import {
  JsonShapeError,
  addMember,
  appendElement,
  deepEqual,
  parseJsonText,
  removeMember,
  valueAt,
} from './json-edit.js';
import type { JsonRecord, TomlRecord } from './record.js';
import {
  TomlShapeError,
  addTomlEntries,
  parseTomlText,
  tomlKey,
  tomlValue,
  type TomlScalar,
} from './toml-edit.js';

/** What one edit does to a file. */
export type EditAction = 'create' | 'merge' | 'replace' | 'unchanged';

/** The result of one edit: the action, the new text, and the record fields of what it inserted. */
export interface Edit<R> {
  readonly action: EditAction;
  readonly text: string;
  /** Undefined when the action is `unchanged`. */
  readonly record?: R;
}

/** The part of a JsonRecord an edit knows (the step adds client, step and file). */
export type JsonEditRecord = Omit<JsonRecord, 'client' | 'step' | 'file' | 'shared'>;
/** The part of a TomlRecord an edit knows. */
export type TomlEditRecord = Omit<TomlRecord, 'client' | 'step' | 'file' | 'shared'>;

/**
 * Sets `path` (its last key the member) to `value` in the JSON text (undefined: no file yet).
 * `unchanged` when it already holds an equal value; a different value is FILE_EXISTS unless
 * `force`, which replaces it (the record keeps the previous value for undo).
 */
export function jsonSetMember(
  file: string,
  text: string | undefined,
  path: readonly string[],
  value: unknown,
  force: boolean,
  /** The host reads JSON with comments (Gemini CLI): comments are kept, not refused. */
  comments = false,
): Edit<JsonEditRecord> {
  const parent = path.slice(0, -1);
  const key = path[path.length - 1]!;
  if (text === undefined || text.trim() === '') {
    const doc = nest(path, value);
    const created = JSON.stringify(doc, null, 2) + '\n';
    return {
      action: 'create',
      text: created,
      record: { kind: 'json', path, element: false, value, inserted: created, created_file: true },
    };
  }
  const doc = parseOrRefuse(file, text, path, value, comments);
  const current = valueAt(doc, path);
  if (current !== undefined && deepEqual(current, value)) return { action: 'unchanged', text };
  if (current !== undefined && !force)
    throw new SkilldexError(
      'FILE_EXISTS',
      `${file} already has a different ${path.join('.')}; pass --force to replace it with ${JSON.stringify(value)}`,
      { file, key: path.join('.') },
    );
  const base = current === undefined ? text : removeMember(text, path, comments)!;
  let added: { text: string; inserted: string };
  try {
    added = addMember(base, parent, key, value, comments);
  } catch (err) {
    throw refusal(file, err, path, value);
  }
  checkJson(file, added.text, setIn(doc, path, value), path, value, comments);
  return {
    action: current === undefined ? 'merge' : 'replace',
    text: added.text,
    record: {
      kind: 'json',
      path,
      element: false,
      value,
      inserted: added.inserted,
      created_file: false,
      ...(current !== undefined ? { previous: current } : {}),
    },
  };
}

/**
 * Appends `value` to the array at `path` in the JSON text (created with the objects before it when
 * missing); `unchanged` when an equal element is there already.
 */
export function jsonAppendElement(
  file: string,
  text: string | undefined,
  path: readonly string[],
  value: unknown,
  /** An element this one counts as already there (init's own, edited since): `unchanged`. */
  same?: (element: unknown) => boolean,
  /** The host reads JSON with comments (Gemini CLI): comments are kept, not refused. */
  comments = false,
): Edit<JsonEditRecord> {
  if (text === undefined || text.trim() === '') {
    const created = JSON.stringify(nest(path, [value]), null, 2) + '\n';
    return {
      action: 'create',
      text: created,
      record: { kind: 'json', path, element: true, value, inserted: created, created_file: true },
    };
  }
  const doc = parseOrRefuse(file, text, path, [value], comments);
  const current = valueAt(doc, path);
  if (Array.isArray(current) && current.some((e) => deepEqual(e, value) || same?.(e) === true))
    return { action: 'unchanged', text };
  let added: { text: string; inserted: string };
  try {
    added = appendElement(text, path, value, comments);
  } catch (err) {
    throw refusal(file, err, path, [value]);
  }
  const expected = setIn(doc, path, [...(Array.isArray(current) ? current : []), value]);
  checkJson(file, added.text, expected, path, [value], comments);
  return {
    action: 'merge',
    text: added.text,
    record: {
      kind: 'json',
      path,
      element: true,
      value,
      inserted: added.inserted,
      created_file: false,
    },
  };
}

/**
 * Adds `entries` to the TOML table `table` (`[]`: top level) of the text (undefined: no file yet;
 * `header` then starts the new file). Keys already equal are left; a key with another value is
 * FILE_EXISTS (TOML tables of the user's are never rewritten).
 */
export function tomlAddEntries(
  file: string,
  text: string | undefined,
  table: readonly string[],
  entries: Readonly<Record<string, TomlScalar>>,
  header = '',
): Edit<TomlEditRecord> {
  const manual = manualToml(table, entries);
  let doc: Record<string, unknown> = {};
  if (text !== undefined) {
    try {
      doc = parseTomlText(text);
    } catch (err) {
      throw tomlRefusal(file, err, manual);
    }
  }
  const missing: Record<string, TomlScalar> = {};
  for (const [k, v] of Object.entries(entries)) {
    const current = valueAt(doc, [...table, k]);
    if (current === undefined) missing[k] = v;
    else if (!deepEqual(current, Array.isArray(v) ? [...v] : v))
      throw new SkilldexError(
        'FILE_EXISTS',
        `${file} already sets ${[...table, k].join('.')} to another value; change it by hand to:\n${manual}`,
        { file, key: [...table, k].join('.') },
      );
  }
  if (Object.keys(missing).length === 0) return { action: 'unchanged', text: text! };
  // Every table on the path the insertion creates ([mcp_servers.skilldex] may create mcp_servers).
  const createdTables = table
    .map((_, i) => table.slice(0, i + 1))
    .filter((t) => valueAt(doc, t) === undefined);
  let added: { text: string; inserted: string };
  try {
    added = addTomlEntries(text ?? '', table, missing);
  } catch (err) {
    throw tomlRefusal(file, err, manual);
  }
  const create = text === undefined;
  const inserted = create ? header + added.text : added.inserted;
  return {
    action: create ? 'create' : 'merge',
    text: create ? inserted : added.text,
    record: {
      kind: 'toml',
      keys: Object.keys(missing).map((k) => [...table, k]),
      created_tables: createdTables,
      inserted,
      created_file: create,
    },
  };
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((acc, k) => ({ [k]: acc }), value);
}

// A copy of `doc` with `path` set to `value` (objects on the way created or copied).
function setIn(doc: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const o =
    doc !== null && typeof doc === 'object' && !Array.isArray(doc)
      ? { ...(doc as Record<string, unknown>) }
      : {};
  o[path[0]!] = setIn(o[path[0]!], path.slice(1), value);
  return o;
}

function parseOrRefuse(
  file: string,
  text: string,
  path: readonly string[],
  value: unknown,
  comments: boolean,
): unknown {
  try {
    return parseJsonText(text, comments);
  } catch (err) {
    throw refusal(file, err, path, value);
  }
}

// The edited text must parse to exactly the document asked for.
function checkJson(
  file: string,
  text: string,
  expected: unknown,
  path: readonly string[],
  value: unknown,
  comments: boolean,
): void {
  let after: unknown;
  try {
    after = parseJsonText(text, comments);
  } catch {
    after = undefined;
  }
  if (!deepEqual(after, expected))
    throw refusal(
      file,
      new JsonShapeError('merging would change other values of the file', 'shape'),
      path,
      value,
    );
}

function refusal(file: string, err: unknown, path: readonly string[], value: unknown): Error {
  if (!(err instanceof JsonShapeError)) return err as Error;
  const manual = JSON.stringify(nest(path, value), null, 2);
  const what =
    err.reason === 'comments'
      ? `${file} has comments (JSON with comments); skilldex edits only plain JSON files and left it untouched`
      : err.reason === 'syntax'
        ? `${file} is not valid JSON (${err.message.replace(/^it is not valid JSON: /, '')}); skilldex left it untouched`
        : err.reason === 'depth'
          ? `${file} ${err.message.replace(/^it /, '')}; skilldex left it untouched`
          : `${file} cannot take ${path.join('.')}: ${err.message}; skilldex left it untouched`;
  return new SkilldexError(
    'CLIENT_CONFIG_INVALID',
    `${what}. Add this to it by hand:\n${manual}`,
    { file, key: path.join('.'), reason: err.reason },
    { cause: err },
  );
}

function tomlRefusal(file: string, err: unknown, manual: string): Error {
  if (!(err instanceof TomlShapeError)) return err as Error;
  const what =
    err.reason === 'syntax'
      ? `${file} is not valid TOML (${err.message}); skilldex left it untouched`
      : `${file}: ${err.message}; skilldex left it untouched`;
  return new SkilldexError(
    'CLIENT_CONFIG_INVALID',
    `${what}. Add this to it by hand:\n${manual}`,
    { file, reason: err.reason },
    { cause: err },
  );
}

function manualToml(
  table: readonly string[],
  entries: Readonly<Record<string, TomlScalar>>,
): string {
  const lines = Object.entries(entries).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  if (table.length === 0) return lines.join('\n');
  const block = `[${table.map(tomlKey).join('.')}]\n${lines.join('\n')}`;
  if (table.length === 1) return block;
  // A parent written as an inline table (mcp_servers = { … }) takes the entry inline instead.
  const parent = table.slice(0, -1).map(tomlKey).join('.');
  return `${block}\n\nor, if ${parent} is written inline (${parent} = { … }), this inside its braces:\n${tomlKey(table[table.length - 1]!)} = { ${lines.join(', ')} }`;
}
