/**
 * The hosts' skill listings (src/lint/hosts.ts) and routing clauses (src/text/clauses.ts): each
 * host cuts in its own unit (Claude Code: UTF-16 code units of description + when_to_use at 1,536;
 * Codex: code points of the description at 1,024, 1,021 and "..."), costs are counted as the host
 * budgets them (Codex: UTF-8 bytes / 4, so CJK text costs more), and DESCRIPTION_TRUNCATED names
 * the "use when" and "do not use for" clauses a cut hides.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS as LINT_DEFAULT_THRESHOLDS,
  lintSkills,
  type LintSkill,
  findClauses,
} from '../../src/lint/index.js';
import { HOST_RULES, cutFor, lengthIn, listingCosts } from '../../src/lint/hosts.js';

const T = LINT_DEFAULT_THRESHOLDS;
const [CLAUDE, CODEX] = HOST_RULES as [(typeof HOST_RULES)[0], (typeof HOST_RULES)[0]];

function skill(id: string, description: string, extra: Partial<LintSkill> = {}): LintSkill {
  return {
    skill_id: id,
    name: id,
    description,
    keywords: [],
    tags: [],
    path: `/lib/${id}/SKILL.md`,
    text: `---\nname: ${id}\ndescription: ${JSON.stringify(description)}\n---\n`,
    warnings: [],
    rankable: true,
    ...extra,
  };
}

describe('what each host shows', () => {
  it('Codex cuts the description at 1,024 code points: 1,021 and "..."', () => {
    const text = 'a'.repeat(1100);
    const c = cutFor(CODEX, text, T);
    expect(c).toMatchObject({ host: 'codex', length: 1100, cap: 1024, cutLength: 79 });
    expect(c.shown).toBe('a'.repeat(1021) + '...');
    expect(c.cut).toBe('a'.repeat(79));
    expect(cutFor(CODEX, 'a'.repeat(1024), T).cut).toBe('');
  });

  it('counts CJK and supplementary characters as each host does', () => {
    // 1,000 ideographs and 100 emoji: 1,100 code points, 1,200 UTF-16 code units.
    const text = '漢'.repeat(1000) + '😀'.repeat(100);
    expect(lengthIn(text, 'code-points')).toBe(1100);
    expect(lengthIn(text, 'utf16')).toBe(1200);
    // Codex cuts by code points: never inside a surrogate pair.
    const codex = cutFor(CODEX, text, T);
    expect(codex.length).toBe(1100);
    expect([...codex.shown.slice(0, -3)]).toHaveLength(1021);
    // Claude Code counts UTF-16 units: 1,200 is within its 1,536.
    expect(cutFor(CLAUDE, text, T).cut).toBe('');
    expect(cutFor(CLAUDE, '😀'.repeat(800), T).length).toBe(1600);
  });

  it('Claude Code lists description and when_to_use together; Codex the description only', () => {
    const s = skill('x', 'd'.repeat(1000), { when_to_use: 'w'.repeat(600) });
    expect(cutFor(CLAUDE, CLAUDE.text(s), T).length).toBe(1601);
    expect(cutFor(CODEX, CODEX.text(s), T).cut).toBe('');
  });

  it('costs the listing in characters (Claude Code) and UTF-8 bytes / 4 (Codex)', () => {
    const latin = skill('latin', 'x'.repeat(40));
    const cjk = skill('cjk', '漢'.repeat(40));
    const { hosts, skills } = listingCosts([latin, cjk], T);
    const cost = (id: string, h: 'claude-code' | 'codex') =>
      skills.find((s) => s.skill_id === id)!.hosts[h].cost;
    expect(cost('latin', 'claude-code')).toBe(cost('cjk', 'claude-code') + 2);
    // 40 ideographs are 120 bytes, 40 Latin letters 40; the name and folder "cjk" are 4 bytes
    // shorter than "latin": 76 bytes, 19 tokens more, for the same 40 characters.
    expect(cost('cjk', 'codex')).toBe(cost('latin', 'codex') + 19);
    expect(hosts.map((h) => [h.host, h.budget, h.total])).toEqual([
      ['claude-code', 8000, cost('latin', 'claude-code') + cost('cjk', 'claude-code')],
      ['codex', 5440, cost('latin', 'codex') + cost('cjk', 'codex')],
    ]);
  });
});

describe('routing clauses', () => {
  it('finds "use when" and "do not use for" clauses, to the end of their sentence', () => {
    const text =
      'Extract tables from PDF files. Use when the user asks for tables or CSV exports; Do not use for scanned images (use ocr-tool). Triggers: pdf, table.';
    expect(findClauses(text).map((c) => [c.kind, c.text])).toEqual([
      ['trigger', 'Use when the user asks for tables or CSV exports'],
      ['negative', 'Do not use for scanned images (use ocr-tool)'],
      ['trigger', 'Triggers: pdf, table'],
    ]);
    expect(
      findClauses("Don't use this skill when editing. NOT for images.").map((c) => c.kind),
    ).toEqual(['negative', 'negative']);
    expect(findClauses('Formats dates and times.')).toEqual([]);
  });

  it('DESCRIPTION_TRUNCATED names the trigger words and boundary clauses after the cut', () => {
    const head = 'Plan database migrations step by step with rollback scripts. '.repeat(17);
    const description =
      head +
      'Use when the user mentions liquibase or flyway changelogs. Do not use for data backfills.';
    const { findings } = lintSkills({ skills: [skill('db-migrations', description)] }, T);
    const f = findings.find((x) => x.code === 'DESCRIPTION_TRUNCATED')!;
    expect(f.details).toMatchObject({
      host: 'codex',
      cut_trigger_clauses: ['Use when the user mentions liquibase or flyway changelogs'],
      cut_negative_clauses: ['Do not use for data backfills'],
    });
    expect(f.details['cut_trigger_words']).toEqual(
      expect.arrayContaining(['liquibase', 'flyway', 'changelogs']),
    );
    expect(f.message).toContain('after the cut');
  });
});
