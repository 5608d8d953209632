/**
 * `skilldex listing` on a made-up home (issue 23 §2): the skills each host sees and the controls in
 * force (Claude Code: personal, project and plugin skills, `disable-model-invocation`,
 * `skillOverrides` by precedence, `~/.claude.json` usage, budget settings; Codex: its roots, dot
 * folders skipped, `[[skills.config]]` rules, `agents/openai.yaml` policy), the plan (the router skill
 * first, plugin skills fixed, the result within the budget), and `--apply` / `--undo` (every other key
 * kept, permissions kept, a backup, values changed since left alone, a file skilldex created
 * removed, a config that cannot take the entries refused untouched with CONFIG_INVALID).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CODEX_BEGIN,
  ROUTED_OVERRIDE,
  applyListing,
  claudeCodeSkills,
  codexSkills,
  listingReport,
  undoListing,
} from '../../src/hosts/index.js';
import { runCli, tmpDir, writeTree } from '../support/cli.js';

function md(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n\nBody.\n`;
}

const long = (w: string): string => `${w} `.repeat(120).trim();

/** A home with personal, project and plugin skills for Claude Code, and Codex roots. */
function home(): { home: string; project: string; env: Record<string, string> } {
  const h = tmpDir('skilldex-listing-');
  const project = path.join(h, 'work', 'repo');
  writeTree(h, {
    '.claude/skills/skill-router/SKILL.md': md('skill-router', 'Load this first to find a skill.'),
    '.claude/skills/pdf/SKILL.md': md('pdf', long('pdf')),
    '.claude/skills/deploy/SKILL.md': md(
      'deploy',
      long('deploy'),
      'disable-model-invocation: true\n',
    ),
    '.claude/skills/nested/deeper/SKILL.md': md('deeper', 'not listed: two folders down'),
    '.claude/skills/legacy/SKILL.md': md('legacy', long('legacy')),
    '.claude/settings.json': JSON.stringify({
      theme: 'dark',
      skillOverrides: { legacy: 'name-only', pdf: 'off' },
    }),
    '.claude.json': JSON.stringify({
      skillUsage: { pdf: { usageCount: 9, lastUsedAt: Date.now() } },
    }),
    '.claude/plugins/installed_plugins.json': JSON.stringify({
      version: 2,
      plugins: { 'acme@market': [{ installPath: 'acme' }] },
    }),
    '.claude/plugins/acme/skills/lint-fix/SKILL.md': md('lint-fix', long('lint')),
    'work/repo/.git/HEAD': 'ref: refs/heads/main\n',
    'work/repo/.claude/skills/proj/SKILL.md': md('proj', long('proj')),
    'work/repo/.claude/settings.local.json': JSON.stringify({ skillOverrides: { pdf: 'on' } }),
    '.codex/skills/.system/creator/SKILL.md': md('creator', long('creator')),
    '.codex/skills/old/SKILL.md': md('old', long('old')),
    '.codex/skills/old/.hidden/SKILL.md': md('hidden-one', 'under a dot folder'),
    '.agents/skills/skill-router/SKILL.md': md('skill-router', 'Load this first to find a skill.'),
    '.agents/skills/csv/SKILL.md': md('csv', long('csv')),
    '.agents/skills/quiet/SKILL.md': md('quiet', long('quiet')),
    '.agents/skills/quiet/agents/openai.yaml': 'policy:\n  allow_implicit_invocation: false\n',
    'work/repo/.agents/skills/repo-skill/SKILL.md': md('repo-skill', long('repo')),
    '.codex/config.toml': 'model = "gpt-5"\n\n[[skills.config]]\nname = "csv"\nenabled = false\n',
  });
  return { home: h, project, env: { HOME: h } };
}

describe('the skills each host sees', () => {
  it('Claude Code: scopes, plugin names, overrides by precedence, usage, disable-model-invocation', () => {
    const h = home();
    const r = claudeCodeSkills({ ...h, systemRoot: tmpDir() });
    const by = new Map(r.skills.map((s) => [s.id, s]));
    expect([...by.keys()].sort()).toEqual([
      'acme:lint-fix',
      'deploy',
      'legacy',
      'pdf',
      'proj',
      'skill-router',
    ]);
    expect(by.get('pdf')).toMatchObject({ visibility: 'full', control: 'on' });
    expect(by.get('pdf')!.control_file).toContain('settings.local.json');
    expect(by.get('pdf')!.usage).toBeGreaterThan(8);
    expect(by.get('legacy')).toMatchObject({ visibility: 'name-only', control: 'name-only' });
    expect(by.get('deploy')).toMatchObject({
      visibility: 'hidden',
      control: 'disable-model-invocation',
    });
    expect(by.get('acme:lint-fix')).toMatchObject({
      controllable: false,
      scope: 'plugin',
      skill_id: 'acme:lint-fix',
    });
  });

  it('Codex: tiers, dot folders skipped, config.toml rules and the openai.yaml policy', () => {
    const h = home();
    const r = codexSkills({ ...h, systemRoot: tmpDir() });
    expect(r.skills.map((s) => [s.id, s.scope, s.visibility])).toEqual([
      ['creator', 'system', 'full'],
      ['repo-skill', 'repo', 'full'],
      ['csv', 'user', 'hidden'],
      ['old', 'user', 'full'],
      ['quiet', 'user', 'hidden'],
      ['skill-router', 'user', 'full'],
    ]);
    expect(r.skills.find((s) => s.id === 'quiet')!.control).toBe(
      'allow_implicit_invocation: false',
    );
  });

  it('reports a settings file it cannot parse and goes on', () => {
    const h = home();
    writeFileSync(path.join(h.home, '.claude', 'settings.json'), '{ not json');
    const r = claudeCodeSkills({ ...h, systemRoot: tmpDir() });
    expect(r.problems.map((p) => p.code)).toContain('HOST_SETTINGS_UNREADABLE');
    expect(r.skills.find((s) => s.id === 'legacy')!.visibility).toBe('full');
  });
});

describe('the report and the plan', () => {
  it('keeps the router skill first and plugin skills fixed, and the plan fits the budget', () => {
    const h = home();
    const r = listingReport({ ...h, systemRoot: tmpDir(), host: 'claude-code', budgetChars: 1300 });
    expect(r.now.over_budget).toBe(true);
    const plan = new Map(r.skills.map((s) => [s.id, s.plan]));
    expect(plan.get('skill-router')).toBe('keep');
    expect(plan.get('acme:lint-fix')).toBe('fixed');
    expect(plan.get('deploy')).toBe('hidden');
    expect(r.planned.total).toBeLessThanOrEqual(1300);
    expect(r.router_skill).toBe(true);
    // pdf is the most used (its ~/.claude.json record): kept before proj.
    expect(plan.get('pdf')).toBe('keep');
  });

  it('Codex: the plan routes what does not fit and lists the rest in full', () => {
    const h = home();
    const r = listingReport({ ...h, systemRoot: tmpDir(), host: 'codex', budgetChars: 700 });
    expect(r.planned.total).toBeLessThanOrEqual(700);
    expect(r.planned.counts.omitted).toBe(0);
    expect(r.skills.filter((s) => s.plan === 'route').length).toBeGreaterThan(0);
  });
});

describe('apply and undo', () => {
  it('Claude Code: overrides written beside every other key, undone key by key', () => {
    const h = home();
    const file = path.join(h.home, '.claude', 'settings.json');
    chmodSync(file, 0o600);
    const r = applyListing({ host: 'claude-code', home: h.home, env: h.env }, ['proj', 'legacy']);
    expect(r.changed).toEqual(['legacy', 'proj']);
    const after = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(after).toEqual({
      theme: 'dark',
      skillOverrides: { legacy: ROUTED_OVERRIDE, pdf: 'off', proj: ROUTED_OVERRIDE },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(r.backup!, 'utf8')).toContain('"legacy":"name-only"');
    // The user changes one of them by hand: undo leaves that one.
    after['skillOverrides'] = { ...(after['skillOverrides'] as object), proj: 'on' };
    writeFileSync(file, JSON.stringify(after));
    const u = undoListing({ host: 'claude-code', home: h.home, env: h.env });
    expect(u).toMatchObject({ done: true, changed: ['legacy'], kept: ['proj'] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      theme: 'dark',
      skillOverrides: { legacy: 'name-only', pdf: 'off', proj: 'on' },
    });
    expect(undoListing({ host: 'claude-code', home: h.home, env: h.env }).done).toBe(false);
  });

  it('a second apply replaces the first; a file skilldex created goes away on undo', () => {
    const h = { home: tmpDir('skilldex-listing-bare-'), env: {} as Record<string, string> };
    const file = path.join(h.home, '.claude', 'settings.json');
    applyListing({ host: 'claude-code', ...h }, ['a', 'b']);
    applyListing({ host: 'claude-code', ...h }, ['b', 'c']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      skillOverrides: { b: ROUTED_OVERRIDE, c: ROUTED_OVERRIDE },
    });
    undoListing({ host: 'claude-code', ...h });
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a settings file it cannot parse, leaving it untouched', () => {
    const h = home();
    const file = path.join(h.home, '.claude', 'settings.json');
    writeFileSync(file, '{ broken');
    expect(() => applyListing({ host: 'claude-code', home: h.home, env: h.env }, ['x'])).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('Codex: a marked block of [[skills.config]] entries, appended and removed', () => {
    const h = home();
    const file = path.join(h.home, '.codex', 'config.toml');
    const before = readFileSync(file, 'utf8');
    applyListing({ host: 'codex', home: h.home, env: h.env }, ['/x/old/SKILL.md']);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(before)).toBe(true);
    expect(text).toContain(CODEX_BEGIN);
    expect(text).toContain('path = "/x/old/SKILL.md"\nenabled = false');
    undoListing({ host: 'codex', home: h.home, env: h.env });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('Codex: refuses a config whose inline skills table cannot take the entries, untouched', () => {
    const h = home();
    const file = path.join(h.home, '.codex', 'config.toml');
    writeFileSync(file, 'skills = { config = [] }\n');
    expect(() =>
      applyListing({ host: 'codex', home: h.home, env: h.env }, ['/x/SKILL.md']),
    ).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(readFileSync(file, 'utf8')).toBe('skills = { config = [] }\n');
  });
});

describe('the CLI', () => {
  it('reports, applies, plans again from its own controls, and undoes', async () => {
    const h = home();
    const env = { ...h.env, XDG_DATA_HOME: path.join(h.home, 'data') };
    const opts = { cwd: h.project, env };
    const dry = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '900', '--json'],
      opts,
    );
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { skills: { id: string; plan: string }[] };
    const routed = report.skills.filter((s) => s.plan === 'route').map((s) => s.id);
    expect(routed.length).toBeGreaterThan(0);
    const text = await runCli(['listing', '--host', 'claude-code', '--budget-chars', '900'], opts);
    expect(text.stdout).toContain('dry run: nothing written');
    const applied = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '900', '--apply', '--json'],
      opts,
    );
    expect(applied.code, applied.stderr).toBe(0);
    const again = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '900', '--json'],
      opts,
    );
    const second = JSON.parse(again.stdout) as { skills: { id: string; plan: string }[] };
    expect(second.skills.filter((s) => s.plan === 'route').map((s) => s.id)).toEqual(routed);
    const undo = await runCli(['listing', '--host', 'claude-code', '--undo', '--json'], opts);
    expect(undo.code).toBe(0);
    const none = await runCli(['listing', '--host', 'claude-code', '--undo'], opts);
    expect(none.code).toBe(1);
  });

  it('refuses --apply without the router skill (ROUTER_SKILL_MISSING), a bad host, --apply with --undo', async () => {
    const h = tmpDir('skilldex-listing-norouter-');
    mkdirSync(path.join(h, '.claude', 'skills', 'one'), { recursive: true });
    writeFileSync(path.join(h, '.claude', 'skills', 'one', 'SKILL.md'), md('one', long('one')));
    const opts = { cwd: h, env: { HOME: h } };
    const r = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '10', '--apply', '--json'],
      opts,
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'ROUTER_SKILL_MISSING' } });
    for (const argv of [
      ['listing', '--host', 'cursor'],
      ['listing', '--host', 'codex', '--apply', '--undo'],
      ['listing', '--host', 'codex', '--budget-chars', '0'],
    ]) {
      const bad = await runCli([...argv, '--json'], opts);
      expect(bad.code, argv.join(' ')).toBe(2);
      expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
  });
});
