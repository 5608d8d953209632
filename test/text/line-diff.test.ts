/**
 * The line diff: the script applies (old → new), it is minimal (its equal lines are a longest
 * common subsequence, checked against a dynamic-programming LCS), the bound falls back to a correct
 * whole replacement, and hunks follow GNU diff's unified format.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, renderUnified, splitLines, unifiedHunks } from '../../src/text/index.js';
import { type DiffLine } from '../../src/text/line-diff.js';

function apply(script: readonly DiffLine[]): { old: string[]; new: string[] } {
  return {
    old: script.filter((d) => d.kind !== 'insert').map((d) => d.line),
    new: script.filter((d) => d.kind !== 'delete').map((d) => d.line),
  };
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      dp[i]![j] =
        a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 });

describe('diffLines', () => {
  it('reproduces both sides and keeps a longest common subsequence', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const script = diffLines(a, b);
        expect(apply(script)).toEqual({ old: a, new: b });
        const kept = script.filter((d) => d.kind === 'equal').length;
        expect(kept).toBe(lcsLength(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('numbers every line on its side', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const script = diffLines(a, b);
        expect(script.filter((d) => d.old !== undefined).map((d) => d.old)).toEqual(
          a.map((_, i) => i),
        );
        expect(script.filter((d) => d.new !== undefined).map((d) => d.new)).toEqual(
          b.map((_, i) => i),
        );
      }),
    );
  });

  it('past the edit bound, replaces the differing middle whole and stays correct', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    const script = diffLines(['same', ...a, 'end'], ['same', ...b, 'end'], 10);
    expect(apply(script)).toEqual({ old: ['same', ...a, 'end'], new: ['same', ...b, 'end'] });
    expect(script.slice(1, 51).every((d) => d.kind === 'delete')).toBe(true);
  });

  it('has nothing but equal lines for equal texts', () => {
    expect(diffLines(['x', 'y'], ['x', 'y']).every((d) => d.kind === 'equal')).toBe(true);
    expect(unifiedHunks(diffLines(['x'], ['x']))).toEqual([]);
  });
});

describe('splitLines', () => {
  it('ends the last line at a final line break and keeps carriage returns', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb')).toEqual(['a\r', 'b']);
    expect(splitLines('\n')).toEqual(['']);
  });
});

describe('unifiedHunks', () => {
  it('writes GNU-style hunks with three lines of context', () => {
    const a = splitLines('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n');
    const b = splitLines('1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n');
    const hunks = unifiedHunks(diffLines(a, b));
    expect(hunks).toEqual([
      {
        old_start: 2,
        old_lines: 7,
        new_start: 2,
        new_lines: 7,
        lines: [' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'],
      },
    ]);
    expect(renderUnified(hunks, 'a', 'b')).toBe(
      ['--- a', '+++ b', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'].join(
        '\n',
      ),
    );
  });

  it('splits distant changes into two hunks and merges near ones', () => {
    const a = Array.from({ length: 30 }, (_, i) => String(i));
    const far = [...a];
    far[2] = 'x';
    far[25] = 'y';
    expect(unifiedHunks(diffLines(a, far))).toHaveLength(2);
    const near = [...a];
    near[2] = 'x';
    near[8] = 'y';
    expect(unifiedHunks(diffLines(a, near))).toHaveLength(1);
  });

  it('starts an empty side at the line before it, as diff -u does', () => {
    const [h] = unifiedHunks(diffLines([], ['a', 'b']));
    expect(h).toMatchObject({ old_start: 0, old_lines: 0, new_start: 1, new_lines: 2 });
    const [d] = unifiedHunks(diffLines(['a', 'b'], []));
    expect(d).toMatchObject({ old_start: 1, old_lines: 2, new_start: 0, new_lines: 0 });
  });

  it('hunk counts always match their lines', () => {
    fc.assert(
      fc.property(lines, lines, fc.integer({ min: 0, max: 4 }), (a, b, ctx) => {
        for (const h of unifiedHunks(diffLines(a, b), ctx)) {
          expect(h.lines.filter((l) => !l.startsWith('+')).length).toBe(h.old_lines);
          expect(h.lines.filter((l) => !l.startsWith('-')).length).toBe(h.new_lines);
          if (h.old_lines > 0)
            expect(a[h.old_start - 1]).toBe(h.lines.find((l) => !l.startsWith('+'))!.slice(1));
        }
      }),
    );
  });
});
