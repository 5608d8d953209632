/**
 * SKILL.md frontmatter: split the `---` fences (CRLF and BOM handled), then parse the YAML between
 * them as data only (README.md `skilldex scan`): YAML 1.2 core schema (floats kept as text), no
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
    return {
      ok: false,
      problem: problem(
        'FRONTMATTER_MISSING',
        label,
        `${label}: the file must start with a --- line`,
        1,
      ),
    };
  }
  const start = open[0].length;
  // Search from the end of the opening fence without copying the (up to 1 MiB) rest of the file.
  CLOSE_RE.lastIndex = start;
  const close = CLOSE_RE.exec(text);
  if (!close) {
    return {
      ok: false,
      problem: problem(
        'FRONTMATTER_UNCLOSED',
        label,
        `${label}:1: the frontmatter opened here is never closed by a --- line`,
        1,
      ),
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
    return {
      ok: false,
      problem: problem(
        'MALFORMED_FRONTMATTER',
        label,
        `${label}: frontmatter refused: ${firstLine(msg)}`,
        yamlLine,
      ),
    };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      problem: problem(
        'MALFORMED_FRONTMATTER',
        label,
        `${label}:${yamlLine}: frontmatter must be a mapping of fields`,
        yamlLine,
      ),
    };
  }
  return { ok: true, data: data as Record<string, unknown> };
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
