/**
 * Pure helpers of the explorer page (issue 15): the bar segments of a candidate's explanation, its
 * dropped query tokens, its matched tokens, and the split of a text into highlighted and plain
 * runs. They read both explanation shapes: the v1/v2 one (`exact.*.points`, `fts.weighted`,
 * `fuzzy.weighted`) and the generic one (`components: [{ name, points }]`, `dropped_tokens`).
 * No DOM here, so the unit tests run them in Node.
 */
import { stemmer } from 'stemmer';

/** One segment of a score bar: a component's name and its points (before the multipliers). */
export interface Segment {
  readonly name: string;
  readonly points: number;
}

/** A query token left out of the score, and why. */
export interface DroppedToken {
  readonly token: string;
  readonly reason: string;
}

/** A run of text, highlighted when it matched a query token. */
export interface Run {
  readonly text: string;
  readonly hit: boolean;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

// Every component of `explanation` with its points (any sign): its `components` when it has them
// (generic shape), else the v1/v2 fields keyword, name and description points, FTS and fuzzy.
function explanationComponents(explanation: unknown): Segment[] {
  const e = obj(explanation) ?? {};
  if (Array.isArray(e['components'])) {
    return e['components'].flatMap((c) => {
      const o = obj(c);
      return o && typeof o['name'] === 'string'
        ? [{ name: o['name'], points: num(o['points']) }]
        : [];
    });
  }
  const exact = obj(e['exact']) ?? {};
  return [
    { name: 'keywords', points: num(obj(exact['keywords'])?.['points']) },
    { name: 'name', points: num(obj(exact['name'])?.['points']) },
    { name: 'description', points: num(obj(exact['description'])?.['points']) },
    { name: 'fts', points: num(obj(e['fts'])?.['weighted']) },
    { name: 'fuzzy', points: num(obj(e['fuzzy'])?.['weighted']) },
  ];
}

/**
 * The bar segments of `explanation`: the components that add points, in the explanation's order
 * (its `components` when it has them, else the v1/v2 fields keyword, name and description points,
 * FTS and fuzzy). Segments with no points, and those that take points off, are left out.
 */
export function explanationSegments(explanation: unknown): Segment[] {
  return explanationComponents(explanation).filter((s) => s.points > 0);
}

/**
 * The components that take points off the base (policy v4's `boundary` — the request's words in
 * the skill's "do not use for" clauses — and `exclusion`), in the explanation's order, with their
 * points as given (negative). Segments plus penalties sum to the explanation's `base`.
 */
export function explanationPenalties(explanation: unknown): Segment[] {
  return explanationComponents(explanation).filter((s) => s.points < 0);
}

/** The multipliers applied to the base: telemetry and lifecycle (1 when absent). */
export function explanationMultipliers(explanation: unknown): {
  telemetry: number;
  lifecycle: number;
} {
  const e = obj(explanation) ?? {};
  const t = obj(e['telemetry'])?.['multiplier'];
  const l = obj(e['lifecycle'])?.['multiplier'];
  return { telemetry: typeof t === 'number' ? t : 1, lifecycle: typeof l === 'number' ? l : 1 };
}

/** The query tokens the policy left out: `dropped_tokens` when given, else the v1/v2 `common_tokens`. */
export function droppedTokens(explanation: unknown): DroppedToken[] {
  const e = obj(explanation) ?? {};
  if (Array.isArray(e['dropped_tokens'])) {
    return e['dropped_tokens'].flatMap((d) => {
      const o = obj(d);
      return o && typeof o['token'] === 'string'
        ? [{ token: o['token'], reason: typeof o['reason'] === 'string' ? o['reason'] : 'dropped' }]
        : [];
    });
  }
  return strings(e['common_tokens']).map((token) => ({ token, reason: 'common' }));
}

/** The query tokens of `explanation` (those that took part in the score). */
export function queryTokensOf(explanation: unknown): string[] {
  return strings(obj(explanation)?.['query_tokens']);
}

/**
 * The words to highlight for `explanation`: the query tokens that matched a field (v1/v2: the
 * `matched` lists and fuzzy terms), or every query token when the shape names no matches.
 */
export function matchedTokens(explanation: unknown): string[] {
  const e = obj(explanation) ?? {};
  const exact = obj(e['exact']);
  if (!exact) return queryTokensOf(e);
  const out = new Set<string>();
  for (const field of ['keywords', 'name', 'description'])
    for (const t of strings(obj(exact[field])?.['matched'])) out.add(t);
  const fuzzy = obj(e['fuzzy'])?.['matches'];
  if (Array.isArray(fuzzy))
    for (const m of fuzzy)
      if (typeof obj(m)?.['term'] === 'string') out.add(obj(m)!['term'] as string);
  return [...out];
}

/** One of a candidate's own examples that matched the request (`explanation.author`). */
export interface AuthorExample {
  readonly query: string;
  readonly source: string;
  readonly polarity: 'positive' | 'negative';
  readonly similarity: number;
}

/** What `explanation.author` says (issue 34): the matched examples, their effect and its factor. */
export interface AuthorEvidence {
  readonly effect: 'lift' | 'penalty' | 'none';
  readonly factor: number;
  readonly matched: readonly AuthorExample[];
}

/**
 * The author evidence of `explanation` (router/search/types.ts AuthorEvidenceNote): the skill's own
 * should-trigger and should-not examples most similar to the request, or undefined when the
 * explanation has none. A polarity other than `negative` reads as positive; fields of other
 * types are left out, never shown as markup.
 */
export function authorEvidence(explanation: unknown): AuthorEvidence | undefined {
  const a = obj(obj(explanation)?.['author']);
  if (!a) return undefined;
  const matched = Array.isArray(a['matched'])
    ? a['matched'].flatMap((m): AuthorExample[] => {
        const o = obj(m);
        if (!o || typeof o['query'] !== 'string') return [];
        return [
          {
            query: o['query'],
            source: typeof o['source'] === 'string' ? o['source'] : 'author',
            polarity: o['polarity'] === 'negative' ? 'negative' : 'positive',
            similarity: num(o['similarity']),
          },
        ];
      })
    : [];
  const effect = a['effect'] === 'lift' || a['effect'] === 'penalty' ? a['effect'] : 'none';
  const factor = typeof a['factor'] === 'number' && Number.isFinite(a['factor']) ? a['factor'] : 1;
  return { effect, factor, matched };
}

/**
 * Splits `text` into runs, marking each word whose Porter stem (after folding case and accents)
 * is the stem of one of `tokens`, as the router matches fields: "tables" for "table", "deploying"
 * for "deploy". The runs joined give back `text` exactly.
 */
export function highlightRuns(text: string, tokens: readonly string[]): Run[] {
  const wanted = new Set(tokens.map((t) => stemOf(foldWord(t))).filter((t) => t.length > 0));
  const runs: Run[] = [];
  let last = 0;
  if (wanted.size === 0) return text === '' ? [] : [{ text, hit: false }];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!wanted.has(stemOf(foldWord(m[0])))) continue;
    const at = m.index;
    if (at > last) runs.push({ text: text.slice(last, at), hit: false });
    runs.push({ text: m[0], hit: true });
    last = at + m[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last), hit: false });
  return runs;
}

function foldWord(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

// The library's rule (src/text/stem.ts): only plain Latin words are stemmed.
function stemOf(word: string): string {
  return /^[a-z]+$/.test(word) ? stemmer(word) : word;
}
