/**
 * `skilldex init` (issue #12) under a temporary HOME: the plan changes nothing without --yes; with
 * --yes it writes the config, indexes the library, installs the router skill and writes or prints
 * the client's MCP configuration; a second run finds every step done; a user's differing file is
 * never replaced without --force; MCP configs are merged; --move takes the library out of the
 * folders the client loads natively.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface Report {
  applied: boolean;
  library: string;
  catalog: string;
  steps: { step: string; action: string; target: string }[];
  notes: string[];
  warnings: string[];
  library_scopes: string[];
  index: { added: unknown[] } | null;
}

const ROUTER = readFileSync(path.join(REPO, 'skills', 'skill-router', 'SKILL.md'), 'utf8');

async function init(
  home: string,
  args: string[],
): Promise<{ code: number; report: Report; stdout: string }> {
  const r = await runCli(['init', ...args, '--json'], { cwd: home, env: { HOME: home } });
  return {
    code: r.code,
    report: (r.code === 0 ? JSON.parse(r.stdout) : undefined) as Report,
    stdout: r.stdout,
  };
}

function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('skilldex init', () => {
  it('prints a plan and changes nothing without --yes, or with --dry-run', async () => {
    const home = tmpTree({ 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') });
    const before = listAll(home);
    for (const args of [
      ['--library', 'lib'],
      ['--library', 'lib', '--yes', '--dry-run'],
    ]) {
      const r = await init(home, args);
      expect(r.code).toBe(0);
      expect(r.report.applied).toBe(false);
      expect(r.report.steps.map((s) => s.step)).toEqual([
        'library',
        'config',
        'index',
        'router-skill',
        'mcp',
        'hook',
      ]);
      expect(listAll(home)).toEqual(before);
    }
  });

  it('claude-code: writes config, indexes, installs the router skill, prints claude mcp add; a second run changes nothing', async () => {
    const home = tmpTree({ 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') });
    const first = await init(home, ['--library', 'lib', '--yes']);
    expect(first.code).toBe(0);
    expect(first.report.applied).toBe(true);
    expect(first.report.index?.added).toHaveLength(1);
    const router = path.join(home, '.claude', 'skills', 'skill-router', 'SKILL.md');
    expect(readFileSync(router, 'utf8')).toBe(ROUTER);
    const config = parseToml(
      readFileSync(path.join(home, '.config', 'skilldex', 'config.toml'), 'utf8'),
    ) as { catalog: string; library: { scopes: string[] } };
    expect(config.library.scopes).toEqual([path.join(home, 'lib')]);
    expect(config.catalog).toBe(path.join(home, '.local', 'share', 'skilldex', 'catalog.sqlite'));
    const mcp = first.report.steps.find((s) => s.step === 'mcp')!;
    expect(mcp.action).toBe('print');
    expect(mcp.target).toMatch(/^claude mcp add --scope user skilldex -- .* mcp --catalog /);

    // The config now drives a bare search from anywhere.
    const search = await runCli(['search', 'alpha pdf tables', '--json'], {
      cwd: REPO,
      env: { HOME: home },
    });
    expect(
      (JSON.parse(search.stdout) as { candidates: { skill_id: string }[] }).candidates[0]?.skill_id,
    ).toBe('alpha');

    const second = await init(home, ['--yes']);
    expect(second.code).toBe(0);
    expect(second.report.library).toBe(path.join(home, 'lib'));
    for (const s of second.report.steps.filter((x) =>
      ['library', 'config', 'router-skill'].includes(x.step),
    ))
      expect(s.action, s.step).toBe('unchanged');
  });

  it('never replaces a differing router skill or config without --force', async () => {
    const home = tmpTree({
      '.claude/skills/skill-router/SKILL.md': 'my own router\n',
      'lib/.keep': '',
    });
    const refused = await runCli(['init', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.stdout) as { error: { code: string } }).error.code).toBe(
      'FILE_EXISTS',
    );
    expect(readFileSync(path.join(home, '.claude/skills/skill-router/SKILL.md'), 'utf8')).toBe(
      'my own router\n',
    );
    expect(existsSync(path.join(home, '.config', 'skilldex', 'config.toml'))).toBe(false);
    const forced = await init(home, ['--library', 'lib', '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(home, '.claude/skills/skill-router/SKILL.md'), 'utf8')).toBe(
      ROUTER,
    );

    // A config that names other library scopes is the user's choice: refused without --force.
    const mine = '# mine\ncatalog = "/elsewhere.sqlite"\n\n[library]\nscopes = ["/my/skills"]\n';
    writeTree(home, { '.config/skilldex/config.toml': mine });
    const config = await runCli(['init', '--library', 'lib', '--yes'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(config.code).toBe(2);
    expect(readFileSync(path.join(home, '.config/skilldex/config.toml'), 'utf8')).toBe(mine);
  });

  it('adds the missing config lines to a user config and keeps every other byte', async () => {
    const original = '# my settings\ncatalog = "/elsewhere.sqlite"\ntelemetry = false\n';
    const home = tmpTree({ '.config/skilldex/config.toml': original, 'lib/.keep': '' });
    const r = await init(home, ['--library', 'lib', '--yes']);
    expect(r.code).toBe(0);
    expect(r.report.catalog).toBe('/elsewhere.sqlite');
    expect(r.report.steps.find((s) => s.step === 'config')?.action).toBe('merge');
    const text = readFileSync(path.join(home, '.config/skilldex/config.toml'), 'utf8');
    expect(text.startsWith(original)).toBe(true);
    expect(parseToml(text)).toEqual({
      catalog: '/elsewhere.sqlite',
      telemetry: false,
      library: { scopes: [path.join(home, 'lib')] },
    });
  });

  it('cursor: merges mcpServers.skilldex into ~/.cursor/mcp.json, keeping other servers', async () => {
    const other = { mcpServers: { other: { command: 'x', args: ['y'] } }, extra: true };
    const home = tmpTree({ '.cursor/mcp.json': JSON.stringify(other), 'lib/.keep': '' });
    const r = await init(home, ['--client', 'cursor', '--library', 'lib', '--yes']);
    expect(r.code).toBe(0);
    expect(r.report.steps.find((s) => s.step === 'mcp')?.action).toBe('merge');
    const merged = JSON.parse(readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8')) as {
      extra: boolean;
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(merged.extra).toBe(true);
    expect(merged.mcpServers['other']).toEqual(other.mcpServers.other);
    expect(merged.mcpServers['skilldex']?.args.slice(1)).toEqual([
      'mcp',
      '--catalog',
      r.report.catalog,
    ]);
    expect(
      readFileSync(path.join(home, '.cursor', 'skills', 'skill-router', 'SKILL.md'), 'utf8'),
    ).toBe(ROUTER);
    const again = await init(home, ['--client', 'cursor', '--yes']);
    expect(again.report.steps.find((s) => s.step === 'mcp')?.action).toBe('unchanged');

    // A different skilldex entry is the user's: refused without --force.
    writeTree(home, {
      '.cursor/mcp.json': JSON.stringify({
        mcpServers: { skilldex: { command: 'mine', args: [] } },
      }),
    });
    const refused = await runCli(['init', '--client', 'cursor', '--yes'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('FILE_EXISTS');
  });

  it('codex: appends [mcp_servers.skilldex] to ~/.codex/config.toml and keeps the rest byte for byte', async () => {
    const original = '# my codex settings\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n';
    const home = tmpTree({ '.codex/config.toml': original, 'lib/.keep': '' });
    const r = await init(home, ['--client', 'codex', '--library', 'lib', '--yes']);
    expect(r.code).toBe(0);
    const text = readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
    expect(text.startsWith(original)).toBe(true);
    const parsed = parseToml(text) as {
      model: string;
      mcp_servers: Record<string, { command: string; args?: string[] }>;
    };
    expect(parsed.model).toBe('o4');
    expect(parsed.mcp_servers['other']?.command).toBe('x');
    expect(parsed.mcp_servers['skilldex']?.args?.slice(1)).toEqual([
      'mcp',
      '--catalog',
      r.report.catalog,
    ]);
    expect(existsSync(path.join(home, '.codex', 'skills', 'skill-router', 'SKILL.md'))).toBe(true);
    const again = await init(home, ['--client', 'codex', '--yes']);
    expect(again.report.steps.find((s) => s.step === 'mcp')?.action).toBe('unchanged');
    expect(readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8')).toBe(text);
  });

  it('generic: prints the snippet and writes no client file', async () => {
    const home = tmpTree({ 'lib/.keep': '' });
    const r = await init(home, ['--client', 'generic', '--library', 'lib', '--yes']);
    expect(r.code).toBe(0);
    expect(r.report.notes.join('\n')).toContain('"mcpServers"');
    expect(existsSync(path.join(home, '.claude'))).toBe(false);
  });

  it('explains a library inside a natively loaded folder, and --move moves it out', async () => {
    const home = tmpTree({
      '.claude/skills/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
      '.claude/skills/beta/SKILL.md': skillMd('beta', 'beta chart helper'),
    });
    const plan = await init(home, ['--library', '.claude/skills']);
    expect(plan.report.notes.join('\n')).toContain('loads natively');
    const moved = await init(home, ['--library', '.claude/skills', '--move', '--yes']);
    expect(moved.code).toBe(0);
    const library = path.join(home, '.local', 'share', 'skilldex', 'library');
    expect(moved.report.library).toBe(library);
    expect(readdirSync(library).sort()).toEqual(['alpha', 'beta']);
    expect(readdirSync(path.join(home, '.claude', 'skills'))).toEqual(['skill-router']);
    expect(moved.report.index?.added).toHaveLength(2);
  });

  it('refuses an unknown client', async () => {
    const home = tmpTree({});
    const r = await runCli(['init', '--client', 'vim'], { cwd: home, env: { HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('INVALID_ARGUMENT');
  });

  describe('finds what the host already has (issue 35)', () => {
    const HOST = {
      '.claude/skills/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
      '.claude/skills/beta/SKILL.md': skillMd('beta', 'beta chart helper'),
    };

    it('with no --library, indexes the skills Claude Code already loads in place, never the router skill; a second init is all unchanged', async () => {
      const home = tmpTree(HOST);
      const skills = path.join(home, '.claude', 'skills');
      const first = await init(home, ['--yes']);
      expect(first.code).toBe(0);
      expect(first.report.library_scopes).toEqual([skills]);
      expect([...first.report.index!.added].sort()).toEqual(['alpha', 'beta']);
      expect(first.report.steps.find((s) => s.step === 'hook')?.action).toBe('create');
      const config = parseToml(
        readFileSync(path.join(home, '.config', 'skilldex', 'config.toml'), 'utf8'),
      ) as { library: { scopes: string[] } };
      expect(config.library.scopes).toEqual([skills]);
      // The skills stay where they were; the router skill sits beside them.
      expect(readdirSync(skills).sort()).toEqual(['alpha', 'beta', 'skill-router']);

      const second = await init(home, ['--yes']);
      expect(second.code).toBe(0);
      for (const s of second.report.steps)
        expect(s.action, s.step).toBe(s.step === 'mcp' ? 'print' : 'unchanged');
      // The second run says what the first said: the skills are indexed in place. Not "X is
      // inside X ... keep the library elsewhere", as if the set-up the first run chose were wrong.
      const inPlace = `skilldex indexes the skills claude-code already loads where they are (${skills})`;
      expect(first.report.notes.join('\n')).toContain(inPlace);
      expect(second.report.notes.join('\n')).toContain(inPlace);
      expect(second.report.notes.join('\n')).not.toContain(`is inside ${skills}`);
      const search = await runCli(['search', 'route a skill', '--json'], {
        cwd: home,
        env: { HOME: home },
      });
      const ids = (
        JSON.parse(search.stdout) as { candidates?: { skill_id: string }[] }
      ).candidates?.map((c) => c.skill_id);
      expect(ids ?? []).not.toContain('skill-router');
    });

    it("a second client's own skills outside the library an earlier init set up are named, with the fix", async () => {
      const home = tmpTree({
        '.agents/skills/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
        '.gemini/skills/beta/SKILL.md': skillMd('beta', 'beta chart helper'),
      });
      const codex = await init(home, ['--client', 'codex', '--yes']);
      expect(codex.report.library_scopes).toEqual([path.join(home, '.agents', 'skills')]);
      expect(codex.report.notes.join('\n')).not.toContain('also loads');
      const gemini = await init(home, ['--client', 'gemini-cli', '--yes']);
      expect(gemini.code).toBe(0);
      const note = gemini.report.notes.find((n) => n.includes('also loads'));
      expect(note).toContain(
        `gemini-cli also loads 1 skill(s) from ${path.join(home, '.gemini', 'skills')}, outside the library`,
      );
      expect(note).toContain('add that folder to library.scopes');
      // doctor names them too, with the same fix.
      const library = async () =>
        (
          JSON.parse(
            (await runCli(['doctor', '--json'], { cwd: home, env: { HOME: home } })).stdout,
          ) as { checks: { id: string; status: string; message: string; fix?: string }[] }
        ).checks.find((c) => c.id === 'library');
      const warned = await library();
      expect(warned?.status).toBe('warn');
      expect(warned?.message).toContain(`${path.join(home, '.gemini', 'skills')} (1, gemini-cli)`);
      expect(warned?.fix).toContain('add that folder to library.scopes');
      // Once the folder is a scope, nothing is left out and the note goes.
      const file = path.join(home, '.config', 'skilldex', 'config.toml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          /scopes = \[(.*)\]/,
          (_m, list: string) =>
            `scopes = [${list}, ${JSON.stringify(path.join(home, '.gemini', 'skills'))}]`,
        ),
      );
      const again = await init(home, ['--client', 'gemini-cli', '--yes']);
      expect(again.code).toBe(0);
      expect(again.report.notes.join('\n')).not.toContain('also loads');
      expect((await library())?.status).toBe('ok');
      // In a project whose own config names its library, the personal folders are not compared.
      writeTree(home, {
        'proj/.git/HEAD': 'ref: refs/heads/main\n',
        'proj/.skilldex/config.toml': '[library]\nscopes = ["../skills"]\n',
        'proj/skills/gamma/SKILL.md': skillMd('gamma', 'gamma project helper'),
      });
      const inProject = JSON.parse(
        (await runCli(['doctor', '--json'], { cwd: path.join(home, 'proj'), env: { HOME: home } }))
          .stdout,
      ) as { checks: { id: string }[] };
      expect(inProject.checks.map((c) => c.id)).not.toContain('library');
    });

    it('--library set to the client skills folder: a second init does not index the router skill ("added 1")', async () => {
      const home = tmpTree(HOST);
      expect((await init(home, ['--library', '.claude/skills', '--yes'])).code).toBe(0);
      const second = await init(home, ['--library', '.claude/skills', '--yes']);
      expect(second.report.index?.added ?? []).toEqual([]);
      expect(second.report.steps.find((s) => s.step === 'index')?.action).toBe('unchanged');
    });

    it('once the MCP server is registered as init printed it, a second init is every step unchanged (claude-code, vscode)', async () => {
      const home = tmpTree(HOST);
      const first = await init(home, ['--yes']);
      expect(first.code).toBe(0);
      // The server entry init asks for, from its own .mcp.json snippet.
      const note = first.report.notes.find((n) => n.includes('.mcp.json:\n'))!;
      const entry = (
        JSON.parse(note.slice(note.indexOf('.mcp.json:\n') + 11)) as {
          mcpServers: { skilldex: { command: string; args: string[] } };
        }
      ).mcpServers.skilldex;
      // What `claude mcp add --scope user` writes: ~/.claude.json mcpServers.
      writeFileSync(
        path.join(home, '.claude.json'),
        JSON.stringify({ mcpServers: { skilldex: { type: 'stdio', ...entry } } }),
      );
      const second = await init(home, ['--yes']);
      for (const s of second.report.steps) expect(s.action, s.step).toBe('unchanged');
      expect(second.report.steps.find((s) => s.step === 'mcp')?.target).toBe(
        `${path.join(home, '.claude.json')} mcpServers.skilldex`,
      );
      expect(second.report.notes.join('\n')).not.toContain('claude mcp add');
      // Registered with another catalog: the command is printed again, as it must be re-run.
      writeFileSync(
        path.join(home, '.claude.json'),
        JSON.stringify({
          mcpServers: { skilldex: { ...entry, args: [...entry.args.slice(0, -1), '/other.db'] } },
        }),
      );
      expect((await init(home, ['--yes'])).report.steps.find((s) => s.step === 'mcp')?.action).toBe(
        'print',
      );

      // VS Code: the `code --add-mcp` JSON, registered in the user profile's mcp.json.
      const vs = await init(home, ['--client', 'vscode', '--yes']);
      const target = vs.report.steps.find((s) => s.step === 'mcp')!;
      expect(target.action).toBe('print');
      const added = JSON.parse(
        target.target.replace(/^code --add-mcp '/, '').replace(/'$/, ''),
      ) as {
        command: string;
        args: string[];
      };
      writeTree(home, {
        '.config/Code/User/mcp.json': JSON.stringify({
          servers: { skilldex: { type: 'stdio', command: added.command, args: added.args } },
        }),
      });
      const again = await init(home, ['--client', 'vscode', '--yes']);
      for (const s of again.report.steps) expect(s.action, s.step).toBe('unchanged');
    });

    it('with no skill anywhere, installs no hook that cannot fire, and says so', async () => {
      const home = tmpTree({});
      const r = await init(home, ['--yes']);
      expect(r.code).toBe(0);
      const hook = r.report.steps.find((s) => s.step === 'hook')!;
      expect(hook.action).toBe('skip');
      expect(r.report.warnings.join('\n')).toContain('no prompt hook installed');
      expect(existsSync(path.join(home, '.claude', 'settings.json'))).toBe(false);

      // Nor when the index finds no skill only once applied: --move of folders without a SKILL.md.
      const moved = tmpTree({ '.claude/skills/notes/readme.txt': 'not a skill\n' });
      const m = await init(moved, ['--library', '.claude/skills', '--move', '--yes']);
      expect(m.code).toBe(0);
      expect(m.report.steps.find((s) => s.step === 'hook')?.action).toBe('skip');
      expect(existsSync(path.join(moved, '.claude', 'settings.json'))).toBe(false);
    });
  });
});
