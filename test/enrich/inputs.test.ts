/**
 * Refused inputs of `skilldex enrich` (issue #7): a missing TASK_BRIEF or EVIDENCE_TARGET, and a
 * target outside `<project>/evidence/skill-enrichment/` — plain, through `..`, through a link, or
 * with the evidence folder itself a link out of the project. Each exits 2 with its code and writes
 * nothing: the evidence folder is not even created.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveEnrichInputs } from '../../src/enrich/inputs.js';
import { resolveEvidenceTarget } from '../../src/enrich/target.js';
import { runCli } from '../support/cli.js';
import { BRIEF, buildFixture, type Fixture } from './fixture.js';

async function enrichJson(
  fx: Fixture,
  env: Record<string, string | undefined>,
  extra: string[] = [],
) {
  const r = await runCli(['enrich', '--home', fx.home, '--json', ...extra], {
    cwd: fx.project,
    env,
  });
  return {
    ...r,
    body:
      r.stdout === ''
        ? undefined
        : (JSON.parse(r.stdout) as { error?: { code: string; details: Record<string, unknown> } }),
  };
}

function nothingWritten(fx: Fixture): void {
  expect(existsSync(path.join(fx.project, 'evidence')), 'evidence folder created').toBe(false);
  expect(readdirSync(fx.outside), 'outside folder written').toEqual([]);
}

describe('missing inputs', () => {
  it('refuses a missing TASK_BRIEF, naming it, and writes nothing', async () => {
    const fx = buildFixture();
    const r = await enrichJson(fx, { EVIDENCE_TARGET: 'evidence/skill-enrichment/a' });
    expect(r.code).toBe(2);
    expect(r.body?.error).toMatchObject({
      code: 'MISSING_ENV',
      details: { missing: ['TASK_BRIEF'] },
    });
    nothingWritten(fx);
  });

  it('refuses a missing EVIDENCE_TARGET, naming it, and writes nothing', async () => {
    const fx = buildFixture();
    const r = await enrichJson(fx, { TASK_BRIEF: BRIEF });
    expect(r.code).toBe(2);
    expect(r.body?.error).toMatchObject({
      code: 'MISSING_ENV',
      details: { missing: ['EVIDENCE_TARGET'] },
    });
    nothingWritten(fx);
  });

  it('names both when both are missing, and counts a blank value as missing', async () => {
    const fx = buildFixture();
    const r = await enrichJson(fx, { TASK_BRIEF: '   ' });
    expect(r.code).toBe(2);
    expect(r.body?.error).toMatchObject({
      code: 'MISSING_ENV',
      details: { missing: ['TASK_BRIEF', 'EVIDENCE_TARGET'] },
    });
    nothingWritten(fx);
  });

  it('prints the code and the variable name on stderr without --json', async () => {
    const fx = buildFixture();
    const r = await runCli(['enrich', '--home', fx.home], {
      cwd: fx.project,
      env: { EVIDENCE_TARGET: 'evidence/skill-enrichment/a' },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error MISSING_ENV: .*TASK_BRIEF/);
  });

  it('lets --brief and --out stand in for the variables and override them', async () => {
    const fx = buildFixture();
    const r = await runCli(
      ['enrich', '--home', fx.home, '--brief', BRIEF, '--out', 'evidence/skill-enrichment/flags'],
      {
        cwd: fx.project,
        env: { TASK_BRIEF: 'unrelated words only', EVIDENCE_TARGET: '/somewhere/else' },
      },
    );
    expect(r.code).toBe(0);
    expect(existsSync(path.join(fx.evidence, 'flags', 'INDEX.md'))).toBe(true);
    expect(
      resolveEnrichInputs({ brief: 'b', env: { TASK_BRIEF: 'a', EVIDENCE_TARGET: 't' } }),
    ).toEqual({ brief: 'b', target: 't' });
  });

  it('refuses a floor outside [0, 1) as INVALID_ARGUMENT before writing', async () => {
    const fx = buildFixture();
    for (const floor of ['-0.1', '1', 'abc', '']) {
      const r = await enrichJson(
        fx,
        { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: 'evidence/skill-enrichment/a' },
        ['--floor', floor],
      );
      expect(r.code, floor).toBe(2);
      expect(r.body?.error?.code, floor).toBe('INVALID_ARGUMENT');
    }
    nothingWritten(fx);
  });
});

describe('targets outside evidence/skill-enrichment', () => {
  const cases: { name: string; target: (fx: Fixture) => string; setup?: (fx: Fixture) => void }[] =
    [
      { name: 'an absolute path elsewhere', target: (fx) => fx.outside },
      { name: 'a relative path elsewhere in the project', target: () => 'evidence/other' },
      { name: 'the project itself', target: () => '.' },
      {
        name: 'a path that leaves through ..',
        target: () => 'evidence/skill-enrichment/run/../../../../outside',
      },
      {
        name: 'a path that leaves through .. and comes back to a sibling',
        target: () => 'evidence/skill-enrichment/../skill-enrichment-2/run',
      },
      {
        name: 'a link inside the folder that leads out',
        target: () => 'evidence/skill-enrichment/link/run',
        setup: (fx) => {
          mkdirSync(fx.evidence, { recursive: true });
          symlinkSync(fx.outside, path.join(fx.evidence, 'link'));
        },
      },
      {
        name: 'a broken link inside the folder',
        target: () => 'evidence/skill-enrichment/dangling/run',
        setup: (fx) => {
          mkdirSync(fx.evidence, { recursive: true });
          symlinkSync(path.join(fx.outside, 'missing'), path.join(fx.evidence, 'dangling'));
        },
      },
      {
        name: 'an evidence folder that is itself a link out of the project',
        target: () => 'evidence/skill-enrichment/run',
        setup: (fx) => {
          mkdirSync(path.join(fx.project, 'evidence'), { recursive: true });
          symlinkSync(fx.outside, path.join(fx.project, 'evidence', 'skill-enrichment'));
        },
      },
    ];
  for (const c of cases) {
    it(`refuses ${c.name} with PATH_OUTSIDE_ROOT and writes nothing`, async () => {
      const fx = buildFixture();
      c.setup?.(fx);
      const before = existsSync(path.join(fx.project, 'evidence'))
        ? readdirSync(path.join(fx.project, 'evidence')).sort()
        : undefined;
      const r = await enrichJson(fx, { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: c.target(fx) });
      expect(r.code).toBe(2);
      expect(r.body?.error?.code).toBe('PATH_OUTSIDE_ROOT');
      expect(readdirSync(fx.outside)).toEqual([]);
      if (before === undefined) expect(existsSync(path.join(fx.project, 'evidence'))).toBe(false);
      else expect(readdirSync(path.join(fx.project, 'evidence')).sort()).toEqual(before);
    });
  }

  it('accepts a target given absolutely or through .. that stays inside, and creates it', async () => {
    const fx = buildFixture();
    const abs = path.join(fx.evidence, 'abs');
    expect((await enrichJson(fx, { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: abs })).code).toBe(0);
    expect(existsSync(path.join(abs, 'INDEX.md'))).toBe(true);
    const dotted = 'evidence/skill-enrichment/a/../b/./c';
    expect((await enrichJson(fx, { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: dotted })).code).toBe(0);
    expect(existsSync(path.join(fx.evidence, 'b', 'c', 'INDEX.md'))).toBe(true);
    expect(existsSync(path.join(fx.evidence, 'a'))).toBe(false);
  });

  it('accepts a link inside the folder that stays inside it', async () => {
    const fx = buildFixture();
    mkdirSync(path.join(fx.evidence, 'real'), { recursive: true });
    symlinkSync(path.join(fx.evidence, 'real'), path.join(fx.evidence, 'alias'));
    const t = resolveEvidenceTarget(fx.project, 'evidence/skill-enrichment/alias', fx.project);
    expect(t.rel).toBe('real');
  });

  it('refuses a target that is a file as INVALID_ARGUMENT', async () => {
    const fx = buildFixture();
    mkdirSync(fx.evidence, { recursive: true });
    writeFileSync(path.join(fx.evidence, 'file'), 'x');
    const r = await enrichJson(fx, {
      TASK_BRIEF: BRIEF,
      EVIDENCE_TARGET: 'evidence/skill-enrichment/file',
    });
    expect(r.code).toBe(2);
    expect(r.body?.error?.code).toBe('INVALID_ARGUMENT');
  });

  it('resolves a relative target against the working folder, not the project', async () => {
    const fx = buildFixture();
    const cwd = path.join(fx.project, '.claude');
    const run = (target: string) =>
      runCli(['enrich', '--home', fx.home, '--project', fx.project, '--json'], {
        cwd,
        env: { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: target },
      });
    const inside = await run('../evidence/skill-enrichment/from-sub');
    expect(inside.code).toBe(0);
    expect(existsSync(path.join(fx.evidence, 'from-sub', 'INDEX.md'))).toBe(true);
    // From <project>/.claude this names <project>/.claude/evidence/…: outside the evidence folder.
    const outside = await run('evidence/skill-enrichment/x');
    expect(outside.code).toBe(2);
    expect((JSON.parse(outside.stdout) as { error: { code: string } }).error.code).toBe(
      'PATH_OUTSIDE_ROOT',
    );
    expect(existsSync(path.join(cwd, 'evidence'))).toBe(false);
  });
});
