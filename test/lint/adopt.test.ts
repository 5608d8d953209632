/**
 * What makes lint livable on a big library (issue #24), in the pure core: templated families are one
 * finding each with nothing lost (every raw finding is printed, folded, suppressed or known);
 * suppressions by config rule and inline metadata, each counted, a pair suppressed only when both
 * sides are covered; baselines that leave out known findings and keep new ones; the spec profile;
 * FRONTMATTER_LENIENT passed through with its line and fix.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS as LINT_DEFAULT_THRESHOLDS,
  lintSkills,
  type LintFinding,
  type LintSkill,
} from '../../src/lint/index.js';
import { parseLintBaseline, type LintSuppression } from '../../src/lint/index.js';
import type { Problem } from '../../src/errors.js';

const T = LINT_DEFAULT_THRESHOLDS;

function skill(id: string, description: string, extra: Partial<LintSkill> = {}): LintSkill {
  const fm = extra.frontmatter ?? { name: id, description };
  return {
    skill_id: id,
    name: id,
    description,
    keywords: [],
    tags: [],
    path: `/lib/${id}/SKILL.md`,
    text: `---\nname: ${id}\ndescription: ${JSON.stringify(description)}\nmetadata: {}\n---\n`,
    warnings: [],
    rankable: true,
    frontmatter: fm,
    ...extra,
  };
}

// A templated family of 30 (weak: every word is common) and 25 distinct skills.
function library(): LintSkill[] {
  const tpl = (app: string) =>
    `Automate ${app} tasks via the Rube MCP server; always search tools first for current schemas.`;
  const fam = Array.from({ length: 30 }, (_, i) => skill(`app${i}-automation`, tpl(`app${i}`)));
  const words =
    'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee'.split(
      ' ',
    );
  const own = words.map((w, i) =>
    skill(
      `${w}-tool`,
      `${w} ${words[(i + 1) % 25]}zz ${w}yy ${w}xx ${w}ww ${w}vv handles ${w} records`,
    ),
  );
  return [...fam, ...own];
}

// Every raw finding ends somewhere: printed (one fingerprint each), folded, suppressed or known.
function accounted(r: ReturnType<typeof lintSkills>): number {
  const printed = r.findings.reduce((n, f) => n + f.fingerprints.length, 0);
  return printed + r.summary.suppressed.total + (r.summary.baseline?.known ?? 0);
}

describe('families', () => {
  it('a templated family is one CONFUSABLE and one DESCRIPTION_WEAK finding, nothing lost', () => {
    const r = lintSkills({ skills: library() }, T);
    const conf = r.findings.filter((f) => f.code === 'CONFUSABLE');
    expect(conf).toHaveLength(1);
    expect(conf[0]!.details).toMatchObject({ kind: 'near-duplicate-family', family_size: 30 });
    const weak = r.findings.filter((f) => f.code === 'DESCRIPTION_WEAK');
    expect(weak).toHaveLength(1);
    expect(weak[0]!.skill_ids).toHaveLength(30);
    expect(weak[0]!.details).toMatchObject({ group: 'family', family: 'app0-automation' });
    expect((weak[0]!.details['findings'] as unknown[]).length).toBe(30);
    expect(r.summary.grouped.folded).toBeGreaterThanOrEqual(60);
    expect(accounted(r)).toBe(r.summary.raw);
  });

  it('the self-queries an outside skill loses to a family are one finding', () => {
    const skills = library();
    // One-word queries (an outside skill's name, its common word "tool" left out) rank one family
    // member first, longer ones (its rare words) another.
    const rank = (q: string) => [
      { skill_id: q.includes(' ') ? 'app2-automation' : 'app1-automation', score: 9 },
    ];
    const r = lintSkills({ skills, rank }, T);
    const outsider = r.findings.filter((f) => f.details['kind'] === 'family-outsider');
    // One per outside skill (25), not one per lost query.
    expect(outsider).toHaveLength(25);
    expect(outsider[0]!.details).toMatchObject({
      family: 'app0-automation',
      members: ['app1-automation', 'app2-automation'],
    });
    expect(accounted(r)).toBe(r.summary.raw);
  });
});

describe('suppressions', () => {
  const source = '/repo/.skilldex/config.toml';

  it('a lint.ignore rule takes out its code for the skills its globs match, and is counted', () => {
    const rules: LintSuppression[] = [
      { code: 'DESCRIPTION_WEAK', skills: ['app*-automation'], reason: 'generated', source },
      { code: 'HIDDEN_TEXT', source },
    ];
    const r = lintSkills({ skills: library(), suppressions: rules }, T);
    expect(r.findings.some((f) => f.code === 'DESCRIPTION_WEAK')).toBe(false);
    expect(r.summary.suppressed.total).toBe(30);
    expect(r.summary.suppressed.rules).toEqual([
      expect.objectContaining({
        kind: 'config',
        code: 'DESCRIPTION_WEAK',
        findings: 30,
        reason: 'generated',
      }),
      expect.objectContaining({ kind: 'config', code: 'HIDDEN_TEXT', skills: ['*'], findings: 0 }),
    ]);
    expect(accounted(r)).toBe(r.summary.raw);
  });

  it('refuses a rule naming an unknown code, with the source and key', () => {
    expect(() =>
      lintSkills({ skills: library(), suppressions: [{ code: 'WEAK', source }] }, T),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        details: expect.objectContaining({ key: 'lint.ignore[0].code' }),
      }),
    );
  });

  it('an inline metadata rule suppresses its own skill; a bad one is SUPPRESSION_INVALID', () => {
    const weak = skill('misc-helper', 'Helps with stuff.', {
      frontmatter: { metadata: { 'skilldex-lint-ignore': 'DESCRIPTION_WEAK' } },
    });
    const typo = skill('misc-other', 'Does things.', {
      frontmatter: { metadata: { 'skilldex-lint-ignore': 'DESCRIPTON_WEAK, CONFUSABLE' } },
    });
    const r = lintSkills({ skills: [weak, typo] }, T);
    const weakIds = r.findings
      .filter((f) => f.code === 'DESCRIPTION_WEAK')
      .flatMap((f) => f.skill_ids);
    expect(weakIds).toEqual(['misc-other']);
    const bad = r.findings.find((f) => f.code === 'SUPPRESSION_INVALID')!;
    expect(bad).toMatchObject({ skill_ids: ['misc-other'], field: 'metadata', line: 4 });
    expect(bad.details['unknown']).toEqual(['DESCRIPTON_WEAK']);
    expect(r.summary.suppressed.rules).toEqual([
      expect.objectContaining({
        kind: 'inline',
        code: 'DESCRIPTION_WEAK',
        skills: ['misc-helper'],
        findings: 1,
      }),
      expect.objectContaining({
        kind: 'inline',
        code: 'CONFUSABLE',
        skills: ['misc-other'],
        findings: 0,
      }),
    ]);
  });

  it('a confusable pair is suppressed only when both of its skills are covered', () => {
    const a = skill('aa-one', 'Apples oranges pears plums cherries grapes', {
      frontmatter: { metadata: { 'skilldex-lint-ignore': 'CONFUSABLE' } },
    });
    const b = skill('bb-two', 'Lemons limes melons kiwis figs dates');
    const rank = () => [
      { skill_id: 'bb-two', score: 2 },
      { skill_id: 'aa-one', score: 1 },
    ];
    const one = lintSkills({ skills: [a, b], rank }, T);
    expect(one.findings.filter((f) => f.code === 'CONFUSABLE')).toHaveLength(1);
    const both = lintSkills(
      {
        skills: [a, { ...b, frontmatter: { metadata: { 'skilldex-lint-ignore': 'CONFUSABLE' } } }],
        rank,
      },
      T,
    );
    expect(both.findings.filter((f) => f.code === 'CONFUSABLE')).toEqual([]);
    expect(both.summary.suppressed.total).toBe(1);
  });
});

describe('baselines', () => {
  it('leaves out what a saved report holds and keeps what is new, counting both', () => {
    const before = library();
    const first = lintSkills({ skills: before }, T);
    const baseline = parseLintBaseline(JSON.stringify(first), 'lint-baseline.json');
    const same = lintSkills({ skills: before, baseline }, T);
    expect(same.findings).toEqual([]);
    expect(same.summary.baseline).toEqual({ file: 'lint-baseline.json', known: first.summary.raw });
    // A new weak skill and a new family member: only they are reported.
    const after = [
      ...before,
      skill('app99-automation', before[0]!.description.replace('app0', 'app99')),
      skill('misc-helper', 'Helps with stuff.'),
    ];
    const next = lintSkills({ skills: after, baseline }, T);
    const ids = next.findings.flatMap((f) => f.skill_ids);
    expect(new Set(ids)).toEqual(new Set(['app99-automation', 'misc-helper']));
    expect(accounted(next)).toBe(next.summary.raw);
  });

  it('fingerprints ignore lines, scores and wording', () => {
    const a = lintSkills({ skills: [skill('misc-helper', 'Helps with stuff.')] }, T);
    const b = lintSkills(
      { skills: [skill('misc-helper', 'Helps with things.', { text: '---\n\n\nname: x\n---\n' })] },
      T,
    );
    const fp = (r: { findings: LintFinding[] }) => r.findings.flatMap((f) => f.fingerprints);
    expect(fp(a)).toEqual(fp(b));
    expect(fp(a)).toEqual(['DESCRIPTION_WEAK|description|misc-helper']);
  });

  it('BASELINE_INVALID for text that is not a lint --json report', () => {
    for (const text of ['{', '{"skills": 1}', '{"findings": [{"code": "X"}]}'])
      expect(() => parseLintBaseline(text, 'b.json')).toThrow(
        expect.objectContaining({ code: 'BASELINE_INVALID' }),
      );
  });
});

describe('profiles', () => {
  it('spec: only the six fields, lengths in code points, string metadata, compatibility ≤ 500', () => {
    const s = skill('pdf-tools', '𝐏'.repeat(1000) + ' extract tables from pdf files', {
      frontmatter: {
        name: 'pdf-tools',
        description: 'x',
        when_to_use: 'when pdf',
        compatibility: 'c'.repeat(501),
        metadata: { version: 1 },
        'allowed-tools': 'Read Grep',
      },
    });
    const codes = (profile: 'lenient' | 'spec') =>
      lintSkills({ skills: [s], profile }, T)
        .findings.map((f) => `${f.code}:${f.field}`)
        .sort();
    expect(codes('spec')).toEqual(
      expect.arrayContaining([
        'SPEC_FIELD:when_to_use',
        'COMPATIBILITY_TOO_LONG:compatibility',
        'FIELD_TYPE:metadata',
      ]),
    );
    // 1,030 code points (2,030 UTF-16 units): over the spec's 1,024, counted as the spec counts.
    const tooLong = lintSkills({ skills: [s], profile: 'spec' }, T).findings.find(
      (f) => f.code === 'DESCRIPTION_TOO_LONG',
    )!;
    expect(tooLong.details).toMatchObject({ length: 1030, limit: 1024 });
    expect(
      codes('lenient').filter((c) => /SPEC_FIELD|COMPATIBILITY|FIELD_TYPE|TOO_LONG/.test(c)),
    ).toEqual([]);
  });

  it('FRONTMATTER_LENIENT is a warning on its line with the fix (quote the value)', () => {
    // As src/skills reports it (main: src/skills/record.ts).
    const warning = {
      code: 'FRONTMATTER_LENIENT',
      path: '/lib/persona/SKILL.md',
      line: 3,
      message:
        '/lib/persona/SKILL.md:3: description is not valid YAML as written (an unquoted ": " or similar); read as the whole line, as hosts read it; quote the value to make it valid',
    } as unknown as Problem;
    const s = skill('persona', 'Persona Tester: Fatima tests forms and flows end to end', {
      warnings: [warning],
    });
    const f = lintSkills({ skills: [s] }, T).findings.find(
      (x) => x.code === 'FRONTMATTER_LENIENT',
    )!;
    expect(f).toMatchObject({ severity: 'warning', line: 3, field: 'description' });
    expect(f.message).toMatch(/^field description: description is not valid YAML/);
    expect(f.fix).toContain('quote');
    const dup = {
      ...warning,
      message:
        '/lib/persona/SKILL.md:3: description is given twice (invalid YAML); the last value is used, as hosts read it; remove one',
    } as Problem;
    const g = lintSkills(
      {
        skills: [skill('persona', 'Persona tests forms and flows end to end', { warnings: [dup] })],
      },
      T,
    ).findings.find((x) => x.code === 'FRONTMATTER_LENIENT')!;
    expect(g.fix).toContain('remove the repeated key');
  });

  it('NAME_FROM_FOLDER: a spec-profile warning on a skill without a name; hosts are fine with it', () => {
    const warning = {
      code: 'NAME_FROM_FOLDER',
      path: '/lib/ebuild-qa/SKILL.md',
      message:
        '/lib/ebuild-qa/SKILL.md: frontmatter has no name; the folder\'s name "ebuild-qa" is used, as hosts do',
    } as unknown as Problem;
    const s = skill('ebuild-qa', 'Check ebuilds for QA issues with pkgcheck and repoman', {
      warnings: [warning],
    });
    const codes = (profile: 'lenient' | 'spec') =>
      lintSkills({ skills: [s], profile }, T).findings.map((f) => f.code);
    expect(codes('spec')).toContain('NAME_FROM_FOLDER');
    expect(codes('lenient')).not.toContain('NAME_FROM_FOLDER');
  });
});
