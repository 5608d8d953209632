/**
 * Every lint code planted in a small library (test/lint/support.ts) is found, on the right skill,
 * file and frontmatter line; a clean library has no finding. Ranking goes through the catalog's
 * default policy, so these assert ids, codes and order relations, never exact scores.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Router, indexCatalog } from '../../src/router/index.js';
import {
  lintLibrary,
  type LintCode,
  type LintFinding,
  type LintReport,
} from '../../src/lint/index.js';
import { newCatalogPath } from '../catalog/support.js';
import { tmpTree } from '../support/cli.js';
import { CLEAN, LONG_DESCRIPTION, cleanLibrary, plantedLibrary } from './support.js';

const NO_HOME = { home: '/nonexistent-home', project: '/nonexistent-project' };
let report: LintReport;
let scopes: string[];

beforeAll(() => {
  scopes = plantedLibrary().scopes;
  report = lintLibrary({ scopes, ...NO_HOME });
});

function only(code: LintCode): LintFinding[] {
  return report.findings.filter((f) => f.code === code);
}

// The 1-based line of `key:` in a file's frontmatter, found independently of src/lint/lines.ts.
function lineOf(file: string, key: string): number {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith(`${key}:`)) + 1
  );
}

describe('planted library', () => {
  it("DESCRIPTION_TRUNCATED says how much each host's listing cuts, and what", () => {
    const [f, ...rest] = only('DESCRIPTION_TRUNCATED');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      skill_ids: ['story-outliner'],
      field: 'description',
    });
    expect(f!.line).toBe(lineOf(f!.path, 'description'));
    // Codex cuts most: 1,021 code points and "...".
    expect(f!.details).toMatchObject({
      host: 'codex',
      length: LONG_DESCRIPTION.length,
      limit: 1024,
      cut_chars: LONG_DESCRIPTION.length - 1021,
      cut_text: LONG_DESCRIPTION.slice(1021),
    });
    expect(f!.details['hosts']).toEqual([
      expect.objectContaining({
        host: 'claude-code',
        limit: 1536,
        cut_chars: LONG_DESCRIPTION.length - 1536,
      }),
      expect.objectContaining({ host: 'codex', limit: 1024 }),
    ]);
  });

  it('DESCRIPTION_WEAK names the words that carry no signal', () => {
    const weak = only('DESCRIPTION_WEAK');
    expect(weak.map((f) => f.skill_ids[0])).toEqual(['misc-helper', 'the-and']);
    expect(weak[0]!.details).toMatchObject({ content_words: ['helps', 'stuff'] });
    expect(weak[0]!.message).toContain('"helps"');
  });

  it('CONFUSABLE reports the self-query pair with its query and both scores, and the near-duplicate pair', () => {
    const pairs = only('CONFUSABLE').map((f) => f.skill_ids.join(' '));
    expect(pairs).toContain('invoice-audit-bookkeeping ledger-notes');
    expect(pairs).toContain('git-commit-helper git-commit-writer');
    const ledger = only('CONFUSABLE').find((f) => f.skill_ids[1] === 'ledger-notes')!;
    const lost = (
      ledger.details['lost_queries'] as {
        from: string;
        kind: string;
        query: string;
        winner: string;
        winner_score: number;
        own_score: number | null;
      }[]
    ).find((q) => q.kind === 'rare-words')!;
    expect(lost).toMatchObject({
      from: 'ledger-notes',
      query: 'audit bookkeeping reconciliation',
      winner: 'invoice-audit-bookkeeping',
    });
    expect(lost.own_score === null || lost.winner_score >= lost.own_score).toBe(true);
    const git = only('CONFUSABLE').find((f) => f.skill_ids[0] === 'git-commit-helper')!;
    expect(git.details['jaccard']).toBeGreaterThanOrEqual(0.8);
    const sep = git.details['separating_words'] as Record<string, string[]>;
    expect(sep['git-commit-writer']).toContain('footer');
    expect(sep['git-commit-helper']).toContain('summary');
  });

  it('UNREACHABLE: a skill that not even its own name brings into the top 3', () => {
    const un = only('UNREACHABLE');
    expect(un.map((f) => f.skill_ids[0])).toEqual(['the-and']);
    expect(un[0]).toMatchObject({ severity: 'error', field: 'name', line: 2 });
  });

  it('SHADOWED and DUPLICATE come from discovery', () => {
    const sh = only('SHADOWED');
    expect(sh).toHaveLength(1);
    expect(sh[0]).toMatchObject({
      skill_ids: ['csv-cleaner'],
      path: path.join(scopes[1]!, 'csv-cleaner', 'SKILL.md'),
    });
    expect(sh[0]!.line).toBe(lineOf(sh[0]!.path, 'name'));
    const dup = only('DUPLICATE');
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ skill_ids: ['csv-cleaner'], details: { kind: 'identical' } });
    expect(dup[0]!.line).toBe(lineOf(dup[0]!.path, 'name'));
  });

  it('every spec warning is reported with its field and line', () => {
    const spec = report.findings.filter((f) => f.skill_ids[0] === 'Bad_Name');
    const byCode = Object.fromEntries(spec.map((f) => [f.code, f]));
    const file = path.join(scopes[0]!, 'bad-name', 'SKILL.md');
    expect(byCode['NAME_INVALID']).toMatchObject({ field: 'name', line: lineOf(file, 'name') });
    expect(byCode['NAME_FOLDER_MISMATCH']).toMatchObject({
      field: 'name',
      line: lineOf(file, 'name'),
    });
    expect(byCode['UNKNOWN_FIELD']).toMatchObject({
      field: 'colour',
      line: lineOf(file, 'colour'),
      severity: 'note',
    });
    expect(byCode['FIELD_TYPE']).toMatchObject({
      field: 'keywords',
      line: lineOf(file, 'keywords'),
    });
    expect(byCode['CONFUSABLE_CHARACTERS']).toMatchObject({
      field: 'description',
      line: lineOf(file, 'description'),
    });
    // The spec's 1,024-character limit is the spec profile's; the default reports the Codex cut.
    expect(only('DESCRIPTION_TOO_LONG')).toEqual([]);
  });

  it('SKIPPED: a file discovery could not read as a skill', () => {
    expect(only('SKIPPED')).toEqual([
      expect.objectContaining({
        severity: 'error',
        skill_ids: [],
        path: path.join(scopes[0]!, 'broken', 'SKILL.md'),
        details: { problem_code: 'FRONTMATTER_MISSING' },
      }),
    ]);
  });

  it('HIDDEN_TEXT names the field and the characters, escaped', () => {
    const [f] = only('HIDDEN_TEXT');
    expect(f).toMatchObject({
      skill_ids: ['date-formatter'],
      field: 'description',
      details: { characters: ['U+200B'] },
    });
    expect(f!.message).not.toContain('\u200b');
    expect(f!.message).toContain('\\u200b');
  });

  it('INSTRUCTION_LIKE quotes the phrases', () => {
    const [f] = only('INSTRUCTION_LIKE');
    expect(f).toMatchObject({
      severity: 'error',
      skill_ids: ['meeting-minutes'],
      field: 'description',
    });
    expect(f!.details['phrases']).toContain('Ignore all previous instructions');
  });

  it('orders findings by severity, then code, then skill, and counts them', () => {
    const sev = report.findings.map((f) => ['error', 'warning', 'note'].indexOf(f.severity));
    expect(sev).toEqual([...sev].sort((a, b) => a - b));
    expect(report.counts.error + report.counts.warning + report.counts.note).toBe(
      report.findings.length,
    );
    for (const [code, n] of Object.entries(report.counts.by_code))
      expect(only(code as LintCode)).toHaveLength(n);
    expect(lintLibrary({ scopes, ...NO_HOME }).findings).toEqual(report.findings);
  });

  it('checks ran: ranking and discovery, not telemetry (no catalog given)', () => {
    expect(report.checks).toEqual({ ranking: true, discovery: true, telemetry: false });
    expect(report.catalog).toBeNull();
    expect(typeof report.policy).toBe('string');
    expect(only('NEVER_FETCHED')).toEqual([]);
  });
});

describe('with an existing catalog', () => {
  it('NEVER_FETCHED: suggested at least N times and never fetched; a fetched skill is not reported', () => {
    const root = tmpTree(CLEAN);
    const catalog = newCatalogPath();
    indexCatalog({ catalog, scopes: [root], ...NO_HOME });
    const router = new Router({ catalog });
    for (let i = 0; i < 3; i++) router.search({ query: 'haiku poems syllable', limit: 1 });
    for (let i = 0; i < 3; i++) {
      const r = router.search({ query: 'postgres indexes slow query', limit: 1 });
      const c = r.candidates[0]!;
      if (i === 0)
        router.fetch({
          skill_id: c.skill_id,
          expected_revision: c.revision_id,
          catalog_generation: c.catalog_generation,
          context: 'test',
        });
    }
    router.close();
    const r = lintLibrary({
      scopes: [root],
      ...NO_HOME,
      catalog,
      thresholds: { never_fetched_suggestions: 3 },
    });
    expect(r.checks.telemetry).toBe(true);
    expect(r.catalog).toBe(catalog);
    expect(r.findings.filter((f) => f.code === 'NEVER_FETCHED').map((f) => f.skill_ids[0])).toEqual(
      ['haiku-poet'],
    );
    // Lint's own self-queries record nothing: a second run sees the same counts.
    expect(
      lintLibrary({
        scopes: [root],
        ...NO_HOME,
        catalog,
        thresholds: { never_fetched_suggestions: 3 },
      }).findings,
    ).toEqual(r.findings);
  });

  it('CATALOG_STALE: a file changed since indexing is not ranked, and says so', () => {
    const root = tmpTree(CLEAN);
    const catalog = newCatalogPath();
    indexCatalog({ catalog, scopes: [root], ...NO_HOME });
    const file = path.join(root, 'haiku-poet', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + '\nMore.\n');
    const r = lintLibrary({ scopes: [root], ...NO_HOME, catalog });
    expect(r.findings.map((f) => [f.code, f.skill_ids[0]])).toEqual([
      ['CATALOG_STALE', 'haiku-poet'],
    ]);
  });

  it('a missing catalog is refused with CATALOG_MISSING', () => {
    expect(() =>
      lintLibrary({ scopes: [cleanLibrary()], ...NO_HOME, catalog: newCatalogPath() }),
    ).toThrow(expect.objectContaining({ code: 'CATALOG_MISSING' }));
  });
});

describe('clean library', () => {
  it('has no finding', () => {
    const r = lintLibrary({ scopes: [cleanLibrary()], ...NO_HOME });
    expect(r.skills).toBe(4);
    expect(r.findings).toEqual([]);
    expect(r.counts).toEqual({ error: 0, warning: 0, note: 0, by_code: {} });
  });

  it('refuses an unknown threshold', () => {
    expect(() =>
      lintLibrary({ scopes: [cleanLibrary()], ...NO_HOME, thresholds: { nope: 1 } as never }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('options', () => {
  it('refuses an unknown option key', () => {
    expect(() =>
      lintLibrary({ scopes: [cleanLibrary()], ...NO_HOME, catalogue: 'x' } as never),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
