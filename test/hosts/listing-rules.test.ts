/**
 * The listing rules of Claude Code and Codex as pure functions (src/hosts/listing-rules.ts, issue 23
 * §2): budgets from the context window, per-entry caps, Claude Code's names-always and
 * descriptions-by-usage, Codex's three stages and its aliased roots, and what a cut loses. Exact
 * arithmetic on small cases; properties on generated ones (the listing never passes its budget
 * unless the names alone do; the input order never matters; a larger budget never lists fewer).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_LISTING,
  claudeCodeBudget,
  claudeCodeEntryText,
  claudeCodeListing,
  codexBudget,
  codexDescription,
  codexListing,
  cutLoss,
  fullLineCost,
  hostListing,
  type ListingSkill,
} from '../../src/hosts/index.js';

const skill = (
  id: string,
  description: string,
  extra: Partial<ListingSkill> = {},
): ListingSkill => ({
  id,
  description,
  path: `/h/skills/${id}/SKILL.md`,
  root: '/h/skills',
  tier: 3,
  usage: 0,
  visibility: 'full',
  ...extra,
});

describe('budgets', () => {
  it('Claude Code: 1 % of the window at 4 characters a token; a fixed budget wins', () => {
    expect(claudeCodeBudget()).toMatchObject({ unit: 'chars', limit: 8_000, source: 'default' });
    expect(claudeCodeBudget({ contextTokens: 1_000_000 }).limit).toBe(40_000);
    expect(claudeCodeBudget({ fraction: 0.03 }).limit).toBe(24_000);
    expect(claudeCodeBudget({ fixedChars: 1_234, contextTokens: 5 })).toMatchObject({
      limit: 1_234,
    });
  });

  it('Codex: 2 % of the window in tokens, 272k by default; characters when fixed', () => {
    expect(codexBudget()).toMatchObject({ unit: 'tokens', limit: 5_440 });
    expect(codexBudget({ contextTokens: 200_000 }).limit).toBe(4_000);
    expect(codexBudget({ fixedChars: 8_000 })).toMatchObject({ unit: 'chars', limit: 8_000 });
  });
});

describe('entry texts', () => {
  it('Claude Code joins when_to_use and caps at 1,536 with the ellipsis counted', () => {
    expect(claudeCodeEntryText('Ships it.', 'Before a release.').shown).toBe(
      'Ships it. - Before a release.',
    );
    const t = claudeCodeEntryText('d'.repeat(5_000), undefined);
    expect(t.shown).toHaveLength(CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS);
    expect(t.shown.endsWith('…')).toBe(true);
    expect(claudeCodeEntryText('d'.repeat(500), undefined, 100).shown).toHaveLength(100);
  });

  it('Codex puts a description on one line and caps it at 1,024 with ...', () => {
    expect(codexDescription('a\n  b\tc').shown).toBe('a b c');
    const t = codexDescription('x'.repeat(2_000));
    expect([...t.shown]).toHaveLength(1_024);
    expect(t.shown.endsWith('...')).toBe(true);
  });

  it('a cut names the trigger phrases and "do not use" clauses it loses', () => {
    const text = 'Build decks. Use when the user says "make slides". Do not use for PDF reports.';
    const at = text.indexOf('Use');
    const loss = cutLoss(text, at);
    expect(loss.lost_triggers).toEqual(['Use when the user says "make slides"', '"make slides"']);
    expect(loss.lost_negatives).toEqual(['Do not use for PDF reports']);
    expect(cutLoss(text, text.length)).toMatchObject({
      lost_chars: 0,
      lost_triggers: [],
      lost_negatives: [],
    });
  });
});

describe('Claude Code listing', () => {
  it('lists everything in full when it fits, counting one newline between lines', () => {
    const r = claudeCodeListing(
      [skill('a', 'x'.repeat(10)), skill('b', 'y'.repeat(20))],
      claudeCodeBudget(),
    );
    // "- a: " + 10 = 15, "- b: " + 20 = 25, one newline.
    expect(r).toMatchObject({ total: 41, full_total: 41, over_budget: false });
    expect(r.counts).toMatchObject({ full: 2 });
  });

  it('over budget: every name stays, descriptions go whole by usage, a later one that fits still goes', () => {
    const skills = [
      skill('big', 'b'.repeat(495), { usage: 5 }),
      skill('small', 's'.repeat(93), { usage: 1 }),
      skill('none', 'n'.repeat(50), { usage: 0 }),
    ];
    // Names: "- big" 5 + "- small" 7 + "- none" 6 + 2 newlines = 20; room 100: big (497) skipped,
    // small (95) granted, none (52) no longer fits.
    const r = claudeCodeListing(skills, { unit: 'chars', limit: 120, source: 'test' });
    expect(r.entries.map((e) => [e.id, e.outcome])).toEqual([
      ['big', 'name-only'],
      ['small', 'full'],
      ['none', 'name-only'],
    ]);
    expect(r.total).toBe(20 + 95);
  });

  it('keeps names even when they alone pass the budget; hidden skills cost nothing', () => {
    const r = claudeCodeListing(
      [skill('aaaa', 'x'), skill('bbbb', 'y'), skill('gone', 'z', { visibility: 'hidden' })],
      { unit: 'chars', limit: 5, source: 'test' },
    );
    expect(r.total).toBe('- aaaa'.length * 2 + 1);
    expect(r.counts).toMatchObject({ 'name-only': 2, hidden: 1 });
  });

  it('a name-only override lists the name even with room to spare', () => {
    const r = claudeCodeListing(
      [skill('a', 'words', { visibility: 'name-only' })],
      claudeCodeBudget(),
    );
    expect(r.entries[0]).toMatchObject({ outcome: 'name-only', cost: 3 });
  });
});

describe('Codex listing', () => {
  it('stage 1: every full line fits, at ceil(bytes / 4) tokens a line with its newline', () => {
    const s = skill('a', 'desc');
    const line = `- a: desc (file: ${s.path})\n`;
    const r = codexListing([s], { unit: 'tokens', limit: 1_000, source: 'test' });
    expect(r.total).toBe(Math.ceil(Buffer.byteLength(line) / 4));
    expect(r.counts.full).toBe(1);
  });

  it('stage 2: descriptions shortened one character per skill in turn; order System … User, then name', () => {
    const a = skill('alpha-skill', 'abcdef', { tier: 2 });
    const b = skill('beta-skill', 'uvwxyz', { tier: 2 });
    const bare = (x: ListingSkill): number => `- ${x.id}: (file: ${x.path})`.length + 1;
    const r = codexListing([b, a], { unit: 'chars', limit: bare(a) + bare(b) + 6, source: 'test' });
    // Codex's own test: 6 characters left shorten both descriptions to 2 characters (+1 space each).
    expect(r.entries.map((e) => [e.id, e.outcome])).toEqual([
      ['alpha-skill', 'truncated'],
      ['beta-skill', 'truncated'],
    ]);
    expect(r.entries.map((e) => e.loss?.lost_chars)).toEqual([4, 4]);
  });

  it('stage 3: no descriptions; skills kept in order while their bare lines fit, the rest omitted', () => {
    const sys = skill('system-skill', 'desc', { tier: 0 });
    const user = skill('user-skill', 'desc', {
      tier: 3,
      path: '/elsewhere/u/SKILL.md',
      root: '/elsewhere',
    });
    const budget = {
      unit: 'chars' as const,
      limit: `- system-skill: (file: ${sys.path})`.length + 1,
      source: 't',
    };
    const r = codexListing([user, sys], budget);
    expect(r.entries.map((e) => [e.id, e.outcome])).toEqual([
      ['system-skill', 'name-only'],
      ['user-skill', 'omitted'],
    ]);
  });

  it('uses aliased roots when they list more skills', () => {
    const root = '/Users/someone/.codex/plugins/cache/a-very-long/marketplace/path/skills';
    const skills = Array.from({ length: 12 }, (_, i) =>
      skill(`s${i}`, 'd', { path: `${root}/s${i}/SKILL.md`, root }),
    );
    const absolute = skills.reduce((n, s) => n + `- ${s.id}: (file: ${s.path})`.length + 1, 0);
    const r = codexListing(skills, { unit: 'chars', limit: absolute - 50, source: 't' });
    expect(r.aliased).toBe(true);
    expect(r.counts.omitted).toBe(0);
  });
});

const skillArb = fc.record({
  id: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  description: fc.string({ maxLength: 300 }),
  usage: fc.nat(20),
  tier: fc.nat(3),
  visibility: fc.constantFrom('full', 'full', 'full', 'name-only', 'hidden') as fc.Arbitrary<
    ListingSkill['visibility']
  >,
});
const libraryArb = fc
  .uniqueArray(skillArb, { selector: (s) => s.id, maxLength: 25 })
  .map((xs) => xs.map((x) => skill(x.id, x.description, x)));

describe('the per-host entry points the planner uses (issue 33: one copy, in the rules)', () => {
  const chars = { unit: 'chars', limit: 100_000, source: 'test' } as const;
  const tokens = { unit: 'tokens', limit: 100_000, source: 'test' } as const;

  it("hostListing is the host's own listing", () => {
    const skills = [skill('a', 'alpha'), skill('b', 'beta '.repeat(40), { usage: 2 })];
    const small = { unit: 'chars', limit: 60, source: 'test' } as const;
    expect(hostListing('claude-code', skills, small, 20)).toEqual(
      claudeCodeListing(skills, small, 20),
    );
    expect(hostListing('codex', skills, small)).toEqual(codexListing(skills, small));
  });

  it("fullLineCost is one skill's full line with its newline, as the host's listing counts it", () => {
    const s = skill('pdf', 'Merge PDF files — keeps bookmarks.', { when_to_use: 'When merging.' });
    const cc = `- pdf: Merge PDF files — keeps bookmarks. - When merging.`;
    expect(fullLineCost('claude-code', s, chars)).toBe(cc.length + 1);
    // Claude Code's listing counts the same line, less the newline a lone line does not have.
    expect(fullLineCost('claude-code', s, chars)).toBe(claudeCodeListing([s], chars).total + 1);
    // The entry cap applies to the line.
    expect(fullLineCost('claude-code', s, chars, 10)).toBe('- pdf: '.length + 10 + 1);
    const cx = `- pdf: Merge PDF files — keeps bookmarks. (file: ${s.path})\n`;
    expect(fullLineCost('codex', s, chars)).toBe([...cx].length);
    expect(fullLineCost('codex', s, tokens)).toBe(Math.ceil(Buffer.byteLength(cx) / 4));
    expect(fullLineCost('codex', s, tokens)).toBe(codexListing([s], tokens).total);
  });
});

describe('listing properties', () => {
  it('Claude Code never passes its budget unless the names alone do, whatever the input order', () => {
    fc.assert(
      fc.property(libraryArb, fc.integer({ min: 1, max: 3_000 }), (skills, limit) => {
        const budget = { unit: 'chars' as const, limit, source: 'p' };
        const r = claudeCodeListing(skills, budget);
        const shown = skills.filter((s) => s.visibility !== 'hidden');
        const names =
          shown.reduce((n, s) => n + `- ${s.id}`.length, 0) + Math.max(0, shown.length - 1);
        if (names <= limit) expect(r.total).toBeLessThanOrEqual(limit);
        const again = claudeCodeListing([...skills].reverse(), budget);
        const by = (x: typeof r): string[] => x.entries.map((e) => `${e.id}:${e.outcome}`).sort();
        expect(by(again)).toEqual(by(r));
      }),
    );
  });

  it('Codex never passes its budget, ignores input order, and lists no fewer with more room', () => {
    fc.assert(
      fc.property(
        libraryArb,
        fc.integer({ min: 20, max: 2_000 }),
        fc.boolean(),
        (skills, limit, tokens) => {
          const budget = {
            unit: tokens ? ('tokens' as const) : ('chars' as const),
            limit,
            source: 'p',
          };
          const r = codexListing(skills, budget);
          expect(r.total).toBeLessThanOrEqual(limit);
          expect(codexListing([...skills].reverse(), budget).entries).toEqual(r.entries);
          const more = codexListing(skills, { ...budget, limit: limit * 2 });
          const listed = (x: typeof r): number =>
            x.entries.filter((e) => e.outcome !== 'omitted' && e.outcome !== 'hidden').length;
          expect(listed(more)).toBeGreaterThanOrEqual(listed(r));
        },
      ),
    );
  });
});
