/**
 * bench:quality's yardsticks are the shared scorer's (issue #22): the in-run FTS5 BM25 baselines
 * (bench/bm25-baseline.ts) rank the trigger dev set exactly as ../shared/bench/tools/score.py
 * ranks it, query by query, and the trigger metrics (bench/trigger-quality.ts) equal what
 * ../shared/bench/trigger/score.py computes from the same run. The comparisons run the real
 * python scorers and are skipped, saying why, when python3 or the bench data is not there; the
 * query-expression and metric cases below need neither.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  baselineRankings,
  loadBaselineSkills,
  matchExpression,
} from '../../bench/bm25-baseline.js';
import { scoreTrigger, triggerQueries, type TriggerQuery } from '../../bench/trigger-quality.js';
import { tmpDir } from '../support/cli.js';

const SHARED = path.resolve(__dirname, '../../../shared/bench');
const TRIGGER = path.join(SHARED, 'trigger');
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const missing =
  python.status !== 0
    ? 'python3 is not installed: score.py cannot run'
    : !existsSync(path.join(TRIGGER, 'score.py')) || !existsSync(path.join(SHARED, 'tools'))
      ? `no trigger bench at ${TRIGGER}`
      : undefined;
if (missing !== undefined) console.warn(`skipping the score.py comparisons: ${missing}`);

describe('the baseline query as score.py builds it', () => {
  it('ORs the distinct lower-cased letter-or-digit runs, score.py stop-words out', () => {
    // "an", "it" and "now" are stop-words; the underscore separates.
    expect(matchExpression('Build an MCP server, build_it NOW', true)).toBe(
      '"build" OR "mcp" OR "server"',
    );
    // "now" and "just" are score.py stop-words (not Snowball's); "don" and "t" are Snowball's only.
    expect(matchExpression("just don't deploy now", true)).toBe('"don" OR "t" OR "deploy"');
    expect(matchExpression('the "quoted" one', false)).toBe('"the" OR "quoted" OR "one"');
    expect(matchExpression('这个 session 快结束了', true)).toBe(
      '"这个" OR "session" OR "快结束了"',
    );
    expect(matchExpression('the and of', true)).toBe('');
  });
});

function q(id: string, skill: string, should: boolean, repo: string, lang = 'en'): TriggerQuery {
  return { id, query: id, skill, should_trigger: should, lang, repo };
}

describe('trigger metrics', () => {
  it('scores positives by rank, negatives by the named skill first, repositories macro', () => {
    const qs = [
      q('p1', 'a', true, 'r1'),
      q('p2', 'a', true, 'r1', 'zh'),
      q('p3', 'b', true, 'r2'),
      q('n1', 'a', false, 'r1'),
      q('n2', 'b', false, 'r2'),
    ];
    const runs = new Map([
      ['p1', ['a', 'b']],
      ['p2', ['b', 'c', 'a']],
      ['p3', []],
      ['n1', ['a']],
      ['n2', ['a', 'b']],
    ]);
    const s = scoreTrigger(qs, runs);
    expect(s.all.top1).toBeCloseTo(1 / 3);
    expect(s.all.top3).toBeCloseTo(2 / 3);
    expect(s.all.mrr).toBeCloseTo((1 + 1 / 3) / 3);
    expect(s.all.falseTrigger).toBeCloseTo(1 / 2);
    expect(s.zh.top1).toBe(0);
    expect(s.zh.falseTrigger).toBeNull();
    // r1: top-1 1/2, false trigger 1; r2: top-1 0, false trigger 0.
    expect(s.macro.top1).toBeCloseTo(1 / 4);
    expect(s.macro.falseTrigger).toBeCloseTo(1 / 2);
  });
});

// score.py's own arithmetic: its score() over a run file, every row, as JSON.
const SCORE = `
import json, sys
sys.path.insert(0, sys.argv[1])
import score
queries, repo = score.load_split(sys.argv[1])
runs = {r["id"]: r["ranking"] for r in score.load_jsonl(sys.argv[2])}
print(json.dumps(dict(score.score(queries, repo, runs))))
`;

describe.skipIf(missing !== undefined)('against the shared python scorers', () => {
  it('ranks the trigger set as tools/score.py does and scores it as trigger/score.py does', () => {
    const dir = tmpDir();
    const qs = triggerQueries(TRIGGER);
    const split = path.join(dir, 'split', 'trigger');
    mkdirSync(split, { recursive: true });
    symlinkSync(path.join(TRIGGER, 'skills'), path.join(split, 'catalog'));
    writeFileSync(
      path.join(split, 'queries.jsonl'),
      qs.map((x) => JSON.stringify({ id: x.id, query: x.query, relevant: [x.skill] })).join('\n'),
    );
    const loaded = loadBaselineSkills(path.join(TRIGGER, 'skills'));
    expect(loaded.unreadable).toBe(0);
    for (const [method, body] of [
      ['bm25-nd', false],
      ['bm25-ndb', true],
    ] as const) {
      const py = spawnSync(
        'python3',
        [
          path.join(SHARED, 'tools', 'score.py'),
          '--split',
          path.join(dir, 'split'),
          '--method',
          method,
          '--stopwords',
          '--write-runs',
          path.join(dir, 'runs'),
        ],
        { encoding: 'utf8' },
      );
      expect(py.status, py.stderr).toBe(0);
      const theirs = readFileSync(path.join(dir, 'runs', `${method}+stop`, 'trigger.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { id: string; ranking: string[] });
      const ours = baselineRankings(loaded.skills, qs, { body, stop: true });
      expect(theirs).toHaveLength(qs.length);
      for (const r of theirs) expect(ours.get(r.id), r.id).toEqual(r.ranking);

      const runFile = path.join(dir, `${method}.jsonl`);
      writeFileSync(runFile, theirs.map((r) => JSON.stringify(r)).join('\n'));
      const scored = spawnSync('python3', ['-c', SCORE, TRIGGER, runFile], { encoding: 'utf8' });
      expect(scored.status, scored.stderr).toBe(0);
      const rows = JSON.parse(scored.stdout) as Record<
        string,
        { top1: number; top3: number; mrr: number; 'false_trigger@1': number }
      >;
      const mine = scoreTrigger(qs, ours);
      const macro = Object.keys(rows).find((k) => k.startsWith('macro'))!;
      for (const [label, m] of [
        ['all', mine.all],
        ['lang=en', mine.en],
        [macro, mine.macro],
      ] as const) {
        expect(m.top1, label).toBeCloseTo(rows[label]!.top1, 12);
        expect(m.top3, label).toBeCloseTo(rows[label]!.top3, 12);
        expect(m.mrr, label).toBeCloseTo(rows[label]!.mrr, 12);
        expect(m.falseTrigger, label).toBeCloseTo(rows[label]!['false_trigger@1'], 12);
      }
    }
  });
});
