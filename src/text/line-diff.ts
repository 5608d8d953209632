/**
 * A line diff (pure): Myers' O(ND) shortest edit script between two lists of lines ("An O(ND)
 * Difference Algorithm and Its Variations", Algorithmica 1986), after the common head and tail are
 * trimmed, grouped into unified-diff hunks with context lines (the `diff -u` / GNU diffutils hunk
 * format: `@@ -l,s +l,s @@`, then lines prefixed ` `, `-`, `+`). `skilldex diff` prints a SKILL.md
 * body change with it. Never reads or writes anything; never renders markup: the caller sanitises.
 *
 * Bounded: the search stops after MAX_EDIT_DISTANCE edits; a pair of texts further apart than that
 * gets a correct but not minimal script (the middle that differs is deleted, then inserted), so a
 * diff of two unrelated 10,000-line bodies costs milliseconds, not gigabytes.
 */

/**
 * Most edits (inserted plus deleted lines) the minimal search looks for before it gives up and
 * replaces the differing middle whole. The search keeps O(D²) integers: 2,000 edits is about 2 M
 * integers (16 MB at most), far more than a skill body's real revisions differ by.
 */
export const MAX_EDIT_DISTANCE = 2_000;

/** Context lines around each change in a unified hunk (GNU diff's default). */
export const DEFAULT_CONTEXT = 3;

/** One line of an edit script: kept, deleted from the old text or inserted from the new one. */
export interface DiffLine {
  readonly kind: 'equal' | 'delete' | 'insert';
  readonly line: string;
  /** 0-based index in the old lines (equal and delete). */
  readonly old?: number;
  /** 0-based index in the new lines (equal and insert). */
  readonly new?: number;
}

/** One unified-diff hunk: 1-based start lines, line counts, and its lines prefixed ` `, `-` or `+`. */
export interface DiffHunk {
  readonly old_start: number;
  readonly old_lines: number;
  readonly new_start: number;
  readonly new_lines: number;
  readonly lines: readonly string[];
}

/**
 * The lines of `text` as a diff compares them: split at LF (a CRLF's carriage return stays part of
 * its line, so a line-ending change shows as a change); a final line break ends the last line rather
 * than starting an empty one. The empty text has no lines.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The edit script turning `a` into `b`: every line of both, in order, as equal, delete or insert.
 * Minimal (fewest deletes plus inserts) when the two differ by at most `maxEdits` lines.
 */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  maxEdits: number = MAX_EDIT_DISTANCE,
): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ kind: 'equal', line: a[i]!, old: i, new: i });
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  for (const d of middleScript(midA, midB, maxEdits)) {
    out.push({
      kind: d.kind,
      line: d.line,
      ...(d.old !== undefined ? { old: d.old + head } : {}),
      ...(d.new !== undefined ? { new: d.new + head } : {}),
    });
  }
  for (let t = tail; t > 0; t--) {
    const i = a.length - t;
    const j = b.length - t;
    out.push({ kind: 'equal', line: a[i]!, old: i, new: j });
  }
  return out;
}

// Myers' greedy forward search over the trimmed middle, keeping each round's frontier for the
// backtrack; past `maxEdits` the middle is replaced whole.
function middleScript(a: readonly string[], b: readonly string[], maxEdits: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return replaceWhole(a, b);
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  // v[k + offset]: the furthest x on diagonal k after the current round.
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Only diagonals -d..d move in round d: keep that window of the frontier before it changes.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d);
    }
  }
  return replaceWhole(a, b);
}

// Walks the kept frontiers back from (n, m) to (0, 0), emitting the script in order.
function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  last: number,
): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d > 0; d--) {
    // trace[d] holds diagonals -d-1..d+1 of the frontier as it was before round d.
    const frontier = trace[d]!;
    const at = (k: number): number => frontier[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      x--;
      y--;
      out.push({ kind: 'equal', line: a[x]!, old: x, new: y });
    }
    if (down) {
      y--;
      out.push({ kind: 'insert', line: b[y]!, new: y });
    } else {
      x--;
      out.push({ kind: 'delete', line: a[x]!, old: x });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    out.push({ kind: 'equal', line: a[x]!, old: x, new: y });
  }
  return out.reverse();
}

function replaceWhole(a: readonly string[], b: readonly string[]): DiffLine[] {
  return [
    ...a.map((line, i) => ({ kind: 'delete' as const, line, old: i })),
    ...b.map((line, j) => ({ kind: 'insert' as const, line, new: j })),
  ];
}

/**
 * The unified-diff hunks of `script` (from `diffLines`), each change with `context` lines of
 * context (default DEFAULT_CONTEXT); changes closer than twice that share a hunk. No hunk for equal texts.
 */
export function unifiedHunks(
  script: readonly DiffLine[],
  context: number = DEFAULT_CONTEXT,
): DiffHunk[] {
  const changed = script.map((d, i) => (d.kind === 'equal' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return [];
  // Group change indexes whose gap of equal lines is at most 2 × context.
  const groups: [number, number][] = [];
  for (const i of changed) {
    const g = groups[groups.length - 1];
    if (g && i - g[1] - 1 <= 2 * context) g[1] = i;
    else groups.push([i, i]);
  }
  return groups.map(([first, last]) => {
    const from = Math.max(0, first - context);
    const to = Math.min(script.length - 1, last + context);
    const slice = script.slice(from, to + 1);
    // Start lines: the old/new index of the hunk's first line on that side, or of the line before
    // it when the side has no line in the hunk (GNU diff writes `-l,0` with l the line before).
    const oldCount = slice.filter((d) => d.kind !== 'insert').length;
    const newCount = slice.filter((d) => d.kind !== 'delete').length;
    const oldFirst = slice.find((d) => d.old !== undefined)?.old;
    const newFirst = slice.find((d) => d.new !== undefined)?.new;
    return {
      old_start: oldCount === 0 ? linesBefore(script, from, 'old') : oldFirst! + 1,
      old_lines: oldCount,
      new_start: newCount === 0 ? linesBefore(script, from, 'new') : newFirst! + 1,
      new_lines: newCount,
      lines: slice.map(
        (d) => (d.kind === 'equal' ? ' ' : d.kind === 'delete' ? '-' : '+') + d.line,
      ),
    };
  });
}

// How many lines of one side come before script position `at`.
function linesBefore(script: readonly DiffLine[], at: number, side: 'old' | 'new'): number {
  let n = 0;
  for (let i = 0; i < at; i++) if (script[i]![side] !== undefined) n++;
  return n;
}

/**
 * The hunks as unified-diff text: `--- fromLabel`, `+++ toLabel`, then each hunk's header and
 * lines. Lines are as given: the caller sanitises skill text before or after.
 */
export function renderUnified(
  hunks: readonly DiffHunk[],
  fromLabel: string,
  toLabel: string,
): string {
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  for (const h of hunks) {
    out.push(
      `@@ -${range(h.old_start, h.old_lines)} +${range(h.new_start, h.new_lines)} @@`,
      ...h.lines,
    );
  }
  return out.join('\n');
}

function range(start: number, count: number): string {
  return count === 1 ? String(start) : `${start},${count}`;
}
