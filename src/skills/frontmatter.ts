/**
 * SKILL.md frontmatter: split the `---` fences (CRLF and BOM handled), then parse the YAML between
 * them as data only (docs/cli.md `skilldex scan`): YAML 1.2 core schema (floats kept as text), no
 * custom tags, duplicate keys rejected, merge keys off, alias expansion capped. Errors carry the file and line.
 * Never reads past the closing fence: the body is not parsed here.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { problem, type Problem, type ProblemCode } from '../errors.js';
import { parseSimpleFrontmatter } from './frontmatter-fast.js';

// yaml is loaded on first use, not at start-up: a search or fetch never parses YAML, and most
// frontmatter takes the fast path; loading the package's modules was a large share of a one-shot
// command's start-up (bench/results/startup.md).
const requireCjs = createRequire(import.meta.url);
let yamlModule: typeof Yaml | undefined;
/** The `yaml` package, loaded on first use (a command that parses no YAML never loads it). */
export function yamlLib(): typeof Yaml {
  yamlModule ??= requireCjs('yaml') as typeof Yaml;
  return yamlModule;
}

/** Most alias expansions a frontmatter may make before it is refused (an alias bomb). */
export const MAX_ALIAS_COUNT = 100;

/**
 * Fixed budget for a parsed frontmatter, in characters of its serialised form (every key and scalar
 * plus 2 per node): 128 Ki, twice the 64 KiB frontmatter cap. YAML without aliases never serialises
 * much larger than its source; aliases can (99 aliases to a 1 MB anchor made a 2.4 GB catalog).
 */
export const MAX_PARSED_FRONTMATTER_CHARS = 128 * 1024;

/** A parsed frontmatter may serialise to at most this many times its YAML source, plus PARSED_SLACK_CHARS. */
export const PARSED_TO_SOURCE_RATIO = 2;
/** Slack on the ratio for tiny frontmatters, whose per-node overhead dominates: 1 Ki characters. */
export const PARSED_SLACK_CHARS = 1024;

/** The frontmatter text and where the body starts. */
export interface FrontmatterSplit {
  readonly ok: true;
  /** The YAML between the fences. */
  readonly yaml: string;
  /** 1-based line number of the first YAML line in the file. */
  readonly yamlLine: number;
  /** Character offset in the text where the body starts (after the closing fence's line end). */
  readonly bodyOffset: number;
}

// The YAML 1.2 float tag, left out of the schema so numbers with a fraction are kept as text.
const FLOAT_TAG = 'tag:yaml.org,2002:float';

const OPEN_RE = /^---[ \t]*\r?\n/;
const CLOSE_RE = /^---[ \t]*$/gm;

/** Splits `text` (BOM already removed) into frontmatter and body offset, or a coded problem. */
export function splitFrontmatter(
  text: string,
  label: string,
): FrontmatterSplit | { ok: false; problem: Problem } {
  const open = OPEN_RE.exec(text);
  if (!open) {
    return refused(
      'FRONTMATTER_MISSING',
      label,
      `${label}: the file must start with a --- line`,
      1,
    );
  }
  const start = open[0].length;
  // Search from the end of the opening fence without copying the (up to 1 MiB) rest of the file.
  CLOSE_RE.lastIndex = start;
  const close = CLOSE_RE.exec(text);
  if (!close) {
    return refused(
      'FRONTMATTER_UNCLOSED',
      label,
      `${label}:1: the frontmatter opened here is never closed by a --- line`,
      1,
    );
  }
  const yaml = text.slice(start, close.index).replace(/\r$/, '');
  let bodyOffset = close.index + close[0].length;
  if (text.startsWith('\r\n', bodyOffset)) bodyOffset += 2;
  else if (text[bodyOffset] === '\n') bodyOffset += 1;
  return { ok: true, yaml, yamlLine: 2, bodyOffset };
}

/**
 * A value strict YAML refused and the lenient reading took anyway (file line, key): a one-line
 * plain value read as the whole line (`unquoted`), or a key given twice inside a nested map, whose
 * last value stands (`duplicate-key`). A top-level key given twice is never read (issue 36 R1).
 */
export interface LenientValue {
  readonly line: number;
  readonly key: string;
  readonly reason: 'unquoted' | 'duplicate-key';
}

/** A parsed frontmatter, with the values read leniently (empty when strict YAML took it as written). */
export interface ParsedFrontmatter {
  readonly ok: true;
  readonly data: Record<string, unknown>;
  readonly lenient: readonly LenientValue[];
}

/**
 * Parses frontmatter YAML into a plain object. `yamlLine` shifts error lines to file lines.
 * Refuses duplicate keys, alias bombs and non-mapping documents. Simple frontmatter takes the
 * hand-written fast path (same result); `fastPath: false` forces the full parser.
 *
 * What hosts load, we load (docs/cli.md `skilldex scan`): when strict YAML refuses the text, each
 * top-level `key: value` line whose plain value YAML cannot hold as written — an inner `: `, a
 * ` #`, a tab, a leading reserved indicator (`@`, backquote, `%`) or a stray quote after a quoted
 * start that closes on the line — is read as the whole rest of its line, as a string, and the
 * document is parsed again
 * with the same limits. The agentskills client guide recommends exactly this fallback ("Handling
 * malformed YAML": wrap such values in quotes and retry; agentskills/agentskills,
 * docs/client-implementation/integrating-skills.mdx), and hosts such as Claude Code load these
 * skills. Each value so read is listed in `lenient` (the caller reports FRONTMATTER_LENIENT);
 * when the retry fails too, the strict parser's error stands. Never repaired: a key given twice
 * (refused naming the key and line: parsers disagree on which value stands) and a quote that never
 * closes (a YAML error). `lenient: false` turns the fallback off.
 */
export function parseFrontmatter(
  yaml: string,
  label: string,
  yamlLine = 2,
  options: { fastPath?: boolean; lenient?: boolean } = {},
): ParsedFrontmatter | { ok: false; problem: Problem } {
  if (options.fastPath !== false) {
    const simple = parseSimpleFrontmatter(yaml);
    if (simple !== undefined) return { ok: true, data: simple, lenient: [] };
  }
  const strict = parseStrict(yaml, label, yamlLine, true);
  if (strict.ok || options.lenient === false) return strict;
  const repaired = quotePlainValues(yaml);
  const quoted = repaired.lines.map((l): LenientValue => ({
    line: l.index + yamlLine,
    key: l.key,
    reason: 'unquoted',
  }));
  const retry = parseStrict(repaired.yaml, label, yamlLine, true);
  if (retry.ok) return quoted.length > 0 ? { ...retry, lenient: quoted } : strict;
  // A top-level key given twice is never read leniently (issue 36 R1): parsers disagree on which
  // value stands (a reviewer reads the first, PyYAML the last, Codex refuses the file), a parser
  // differential an attacker can use on `name`, `description` or any field a host acts on.
  // Refused, naming the key and its repeated line, even when the strict error was about another
  // line. A key repeated only inside a nested map (`metadata: { version, …, version }`, as real
  // skills ship) names nothing a host routes or runs by: read with its last value, as PyYAML
  // reads it, and reported as lenient (lint: strict hosts drop the description).
  if (retry.duplicateKey !== undefined) {
    if (!retry.nestedDuplicatesOnly) return { ok: false, problem: retry.problem };
    const last = parseStrict(repaired.yaml, label, yamlLine, false);
    if (last.ok) {
      const dup: LenientValue = {
        line: retry.problem.line ?? yamlLine,
        key: retry.duplicateKey,
        reason: 'duplicate-key',
      };
      return { ...last, lenient: [...quoted, dup] };
    }
  }
  return strict;
}

// A top-level `key: value` line (the key as the fast path accepts it).
const TOP_LINE_RE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t]*\r?$/;

/**
 * `yaml` with every top-level plain value that YAML could not hold as written turned into a
 * double-quoted string of its whole line (JSON's escapes are YAML's), and the 0-based indexes of
 * the lines changed. Values that continue on indented lines, block scalars, flow collections,
 * anchors, aliases and tags are left alone: only one-line plain values are repaired.
 */
export function quotePlainValues(yaml: string): {
  yaml: string;
  lines: { index: number; key: string }[];
} {
  const lines = yaml.split('\n');
  const changed: { index: number; key: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = TOP_LINE_RE.exec(lines[i]!);
    if (!m) continue;
    const next = lines[i + 1];
    // A value continued on indented lines is a multi-line scalar: not a one-line repair.
    if (next !== undefined && /^[ \t]+\S/.test(next)) continue;
    const value = m[2]!;
    if (!needsQuoting(value)) continue;
    lines[i] = `${m[1]}: ${JSON.stringify(value)}`;
    changed.push({ index: i, key: m[1]! });
  }
  return { yaml: lines.join('\n'), lines: changed };
}

// A one-line value that strict YAML refuses or misreads as a plain scalar, but a host reads as text.
function needsQuoting(value: string): boolean {
  const c = value[0]!;
  if ('[{|>&*!'.includes(c)) return false;
  if (c === '"' || c === "'") {
    // A quote that never closes on the line is a YAML error, not a plain value (issue 36 R2): left
    // for the strict parser to refuse. A quote closing at the end is fine as is; one closing
    // earlier, with text after it, is the stray-quote case hosts read as the whole line.
    const close = closingQuote(value);
    return close !== undefined && close < value.length - 1;
  }
  return value.includes(': ') || value.includes(' #') || value.includes('\t') || '@`%'.includes(c);
}

// The index of the quote that closes the quoted scalar `value` opens, or undefined when none does
// on this line. Double quotes: a `"` not escaped by a backslash; single quotes: a `'` not doubled.
function closingQuote(value: string): number | undefined {
  const q = value[0]!;
  for (let i = 1; i < value.length; i++) {
    const ch = value[i]!;
    if (q === '"' && ch === '\\') {
      i++;
      continue;
    }
    if (ch !== q) continue;
    if (q === "'" && value[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return undefined;
}

// One parse with the full parser; `uniqueKeys: false` would let a repeated key keep its last value.
function parseStrict(
  yaml: string,
  label: string,
  yamlLine: number,
  uniqueKeys: boolean,
):
  | ParsedFrontmatter
  | { ok: false; problem: Problem; duplicateKey?: string; nestedDuplicatesOnly?: boolean } {
  // Without prettyErrors, yaml gives errors an offset only: the line counter turns it into a line.
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, {
    version: '1.2',
    schema: 'core',
    // Floats stay as written: `version: 1.10` is the text "1.10", never the number 1.1.
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== FLOAT_TAG),
    uniqueKeys,
    merge: false,
    prettyErrors: false,
    strict: true,
    lineCounter,
  });
  const err = doc.errors[0];
  if (err) {
    const line = lineCounter.linePos(err.pos[0]).line + yamlLine - 1;
    const dup = err.code === 'DUPLICATE_KEY' ? keyAt(yaml, err.pos[0]) : undefined;
    const what =
      dup !== undefined
        ? `duplicate key ${JSON.stringify(dup)} (hosts disagree on which value stands; remove one)`
        : 'invalid YAML';
    // Every error is a key repeated on an indented line: only nested maps repeat a key.
    const nestedDuplicatesOnly = doc.errors.every(
      (e) => e.code === 'DUPLICATE_KEY' && /^\s/.test(lineAt(yaml, e.pos[0])),
    );
    return {
      ok: false,
      ...(dup !== undefined ? { duplicateKey: dup, nestedDuplicatesOnly } : {}),
      problem: problem(
        'MALFORMED_FRONTMATTER',
        label,
        `${label}:${line}: ${what}: ${firstLine(err.message)}`,
        line,
      ),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // yaml throws a ReferenceError for excessive alias expansion: an alias bomb, refused as data.
    const msg = e instanceof Error ? e.message : String(e);
    return refused(
      'MALFORMED_FRONTMATTER',
      label,
      `${label}: frontmatter refused: ${firstLine(msg)}`,
      yamlLine,
    );
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return refused(
      'MALFORMED_FRONTMATTER',
      label,
      `${label}:${yamlLine}: frontmatter must be a mapping of fields`,
      yamlLine,
    );
  }
  return { ok: true, data: data as Record<string, unknown>, lenient: [] };
}

// A refusal: the coded problem on `line` of the file `label`.
function refused(
  code: ProblemCode,
  label: string,
  message: string,
  line: number,
): { ok: false; problem: Problem } {
  return { ok: false, problem: problem(code, label, message, line) };
}

// The key of the mapping entry whose line holds `offset` (what a DUPLICATE_KEY error points into).
// The whole line of `yaml` that holds `offset`.
function lineAt(yaml: string, offset: number): string {
  const start = yaml.lastIndexOf('\n', offset - 1) + 1;
  const end = yaml.indexOf('\n', offset);
  return yaml.slice(start, end < 0 ? undefined : end);
}

function keyAt(yaml: string, offset: number): string {
  const line = lineAt(yaml, offset);
  return /^\s*(?:- )?["']?([^"':]+)/.exec(line)?.[1]?.trim() ?? line.trim();
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i);
}

/**
 * FRONTMATTER_TOO_LARGE when `data` serialises (keys and scalars plus 2 per node, aliases counted at
 * every use) to more than MAX_PARSED_FRONTMATTER_CHARS or more than PARSED_TO_SOURCE_RATIO times its
 * `yamlChars` of source plus PARSED_SLACK_CHARS; undefined when within budget. Stops counting at
 * the budget, so a bomb costs no more than the budget to measure.
 */
export function checkParsedSize(
  data: unknown,
  yamlChars: number,
  label: string,
  yamlLine = 2,
): Problem | undefined {
  const budget = Math.min(
    MAX_PARSED_FRONTMATTER_CHARS,
    PARSED_TO_SOURCE_RATIO * yamlChars + PARSED_SLACK_CHARS,
  );
  const size = serialisedSize(data, budget);
  if (size <= budget) return undefined;
  return problem(
    'FRONTMATTER_TOO_LARGE',
    label,
    `${label}: frontmatter of ${yamlChars} characters expands to more than ${budget} (aliases repeat their anchor); refused`,
    yamlLine,
  );
}

// Serialised size of a parsed YAML value, counted until it passes `budget` (then budget + 1).
function serialisedSize(root: unknown, budget: number): number {
  let size = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    size += 2;
    if (typeof v === 'string') size += v.length;
    else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        size += k.length;
        stack.push(item);
      }
    } else size += String(v).length;
    if (size > budget) return budget + 1;
  }
  return size;
}
