/**
 * Byte-preserving edits of a JSON file for `skilldex init` and `init --undo` (issues 25, 27, 23):
 * add one member to an object, append one element to an array, or remove either again, leaving
 * every other byte of the file as it was (indentation, key order, arrays laid out on one line,
 * a trailing newline). The text is strict JSON (RFC 8259): `JSON.parse` decides what is valid, and
 * a text it refuses is a `JsonShapeError` saying whether comments were the reason (JSON with
 * comments is not edited: the user's file is theirs to fix) — unless the caller passes `comments`
 * for a file whose host reads JSON with comments (Gemini CLI's settings.json): then comments are
 * read as white space (blankJsonComments, same offsets) and every byte of them is kept.
 * Pure functions of strings: no I/O.
 */
import { blankJsonComments, jsonCommentAt, scanOutsideStrings } from '../../text/index.js';

/** Why a JSON text cannot be edited as asked; the caller turns it into a coded error naming the file. */
export class JsonShapeError extends Error {
  constructor(
    message: string,
    /** `syntax` (JSON.parse refused it), `comments` (it has // or /* comments), `shape` (a value of another type on the path), `depth` (nested deeper than MAX_JSON_DEPTH). */
    readonly reason: 'syntax' | 'comments' | 'shape' | 'depth',
  ) {
    super(message);
  }
}

/** A JSON value's span in the text, with its members or elements when it is a container. */
type Node =
  | { kind: 'object'; start: number; end: number; members: Member[] }
  | { kind: 'array'; start: number; end: number; elements: Node[] }
  | { kind: 'scalar'; start: number; end: number };

/** One `"key": value` of an object: where its key starts and its value. */
interface Member {
  readonly key: string;
  readonly keyStart: number;
  readonly value: Node;
}

/**
 * Deepest nesting of arrays and objects init edits (a client's settings nest a handful deep). Deeper
 * text is refused before it is parsed: the edits and checks walk values recursively, and 5,000
 * nested arrays in 10 KB would exhaust the stack (issue 36 L10).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The parsed value of `text` (a byte order mark is allowed); JsonShapeError when it is not strict
 * JSON or nests deeper than MAX_JSON_DEPTH.
 */
export function parseJsonText(text: string, comments = false): unknown {
  if (comments) text = blankJsonComments(text);
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH)
    throw new JsonShapeError(
      `it nests arrays or objects more than ${MAX_JSON_DEPTH} deep, which skilldex does not edit`,
      'depth',
    );
  try {
    return JSON.parse(stripBom(text)) as unknown;
  } catch (err) {
    if (hasComments(text))
      throw new JsonShapeError(
        'it has comments (JSON with comments), which skilldex does not edit',
        'comments',
      );
    throw new JsonShapeError(`it is not valid JSON: ${(err as Error).message}`, 'syntax');
  }
}

/**
 * `text` with `key: value` added to the object at `path` (keys from the top), the objects on the
 * path created when missing. Returns the new text and the exact text inserted. JsonShapeError when
 * the text is not strict JSON, a value on the path is not an object, or the key already exists.
 */
export function addMember(
  text: string,
  path: readonly string[],
  key: string,
  value: unknown,
  comments = false,
): { text: string; inserted: string; at: number } {
  const view = comments ? blankJsonComments(text) : text;
  const { node: parent, rest } = deepestObject(view, path);
  // Missing objects on the path become one nested value: {"a": {"b": {key: value}}}.
  let k = key;
  let v = value;
  if (rest.length > 0) {
    v = wrapLast(rest, key, value);
    k = rest[0]!;
  }
  if (parent.kind !== 'object') throw new JsonShapeError('not an object', 'shape');
  if (parent.members.some((m) => m.key === k))
    throw new JsonShapeError(`${[...path, key].join('.')} already exists`, 'shape');
  return insertInto(text, view, parent, parent.members, JSON.stringify(k) + ': ', v);
}

/**
 * `text` with `value` appended to the array at `path`, the array (and the objects before it)
 * created when missing. JsonShapeError when a value on the path has another type.
 */
export function appendElement(
  text: string,
  path: readonly string[],
  value: unknown,
  comments = false,
): { text: string; inserted: string; at: number } {
  if (path.length === 0) throw new JsonShapeError('an array needs a key', 'shape');
  const arrayKey = path[path.length - 1]!;
  const view = comments ? blankJsonComments(text) : text;
  const found = deepestObject(view, path.slice(0, -1));
  if (found.rest.length > 0) return addMember(text, path.slice(0, -1), arrayKey, [value], comments);
  const parent = found.node;
  if (parent.kind !== 'object') throw new JsonShapeError('not an object', 'shape');
  const member = parent.members.find((m) => m.key === arrayKey);
  if (member === undefined) return addMember(text, path.slice(0, -1), arrayKey, [value], comments);
  if (member.value.kind !== 'array')
    throw new JsonShapeError(`${path.join('.')} is not an array`, 'shape');
  return insertInto(text, view, member.value, member.value.elements, '', value);
}

/**
 * `text` without the member `path` (its last key), the separator before or after it removed with
 * it, or undefined when there is no such member. JsonShapeError when the text is not strict JSON.
 */
export function removeMember(
  text: string,
  path: readonly string[],
  comments = false,
): string | undefined {
  if (path.length === 0) return undefined;
  const parent = nodeAt(comments ? blankJsonComments(text) : text, path.slice(0, -1));
  if (parent?.kind !== 'object') return undefined;
  const i = parent.members.findIndex((m) => m.key === path[path.length - 1]);
  if (i < 0) return undefined;
  return removeAt(
    text,
    parent,
    parent.members.map((m) => ({ start: m.keyStart, end: m.value.end })),
    i,
  );
}

/**
 * `text` without the first element of the array at `path` that equals `value` (deep equality of
 * the parsed values), or undefined when there is none.
 */
export function removeElement(
  text: string,
  path: readonly string[],
  value: unknown,
  comments = false,
): string | undefined {
  const view = comments ? blankJsonComments(text) : text;
  const array = nodeAt(view, path);
  if (array?.kind !== 'array') return undefined;
  const i = array.elements.findIndex((e) =>
    deepEqual(JSON.parse(view.slice(e.start, e.end)) as unknown, value),
  );
  if (i < 0) return undefined;
  return removeAt(text, array, array.elements, i);
}

/** The value at `path` of a parsed JSON (or TOML) document, undefined when a key on the path is missing. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Structural equality of two parsed JSON (or TOML) values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

function wrapLast(rest: readonly string[], key: string, value: unknown): unknown {
  let v: unknown = { [key]: value };
  for (let i = rest.length - 1; i >= 1; i--) v = { [rest[i]!]: v };
  return v;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// The deepest existing object along `path`, and the keys below it that do not exist yet.
function deepestObject(
  text: string,
  path: readonly string[],
): { node: Node; rest: readonly string[] } {
  let node = scan(text);
  for (let i = 0; i < path.length; i++) {
    if (node.kind !== 'object')
      throw new JsonShapeError(
        `${path.slice(0, i).join('.') || 'the top'} is not an object`,
        'shape',
      );
    const m = node.members.find((x) => x.key === path[i]);
    if (m === undefined) return { node, rest: path.slice(i) };
    node = m.value;
  }
  if (node.kind !== 'object')
    throw new JsonShapeError(`${path.join('.') || 'the top'} is not an object`, 'shape');
  return { node, rest: [] };
}

function nodeAt(text: string, path: readonly string[]): Node | undefined {
  let node: Node | undefined = scan(text);
  for (const k of path) {
    if (node?.kind !== 'object') return undefined;
    node = node.members.find((m) => m.key === k)?.value;
  }
  return node;
}

// Inserts `prefix + value` as the last member or element of `container`, in the layout the
// container already has: one per line at the indentation of its items, or on one line. Offsets
// and layout come from `view` (the text with its comments blanked, or the text itself); the edit is
// made in `text`, so every comment stays.
function insertInto(
  text: string,
  view: string,
  container: Node & { kind: 'object' | 'array' },
  items: readonly (Member | Node)[],
  prefix: string,
  value: unknown,
): { text: string; inserted: string; at: number } {
  const openIndent = lineIndent(view, container.start);
  const unit = indentUnit(view);
  // A file with CRLF line ends gets CRLF in what is inserted too, not a mix (issue 35).
  const eol = (s: string): string => (view.includes('\r\n') ? s.replace(/\n/g, '\r\n') : s);
  const last = items[items.length - 1];
  if (last === undefined) {
    // An empty container: its inside (whitespace only) becomes one indented item.
    const inner = openIndent + unit;
    const inserted = eol(`\n${inner}${prefix}${format(value, unit, inner)}\n${openIndent}`);
    return {
      text: text.slice(0, container.start + 1) + inserted + text.slice(container.end - 1),
      inserted,
      at: container.start + 1,
    };
  }
  const first = items[0]!;
  const firstStart = 'keyStart' in first ? first.keyStart : first.start;
  const lastEnd = 'keyStart' in last ? last.value.end : last.end;
  const multiline = view.slice(container.start, firstStart).includes('\n');
  const inserted = multiline
    ? eol(
        `,\n${lineIndent(view, firstStart)}${prefix}${format(value, unit, lineIndent(view, firstStart))}`,
      )
    : `, ${prefix}${JSON.stringify(value)}`;
  return {
    text: text.slice(0, lastEnd) + inserted + text.slice(lastEnd),
    inserted,
    at: lastEnd,
  };
}

// Removes item `i` of a container with the separator that joins it to its neighbour.
function removeAt(
  text: string,
  container: Node,
  spans: readonly { start: number; end: number }[],
  i: number,
): string {
  const span = spans[i]!;
  if (spans.length === 1) return text.slice(0, container.start + 1) + text.slice(container.end - 1);
  if (i === spans.length - 1) return text.slice(0, spans[i - 1]!.end) + text.slice(span.end);
  return text.slice(0, span.start) + text.slice(spans[i + 1]!.start);
}

// JSON.stringify of `value` indented by `unit`, its later lines starting at `indent`.
function format(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, '\n' + indent);
}

function lineIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, pos))![0];
}

// The file's indentation unit: the indentation of its first indented line, else two spaces.
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : '  ';
}

// The deepest nesting of [ and { outside strings (a linear scan: no recursion, any input).
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  scanOutsideStrings(text, (i) => {
    const c = text[i];
    if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
    return undefined;
  });
  return max;
}

function hasComments(text: string): boolean {
  let found = false;
  scanOutsideStrings(text, (i) => {
    if (!jsonCommentAt(text, i)) return undefined;
    found = true;
    return text.length;
  });
  return found;
}

// Positions of every value of a strict JSON text (validated by JSON.parse first).
function scan(text: string): Node {
  parseJsonText(text);
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // The comma-separated items of the object or array opening at `i`, up to its `close`.
  const items = <T>(close: string, item: () => T): T[] => {
    i++;
    const out: T[] = [];
    ws();
    while (text[i] !== close) {
      if (text[i] === ',') i++;
      out.push(item());
      ws();
    }
    i++;
    return out;
  };
  const member = (): Member => {
    ws();
    const keyStart = i;
    const key = str();
    ws();
    i++; // the colon
    return { key, keyStart, value: value() };
  };
  const value = (): Node => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      const members = items('}', member);
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      const elements = items(']', value);
      return { kind: 'array', start, end: i, elements };
    }
    if (c === '"') {
      str();
      return { kind: 'scalar', start, end: i };
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i]!)) i++;
    return { kind: 'scalar', start, end: i };
  };
  return value();
}
