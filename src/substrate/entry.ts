/**
 * Substrate entry files (docs/substrate.md), pure: frontmatter (`scope` globs, `tags`, for reviewers
 * `predicate`) then a `## Summary` section, then the body. `readEntrySummary` looks only at the
 * frontmatter and the Summary section, and stops at the next heading: a read that stops at the
 * summary never considers the body. `entryBody` gives the rest when a read goes that deep.
 * Frontmatter is parsed by src/skills (data only, alias-capped, duplicate keys refused).
 */
import { problem, type Problem } from '../errors.js';
import { parseFrontmatter, splitFrontmatter } from '../skills/index.js';
import { globProblems } from './glob.js';

/** The summary-depth view of one entry: its frontmatter fields and its Summary section. */
export interface EntrySummary {
  /** `scope` globs (a string or a list of strings in the frontmatter). */
  readonly scope: readonly string[];
  /** `tags` values as written (strings, or numbers turned into strings). */
  readonly tags: readonly string[];
  /** The reviewer's `predicate`, when present. */
  readonly predicate?: string;
  /** The text of the Summary section without its heading, or undefined when there is none. */
  readonly summary?: string;
  /** Where the body starts in the text (after the frontmatter). */
  readonly body_offset: number;
  readonly problems: readonly Problem[];
}

// `## Summary` (any case, optional closing hashes), up to three spaces of indentation.
const SUMMARY_RE = /^ {0,3}##[ \t]+summary[ \t]*#*[ \t]*$/i;
// Any ATX heading ends the Summary section.
const HEADING_RE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Reads the frontmatter and the Summary section of an entry's `text` (BOM removed). `label` names
 * the file in problems. Problems: FRONTMATTER_MISSING / FRONTMATTER_UNCLOSED /
 * MALFORMED_FRONTMATTER, FIELD_TYPE for a `scope`, `tags` or `predicate` of the wrong type or a
 * scope glob that names no path, MISSING_SUMMARY.
 */
export function readEntrySummary(text: string, label: string): EntrySummary {
  const problems: Problem[] = [];
  let scope: string[] = [];
  let tags: string[] = [];
  let predicate: string | undefined;
  let bodyOffset = 0;
  const split = splitFrontmatter(text, label);
  if (!split.ok) {
    problems.push(split.problem);
  } else {
    bodyOffset = split.bodyOffset;
    // An empty frontmatter (`---` twice) is an entry without fields, not a malformed one.
    const parsed =
      split.yaml.trim() === ''
        ? { ok: true as const, data: {} as Record<string, unknown> }
        : parseFrontmatter(split.yaml, label, split.yamlLine, { lenient: false });
    if (!parsed.ok) {
      problems.push(parsed.problem);
    } else {
      const data = parsed.data;
      scope = stringList(data['scope'], 'scope', label, problems, false);
      problems.push(...globProblems(scope, 'FIELD_TYPE', label, split.yamlLine, `${label}: scope`));
      tags = stringList(data['tags'], 'tags', label, problems, true);
      const pred = data['predicate'];
      if (typeof pred === 'string') predicate = pred;
      else if (pred !== undefined && pred !== null) {
        problems.push(
          problem('FIELD_TYPE', label, `${label}: predicate must be a string`, split.yamlLine),
        );
      }
    }
  }
  const section = findSummary(text, bodyOffset);
  if (section === undefined) {
    problems.push(problem('MISSING_SUMMARY', label, `${label}: no "## Summary" section`));
  }
  return {
    scope,
    tags,
    ...(predicate === undefined ? {} : { predicate }),
    ...(section === undefined ? {} : { summary: section }),
    body_offset: bodyOffset,
    problems,
  };
}

/** The body of an entry: all text after the frontmatter (the Summary section included). */
export function entryBody(text: string, summary: EntrySummary): string {
  return text.slice(summary.body_offset);
}

/**
 * The Summary section's text (lines after the heading, up to the next heading), or undefined.
 * Walks line by line and stops at the heading that ends the section: the rest is never looked at.
 */
function findSummary(text: string, from: number): string | undefined {
  return scanSummary(text, from).section;
}

/**
 * True when `text` (the start of an entry, complete lines) already holds everything a summary-depth
 * read looks at: the frontmatter is closed (or absent) and the Summary section is ended by the next
 * heading. A bounded read stops there and never reads the body.
 */
export function summaryIsComplete(text: string): boolean {
  let from = 0;
  if (/^---[ \t]*\r?\n/.test(text)) {
    const split = splitFrontmatter(text, '');
    if (!split.ok) return false;
    from = split.bodyOffset;
  }
  return scanSummary(text, from).ended;
}

// The Summary section from `from` on, and whether a heading ended it (rather than the text's end).
function scanSummary(text: string, from: number): { section: string | undefined; ended: boolean } {
  let fence: string | undefined;
  let start = -1;
  let pos = from;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(pos, end).replace(/\r$/, '');
    const lineStart = pos;
    pos = end + 1;
    const f = FENCE_RE.exec(line);
    if (fence !== undefined) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1])
        fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    if (start < 0) {
      if (SUMMARY_RE.test(line)) start = pos;
    } else if (HEADING_RE.test(line)) {
      return { section: text.slice(start, lineStart).trim(), ended: true };
    }
  }
  return {
    section: start < 0 ? undefined : text.slice(Math.min(start, text.length)).trim(),
    ended: false,
  };
}

function stringList(
  value: unknown,
  field: string,
  label: string,
  problems: Problem[],
  numbersToo: boolean,
): string[] {
  if (value === undefined || value === null) return [];
  const ok = (v: unknown): v is string | number =>
    typeof v === 'string' || (numbersToo && typeof v === 'number');
  if (ok(value)) return [String(value)];
  if (Array.isArray(value) && value.every(ok)) return value.map(String);
  problems.push(
    problem('FIELD_TYPE', label, `${label}: ${field} must be a string or a list of strings`),
  );
  return [];
}
