/**
 * Trigger-eval files (issue #24): the shapes skill authors publish beside their skills, read into
 * cases `{ query, should_trigger, skill?, id? }` with the line of each item. Pure over the text;
 * every item that cannot be read is a coded problem naming the file and line, and the rest of the
 * file still counts. The shapes are those of the agentskills description-optimisation guide and
 * Anthropic's skill-creator, and the ones the 34 repositories of shared/bench/trigger use
 * (trigger/build.py "Formats read"):
 *
 * - a JSON list of items, or an object holding one under `queries`, `evals`, `cases` or `tests`:
 *   text in `query` | `prompt` | `input` | `q`, a boolean in `should_trigger` | `shouldTrigger` |
 *   `should`; an item may name its skill (`skill`) and carry an `id`;
 * - a routing list: `should_trigger` holding a skill name (that skill's positive) or null (no skill
 *   of the suite: not tied to one skill, skipped and counted);
 * - skill-creator's `evals/evals.json` `{ skill_name, evals: [{ prompt, … }] }`: prompts without a
 *   label are positives for `skill_name`;
 * - `{ should_trigger: [text…], should_not_trigger: [text…] }`, at the top, under `trigger_tests`,
 *   or keyed by skill name (one file for a suite); an explicit trigger list wins over `evals`;
 * - JSONL: one item per line (the project's `skilldex-evals.jsonl`: `{ query, skill,
 *   should_trigger }`).
 */
import { problem, type Problem } from '../../errors.js';
import { yamlLib } from '../../skills/index.js';
import { MAX_QUERY_CHARS } from '../search/query.js';

/** One case as read from a file: the request, its label, the skill it names (if any), where. */
export interface RawCase {
  readonly query: string;
  readonly should_trigger: boolean;
  /** The skill the item or its file names; absent when the file belongs to the skill beside it. */
  readonly skill?: string;
  /** The item's own `id`, when it has one (kept as the case id). */
  readonly id?: string;
  /** 1-based line of the item. */
  readonly line?: number;
  /** Where in the file: a JSON pointer (`#/evals/3`) or `#L<line>` for JSONL. */
  readonly locator: string;
}

/** A parsed file: its cases, its problems, and items skipped on purpose (with why). */
export interface ParsedTriggerFile {
  readonly cases: RawCase[];
  readonly problems: Problem[];
  readonly skipped: number;
}

/**
 * File names read as trigger evals (the names the 34 repositories of shared/bench/trigger use; also
 * skill-creator's `evals/evals.json` — anthropics/skills skill-creator references/schemas.md — and
 * the `eval_queries.json` of the agentskills.io guide "Optimizing skill descriptions",
 * https://agentskills.io/skill-creation/optimizing-descriptions: a list of `{ query,
 * should_trigger }`).
 */
export const TRIGGER_FILE_RE =
  /^(?:trigger[-_]?(?:evals?|quer(?:y|ies)|evals?[-_]set|tests?|cases)|eval[-_]queries|evals)\.jsonl?$/i;

const TEXT_KEYS = ['query', 'prompt', 'input', 'q'] as const;
const LABEL_KEYS = ['should_trigger', 'shouldTrigger', 'should'] as const;
const LIST_KEYS = ['queries', 'evals', 'cases', 'tests'] as const;

type Path = readonly (string | number)[];

/** Reads `text` of the trigger-eval file `file` (JSONL when it ends in `.jsonl`, else JSON). */
export function parseTriggerFile(text: string, file: string): ParsedTriggerFile {
  return file.toLowerCase().endsWith('.jsonl') ? parseJsonl(text, file) : parseJson(text, file);
}

function parseJsonl(text: string, file: string): ParsedTriggerFile {
  const out: Mutable = { cases: [], problems: [], skipped: 0 };
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      out.problems.push(bad(file, line, `not JSON (${firstLine(err)})`));
      return;
    }
    readItem(value, { file, line, locator: `#L${line}` }, undefined, out);
  });
  return out;
}

interface Mutable {
  cases: RawCase[];
  problems: Problem[];
  skipped: number;
}

function parseJson(text: string, file: string): ParsedTriggerFile {
  const out: Mutable = { cases: [], problems: [], skipped: 0 };
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    const at = /position (\d+)/.exec(firstLine(err));
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : undefined;
    out.problems.push(bad(file, line, `not JSON (${firstLine(err)})`));
    return out;
  }
  const lineOf = jsonLines(text);
  const where = (path: Path) => ({ file, line: lineOf(path), locator: pointer(path) });
  if (Array.isArray(data)) {
    data.forEach((item, i) => readItem(item, where([i]), undefined, out));
    return out;
  }
  if (!isObject(data)) {
    out.problems.push(bad(file, 1, 'neither a list of cases nor an object holding one'));
    return out;
  }
  readObject(data, [], where, out);
  if (out.cases.length === 0 && out.problems.length === 0 && out.skipped === 0)
    out.problems.push(bad(file, 1, 'no trigger cases in any known shape (see docs/triggers.md)'));
  return out;
}

// An object: lists of texts, a trigger_tests table, a list under a known key, or one table per skill.
function readObject(
  data: Record<string, unknown>,
  at: Path,
  where: (path: Path) => { file: string; line: number | undefined; locator: string },
  out: Mutable,
  skill?: string,
): void {
  if (hasTextLists(data)) return readLists(data, at, where, out, skill);
  if (isObject(data['trigger_tests']) && hasTextLists(data['trigger_tests']))
    return readLists(data['trigger_tests'], [...at, 'trigger_tests'], where, out, skill);
  const listKey = LIST_KEYS.find((k) => Array.isArray(data[k]));
  if (listKey !== undefined) {
    const owner = typeof data['skill_name'] === 'string' ? data['skill_name'] : skill;
    // skill-creator's evals.json: its prompts are tasks for the skill, so unlabelled ones are positives.
    const positives = typeof data['skill_name'] === 'string' || listKey === 'evals';
    (data[listKey] as unknown[]).forEach((item, i) =>
      readItem(item, where([...at, listKey, i]), owner, out, positives),
    );
    return;
  }
  // One table per skill (a suite's shared file): every key whose value holds text lists.
  for (const [key, value] of Object.entries(data)) {
    if (isObject(value) && (hasTextLists(value) || isObject(value['trigger_tests'])))
      readObject(value, [...at, key], where, out, key);
    else if (Array.isArray(value) && key.startsWith('global_')) out.skipped += value.length;
  }
}

function hasTextLists(o: Record<string, unknown>): boolean {
  return Array.isArray(o['should_trigger']) || Array.isArray(o['should_not_trigger']);
}

// { should_trigger: [text…], should_not_trigger: [text…] }.
function readLists(
  o: Record<string, unknown>,
  at: Path,
  where: (path: Path) => { file: string; line: number | undefined; locator: string },
  out: Mutable,
  skill: string | undefined,
): void {
  for (const [key, label] of [
    ['should_trigger', true],
    ['should_not_trigger', false],
  ] as const) {
    const list = o[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      const w = where([...at, key]);
      out.problems.push(bad(w.file, w.line, `${key} must be a list of requests`));
      continue;
    }
    list.forEach((text, i) => {
      const w = where([...at, key, i]);
      const q = queryText(text, w, out);
      if (q !== undefined)
        out.cases.push({ query: q, should_trigger: label, ...named(skill), ...at2(w) });
    });
  }
}

// One item object: its text, its label (boolean, a routing skill name, or none where the file
// says every prompt is a positive), its own skill and id.
function readItem(
  item: unknown,
  w: { file: string; line: number | undefined; locator: string },
  skill: string | undefined,
  out: Mutable,
  unlabelledArePositives = false,
): void {
  if (!isObject(item)) {
    out.problems.push(bad(w.file, w.line, 'a case must be an object with a query and a label'));
    return;
  }
  const textKey = TEXT_KEYS.find((k) => item[k] !== undefined);
  const q = queryText(textKey === undefined ? undefined : item[textKey], w, out);
  if (q === undefined) return;
  const labelKey = LABEL_KEYS.find((k) => k in item);
  const label = labelKey === undefined ? undefined : item[labelKey];
  const own = typeof item['skill'] === 'string' ? item['skill'] : skill;
  const id =
    typeof item['id'] === 'string' || typeof item['id'] === 'number'
      ? String(item['id'])
      : undefined;
  const base = { query: q, ...(id !== undefined ? { id } : {}), ...at2(w) };
  if (typeof label === 'boolean') out.cases.push({ ...base, should_trigger: label, ...named(own) });
  else if (typeof label === 'string' && label.trim() !== '')
    out.cases.push({ ...base, should_trigger: true, skill: label.trim() });
  else if (label === null) out.skipped++;
  else if (label === undefined && unlabelledArePositives)
    out.cases.push({ ...base, should_trigger: true, ...named(own) });
  else
    out.problems.push(
      bad(
        w.file,
        w.line,
        `${labelKey ?? 'should_trigger'} must be true or false (or a skill name)`,
      ),
    );
}

// The query text of an item, or a problem: a non-empty string within the router's length cap.
function queryText(
  v: unknown,
  w: { file: string; line: number | undefined },
  out: Mutable,
): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') {
    out.problems.push(
      bad(w.file, w.line, `no request text (a non-empty ${TEXT_KEYS.join(' | ')})`),
    );
    return undefined;
  }
  if (v.length > MAX_QUERY_CHARS) {
    out.problems.push(bad(w.file, w.line, `request is over ${MAX_QUERY_CHARS} characters`));
    return undefined;
  }
  return v.trim();
}

function named(skill: string | undefined): { skill?: string } {
  return skill !== undefined ? { skill } : {};
}

function at2(w: { line: number | undefined; locator: string }): { line?: number; locator: string } {
  return { ...(w.line !== undefined ? { line: w.line } : {}), locator: w.locator };
}

// The line of the node at a path in JSON text, from the YAML parser's ranges (JSON is YAML 1.2).
// The parser is loaded on first use (yamlLib): this module is in the prompt hook's bundle, and
// loading the yaml package at start cost every prompt ~25 ms (bench:hook, issue 35).
function jsonLines(text: string): (path: Path) => number | undefined {
  const { LineCounter, parseDocument } = yamlLib();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  return (path) => {
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    return node?.range !== undefined ? counter.linePos(node.range[0]).line : undefined;
  };
}

function pointer(path: Path): string {
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function bad(file: string, line: number | undefined, what: string): Problem {
  return problem(
    'TRIGGER_EVAL_INVALID',
    file,
    `${file}${line !== undefined ? `:${line}` : ''}: ${what}`,
    line,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function firstLine(err: unknown): string {
  return (err as Error).message.split('\n')[0] ?? '';
}
