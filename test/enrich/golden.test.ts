/**
 * Golden artifacts of `skilldex enrich` on the fixture home and project (issue #7): a selection, a
 * refusal with its closest misses (by a higher floor and by an unrelated brief), and the JSON
 * report that the Markdown renderers take. Goldens hold no machine path: the fixture's temporary
 * folder must appear in no artifact.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderArtifacts, type EnrichReport } from '../../src/enrich/index.js';
import { runCli, type CliResult } from '../support/cli.js';
import { BRIEF, buildFixture, type Fixture } from './fixture.js';

function read(dir: string, name: string): string {
  return readFileSync(path.join(dir, name), 'utf8');
}

async function enrich(
  fx: Fixture,
  out: string,
  extra: string[] = [],
  brief = BRIEF,
): Promise<CliResult> {
  return runCli(['enrich', '--home', fx.home, ...extra], {
    cwd: fx.project,
    env: { TASK_BRIEF: brief, EVIDENCE_TARGET: out },
  });
}

describe('enrich on the fixture: a selection', () => {
  let fx: Fixture;
  let run: CliResult;
  let dir: string;
  beforeAll(async () => {
    fx = buildFixture();
    run = await enrich(fx, 'evidence/skill-enrichment/invoices');
    dir = path.join(fx.evidence, 'invoices');
  });

  it('exits 0 and writes exactly the four artifacts', () => {
    expect(run.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      'CANDIDATES.md',
      'INDEX.md',
      'SKIPPED.md',
      'raw-inventory.txt',
    ]);
  });

  it('writes INDEX.md as in the golden file', async () => {
    await expect(read(dir, 'INDEX.md')).toMatchFileSnapshot('./golden/selected/INDEX.md');
  });

  it('writes CANDIDATES.md as in the golden file', async () => {
    await expect(read(dir, 'CANDIDATES.md')).toMatchFileSnapshot('./golden/selected/CANDIDATES.md');
  });

  it('writes SKIPPED.md as in the golden file', async () => {
    await expect(read(dir, 'SKIPPED.md')).toMatchFileSnapshot('./golden/selected/SKIPPED.md');
  });

  it('writes raw-inventory.txt as in the golden file', async () => {
    await expect(read(dir, 'raw-inventory.txt')).toMatchFileSnapshot(
      './golden/selected/raw-inventory.txt',
    );
  });

  it('prints the human summary as in the golden file', async () => {
    await expect(run.stdout).toMatchFileSnapshot('./golden/selected/stdout.txt');
  });

  it('puts no machine-specific path in any artifact', () => {
    for (const name of readdirSync(dir)) expect(read(dir, name), name).not.toContain(fx.root);
  });

  it('ranks by score, then name, and keeps only scores strictly above the floor', async () => {
    const r = await enrich(fx, 'evidence/skill-enrichment/json', ['--json']);
    const report = JSON.parse(r.stdout) as EnrichReport;
    expect(report.candidates.map((c) => c.skill_id)).toEqual([
      'pdf-tables',
      'docs-kit:table-export',
      'finance-report',
      'body-trap',
      'csv-merge',
      'invoice-parser',
      'helpful-converter',
    ]);
    expect(report.candidates.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // csv-merge (1/3) and invoice-parser (2/6) tie exactly: the name decides.
    expect(report.candidates[4]!.score).toBe(report.candidates[5]!.score);
    // at-floor scores exactly 1/20 = 0.05: not strictly above the default floor, so not kept.
    expect(report.candidates.some((c) => c.skill_id === 'at-floor')).toBe(false);
    expect(report.found_count).toBe(7);
    expect(report.refusal).toBeNull();
  });

  it('--json prints the same report the Markdown renderers take', async () => {
    const r = await enrich(fx, 'evidence/skill-enrichment/json2', ['--json']);
    const report = JSON.parse(r.stdout) as EnrichReport;
    const written = path.join(fx.evidence, 'json2');
    for (const a of renderArtifacts(report)) expect(a.text, a.name).toBe(read(written, a.name));
    const top = report.candidates[0]!;
    expect(top).toMatchObject({
      skill_id: 'pdf-tables',
      matched_terms: ['csv', 'export', 'extract', 'pdf', 'tables'],
      description_terms: 7,
    });
    expect(top.copies).toEqual(['~/.claude/skills/pdf-tables-backup/SKILL.md']);
    expect(report.skipped.map((s) => s.code).sort()).toEqual([
      'DUPLICATE',
      'HIDDEN_CHARACTERS',
      'MALFORMED_FRONTMATTER',
      'PATH_OUTSIDE_ROOT',
      'SHADOWED',
    ]);
  });

  it('flags the instruction-like description, scores it as data and writes nothing it asks for', async () => {
    const r = await enrich(fx, 'evidence/skill-enrichment/json3', ['--json']);
    const report = JSON.parse(r.stdout) as EnrichReport;
    const c = report.candidates.find((x) => x.skill_id === 'helpful-converter')!;
    expect(c.flags).toEqual(['INSTRUCTION_LIKE']);
    expect(c.score).toBeCloseTo(2 / 13, 12);
    expect(c.rank).toBe(7);
    expect(existsSync(path.join(fx.home, '.ssh'))).toBe(false);
  });

  it('never enumerates the disabled or unlisted plugin, nor the file behind the escaping link', () => {
    const inventory = read(dir, 'raw-inventory.txt');
    expect(inventory).not.toContain('off-kit');
    expect(inventory).not.toContain('stray');
    expect(inventory).not.toContain('leaked');
    expect(read(dir, 'SKIPPED.md')).toContain('`~/.claude/skills/escape` | PATH_OUTSIDE_ROOT');
  });
});

describe('enrich on the fixture: refusals', () => {
  it('refuses under a floor that leaves fewer than 5, names the closest 5 and never lowers the floor', async () => {
    const fx = buildFixture();
    const r = await enrich(fx, 'evidence/skill-enrichment/strict', ['--floor', '0.45']);
    expect(r.code).toBe(2);
    const dir = path.join(fx.evidence, 'strict');
    expect(readdirSync(dir).sort()).toEqual(['REFUSAL.md', 'SKIPPED.md', 'raw-inventory.txt']);
    const refusal = read(dir, 'REFUSAL.md');
    expect(refusal.split('\n')[0]).toBe(
      'REFUSED  skill-enrichment  <project>/evidence/skill-enrichment/strict/INDEX.md  fewer-than-5-above-floor',
    );
    await expect(refusal).toMatchFileSnapshot('./golden/refused-floor/REFUSAL.md');
    await expect(r.stdout).toMatchFileSnapshot('./golden/refused-floor/stdout.txt');
    // SKIPPED.md and raw-inventory.txt do not depend on the outcome.
    await expect(read(dir, 'SKIPPED.md')).toMatchFileSnapshot('./golden/selected/SKIPPED.md');
    await expect(read(dir, 'raw-inventory.txt')).toMatchFileSnapshot(
      './golden/selected/raw-inventory.txt',
    );
  });

  it('refuses a brief nothing fits, listing the closest misses, even those scoring 0', async () => {
    const fx = buildFixture();
    const r = await enrich(
      fx,
      'evidence/skill-enrichment/payroll',
      ['--json'],
      'Draft the monthly payroll summary',
    );
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as EnrichReport;
    expect(report.outcome).toBe('refused');
    expect(report.found_count).toBe(1);
    expect(report.candidates).toEqual([]);
    expect(report.refusal!.closest_5.map((c) => c.skill_id)).toEqual([
      'finance-report',
      'at-floor',
      'body-trap',
      'cooking',
      'csv-merge',
    ]);
    await expect(read(path.join(fx.evidence, 'payroll'), 'REFUSAL.md')).toMatchFileSnapshot(
      './golden/refused-payroll/REFUSAL.md',
    );
  });

  it('replaces the artifacts of an earlier outcome in the same folder', async () => {
    const fx = buildFixture();
    expect((await enrich(fx, 'evidence/skill-enrichment/same')).code).toBe(0);
    expect((await enrich(fx, 'evidence/skill-enrichment/same', ['--floor', '0.9'])).code).toBe(2);
    const dir = path.join(fx.evidence, 'same');
    expect(readdirSync(dir).sort()).toEqual(['REFUSAL.md', 'SKIPPED.md', 'raw-inventory.txt']);
    expect((await enrich(fx, 'evidence/skill-enrichment/same')).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      'CANDIDATES.md',
      'INDEX.md',
      'SKIPPED.md',
      'raw-inventory.txt',
    ]);
  });

  it('gives the same bytes on a second fixture built elsewhere', async () => {
    const a = buildFixture();
    const b = buildFixture();
    await enrich(a, 'evidence/skill-enrichment/x');
    await enrich(b, 'evidence/skill-enrichment/x');
    for (const name of ['INDEX.md', 'CANDIDATES.md', 'SKIPPED.md', 'raw-inventory.txt']) {
      expect(read(path.join(b.evidence, 'x'), name), name).toBe(
        read(path.join(a.evidence, 'x'), name),
      );
    }
  });
});
