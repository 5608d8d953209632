/**
 * SKILL.md frontmatter: split the `---` fences (CRLF and BOM handled), then parse the YAML between
 * them as data only (DESIGN.md §9 "Frontmatter"): YAML 1.2 core schema (floats kept as text), no
 * custom tags, duplicate keys rejected, merge keys off, alias expansion capped. Errors carry the file and line.
 * Never reads past the closing fence: the body is not parsed here.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { problem, type Problem } from '../errors.js';
import { parseSimpleFrontmatter } from './frontmatter-fast.js';

// yaml is loaded on first use, not at start-up: a search or fetch never parses YAML, and most
// frontmatter takes the fast path; loading the package's modules was a large share of a one-shot
// command's start-up (bench/results/startup.md).
const requireCjs = createRequire(import.meta.url);
let yamlModule: typeof Yaml | undefined;
function yamlLib(): typeof Yaml {
  yamlModule ??= requireCjs('yaml') as typeof Yaml;
  return yamlModule;
}

/** Most alias expansions a frontmatter may make before it is refused (an alias bomb). */
export const MAX_ALIAS_COUNT = 100;

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
export function splitFrontmatter(text: string, label: string): FrontmatterSplit | { ok: false; problem: Problem } {
  const open = OPEN_RE.exec(text);
  if (!open) {
    return { ok: false, problem: problem('FRONTMATTER_MISSING', label, `${label}: the file must start with a --- line`, 1) };
  }
  const start = open[0].length;
  // Search from the end of the opening fence without copying the (up to 1 MiB) rest of the file.
  CLOSE_RE.lastIndex = start;
  const close = CLOSE_RE.exec(text);
  if (!close) {
    return {
      ok: false,
      problem: problem('FRONTMATTER_UNCLOSED', label, `${label}:1: the frontmatter opened here is never closed by a --- line`, 1),
    };
  }
  const yaml = text.slice(start, close.index).replace(/\r$/, '');
  let bodyOffset = close.index + close[0].length;
  if (text.startsWith('\r\n', bodyOffset)) bodyOffset += 2;
  else if (text[bodyOffset] === '\n') bodyOffset += 1;
  return { ok: true, yaml, yamlLine: 2, bodyOffset };
}

/**
 * Parses frontmatter YAML into a plain object. `yamlLine` shifts error lines to file lines.
 * Refuses syntax errors, duplicate keys, alias bombs and non-mapping documents. Simple frontmatter
 * takes the hand-written fast path (same result); `fastPath: false` forces the full parser.
 */
export function parseFrontmatter(
  yaml: string,
  label: string,
  yamlLine = 2,
  options: { fastPath?: boolean } = {},
): { ok: true; data: Record<string, unknown> } | { ok: false; problem: Problem } {
  if (options.fastPath !== false) {
    const simple = parseSimpleFrontmatter(yaml);
    if (simple !== undefined) return { ok: true, data: simple };
  }
  // Without prettyErrors, yaml gives errors an offset only: the line counter turns it into a line.
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, {
    version: '1.2',
    schema: 'core',
    // Floats stay as written: `version: 1.10` is the text "1.10", never the number 1.1.
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== FLOAT_TAG),
    uniqueKeys: true,
    merge: false,
    prettyErrors: false,
    strict: true,
    lineCounter,
  });
  const err = doc.errors[0];
  if (err) {
    const line = lineCounter.linePos(err.pos[0]).line + yamlLine - 1;
    const what = err.code === 'DUPLICATE_KEY' ? 'duplicate key' : 'invalid YAML';
    return {
      ok: false,
      problem: problem('MALFORMED_FRONTMATTER', label, `${label}:${line}: ${what}: ${firstLine(err.message)}`, line),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // yaml throws a ReferenceError for excessive alias expansion: an alias bomb, refused as data.
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, problem: problem('MALFORMED_FRONTMATTER', label, `${label}: frontmatter refused: ${firstLine(msg)}`, yamlLine) };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      problem: problem('MALFORMED_FRONTMATTER', label, `${label}:${yamlLine}: frontmatter must be a mapping of fields`, yamlLine),
    };
  }
  return { ok: true, data: data as Record<string, unknown> };
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i);
}
