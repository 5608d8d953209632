/**
 * Path globs for substrate reads (pure): parse, overlap and inclusion (docs/substrate.md). A glob query
 * hits a reviewer when its `Fires on` globs overlap the query, that is when some path could match
 * both; the test is exact for the syntax supported here, and it returns that path as a witness.
 * Inclusion ("every path the query names is one the entry covers") is a sound, conservative test:
 * when it says yes it is right, when it cannot prove it the hit is partial.
 *
 * Syntax: `/` separates segments; a whole segment `**` matches zero or more segments; `*` matches
 * any run of characters within a segment, `?` exactly one; `{a,b}` expands to alternatives
 * (nested, at most 64); `\x` is a literal x; every other character, `[` included, is literal.
 * A leading `./` or `/` is dropped and a trailing `/` means `/**`. Dotfiles get no special case.
 * Never touches the file system.
 *
 * Hand-written rather than picomatch: picomatch tests one path against a glob, while a substrate
 * read must decide whether two globs overlap (with a witness path) and whether one includes the
 * other.
 */

import { problem, type Problem, type ProblemCode } from '../errors.js';

/** Most alternatives one glob may expand to through braces. */
export const MAX_BRACE_EXPANSIONS = 64;

type CharToken =
  | { readonly kind: 'lit'; readonly ch: string }
  | { readonly kind: 'one' }
  | { readonly kind: 'star' };
type SegmentToken =
  | { readonly kind: 'globstar' }
  | { readonly kind: 'segment'; readonly chars: readonly CharToken[] };

/** A parsed glob: its source text and its brace-expanded alternatives as segment tokens. */
export interface Glob {
  readonly source: string;
  readonly alternatives: readonly (readonly SegmentToken[])[];
}

/**
 * A problem `code` on `line` of `label` for each of `globs` that does not parse, its message
 * `<at> glob "<the glob>" <why>`.
 */
export function globProblems(
  globs: readonly string[],
  code: ProblemCode,
  label: string,
  line: number,
  at: string,
): Problem[] {
  return globs.flatMap((g) => {
    const p = parseGlob(g);
    return p.ok ? [] : [problem(code, label, `${at} glob ${JSON.stringify(g)} ${p.reason}`, line)];
  });
}

/** Parses `source` into a glob, or says why it cannot (empty, too many brace alternatives). */
export function parseGlob(
  source: string,
): { ok: true; glob: Glob } | { ok: false; reason: string } {
  const expanded = expandBraces(source.trim());
  if (expanded === undefined)
    return { ok: false, reason: `expands to more than ${MAX_BRACE_EXPANSIONS} alternatives` };
  const alternatives: SegmentToken[][] = [];
  for (const alt of expanded) {
    let s = alt;
    while (s.startsWith('./')) s = s.slice(2);
    s = s.replace(/^\/+/, '');
    if (s.endsWith('/')) s += '**';
    const segments = splitSegments(s).filter((seg) => seg !== '' && seg !== '.');
    if (segments.length === 0) return { ok: false, reason: 'names no path' };
    alternatives.push(segments.map(parseSegment));
  }
  return { ok: true, glob: { source, alternatives } };
}

/** Splits a list of globs written in one cell at commas and whitespace outside braces. */
export function splitGlobList(cell: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i]!;
    if (c === '\\' && i + 1 < cell.length) {
      cur += c + cell[++i]!;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** A path that matches both `a` and `b` (POSIX, relative), or undefined when none can. Exact. */
export function globOverlap(a: Glob, b: Glob): string | undefined {
  for (const pa of a.alternatives) {
    for (const pb of b.alternatives) {
      const w = pathOverlap(pa, pb);
      // Only two all-globstar globs meet on the empty path; they share every path, so the filler.
      if (w !== undefined) return w.length === 0 ? FILLER : w.join('/');
    }
  }
  return undefined;
}

/** True when every path `inner` matches is matched by `outer` (sound; may miss some inclusions). */
export function globIncludes(outer: Glob, inner: Glob): boolean {
  return inner.alternatives.every((pi) => outer.alternatives.some((po) => pathIncludes(po, pi)));
}

/** True when the relative POSIX path `path` matches `glob`. */
export function globMatches(glob: Glob, path: string): boolean {
  const literal = path.split('/').filter((s) => s !== '' && s !== '.');
  if (literal.length === 0) return false;
  const tokens: SegmentToken[] = literal.map((s) => ({
    kind: 'segment',
    chars: [...s].map((ch) => ({ kind: 'lit', ch })),
  }));
  return glob.alternatives.some((alt) => pathOverlap(alt, tokens) !== undefined);
}

function splitSegments(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) cur += s[i]! + s[++i]!;
    else if (s[i] === '/') {
      out.push(cur);
      cur = '';
    } else cur += s[i]!;
  }
  out.push(cur);
  return out;
}

function parseSegment(seg: string): SegmentToken {
  if (seg === '**') return { kind: 'globstar' };
  const chars: CharToken[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '\\' && i + 1 < seg.length) chars.push({ kind: 'lit', ch: seg[++i]! });
    // A run of stars inside a segment (`a**b`) means the same as one star.
    else if (c === '*') {
      if (chars.at(-1)?.kind !== 'star') chars.push({ kind: 'star' });
    } else if (c === '?') chars.push({ kind: 'one' });
    else chars.push({ kind: 'lit', ch: c });
  }
  return { kind: 'segment', chars };
}

/** Expands `{a,b}` alternatives (nested); braces without a top-level comma stay literal. */
function expandBraces(s: string): string[] | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] !== '{') continue;
    const parts: string[] = [];
    let depth = 0;
    let start = i + 1;
    let close = -1;
    for (let j = i + 1; j < s.length; j++) {
      const c = s[j];
      if (c === '\\') j++;
      else if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
      else if (c === '}') {
        close = j;
        break;
      } else if (c === ',' && depth === 0) {
        parts.push(s.slice(start, j));
        start = j + 1;
      }
    }
    if (close < 0) return [s];
    if (parts.length === 0) continue;
    parts.push(s.slice(start, close));
    const out: string[] = [];
    for (const p of parts) {
      const sub = expandBraces(s.slice(0, i) + p + s.slice(close + 1));
      if (sub === undefined) return undefined;
      out.push(...sub);
      if (out.length > MAX_BRACE_EXPANSIONS) return undefined;
    }
    return [...new Set(out)];
  }
  return [s];
}

// Path overlap: a walk over (i, j) positions of both token lists. Every step advances i or j
// (two globstars never consume together), so the search is finite; memo keeps it O(|a|·|b|).
function pathOverlap(a: readonly SegmentToken[], b: readonly SegmentToken[]): string[] | undefined {
  const memo = new Map<number, string[] | null>();
  const visit = (i: number, j: number): string[] | null => {
    if (i === a.length && j === b.length) return [];
    const key = i * (b.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let found: string[] | null = null;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'globstar') found = visit(i + 1, j);
    if (found === null && y?.kind === 'globstar') found = visit(i, j + 1);
    if (found === null && x !== undefined && y !== undefined) {
      if (x.kind === 'segment' && y.kind === 'segment') {
        const w = segmentOverlap(x.chars, y.chars);
        const rest = w === undefined ? null : visit(i + 1, j + 1);
        if (rest !== null) found = [w!, ...rest];
      } else if (x.kind === 'globstar' && y.kind === 'segment') {
        const rest = visit(i, j + 1);
        if (rest !== null) found = [segmentWitness(y.chars), ...rest];
      } else if (x.kind === 'segment' && y.kind === 'globstar') {
        const rest = visit(i + 1, j);
        if (rest !== null) found = [segmentWitness(x.chars), ...rest];
      }
    }
    memo.set(key, found);
    return found;
  };
  return visit(0, 0) ?? undefined;
}

// A filler character for wildcards matched against wildcards; any character but `/` would do.
const FILLER = 'x';

function segmentOverlap(a: readonly CharToken[], b: readonly CharToken[]): string | undefined {
  const memo = new Map<number, string | null>();
  const visit = (i: number, j: number): string | null => {
    if (i === a.length && j === b.length) return '';
    const key = i * (b.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let found: string | null = null;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'star') found = visit(i + 1, j);
    if (found === null && y?.kind === 'star') found = visit(i, j + 1);
    // Consume one character both can produce; two stars consuming together would not progress.
    if (
      found === null &&
      x !== undefined &&
      y !== undefined &&
      !(x.kind === 'star' && y.kind === 'star')
    ) {
      const ch = x.kind === 'lit' ? x.ch : y.kind === 'lit' ? y.ch : FILLER;
      const fits = x.kind !== 'lit' || y.kind !== 'lit' || x.ch === y.ch;
      if (fits) {
        const rest = visit(x.kind === 'star' ? i : i + 1, y.kind === 'star' ? j : j + 1);
        if (rest !== null) found = ch + rest;
      }
    }
    memo.set(key, found);
    return found;
  };
  const w = visit(0, 0);
  if (w === null) return undefined;
  // Only two all-star segments can meet on the empty string; they also share the filler, and a
  // path segment is never empty.
  return w === '' ? FILLER : w;
}

function segmentWitness(chars: readonly CharToken[]): string {
  const w = chars.map((c) => (c.kind === 'lit' ? c.ch : c.kind === 'one' ? FILLER : '')).join('');
  return w === '' ? FILLER : w;
}

// Inclusion, symbolically: `outer` must match the tokens of `inner` where an inner wildcard can be
// matched only by an outer wildcard at least as general (a `*` only by a `*`, a `**` only by `**`).
function pathIncludes(outer: readonly SegmentToken[], inner: readonly SegmentToken[]): boolean {
  return includesBy(outer, inner, (o, n, visit, i, j) => {
    if (o.kind === 'globstar') return visit(i, j + 1) || (n !== undefined && visit(i + 1, j));
    return (
      n !== undefined &&
      n.kind === 'segment' &&
      segmentIncludes(o.chars, n.chars) &&
      visit(i + 1, j + 1)
    );
  });
}

function segmentIncludes(outer: readonly CharToken[], inner: readonly CharToken[]): boolean {
  return includesBy(outer, inner, (o, n, visit, i, j) => {
    if (o.kind === 'star') return visit(i, j + 1) || (n !== undefined && visit(i + 1, j));
    if (n === undefined || n.kind === 'star') return false;
    if (o.kind === 'one') return visit(i + 1, j + 1);
    return n.kind === 'lit' && n.ch === o.ch && visit(i + 1, j + 1);
  });
}

/**
 * Whether the token list `outer` includes `inner`, by `step`: given outer token `o` = outer[j] and
 * inner token `n` = inner[i] (undefined past the end), it answers through `visit` on the next
 * positions. Memoised on (i, j), so each pair of positions is decided once; `outer` used up matches
 * only `inner` used up.
 */
function includesBy<T>(
  outer: readonly T[],
  inner: readonly T[],
  step: (
    o: T,
    n: T | undefined,
    visit: (i: number, j: number) => boolean,
    i: number,
    j: number,
  ) => boolean,
): boolean {
  const memo = new Map<number, boolean>();
  const visit = (i: number, j: number): boolean => {
    if (j === outer.length) return i === inner.length;
    const key = i * (outer.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const ok = step(outer[j]!, inner[i], visit, i, j);
    memo.set(key, ok);
    return ok;
  };
  return visit(0, 0);
}
