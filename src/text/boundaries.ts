/**
 * Negative boundaries (policy bm25f.v4, docs/ranking.md §10), pure. A skill's description often says
 * what it is not for — "Do NOT use for dbt models (use dbt-transforms instead)", "Not for SQL
 * SAVEPOINT", "不要用于签名、构建…" — and a request sometimes says what it does not want ("no
 * video", "不需要设计建议"). Their words are evidence against, not for: `splitBoundaries` separates a
 * description's positive text from its boundary clauses, `splitQueryNegation` a request's wanted
 * words from the ones it excludes. A clause runs from its cue to the end of its sentence.
 */

// Cues that open a description's boundary clause (case-insensitive), English then Chinese: 不要用于,
// 不要用在, 不要用, 不适用于, 不适用, 不用于, 不触发, 请勿用于, 请勿, 不处理, 不负责. CJK characters are written
// as \u escapes: the bundled CLI is ASCII only (scripts/build-cli.mjs).
const DESCRIPTION_CUE =
  /\b(?:(?:do\s+not|don['\u2019]t|never)\s+(?:use|trigger|invoke|activate|load|apply)\b(?:\s+(?:this|it|the\s+skill))?|not\s+(?:for|intended\s+for|meant\s+for|suitable\s+for|to\s+be\s+used\s+for)\b|avoid\s+(?:using|this)\b)|\u4e0d\u8981\u7528\u4e8e|\u4e0d\u8981\u7528\u5728|\u4e0d\u8981\u7528|\u4e0d\u9002\u7528\u4e8e|\u4e0d\u9002\u7528|\u4e0d\u7528\u4e8e|\u4e0d\u89e6\u53d1|\u8bf7\u52ff\u7528\u4e8e|\u8bf7\u52ff|\u4e0d\u5904\u7406|\u4e0d\u8d1f\u8d23/i;

/** A description split into its positive text and its boundary clauses. */
export interface Boundaries {
  /** The description without its boundary clauses. */
  readonly positive: string;
  /** The boundary clauses, joined by newlines ('' when there are none). */
  readonly boundary: string;
}

/** Splits `text` into positive text and boundary clauses ("do not use for …" to its sentence end). */
export function splitBoundaries(text: string): Boundaries {
  const positive: string[] = [];
  const boundary: string[] = [];
  for (const s of sentences(text)) {
    const m = DESCRIPTION_CUE.exec(s);
    if (!m) {
      positive.push(s);
      continue;
    }
    positive.push(s.slice(0, m.index));
    boundary.push(s.slice(m.index).trim());
  }
  return { positive: positive.join(''), boundary: boundary.join('\n') };
}

function sentences(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  // A sentence is the text up to and including its end mark; the rest of the text is the last one.
  const END = /[.!?](?=\s|$)|[\u3002\uff01\uff1f\uff1b;]|\n/g;
  for (const m of text.matchAll(END)) {
    const end = m.index + m[0].length;
    out.push(text.slice(at, end));
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// Cues that open an excluded span of a request. Kept to explicit exclusions: a bare "no",
// "not" or "without" ("works without a GPU", "no-reference image quality") describes what is
// wanted as often as what is not, and dropping its words cost the tool sets (docs/ranking.md §10).
// Chinese: 不需要, 不要, 不涉及, 不讨论, 无需, 不包括, 而不是, 不接.
const QUERY_CUE =
  /\b(?:rather\s+than|instead\s+of|other\s+than|nothing\s+to\s+do\s+with|not\s+about|no\s+need\s+(?:for|to)|(?:don['\u2019]t|do\s+not)\s+(?:need|want|use|include|touch|involve))\b|\u4e0d\u9700\u8981|\u4e0d\u8981|\u4e0d\u6d89\u53ca|\u4e0d\u8ba8\u8bba|\u65e0\u9700|\u4e0d\u5305\u62ec|\u800c\u4e0d\u662f|\u4e0d\u63a5/i;
// An excluded span ends at clause punctuation or a "but".
const QUERY_SPAN_END =
  /[,;:.!?\uff0c\uff1b\uff1a\u3002\uff01\uff1f()\uff08\uff09]|\bbut\b|\u4f46\u662f|\u4f46/i;

/** A request split into what it asks for and what it excludes. */
export interface QueryNegation {
  readonly wanted: string;
  /** The excluded spans, joined by newlines ('' when there are none). */
  readonly excluded: string;
}

/** Splits a request at its exclusion cues: each cue's span runs to the clause's end. */
export function splitQueryNegation(query: string): QueryNegation {
  const wanted: string[] = [];
  const excluded: string[] = [];
  let rest = query;
  for (;;) {
    const m = QUERY_CUE.exec(rest);
    if (!m) {
      wanted.push(rest);
      break;
    }
    wanted.push(rest.slice(0, m.index));
    const after = rest.slice(m.index + m[0].length);
    const stop = QUERY_SPAN_END.exec(after);
    const end = stop ? stop.index : after.length;
    excluded.push(after.slice(0, end).trim());
    rest = after.slice(end);
  }
  return {
    wanted: wanted
      .map((w) => w.trim())
      .filter((w) => w !== '')
      .join(' '),
    excluded: excluded.filter((e) => e !== '').join('\n'),
  };
}
