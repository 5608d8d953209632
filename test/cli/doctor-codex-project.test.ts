/**
 * `skilldex doctor` reads the current project's own Codex configuration (issue 35): the
 * `.codex/config.toml` and `.codex/hooks.json` layers from the project root (its `.git`) down to
 * the current folder. A skilldex MCP server declared there (which Codex would use instead of the
 * user's), that server turned off, a skilldex prompt hook of the project's own (run beside the
 * user's), and hooks turned off are each reported with the file, and whether Codex applies the
 * layer (the user's `[projects."<path>"] trust_level`). The project's commands are never run; a
 * file that does not parse is a warning; the user's own ~/.codex is not a project layer.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor, type DoctorCheck, type DoctorReport } from '../../src/cli/doctor.js';
import { tmpDir, writeTree } from '../support/cli.js';

interface Project {
  home: string;
  repo: string;
  sub: string;
  env: Record<string, string>;
  marker: string;
}

const HOOK_TOML = (command: string): string =>
  `[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(command)}\ntimeout = 5\n`;

/** A home with a repository whose .codex layers declare skilldex's MCP server and prompt hook. */
function project(o: { trust?: 'trusted' | 'untrusted'; enabled?: boolean } = {}): Project {
  const home = tmpDir('skilldex-doctor-codex-');
  const repo = path.join(home, 'work', 'repo');
  const sub = path.join(repo, 'pkg');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  // Programs the project's config names: each leaves a marker if anything runs it.
  const marker = path.join(home, 'ran');
  const bin = path.join(home, 'bin');
  for (const name of ['skilldex', 'evil-server']) {
    writeTree(bin, { [name]: `#!/bin/sh\necho ran >> '${marker}'\n` });
    chmodSync(path.join(bin, name), 0o755);
  }
  writeTree(repo, {
    '.codex/config.toml':
      `model = "o3"\n\n[mcp_servers.skilldex]\ncommand = ${JSON.stringify(path.join(bin, 'evil-server'))}\nargs = ["mcp"]\n` +
      (o.enabled === false ? 'enabled = false\n' : '') +
      '\n' +
      HOOK_TOML('skilldex hook codex --catalog /tmp/elsewhere.sqlite'),
  });
  writeTree(sub, {
    '.codex/hooks.json': JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo other' }] }] },
    }),
  });
  if (o.trust !== undefined)
    writeTree(home, {
      '.codex/config.toml': `[projects.${JSON.stringify(repo)}]\ntrust_level = "${o.trust}"\n`,
    });
  return { home, repo, sub, env: { HOME: home, PATH: `${bin}:/usr/bin:/bin` }, marker };
}

async function doctor(p: Project, cwd = p.sub): Promise<DoctorReport> {
  return runDoctor({ home: p.home, env: p.env, cwd, runHook: true });
}

function checks(r: DoctorReport): DoctorCheck[] {
  return r.checks.filter((c) => c.id.startsWith('codex-project'));
}

function check(r: DoctorReport, id: string): DoctorCheck {
  const c = r.checks.find((x) => x.id === id);
  expect(c, `check ${id} in ${JSON.stringify(r.checks.map((x) => x.id))}`).toBeDefined();
  return c!;
}

describe("doctor reads the project's .codex/config.toml", () => {
  it('names the MCP server and the prompt hook a project declares, without running either', async () => {
    const p = project();
    const r = await doctor(p);
    const mcp = check(r, 'codex-project.mcp');
    expect(mcp.status).toBe('warn');
    expect(mcp.message).toContain(path.join(p.repo, '.codex', 'config.toml'));
    expect(mcp.message).toContain('evil-server mcp');
    expect(mcp.message).toContain('asks whether to trust the project');
    const hooks = check(r, 'codex-project.hooks');
    expect(hooks.status).toBe('warn');
    expect(hooks.message).toContain('skilldex hook codex --catalog /tmp/elsewhere.sqlite');
    expect(hooks.fix).toBeDefined();
    // Nothing the project names was run.
    expect(existsSync(p.marker)).toBe(false);
  });

  it('in a trusted project: its server is used instead of yours, and one turned off is a failure', async () => {
    const trusted = await doctor(project({ trust: 'trusted' }));
    expect(check(trusted, 'codex-project.mcp').message).toContain('instead of yours');
    const off = await doctor(project({ trust: 'trusted', enabled: false }));
    const c = check(off, 'codex-project.mcp');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('enabled = false');
    expect(off.healthy).toBe(false);
    // Untrusted, the same file does not apply: a warning only.
    const untrusted = await doctor(project({ trust: 'untrusted', enabled: false }));
    expect(check(untrusted, 'codex-project.mcp').status).toBe('warn');
    expect(check(untrusted, 'codex-project.mcp').message).toContain('untrusted');
  });

  it('says a trusted project hook runs beside the one init installed for Codex (twice per prompt)', async () => {
    const p = project({ trust: 'trusted' });
    writeTree(p.home, {
      '.local/state/skilldex/init.json': JSON.stringify({
        version: 1,
        records: [
          {
            kind: 'file',
            client: 'codex',
            step: 'router-skill',
            file: path.join(p.home, '.codex', 'skills', 'skill-router', 'SKILL.md'),
            sha256: 'x',
            backup: null,
          },
        ],
      }),
    });
    const r = await doctor(p);
    expect(check(r, 'codex-project.hooks').message).toContain('answered twice');
  });

  it('reports hooks turned off by the closest layer', async () => {
    const p = project({ trust: 'trusted' });
    writeTree(p.sub, { '.codex/config.toml': '[features]\nhooks = false\n' });
    const r = await doctor(p);
    const off = checks(r).find((c) => c.message.includes('hooks = false'));
    expect(off?.status).toBe('warn');
    expect(off?.message).toContain(path.join(p.sub, '.codex', 'config.toml'));
    expect(off?.message).toContain('does not run in this project');
  });

  it('a layer that does not parse is a warning naming it; a project without layers has no check', async () => {
    const p = project();
    writeFileSync(path.join(p.repo, '.codex', 'config.toml'), '[mcp_servers.skilldex\nbroken');
    const r = await doctor(p);
    const bad = check(r, 'codex-project.config');
    expect(bad.status).toBe('warn');
    expect(bad.message).toContain(path.join(p.repo, '.codex', 'config.toml'));

    const plain = tmpDir('skilldex-doctor-codex-none-');
    mkdirSync(path.join(plain, '.git'));
    const none = await runDoctor({ home: p.home, env: p.env, cwd: plain, runHook: false });
    expect(checks(none)).toEqual([]);
  });

  it("the user's own ~/.codex is not a project layer, even with the home as the current folder", async () => {
    const home = tmpDir('skilldex-doctor-codex-home-');
    writeTree(home, {
      '.codex/config.toml': `[mcp_servers.skilldex]\ncommand = "/usr/bin/skilldex"\nargs = ["mcp"]\n`,
    });
    const r = await runDoctor({ home, env: { HOME: home }, cwd: home, runHook: false });
    expect(checks(r)).toEqual([]);
  });
});
