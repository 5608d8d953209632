/**
 * Trigger-eval files (src/triggers/formats.ts, discover.ts): every shape the 34 repositories of
 * shared/bench/trigger publish is read with the line of each case; bad items are coded problems
 * naming the file and line while the rest still counts; files beside a skill are its own, files
 * higher up are tied by the skill they name or the only skill under them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTriggerCases, parseTriggerFile } from '../../src/triggers/index.js';
import { skillMd, tmpTree } from '../support/cli.js';

const F = '/x/evals/trigger-evals.json';

describe('parseTriggerFile', () => {
  it('a list of { query, should_trigger } items, with their lines', () => {
    const text =
      '[\n  {"query": "fill this pdf form", "should_trigger": true},\n  {"query": "resize a png", "should_trigger": false}\n]\n';
    expect(parseTriggerFile(text, F)).toEqual({
      cases: [
        { query: 'fill this pdf form', should_trigger: true, line: 2, locator: '#/0' },
        { query: 'resize a png', should_trigger: false, line: 3, locator: '#/1' },
      ],
      problems: [],
      skipped: 0,
    });
  });

  it('an object holding the list under evals, queries, cases or tests; prompt, input, q, shouldTrigger, should', () => {
    for (const [key, text, label] of [
      ['evals', 'prompt', 'shouldTrigger'],
      ['queries', 'input', 'should'],
      ['cases', 'q', 'should_trigger'],
      ['tests', 'query', 'should'],
    ]) {
      const r = parseTriggerFile(
        JSON.stringify({ [key!]: [{ [text!]: 'merge two pdfs', [label!]: true }] }),
        F,
      );
      expect(r.cases).toEqual([
        expect.objectContaining({
          query: 'merge two pdfs',
          should_trigger: true,
          locator: `#/${key}/0`,
        }),
      ]);
    }
  });

  it("skill-creator's evals.json: unlabelled prompts are positives for skill_name", () => {
    const r = parseTriggerFile(
      JSON.stringify({
        skill_name: 'pdf-toolkit',
        evals: [{ id: 1, prompt: 'split this pdf', expected_output: 'x' }],
      }),
      '/x/evals/evals.json',
    );
    expect(r.cases).toEqual([
      expect.objectContaining({
        query: 'split this pdf',
        should_trigger: true,
        skill: 'pdf-toolkit',
        id: '1',
      }),
    ]);
  });

  it('should_trigger / should_not_trigger lists: at the top, under trigger_tests, or keyed by skill', () => {
    const top = parseTriggerFile(
      JSON.stringify({ should_trigger: ['a pdf'], should_not_trigger: ['a png'] }),
      F,
    );
    expect(top.cases.map((c) => [c.query, c.should_trigger, c.skill])).toEqual([
      ['a pdf', true, undefined],
      ['a png', false, undefined],
    ]);
    // pipelinq's evals.json: trigger_tests wins over the behaviour evals beside it.
    const pipelinq = parseTriggerFile(
      JSON.stringify({
        evals: [{ prompt: 'do the task' }],
        trigger_tests: { should_trigger: ['clean env'], should_not_trigger: ['deploy'] },
      }),
      '/x/evals/evals.json',
    );
    expect(pipelinq.cases.map((c) => c.query)).toEqual(['clean env', 'deploy']);
    // kujo / bentoo: one table per skill; the suite-wide list is not tied to one skill.
    const suite = parseTriggerFile(
      JSON.stringify({
        'kujo-cli': { should_trigger: ['add a flag'], should_not_trigger: ['write docs'] },
        'kujo-docs': { should_trigger: ['write docs'] },
        global_should_not_trigger: ['order pizza', 'weather'],
      }),
      F,
    );
    expect(suite.cases.map((c) => [c.skill, c.query, c.should_trigger])).toEqual([
      ['kujo-cli', 'add a flag', true],
      ['kujo-cli', 'write docs', false],
      ['kujo-docs', 'write docs', true],
    ]);
    expect(suite.skipped).toBe(2);
  });

  it("a routing list: a skill name is that skill's positive, null is skipped and counted", () => {
    const r = parseTriggerFile(
      JSON.stringify([
        { query: 'annotate this screenshot', should_trigger: 'screenote' },
        { query: 'what time is it', should_trigger: null },
      ]),
      F,
    );
    expect(r.cases).toEqual([
      expect.objectContaining({
        query: 'annotate this screenshot',
        should_trigger: true,
        skill: 'screenote',
      }),
    ]);
    expect(r.skipped).toBe(1);
  });

  it('JSONL: one item per line (the project file, with skill and id)', () => {
    const r = parseTriggerFile(
      '{"id": "t1", "query": "fill a pdf form", "skill": "pdf-toolkit", "should_trigger": true}\n\n{"query": "x", "should_trigger": 1}\n',
      '/p/skilldex-evals.jsonl',
    );
    expect(r.cases).toEqual([
      {
        query: 'fill a pdf form',
        should_trigger: true,
        skill: 'pdf-toolkit',
        id: 't1',
        line: 1,
        locator: '#L1',
      },
    ]);
    expect(r.problems).toEqual([
      expect.objectContaining({
        code: 'TRIGGER_EVAL_INVALID',
        line: 3,
        path: '/p/skilldex-evals.jsonl',
      }),
    ]);
  });

  it('bad items are coded problems with their line; the good ones still count', () => {
    const text = [
      '[',
      '  {"query": "ok", "should_trigger": true},',
      '  {"query": "", "should_trigger": true},',
      '  {"query": "no label"},',
      '  "just text",',
      '  {"query": "ok too", "should_trigger": false}',
      ']',
    ].join('\n');
    const r = parseTriggerFile(text, F);
    expect(r.cases.map((c) => c.query)).toEqual(['ok', 'ok too']);
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([
      ['TRIGGER_EVAL_INVALID', 3],
      ['TRIGGER_EVAL_INVALID', 4],
      ['TRIGGER_EVAL_INVALID', 5],
    ]);
    const notJson = parseTriggerFile('[\n {"query": "a",\n ]', F);
    expect(notJson.problems).toEqual([
      expect.objectContaining({ code: 'TRIGGER_EVAL_INVALID', line: 3 }),
    ]);
    expect(parseTriggerFile('{"nothing": 1}', F).problems).toEqual([
      expect.objectContaining({ code: 'TRIGGER_EVAL_INVALID', line: 1 }),
    ]);
  });
});

describe('findTriggerCases', () => {
  it('ties files beside a skill to it, a repository-level file to the only skill under it', () => {
    const cases = JSON.stringify([
      { query: 'fill a pdf form', should_trigger: true },
      { query: 'resize a png', should_trigger: false },
    ]);
    const repo = tmpTree({
      // One skill deep inside a repository whose evals/ folder is at the top (as p2d, savepoint).
      'skills/pdf-toolkit/SKILL.md': skillMd('pdf-toolkit', 'Fill pdf forms and merge pdfs.'),
      'evals/trigger-evals.json': cases,
    });
    const two = tmpTree({
      'a/SKILL.md': skillMd('a', 'Alpha things.'),
      'a/evals/trigger_eval.json': cases,
      'b/SKILL.md': skillMd('b', 'Beta things.'),
      'b/trigger-queries.json': JSON.stringify({ should_trigger: ['beta please'] }),
      // A top-level file that names no skill, above two skills: whose is it?
      'evals/trigger-evals.json': cases,
      // A top-level suite file naming its skills, and one naming a skill nobody has.
      'trigger-queries.json': JSON.stringify({
        a: { should_trigger: ['alpha please'] },
        zz: { should_trigger: ['zulu please'] },
      }),
    });
    const skillsOf = (root: string, ids: string[]) =>
      ids.map((id) => ({
        skill_id: id,
        path: path.join(root, id === 'pdf-toolkit' ? 'skills/pdf-toolkit' : id, 'SKILL.md'),
      }));
    const one = findTriggerCases(skillsOf(repo, ['pdf-toolkit']), [repo], undefined, []);
    expect(one.cases.map((c) => [c.skill_id, c.should_trigger, c.id])).toEqual([
      ['pdf-toolkit', true, 'evals/trigger-evals.json#/0'],
      ['pdf-toolkit', false, 'evals/trigger-evals.json#/1'],
    ]);
    const r = findTriggerCases(skillsOf(two, ['a', 'b']), [two], undefined, []);
    expect(r.cases.map((c) => `${c.skill_id}:${c.query}`).sort()).toEqual([
      'a:alpha please',
      'a:fill a pdf form',
      'a:resize a png',
      'b:beta please',
    ]);
    expect(r.problems.map((p) => p.code).sort()).toEqual([
      'TRIGGER_EVAL_UNATTRIBUTED',
      'TRIGGER_EVAL_UNATTRIBUTED',
      'TRIGGER_EVAL_UNKNOWN_SKILL',
    ]);
  });

  it('reads the project file and files given; a file given that cannot be read is FILE_NOT_FOUND', () => {
    const root = tmpTree({ 'a/SKILL.md': skillMd('a', 'Alpha things.') });
    const project = tmpTree({
      'skilldex-evals.jsonl': '{"query": "alpha please", "skill": "a", "should_trigger": true}\n',
    });
    const r = findTriggerCases(
      [{ skill_id: 'a', path: path.join(root, 'a', 'SKILL.md') }],
      [root],
      project,
      [],
    );
    expect(r.cases.map((c) => c.id)).toEqual(['skilldex-evals.jsonl#L1']);
    expect(() => findTriggerCases([], [root], undefined, [path.join(root, 'none.jsonl')])).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
  });
});
