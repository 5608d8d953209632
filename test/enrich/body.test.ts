/**
 * Proof that enrichment never parses or quotes a skill body (issue #7): the body is hashed with the
 * rest of the file for dedup, and nothing else. A body full of brief words, invalid YAML, fake
 * frontmatter fences or sheer size changes neither the score, nor the matched terms, nor the rank,
 * and no body text reaches any artifact.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  enrichSkills,
  planEnrichment,
  scoreDescription,
  type EnrichReport,
} from '../../src/enrich/index.js';
import { briefTerms } from '../../src/enrich/score.js';
import { BODY_CANARY, BRIEF, buildFixture, trapBody, type Fixture } from './fixture.js';

const TRAP = path.join('crucible-plugin', 'skills', 'body-trap', 'SKILL.md');
const FRONTMATTER =
  '---\nname: body-trap\ndescription: Summarise CSV exports for finance dashboards.\n---\n';

function plan(fx: Fixture): EnrichReport {
  return planEnrichment({
    brief: BRIEF,
    target: 'evidence/skill-enrichment/body',
    env: {},
    cwd: fx.project,
    home: fx.home,
  }).report;
}

function trap(report: EnrichReport) {
  const c = report.candidates.find((x) => x.skill_id === 'body-trap');
  expect(c, 'body-trap is a candidate').toBeDefined();
  return c!;
}

describe('bodies are never parsed', () => {
  it('scores the description alone: body words that match the brief count for nothing', () => {
    const fx = buildFixture();
    const c = trap(plan(fx));
    const alone = scoreDescription(
      new Set(briefTerms(BRIEF)),
      'Summarise CSV exports for finance dashboards.',
    );
    expect(c.score).toBe(alone.score);
    expect(c.matched_terms).toEqual(['csv', 'finance']);
    expect(c.description).toBe('Summarise CSV exports for finance dashboards.');
  });

  it('lets no body text reach an artifact or the JSON report', () => {
    const fx = buildFixture();
    const { report, written } = enrichSkills({
      brief: BRIEF,
      target: 'evidence/skill-enrichment/body',
      env: {},
      cwd: fx.project,
      home: fx.home,
    });
    expect(written.length).toBe(4);
    const dir = path.join(fx.evidence, 'body');
    for (const name of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      expect(text, name).not.toContain(BODY_CANARY);
      expect(text, name).not.toContain('hijacked');
    }
    expect(JSON.stringify(report)).not.toContain(BODY_CANARY);
  });

  const bodies: { name: string; body: string }[] = [
    { name: 'no body at all', body: '' },
    { name: 'a body of invalid YAML only', body: ': : [unclosed {yaml\n\t- broken: [\n' },
    {
      name: 'a body that opens with a fake frontmatter block',
      body: '---\nname: hijacked\ndescription: extract tables pdf invoices export csv\n---\n',
    },
    { name: 'a huge body (about 900 KB) of brief words and fake fences', body: trapBody(10_000) },
  ];
  for (const b of bodies) {
    it(`gives the same score, terms and rank with ${b.name}`, () => {
      const fx = buildFixture();
      const before = trap(plan(fx));
      writeFileSync(path.join(fx.project, TRAP), FRONTMATTER + b.body);
      const after = trap(plan(fx));
      expect({ ...after, revision_id: '' }).toEqual({ ...before, revision_id: '' });
    });
  }

  it('never takes a frontmatter from the body: a file that does not open with --- is skipped', () => {
    const fx = buildFixture();
    writeFileSync(path.join(fx.project, TRAP), '# Title first\n\n' + FRONTMATTER);
    const report = plan(fx);
    expect(report.candidates.some((c) => c.skill_id === 'body-trap')).toBe(false);
    expect(report.skipped.find((s) => s.path.endsWith('body-trap/SKILL.md'))?.code).toBe(
      'FRONTMATTER_MISSING',
    );
  });

  it('hashes the whole file for dedup: copies differing only in the body are distinct revisions', () => {
    const fx = buildFixture();
    writeFileSync(
      path.join(fx.project, '.claude/skills/csv-merge/SKILL.md'),
      '---\nname: csv-merge\ndescription: "Merge CSV files."\n---\nOne body.\n',
    );
    const first = plan(fx).candidates.find((c) => c.skill_id === 'csv-merge')!;
    writeFileSync(
      path.join(fx.project, '.claude/skills/csv-merge/SKILL.md'),
      '---\nname: csv-merge\ndescription: "Merge CSV files."\n---\nAnother body.\n',
    );
    const second = plan(fx).candidates.find((c) => c.skill_id === 'csv-merge')!;
    expect(second.revision_id).not.toBe(first.revision_id);
    expect(second.score).toBe(first.score);
  });
});
