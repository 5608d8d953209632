/**
 * `skilldex eval --triggers` in process, on the trigger evals of examples/skills (and a copy of it
 * to break): the text table within 100 columns, the --json report's keys, JUnit XML parsed by a
 * strict XML parser (python3's ElementTree; skipped when python3 is missing) with one test case per
 * request, SARIF validated against the SARIF 2.1.0 schema with a result per failing skill on its
 * description line, gates library-wide and per skill, --baseline regressions, --suggest, and the
 * exit codes 0 / 1 / 2.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TriggerReport } from '../../src/internal.js';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { sarifErrors } from '../support/sarif.js';

const ENV = { HOME: '/nonexistent-home' };
const EXAMPLES = path.join(REPO, 'examples', 'skills');
const hasPython = spawnSync('python3', ['--version']).status === 0;
let report: TriggerReport;

const run = (args: string[], cwd = REPO) =>
  runCli(['eval', '--triggers', '--project', tmpDir(), ...args], { env: ENV, cwd });

beforeAll(async () => {
  const r = await run(['--scope', EXAMPLES, '--json']);
  expect(r.code).toBe(0);
  report = JSON.parse(r.stdout) as TriggerReport;
});

describe('the examples library', () => {
  it('routes every trigger case found beside its skills, and reports per skill', () => {
    expect(Object.keys(report)).toEqual([
      'skills',
      'catalog',
      'policy',
      'recall_at',
      'confidence',
      'split',
      'files',
      'problems',
      'totals',
      'per_skill',
      'stealing',
      'gates',
      'baseline',
      'cases',
    ]);
    expect(report.problems).toEqual([]);
    // v4 does not learn from the skills' own cases: nothing split off, nothing learned (issue 34 item 3).
    expect(report.split).toMatchObject({ method: 'none', train: 0, learned: 0 });
    expect(report.split.validation).toBe(report.cases.length);
    expect(report.per_skill.map((s) => s.skill_id)).toEqual([
      'csv-cleaner',
      'git-commit-writer',
      'parquet-explorer',
      'pdf-toolkit',
      'release-notes-writer',
    ]);
    expect(report.files.map((f) => path.relative(EXAMPLES, f.path)).sort()).toEqual([
      'csv-cleaner/evals/evals.json',
      'git-commit-writer/evals/trigger-evals.jsonl',
      'parquet-explorer/evals/trigger-queries.json',
      'pdf-toolkit/evals/trigger-evals.json',
      'release-notes-writer/evals/trigger-evals.json',
    ]);
    expect(report.totals.cases).toBe(report.cases.length);
    const pdf = report.per_skill.find((s) => s.skill_id === 'pdf-toolkit')!;
    expect(pdf.line).toBe(3);
    expect(path.relative(EXAMPLES, pdf.path)).toBe('pdf-toolkit/SKILL.md');
  });

  it('text: a table within 100 columns, then the confusions with their words', async () => {
    const r = await run(['--scope', EXAMPLES]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const table = lines.slice(lines.findIndex((l) => l.startsWith('skill ')));
    for (const l of table.slice(0, 6)) expect([...l].length).toBeLessThanOrEqual(100);
    expect(r.stdout).toContain('pdf-toolkit');
  });

  it.skipIf(!hasPython)(
    'JUnit XML: well-formed, one test case per request, failures named',
    async () => {
      const r = await run(['--scope', EXAMPLES, '--format', 'junit']);
      const file = path.join(tmpDir(), 'triggers.xml');
      writeFileSync(file, r.stdout);
      // Strict XML parse; attributes the Jenkins xunit-plugin junit-10.xsd requires (testsuite name,
      // testcase name); counts that agree with the cases.
      const py = spawnSync(
        'python3',
        [
          '-c',
          `import json, sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
out = {"root": root.tag, "tests": int(root.get("tests")), "failures": int(root.get("failures")), "suites": []}
for s in root.findall("testsuite"):
    cases = s.findall("testcase")
    out["suites"].append({"name": s.get("name"), "tests": int(s.get("tests")), "cases": len(cases),
        "named": all(c.get("name") and c.get("classname") == s.get("name") for c in cases),
        "failed": sum(1 for c in cases if c.find("failure") is not None), "failures": int(s.get("failures"))})
print(json.dumps(out))`,
          file,
        ],
        { encoding: 'utf8' },
      );
      expect(py.stderr).toBe('');
      const x = JSON.parse(py.stdout) as {
        root: string;
        tests: number;
        failures: number;
        suites: {
          name: string;
          tests: number;
          cases: number;
          named: boolean;
          failed: number;
          failures: number;
        }[];
      };
      expect(x.root).toBe('testsuites');
      expect(x.tests).toBe(report.cases.length);
      expect(x.failures).toBe(report.cases.filter((c) => !c.passed).length);
      for (const s of x.suites) {
        expect(s.cases).toBe(s.tests);
        expect(s.failed).toBe(s.failures);
        expect(s.named).toBe(true);
      }
    },
  );

  it('SARIF: valid 2.1.0, one result per failing skill on its description line', async () => {
    const r = await run(['--scope', EXAMPLES, '--format', 'sarif', '--min-skill-recall', '0.9']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as {
      runs: {
        results: {
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
          }[];
        }[];
      }[];
    };
    expect(sarifErrors(log)).toEqual([]);
    const results = log.runs[0]!.results;
    expect(results).toHaveLength(1);
    expect(results[0]!.level).toBe('error');
    expect(results[0]!.locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'examples/skills/pdf-toolkit/SKILL.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 3 },
    });
    expect(results[0]!.message.text).toContain('went to docx-editor on:');
  });
});

describe('gates, baselines and exit codes', () => {
  it('gates fail library-wide and per skill with exit 1; the report names each failure', async () => {
    const r = await run([
      '--scope',
      EXAMPLES,
      '--json',
      '--min-recall',
      '100%',
      '--max-skill-false',
      '0',
    ]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as TriggerReport;
    expect(rep.gates).toMatchObject({ min_recall: 1, max_skill_false: 0 });
    expect(rep.gates.failures.map((f) => [f.gate, f.scope])).toEqual([['min_recall', 'library']]);
  });

  it('--baseline fails only on regressions: a skill that got worse, a new confusion', async () => {
    const lib = path.join(tmpDir(), 'skills');
    cpSync(EXAMPLES, lib, { recursive: true });
    const saved = path.join(tmpDir(), 'triggers-baseline.json');
    writeFileSync(saved, (await run(['--scope', lib, '--json'])).stdout);
    expect((await run(['--scope', lib, '--baseline', saved])).code).toBe(0);
    // The skill rewritten so that it no longer says what its requests ask for.
    writeFileSync(
      path.join(lib, 'parquet-explorer', 'SKILL.md'),
      '---\nname: parquet-explorer\ndescription: Helps with data files.\n---\n\n# Data helper\n',
    );
    const r = await run(['--scope', lib, '--baseline', saved, '--json']);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as TriggerReport;
    expect(rep.baseline).toEqual({ file: saved });
    expect(
      rep.gates.failures.every((f) => f.gate === 'regression' && f.scope === 'parquet-explorer'),
    ).toBe(true);
    expect(rep.gates.failures.length).toBeGreaterThan(0);
    writeFileSync(saved, '{"findings": []}');
    const bad = await run(['--scope', lib, '--baseline', saved, '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'BASELINE_INVALID' } });
  });

  it('--suggest adds suggestions for the skills that miss', async () => {
    const r = await run(['--scope', EXAMPLES, '--json', '--suggest']);
    const rep = JSON.parse(r.stdout) as TriggerReport;
    expect(rep.suggestions!.map((s) => s.skill_id)).toEqual(['pdf-toolkit']);
    expect(rep.suggestions![0]!.competing[0]).toMatchObject({ skill: 'docx-editor' });
  });

  it('2 for a trigger-eval file that does not follow its format, naming file and line; 2 for bad flags', async () => {
    const lib = path.join(tmpDir(), 'skills');
    cpSync(EXAMPLES, lib, { recursive: true });
    writeFileSync(
      path.join(lib, 'pdf-toolkit', 'evals', 'trigger-evals.json'),
      '[\n  {"query": "merge pdfs", "should_trigger": true},\n  {"query": "split pdf", "should_trigger": "maybe yes"}\n]\n',
    );
    const r = await run(['--scope', lib, '--json']);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as TriggerReport).problems).toEqual([
      expect.objectContaining({ code: 'TRIGGER_EVAL_UNKNOWN_SKILL', line: 3 }),
    ]);
    for (const args of [
      ['--recall-at', '2'],
      ['--min-recall', '1.5'],
      ['--format', 'xml'],
      ['--split', 'sometimes'],
    ]) {
      const b = await run(['--scope', EXAMPLES, '--json', ...args]);
      expect(b.code).toBe(2);
      expect(JSON.parse(b.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
  });

  it('--split holdout grades only the validation part and says so in JSON and JUnit (issue 34 item 3)', async () => {
    const r = await run(['--scope', EXAMPLES, '--json', '--split', 'holdout']);
    const held = JSON.parse(r.stdout) as TriggerReport;
    expect(held.split.method).toBe('hash-60-40');
    expect(held.split.train).toBeGreaterThan(0);
    expect(held.split.train + held.split.validation + held.split.learned).toBe(report.cases.length);
    expect(held.cases).toHaveLength(held.split.validation);
    const junit = await run(['--scope', EXAMPLES, '--format', 'junit', '--split', 'holdout']);
    expect(junit.stdout).toContain('<property name="split" value="hash-60-40"/>');
    const text = await run(['--scope', EXAMPLES, '--quiet', '--split', 'holdout']);
    expect(text.stdout).toContain(
      `split 60/40 train/validation by request hash: ${held.split.train}`,
    );
  });

  it('1 when no trigger case is found; eval without files or --triggers is refused', async () => {
    const empty = path.join(tmpDir(), 'skills');
    cpSync(path.join(EXAMPLES, 'unit-converter'), path.join(empty, 'unit-converter'), {
      recursive: true,
    });
    expect((await run(['--scope', empty])).code).toBe(1);
    const bare = await runCli(['eval', '--json'], { env: ENV });
    expect(bare.code).toBe(2);
  });
});
