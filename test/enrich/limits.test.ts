/**
 * The 5-to-10 contract end to end (issue #7): twelve skills above the floor give ten candidates and
 * say how many were left out; exactly five select; four refuse. Also the stable path display that
 * keeps artifacts machine-independent.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enrichSkills, type EnrichReport } from '../../src/enrich/index.js';
import { makePathDisplay } from '../../src/enrich/display.js';
import { skillMd, tmpTree } from '../support/cli.js';

function library(matching: number): { home: string; project: string } {
  const files: Record<string, string> = {
    'home/.claude/skills/unrelated/SKILL.md': skillMd('unrelated', 'Bake bread.'),
  };
  for (let i = 0; i < matching; i++) {
    const name = `match-${String(i).padStart(2, '0')}`;
    // Fewer filler words for later skills: distinct, falling scores.
    const filler = Array.from({ length: matching - i }, (_, k) => `filler${k}`).join(' ');
    files[`project/.claude/skills/${name}/SKILL.md`] = skillMd(name, `Audit invoices ${filler}`);
  }
  const root = tmpTree(files);
  return { home: path.join(root, 'home'), project: path.join(root, 'project') };
}

function run(matching: number): { report: EnrichReport; dir: string } {
  const lib = library(matching);
  const { report } = enrichSkills({
    brief: 'audit invoices',
    target: 'evidence/skill-enrichment/x',
    env: {},
    cwd: lib.project,
    home: lib.home,
  });
  return { report, dir: path.join(lib.project, 'evidence', 'skill-enrichment', 'x') };
}

describe('5 to 10 candidates', () => {
  it('lists at most 10 of 12 above the floor and says 2 were left out', () => {
    const { report, dir } = run(12);
    expect(report.found_count).toBe(12);
    expect(report.candidates).toHaveLength(10);
    expect(report.candidates[0]!.skill_id).toBe('match-11');
    const index = readFileSync(path.join(dir, 'INDEX.md'), 'utf8');
    expect(index).toContain('12 of 13 scored skills are above it; the top 10 are listed');
    expect(index.split('\n').filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(10);
    expect(readFileSync(path.join(dir, 'CANDIDATES.md'), 'utf8')).toContain(
      '2 more above the floor were left out',
    );
    // raw-inventory.txt is never capped.
    expect(
      readFileSync(path.join(dir, 'raw-inventory.txt'), 'utf8').trim().split('\n'),
    ).toHaveLength(13);
  });

  it('selects with exactly 5 and refuses with 4', () => {
    expect(run(5).report.outcome).toBe('selected');
    const four = run(4);
    expect(four.report.outcome).toBe('refused');
    expect(four.report.refusal!.closest_5.map((c) => c.skill_id)).toEqual([
      'match-03',
      'match-02',
      'match-01',
      'match-00',
      'unrelated',
    ]);
  });
});

describe('makePathDisplay', () => {
  const display = makePathDisplay([
    { prefix: '/h/u', label: '~' },
    { prefix: '/h/u/code/app', label: '<project>' },
  ]);

  it('prefers the longest root and shows POSIX paths', () => {
    expect(display.path('/h/u/code/app/.claude/skills/x/SKILL.md')).toBe(
      '<project>/.claude/skills/x/SKILL.md',
    );
    expect(display.path('/h/u/.claude/skills/x/SKILL.md')).toBe('~/.claude/skills/x/SKILL.md');
    expect(display.path('/h/u')).toBe('~');
    expect(display.path('/elsewhere/x')).toBe('/elsewhere/x');
  });

  it('replaces a root in text only at a path boundary', () => {
    expect(display.text('link /h/u/a points to /h/u2/b and /h/u/code/app/c')).toBe(
      'link ~/a points to /h/u2/b and <project>/c',
    );
  });

  it('never abbreviates the file-system root', () => {
    const d = makePathDisplay([{ prefix: '/', label: '~' }]);
    expect(d.path('/etc/x')).toBe('/etc/x');
  });
});
