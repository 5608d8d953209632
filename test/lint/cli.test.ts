/**
 * `skilldex lint` in process: exit codes (0 / 1 by --fail-on, 2 for bad arguments), the --json
 * report shape, text grouped by code with counts first, --fix-suggestions, SARIF output validated
 * against the SARIF 2.1.0 schema (test/support/sarif.ts) with its fields checked one by one, and
 * adopting lint on a library: --baseline, lint.ignore in a project config, --profile, --fail-on note.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LintReport } from '../../src/lint/index.js';
import { runCli, tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { sarifErrors } from '../support/sarif.js';
import { skillText } from '../catalog/support.js';
import { cleanLibrary, plantedLibrary } from './support.js';

const ENV = { HOME: '/nonexistent-home' };
let planted: string[];
let clean: string;

beforeAll(() => {
  planted = plantedLibrary().scopes;
  clean = cleanLibrary();
});

const scopeArgs = (dirs: string[]): string[] => dirs.flatMap((d) => ['--scope', d]);

describe('exit codes', () => {
  it('0 on a clean library, 1 when errors are found, 0 with --fail-on never', async () => {
    expect((await runCli(['lint', ...scopeArgs([clean])], { env: ENV })).code).toBe(0);
    expect((await runCli(['lint', ...scopeArgs(planted)], { env: ENV })).code).toBe(1);
    expect(
      (await runCli(['lint', ...scopeArgs(planted), '--fail-on', 'never'], { env: ENV })).code,
    ).toBe(0);
  });

  it('--fail-on warning fails on a library with warnings only; the default does not', async () => {
    const root = tmpTree({
      'misc-helper/SKILL.md': skillText('misc-helper', { description: 'Helps with stuff.' }),
    });
    expect((await runCli(['lint', '--scope', root], { env: ENV })).code).toBe(0);
    expect(
      (await runCli(['lint', '--scope', root, '--fail-on', 'warning'], { env: ENV })).code,
    ).toBe(1);
  });

  it('2 with a coded JSON error for bad arguments', async () => {
    const bad = await runCli(['lint', '--scope', clean, '--fail-on', 'sometimes', '--json'], {
      env: ENV,
    });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: { option: '--fail-on' } },
    });
    expect((await runCli(['lint', '--scope', clean, '--format', 'xml'], { env: ENV })).code).toBe(
      2,
    );
    expect(
      (await runCli(['lint', '--scope', clean, '--json', '--format', 'sarif'], { env: ENV })).code,
    ).toBe(2);
    const missing = await runCli(
      ['lint', '--scope', clean, '--catalog', path.join(clean, 'none.sqlite'), '--json'],
      { env: ENV },
    );
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'CATALOG_MISSING' } });
  });
});

describe('output', () => {
  it('--json prints the report object', async () => {
    const r = await runCli(['lint', ...scopeArgs(planted), '--json'], { env: ENV });
    const report = JSON.parse(r.stdout) as LintReport;
    expect(Object.keys(report)).toEqual([
      'skills',
      'profile',
      'catalog',
      'policy',
      'checks',
      'thresholds',
      'counts',
      'summary',
      'listing',
      'findings',
    ]);
    expect(report.findings.length).toBeGreaterThan(0);
    for (const f of report.findings) {
      expect(typeof f.code).toBe('string');
      expect(['error', 'warning', 'note']).toContain(f.severity);
      expect(Array.isArray(f.skill_ids)).toBe(true);
      expect(path.isAbsolute(f.path)).toBe(true);
      expect(typeof f.message).toBe('string');
      expect(typeof f.details).toBe('object');
      expect(f.fingerprints.length).toBeGreaterThan(0);
    }
  });

  it('text: counts first, then findings grouped by code; --quiet keeps only the counts', async () => {
    const r = await runCli(['lint', ...scopeArgs(planted)], { env: ENV });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^\d+ skills linted: \d+ errors?, \d+ warnings?, \d+ notes?/);
    const headers = lines
      .filter((l) => /^[A-Z_]+ \((error|warning|note), \d+\):/.test(l))
      .map((l) => l.split(' ')[0]);
    expect(new Set(headers).size).toBe(headers.length);
    expect(headers).toContain('UNREACHABLE');
    expect(r.stdout).not.toContain('\u200b');
    const q = await runCli(['lint', ...scopeArgs(planted), '--quiet'], { env: ENV });
    expect(q.stdout).not.toContain('UNREACHABLE (error');
    expect(q.stdout.split('\n')[0]).toBe(lines[0]);
  });

  it('--fix-suggestions prints the words that separate a confusable pair', async () => {
    const plain = await runCli(['lint', ...scopeArgs(planted)], { env: ENV });
    expect(plain.stdout).not.toContain('only in git-commit-writer');
    const r = await runCli(['lint', ...scopeArgs(planted), '--fix-suggestions'], { env: ENV });
    expect(r.stdout).toMatch(/only in git-commit-writer: .*footer/);
    expect(r.stdout).toMatch(/only in git-commit-helper: .*summary/);
  });
});

describe('SARIF', () => {
  it('has every field the SARIF 2.1.0 schema requires, with results on the SKILL.md lines', async () => {
    const cwd = path.dirname(planted[0]!);
    const r = await runCli(['lint', ...scopeArgs(planted), '--format', 'sarif'], { env: ENV, cwd });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(sarifErrors(log)).toEqual([]);
    // sarifLog: required version ("2.1.0") and runs.
    expect(log['version']).toBe('2.1.0');
    const runs = log['runs'] as Record<string, unknown>[];
    expect(Array.isArray(runs) && runs.length).toBe(1);
    // run: required tool; tool: required driver; toolComponent: required name.
    const driver = (
      runs[0]!['tool'] as {
        driver: {
          name: unknown;
          rules: { id: unknown; defaultConfiguration?: { level: string } }[];
        };
      }
    ).driver;
    expect(typeof driver.name).toBe('string');
    // reportingDescriptor: required id; ids unique.
    const ruleIds = driver.rules.map((x) => x.id);
    expect(ruleIds.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
    const results = runs[0]!['results'] as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string; uriBaseId?: string };
          region: { startLine: number };
        };
      }[];
    }[];
    const report = JSON.parse(
      (await runCli(['lint', ...scopeArgs(planted), '--json'], { env: ENV, cwd })).stdout,
    ) as LintReport;
    expect(results).toHaveLength(report.findings.length);
    results.forEach((res, i) => {
      // result: required message (with text); ruleId and ruleIndex agree with the rules.
      expect(typeof res.message.text).toBe('string');
      expect(res.message.text.length).toBeGreaterThan(0);
      expect(driver.rules[res.ruleIndex]!.id).toBe(res.ruleId);
      expect(['none', 'note', 'warning', 'error']).toContain(res.level);
      // physicalLocation: artifactLocation.uri; region.startLine an integer ≥ 1.
      const loc = res.locations[0]!.physicalLocation;
      expect(typeof loc.artifactLocation.uri).toBe('string');
      expect(Number.isInteger(loc.region.startLine) && loc.region.startLine >= 1).toBe(true);
      // The location is the finding's file (relative to the run's base) and line.
      const f = report.findings[i]!;
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(path.resolve(cwd, decodeURIComponent(loc.artifactLocation.uri))).toBe(f.path);
      expect(loc.region.startLine).toBe(f.line ?? 1);
    });
    // A description finding sits on the line of `description:` in its SKILL.md.
    const hidden = results.find((x) => x.ruleId === 'HIDDEN_TEXT')!;
    const file = path.resolve(
      cwd,
      decodeURIComponent(hidden.locations[0]!.physicalLocation.artifactLocation.uri),
    );
    const line = readFileSync(file, 'utf8').split('\n')[
      hidden.locations[0]!.physicalLocation.region.startLine - 1
    ];
    expect(line).toMatch(/^description:/);
  });
});

describe('adopting lint on a library', () => {
  const weakLib = () =>
    tmpTree({
      'misc-helper/SKILL.md': skillText('misc-helper', { description: 'Helps with stuff.' }),
      'pdf-tables/SKILL.md': skillText('pdf-tables', {
        description: 'Extract tables from PDF invoices into CSV files with column headers kept.',
      }),
    });

  it('--baseline reports only what is new against a saved --json report', async () => {
    const root = weakLib();
    const saved = path.join(tmpDir(), 'lint-baseline.json');
    const first = await runCli(['lint', '--scope', root, '--json'], { env: ENV });
    writeFileSync(saved, first.stdout);
    const again = await runCli(
      ['lint', '--scope', root, '--baseline', saved, '--fail-on', 'warning', '--json'],
      { env: ENV },
    );
    expect(again.code).toBe(0);
    const r = JSON.parse(again.stdout) as LintReport;
    expect(r.findings).toEqual([]);
    expect(r.summary.baseline).toMatchObject({ file: saved, known: 1 });
    writeTree(root, {
      'misc-other/SKILL.md': skillText('misc-other', { description: 'Does things.' }),
    });
    const next = await runCli(
      ['lint', '--scope', root, '--baseline', saved, '--fail-on', 'warning', '--json'],
      { env: ENV },
    );
    expect(next.code).toBe(1);
    expect((JSON.parse(next.stdout) as LintReport).findings.map((f) => f.skill_ids)).toEqual([
      ['misc-other'],
    ]);
    const bad = await runCli(['lint', '--scope', root, '--baseline', root, '--json'], {
      env: ENV,
    });
    expect(bad.code).toBe(2);
    writeFileSync(saved, '{"findings": 3}');
    const notReport = await runCli(['lint', '--scope', root, '--baseline', saved, '--json'], {
      env: ENV,
    });
    expect(notReport.code).toBe(2);
    expect(JSON.parse(notReport.stdout)).toMatchObject({ error: { code: 'BASELINE_INVALID' } });
  });

  it('lint.ignore in a project config suppresses and counts; an unknown code is CONFIG_INVALID', async () => {
    const root = weakLib();
    const project = tmpDir();
    writeFileSync(
      path.join(project, 'skilldex.toml'),
      '[[lint.ignore]]\ncode = "DESCRIPTION_WEAK"\nskills = "misc-*"\nreason = "placeholder skills"\n',
    );
    const r = await runCli(['lint', '--scope', root, '--fail-on', 'warning', '--json'], {
      env: ENV,
      cwd: project,
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as LintReport;
    expect(report.summary.suppressed).toEqual({
      total: 1,
      rules: [
        {
          kind: 'config',
          source: path.join(project, 'skilldex.toml'),
          code: 'DESCRIPTION_WEAK',
          skills: ['misc-*'],
          reason: 'placeholder skills',
          findings: 1,
        },
      ],
    });
    const text = await runCli(['lint', '--scope', root], { env: ENV, cwd: project });
    expect(text.stdout).toContain('1 suppressed (lint.ignore 1, inline 0)');
    writeFileSync(path.join(project, 'skilldex.toml'), '[[lint.ignore]]\ncode = "WEAKNESS"\n');
    const bad = await runCli(['lint', '--scope', root, '--json'], { env: ENV, cwd: project });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      error: { code: 'CONFIG_INVALID', details: { key: 'lint.ignore[0].code' } },
    });
  });

  it('--fail-on note fails on notes; --profile spec adds the strict spec findings', async () => {
    const root = tmpTree({
      'pdf-tables/SKILL.md':
        '---\nname: pdf-tables\ndescription: Extract tables from PDF invoices into CSV files with headers.\nwhen_to_use: when a pdf holds tables\ncolour: blue\n---\n\n# pdf\n',
    });
    expect((await runCli(['lint', '--scope', root], { env: ENV })).code).toBe(0);
    expect((await runCli(['lint', '--scope', root, '--fail-on', 'note'], { env: ENV })).code).toBe(
      1,
    );
    const spec = JSON.parse(
      (await runCli(['lint', '--scope', root, '--profile', 'spec', '--json'], { env: ENV })).stdout,
    ) as LintReport;
    expect(spec.profile).toBe('spec');
    expect(spec.findings.filter((f) => f.code === 'SPEC_FIELD').map((f) => f.field)).toEqual([
      'when_to_use',
      'colour',
    ]);
    const bad = await runCli(['lint', '--scope', root, '--profile', 'strict', '--json'], {
      env: ENV,
    });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { details: { option: '--profile' } } });
  });
});

describe('nothing to lint', () => {
  it('exits 1 when no skill and no file is found', async () => {
    const r = await runCli(
      ['lint', '--scope', tmpTree({ 'README.md': 'no skills here\n' }), '--json'],
      { env: ENV },
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      skills: 0,
      findings: [],
      checks: { ranking: false },
    });
  });
});
