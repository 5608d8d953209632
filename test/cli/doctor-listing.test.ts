/**
 * doctor's `listing.<host>` check names listing controls that are no longer in force (issue 35,
 * "listing controls in force"): after a real `listing --apply`, every control written is `ok`
 * ("N of N"); a control taken out of Claude Code's settings.json by hand, or the block taken out of
 * Codex's config.toml, is a `warn` saying how many are still in force, with the fix (plan again).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

interface Check {
  id: string;
  status: string;
  message: string;
  fix?: string;
}

const long = (w: string): string => `${w} `.repeat(120).trim();

function home(): { home: string; env: Record<string, string> } {
  const skills: Record<string, string> = {};
  for (const n of ['alpha', 'beta', 'gamma', 'delta']) {
    skills[`.claude/skills/${n}/SKILL.md`] = skillMd(n, long(n));
    skills[`.codex/skills/${n}/SKILL.md`] = skillMd(n, long(n));
  }
  const h = tmpTree({
    ...skills,
    '.claude/skills/skill-router/SKILL.md': skillMd('skill-router', 'Load this to find a skill.'),
    '.codex/skills/skill-router/SKILL.md': skillMd('skill-router', 'Load this to find a skill.'),
    '.claude/settings.json': '{\n  "theme": "dark"\n}\n',
    // Codex applies only with its skilldex MCP server registered.
    '.codex/config.toml': 'model = "o4"\n\n[mcp_servers.skilldex]\ncommand = "skilldex"\n',
  });
  return { home: h, env: { HOME: h, XDG_DATA_HOME: path.join(h, 'data') } };
}

async function listingCheck(h: { home: string; env: Record<string, string> }, host: string) {
  const r = await runCli(['doctor', '--json'], { cwd: h.home, env: h.env });
  const checks = (JSON.parse(r.stdout) as { checks: Check[] }).checks;
  return checks.find((c) => c.id === `listing.${host}`)!;
}

describe('doctor: listing controls in force', () => {
  it('Claude Code: ok while every control is there; a control removed by hand is a warn with the fix', async () => {
    const h = home();
    const apply = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '900', '--apply', '--json'],
      { cwd: h.home, env: h.env },
    );
    expect(apply.code, apply.stderr).toBe(0);
    const settings = path.join(h.home, '.claude/settings.json');
    const doc = JSON.parse(readFileSync(settings, 'utf8')) as {
      skillOverrides: Record<string, string>;
    };
    const n = Object.keys(doc.skillOverrides).length;
    expect(n).toBeGreaterThan(1);
    const ok = await listingCheck(h, 'claude-code');
    expect(ok.status).toBe('ok');
    expect(ok.message).toContain(`${n} of ${n} control(s)`);

    const [first] = Object.keys(doc.skillOverrides);
    delete doc.skillOverrides[first!];
    writeFileSync(settings, JSON.stringify(doc, null, 2));
    const warn = await listingCheck(h, 'claude-code');
    expect(warn.status).toBe('warn');
    expect(warn.message).toContain(`${n - 1} of ${n} control(s)`);
    expect(warn.fix).toBe('skilldex listing --host claude-code --apply to plan again');
  });

  it("Codex: ok with skilldex's block in config.toml; the block removed by hand is a warn", async () => {
    const h = home();
    const apply = await runCli(
      ['listing', '--host', 'codex', '--budget-chars', '300', '--apply', '--json'],
      { cwd: h.home, env: h.env },
    );
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect((await listingCheck(h, 'codex')).status).toBe('ok');
    const file = path.join(h.home, '.codex/config.toml');
    const text = readFileSync(file, 'utf8');
    const begin = text.indexOf('# >>> skilldex listing');
    expect(begin).toBeGreaterThan(0);
    writeFileSync(file, text.slice(0, begin));
    const warn = await listingCheck(h, 'codex');
    expect(warn.status).toBe('warn');
    expect(warn.message).toMatch(/^0 of \d+ control\(s\)/);
    expect(warn.fix).toBe('skilldex listing --host codex --apply to plan again');
  });
});
