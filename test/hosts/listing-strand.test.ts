/**
 * `listing --apply` that cannot strand skills (issues 35 and 36 L14): without a skilldex MCP server
 * registered in the host's own config it never takes a skill out of the model's listing (Claude
 * Code gets `name-only`; `--control user-invocable-only` and Codex are refused with
 * MCP_SERVER_MISSING naming the fix, the file untouched); with one it does. `settings.json` keeps
 * every byte the apply does not change, and `--undo` restores it exactly. The text report names the
 * skills kept and why; `--budget-fraction` writes `skillListingBudgetFraction`. A project's skills
 * never push the user's personal skills out of the global settings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tmpDir, writeTree } from '../support/cli.js';

function md(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\nBody.\n`;
}

const long = (w: string): string => `${w} `.repeat(120).trim();

// A settings file laid out by hand: tabs, a one-line array, no trailing newline, odd key order.
const SETTINGS =
  '{\n\t"theme":   "dark",\n\t"permissions": {"allow": ["Bash(ls)", "Read"]},\n\t"model": "opus"\n}';

/** A home with a router skill, a used skill and long ones that cannot all fit in 900 characters. */
function home(opts: { mcp?: boolean } = {}): {
  home: string;
  settings: string;
  opts: { cwd: string; env: Record<string, string> };
} {
  const h = tmpDir('skilldex-strand-');
  writeTree(h, {
    '.claude/skills/skill-router/SKILL.md': md('skill-router', 'Load this first to find a skill.'),
    '.claude/skills/pdf/SKILL.md': md('pdf', long('pdf')),
    '.claude/skills/alpha/SKILL.md': md('alpha', long('alpha')),
    '.claude/skills/beta/SKILL.md': md('beta', long('beta')),
    '.claude/skills/gamma/SKILL.md': md('gamma', 'Gamma rays, spectra and detectors, measured.'),
    '.claude/settings.json': SETTINGS,
    '.claude.json': JSON.stringify({
      skillUsage: { pdf: { usageCount: 9, lastUsedAt: Date.now() } },
      ...(opts.mcp ? { mcpServers: { skilldex: { command: 'skilldex', args: ['mcp'] } } } : {}),
    }),
    '.codex/skills/skill-router/SKILL.md': md('skill-router', 'Load this first to find a skill.'),
    '.codex/skills/old/SKILL.md': md('old', long('old')),
    '.codex/skills/older/SKILL.md': md('older', long('older')),
    '.codex/config.toml': `model = "gpt-5"\n${opts.mcp ? '\n[mcp_servers.skilldex]\ncommand = "skilldex"\nargs = ["mcp"]\n' : ''}`,
  });
  const env = { HOME: h, XDG_DATA_HOME: path.join(h, 'data') };
  return { home: h, settings: path.join(h, '.claude', 'settings.json'), opts: { cwd: h, env } };
}

const claude = (...more: string[]): string[] => [
  'listing',
  '--host',
  'claude-code',
  '--budget-chars',
  '900',
  ...more,
];

function overrides(file: string): Record<string, string> {
  return (JSON.parse(readFileSync(file, 'utf8')) as { skillOverrides?: Record<string, string> })
    .skillOverrides!;
}

describe('listing --apply without the MCP server', () => {
  it('Claude Code: writes name-only, never user-invocable-only, and says so', async () => {
    const h = home();
    const r = await runCli(claude('--apply'), h.opts);
    expect(r.code, r.stderr).toBe(0);
    const ov = overrides(h.settings);
    expect(Object.keys(ov).length).toBeGreaterThan(0);
    expect(new Set(Object.values(ov))).toEqual(new Set(['name-only']));
    expect(r.stdout).toContain('no skilldex MCP server registered for claude-code');
    expect(r.stdout).toContain('claude mcp add --scope user skilldex --');
    expect(r.stdout).toContain(` ${REPO}/bin/skilldex.js mcp --catalog `);
  });

  it('records name-only controls apart, so the prompt hook never sends the model to skill_fetch for them', async () => {
    const h = home();
    await runCli(claude('--apply'), h.opts);
    // src/hook/suggest.ts reads `written` as the skills out of the listing (loaded with skill_fetch).
    const state = JSON.parse(
      readFileSync(path.join(h.home, 'data/skilldex/listing/claude-code.json'), 'utf8'),
    ) as { written: Record<string, string>; listed_by_name: Record<string, string> };
    expect(state.written).toEqual({});
    expect(Object.keys(state.listed_by_name).sort()).toEqual(
      Object.keys(overrides(h.settings)).sort(),
    );
    const withMcp = home({ mcp: true });
    await runCli(claude('--apply'), withMcp.opts);
    const s2 = JSON.parse(
      readFileSync(path.join(withMcp.home, 'data/skilldex/listing/claude-code.json'), 'utf8'),
    ) as { written: Record<string, string> };
    expect(Object.keys(s2.written).length).toBeGreaterThan(0);
  });

  it('never routes the router skill, even when its line does not fit the budget', async () => {
    const h = home();
    const r = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '20', '--apply', '--json'],
      h.opts,
    );
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { skills: { id: string; plan: string }[] };
    expect(rep.skills.find((s) => s.id === 'skill-router')?.plan).toBe('keep');
    expect(overrides(h.settings)['skill-router']).toBeUndefined();
  });

  it("Claude Code: a project's .mcp.json or local-scope server does not count for the global settings", async () => {
    const h = home();
    const server = { command: 'skilldex', args: ['mcp'] };
    writeFileSync(
      path.join(h.home, '.mcp.json'),
      JSON.stringify({ mcpServers: { skilldex: server } }),
    );
    writeFileSync(
      path.join(h.home, '.claude.json'),
      JSON.stringify({ projects: { [h.home]: { mcpServers: { skilldex: server } } } }),
    );
    expect((await runCli(claude('--apply'), h.opts)).code).toBe(0);
    expect(new Set(Object.values(overrides(h.settings)))).toEqual(new Set(['name-only']));
  });

  it('Claude Code: refuses --control user-invocable-only with MCP_SERVER_MISSING naming claude mcp add, untouched', async () => {
    const h = home();
    const r = await runCli(claude('--apply', '--control', 'user-invocable-only', '--json'), h.opts);
    expect(r.code).toBe(2);
    const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('MCP_SERVER_MISSING');
    expect(err.message).toContain('claude mcp add --scope user skilldex --');
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS);
  });

  it('Codex: refuses with MCP_SERVER_MISSING naming skilldex init, config.toml untouched', async () => {
    const h = home();
    const file = path.join(h.home, '.codex', 'config.toml');
    const before = readFileSync(file, 'utf8');
    const r = await runCli(
      ['listing', '--host', 'codex', '--budget-chars', '300', '--apply', '--json'],
      h.opts,
    );
    expect(r.code).toBe(2);
    const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('MCP_SERVER_MISSING');
    expect(err.message).toContain('skilldex init --client codex --yes');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('listing --apply with the MCP server', () => {
  it('Claude Code: auto takes routed skills out of the listing; Codex applies', async () => {
    const h = home({ mcp: true });
    const r = await runCli(claude('--apply'), h.opts);
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(Object.values(overrides(h.settings)))).toEqual(new Set(['user-invocable-only']));
    const c = await runCli(
      ['listing', '--host', 'codex', '--budget-chars', '300', '--apply'],
      h.opts,
    );
    expect(c.code, c.stderr).toBe(0);
    expect(readFileSync(path.join(h.home, '.codex', 'config.toml'), 'utf8')).toContain(
      'enabled = false',
    );
  });

  it('--control name-only is honoured even with the server', async () => {
    const h = home({ mcp: true });
    await runCli(claude('--apply', '--control', 'name-only'), h.opts);
    expect(new Set(Object.values(overrides(h.settings)))).toEqual(new Set(['name-only']));
  });
});

describe('bytes of settings.json', () => {
  it('keeps every byte it does not change, and --undo restores the file exactly', async () => {
    const h = home();
    expect((await runCli(claude('--apply'), h.opts)).code).toBe(0);
    const after = readFileSync(h.settings, 'utf8');
    // Every original line but the last member's stays as written (tabs, spacing, one-line array).
    expect(after).toContain('\t"theme":   "dark",\n');
    expect(after).toContain('\t"permissions": {"allow": ["Bash(ls)", "Read"]},\n');
    expect(after.endsWith('}')).toBe(true);
    const u = await runCli(['listing', '--host', 'claude-code', '--undo'], h.opts);
    expect(u.code).toBe(0);
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS);
  });

  it('a second apply and its undo also come back to the exact bytes', async () => {
    const h = home();
    await runCli(claude('--apply'), h.opts);
    await runCli(['listing', '--host', 'claude-code', '--budget-chars', '600', '--apply'], h.opts);
    await runCli(['listing', '--host', 'claude-code', '--undo'], h.opts);
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS);
  });

  it('after the user edits the file, undo takes back only its own entries, keeping their bytes', async () => {
    const h = home();
    await runCli(claude('--apply'), h.opts);
    const edited = readFileSync(h.settings, 'utf8').replace('"opus"', '"sonnet"');
    writeFileSync(h.settings, edited);
    await runCli(['listing', '--host', 'claude-code', '--undo'], h.opts);
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS.replace('"opus"', '"sonnet"'));
  });
});

describe('the report and --budget-fraction', () => {
  it('names the skills it keeps and why', async () => {
    const h = home();
    const r = await runCli(claude(), h.opts);
    expect(r.stdout).toMatch(/kept \(\d+\):/);
    expect(r.stdout).toContain('skill-router  (the router skill)');
    expect(r.stdout).toContain('pdf  (used: 9)');
    expect(r.stdout).toMatch(/gamma {2}\(distinctive: \d+ word/);
    const j = JSON.parse((await runCli(claude('--json'), h.opts)).stdout) as {
      skills: { id: string; keep_reason?: { why: string } }[];
    };
    expect(j.skills.find((s) => s.id === 'pdf')?.keep_reason?.why).toBe('usage');
  });

  it('--budget-fraction plans with it and writes skillListingBudgetFraction; undo takes it back', async () => {
    const h = home();
    const r = await runCli(
      ['listing', '--host', 'claude-code', '--budget-fraction', '0.02', '--apply', '--json'],
      h.opts,
    );
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { budget: { limit: number; source: string } };
    expect(rep.budget).toMatchObject({ limit: 16000, source: 'settings' });
    const s = JSON.parse(readFileSync(h.settings, 'utf8')) as Record<string, unknown>;
    expect(s['skillListingBudgetFraction']).toBe(0.02);
    await runCli(['listing', '--host', 'claude-code', '--undo'], h.opts);
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS);
    const bad = await runCli(['listing', '--host', 'codex', '--budget-fraction', '0.02'], h.opts);
    expect(bad.code).toBe(2);
  });
});

describe('project skills and the global settings (issue 36 L14)', () => {
  it("never routes a personal skill because of a project's skills, nor writes a project's skill", async () => {
    const h = tmpDir('skilldex-l14-');
    const personal = ['skill-router', 'notes', 'mail', 'todo', 'diary', 'budget'];
    const files: Record<string, string> = {
      '.claude/settings.json': '{}\n',
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
    };
    for (const p of personal)
      files[`.claude/skills/${p}/SKILL.md`] = md(p, 'Helps with the usual things every day.');
    for (let i = 0; i < 60; i++)
      files[`repo/.claude/skills/proj-${i}/SKILL.md`] = md(
        `proj-${i}`,
        `Project word${i}a word${i}b word${i}c word${i}d word${i}e handling.`,
      );
    writeTree(h, files);
    const opts = { cwd: path.join(h, 'repo'), env: { HOME: h, XDG_DATA_HOME: path.join(h, 'd') } };
    const r = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '1000', '--apply', '--json'],
      opts,
    );
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { skills: { id: string; plan: string }[] };
    for (const p of personal) expect(rep.skills.find((s) => s.id === p)?.plan).toBe('keep');
    expect(
      rep.skills.filter((s) => s.id.startsWith('proj-')).every((s) => s.plan === 'project'),
    ).toBe(true);
    const s = JSON.parse(readFileSync(path.join(h, '.claude/settings.json'), 'utf8')) as {
      skillOverrides?: Record<string, string>;
    };
    expect(s.skillOverrides ?? {}).toEqual({});
  });
});
