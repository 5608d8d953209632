/**
 * `skilldex init --undo` (issue 23 §1): removes exactly what init added — router skill, MCP entry,
 * config lines — for every client or the one --client names, giving back the user's files byte for
 * byte; leaves what changed since alone (`modified`, exit 1) unless --force for a whole file; puts
 * back a file init replaced with --force; keeps the shared user config until the last client goes;
 * never deletes the library or the catalog; changes nothing without --yes.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface UndoReport {
  applied: boolean;
  steps: { client: string; step: string; action: string }[];
  notes: string[];
}

const run = async (home: string, args: string[]) => {
  const r = await runCli(['init', ...args, '--json'], { cwd: home, env: { HOME: home } });
  return { code: r.code, body: JSON.parse(r.stdout) as UndoReport & { error?: { code: string } } };
};

const LIB = { 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') };

/** Every file below `dir` with its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const p = path.join(dir, rel);
    try {
      out[rel] = readFileSync(p, 'utf8');
    } catch {
      out[rel] = '(folder)';
    }
  }
  return out;
}

describe('init --undo', () => {
  it('names the listing controls it leaves behind, which rely on the router skill it removes (issue 35)', async () => {
    const skills = Object.fromEntries(
      ['alpha', 'beta', 'gamma', 'delta'].map((n) => [
        `.claude/skills/${n}/SKILL.md`,
        skillMd(n, `${n} tool that converts pdf tables and charts into spreadsheets for reports`),
      ]),
    );
    const home = tmpTree(skills);
    expect((await run(home, ['--yes'])).code).toBe(0);
    const env = { HOME: home };
    const applied = await runCli(
      ['listing', '--host', 'claude-code', '--apply', '--budget-chars', '200', '--json'],
      { cwd: home, env },
    );
    expect(applied.code).toBe(0);
    const settings = path.join(home, '.claude/settings.json');
    expect(readFileSync(settings, 'utf8')).toContain('skillOverrides');
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(0);
    // The controls stay (listing owns them), and the report says so first, with the way back.
    expect(readFileSync(settings, 'utf8')).toContain('skillOverrides');
    expect(undo.body.notes[0]).toContain(`of claude-code to be routed (${settings})`);
    expect(undo.body.notes[0]).toContain('skilldex listing --host claude-code --undo');
    expect(undo.body.notes.join('\n')).toContain('~/.local/state/skilldex/hook');
    // doctor names them too, with no init record left to say where the router skill was.
    const doctor = JSON.parse((await runCli(['doctor', '--json'], { cwd: home, env })).stdout) as {
      checks: { id: string; status: string; message: string; fix?: string }[];
    };
    const listing = doctor.checks.find((c) => c.id === 'listing.claude-code');
    expect(listing?.status).toBe('fail');
    expect(listing?.message).toContain('left to the router skill, which is not installed');
    expect(listing?.fix).toContain('skilldex listing --host claude-code --undo');
    // Taken back, nothing is left to name.
    const back = await runCli(['listing', '--host', 'claude-code', '--undo'], { cwd: home, env });
    expect(back.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).not.toContain('skillOverrides');
  });

  it('claude-code: removes the router skill and the config init created; keeps library and catalog; says how to remove the MCP entry', async () => {
    const home = tmpTree(LIB);
    expect((await run(home, ['--library', 'lib', '--yes'])).code).toBe(0);
    const catalog = path.join(home, '.local/share/skilldex/catalog.sqlite');
    expect(existsSync(catalog)).toBe(true);

    const plan = await run(home, ['--undo']);
    expect(plan.body.applied).toBe(false);
    expect(existsSync(path.join(home, '.claude/skills/skill-router/SKILL.md'))).toBe(true);

    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(0);
    expect(undo.body.steps.map((s) => `${s.step} ${s.action}`).sort()).toEqual([
      'config remove',
      'config remove',
      'hook remove',
      'router-skill remove',
    ]);
    expect(existsSync(path.join(home, '.claude/skills/skill-router'))).toBe(false);
    expect(existsSync(path.join(home, '.config/skilldex/config.toml'))).toBe(false);
    expect(undo.body.notes.join('\n')).toContain('claude mcp remove --scope user skilldex');
    // It says truthfully what it leaves: the learned prompts too, and how to erase them (issue 35).
    expect(undo.body.notes.join('\n')).toMatch(/telemetry\/usage store.*prompt text/);
    expect(undo.body.notes.join('\n')).toContain('skilldex forget --all --purge');
    expect(existsSync(catalog)).toBe(true);
    expect(existsSync(path.join(home, 'lib/alpha/SKILL.md'))).toBe(true);
    // Nothing left to undo.
    expect((await run(home, ['--undo', '--yes'])).body.steps).toEqual([]);
  });

  it('removes the folders init made once they are empty, and no folder a record names elsewhere (issue 35)', async () => {
    const home = tmpTree({ ...LIB, 'keep/empty/.placeholder': '' });
    expect((await run(home, ['--client', 'gemini-cli', '--library', 'lib', '--yes'])).code).toBe(0);
    expect((await run(home, ['--client', 'vscode', '--yes'])).code).toBe(0);
    for (const made of ['.gemini/skills/skill-router', '.copilot/hooks', '.config/skilldex'])
      expect(existsSync(path.join(home, made)), made).toBe(true);
    // A hand-made record naming a folder that does not hold its file: that folder is left alone.
    const recordFile = path.join(home, '.local/state/skilldex/init.json');
    const doc = JSON.parse(readFileSync(recordFile, 'utf8')) as {
      records: { created_folders?: string[] }[];
    };
    const stray = path.join(home, 'keep/empty');
    rmSync(path.join(stray, '.placeholder'));
    doc.records[0]!.created_folders = [...(doc.records[0]!.created_folders ?? []), stray];
    writeFileSync(recordFile, JSON.stringify(doc));
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(0);
    for (const made of ['.gemini', '.copilot', '.config/skilldex'])
      expect(existsSync(path.join(home, made)), made).toBe(false);
    expect(undo.body.notes.join('\n')).toContain('Removed the empty folders init had made');
    expect(existsSync(stray)).toBe(true);
    // The library, the catalog and the home itself stay.
    expect(existsSync(path.join(home, 'lib/alpha/SKILL.md'))).toBe(true);
    expect(existsSync(path.join(home, '.local/share/skilldex/catalog.sqlite'))).toBe(true);
  });

  it("gives back the user's own files byte for byte: mcp.json, Codex config.toml, the user config", async () => {
    const files = {
      '.cursor/mcp.json':
        '{\n  "mcpServers": {\n    "other": { "command": "x", "args": ["y"] }\n  }\n}\n',
      '.codex/config.toml': '# mine\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n',
      '.config/skilldex/config.toml': '# my settings\ntelemetry = false\n',
    };
    const home = tmpTree({ ...LIB, ...files });
    const before = snapshot(home);
    expect((await run(home, ['--client', 'cursor', '--library', 'lib', '--yes'])).code).toBe(0);
    expect((await run(home, ['--client', 'codex', '--yes'])).code).toBe(0);
    for (const [f, text] of Object.entries(files))
      expect(readFileSync(path.join(home, f), 'utf8'), f).not.toBe(text);
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(0);
    for (const [f, text] of Object.entries(files))
      expect(readFileSync(path.join(home, f), 'utf8'), f).toBe(text);
    // What remains beyond the original tree: the library's index and init's (now empty) record.
    const after = snapshot(home);
    for (const [rel, text] of Object.entries(before)) expect(after[rel], rel).toBe(text);
    expect(existsSync(path.join(home, '.cursor/skills/skill-router'))).toBe(false);
    expect(existsSync(path.join(home, '.codex/skills/skill-router'))).toBe(false);
  });

  it('removes only its own entry from a file the user added to since, and removes a file it created once nothing else is in it', async () => {
    const home = tmpTree(LIB);
    await run(home, ['--client', 'cursor', '--library', 'lib', '--yes']);
    const file = path.join(home, '.cursor/mcp.json');
    const created = JSON.parse(readFileSync(file, 'utf8')) as {
      mcpServers: Record<string, unknown>;
    };
    writeTree(home, {
      '.cursor/mcp.json': JSON.stringify(
        { mcpServers: { ...created.mcpServers, mine: { command: 'z' } }, theme: 'dark' },
        null,
        4,
      ),
    });
    await run(home, ['--undo', '--yes']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { mine: { command: 'z' } },
      theme: 'dark',
    });

    const other = tmpTree(LIB);
    await run(other, ['--client', 'cursor', '--library', 'lib', '--yes']);
    await run(other, ['--undo', '--yes']);
    expect(existsSync(path.join(other, '.cursor/mcp.json'))).toBe(false);
  });

  it('leaves a router skill changed since alone (modified, exit 1) until --force', async () => {
    const home = tmpTree(LIB);
    await run(home, ['--library', 'lib', '--yes']);
    const router = path.join(home, '.claude/skills/skill-router/SKILL.md');
    writeTree(home, { '.claude/skills/skill-router/SKILL.md': 'my edits\n' });
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(1);
    expect(undo.body.steps.find((s) => s.step === 'router-skill')?.action).toBe('modified');
    expect(readFileSync(router, 'utf8')).toBe('my edits\n');
    const forced = await run(home, ['--undo', '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(existsSync(router)).toBe(false);
  });

  it('puts back a router skill init replaced with --force', async () => {
    const home = tmpTree({ ...LIB, '.claude/skills/skill-router/SKILL.md': 'my own router\n' });
    expect((await run(home, ['--library', 'lib', '--yes', '--force'])).code).toBe(0);
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.body.steps.find((s) => s.step === 'router-skill')?.action).toBe('restore');
    expect(readFileSync(path.join(home, '.claude/skills/skill-router/SKILL.md'), 'utf8')).toBe(
      'my own router\n',
    );
  });

  it("puts back the user's own mcpServers.skilldex that init replaced with --force", async () => {
    const mine = {
      mcpServers: { skilldex: { command: 'mine', args: ['x'] }, other: { command: 'o' } },
    };
    const home = tmpTree({ ...LIB, '.cursor/mcp.json': JSON.stringify(mine, null, 2) + '\n' });
    expect((await run(home, ['--client', 'cursor', '--library', 'lib', '--yes'])).code).toBe(2);
    expect(
      (await run(home, ['--client', 'cursor', '--library', 'lib', '--yes', '--force'])).code,
    ).toBe(0);
    const file = path.join(home, '.cursor/mcp.json');
    expect(
      (JSON.parse(readFileSync(file, 'utf8')) as typeof mine).mcpServers.skilldex.command,
    ).not.toBe('mine');
    const undo = await run(home, ['--undo', '--client', 'cursor', '--yes']);
    expect(undo.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(mine);
  });

  it('--client undoes one client and keeps the shared user config until the last client goes', async () => {
    const home = tmpTree(LIB);
    await run(home, ['--library', 'lib', '--yes']);
    await run(home, ['--client', 'cursor', '--yes']);
    const config = path.join(home, '.config/skilldex/config.toml');
    const cursor = await run(home, ['--undo', '--client', 'cursor', '--yes']);
    expect(cursor.body.steps.every((s) => s.client === 'cursor')).toBe(true);
    expect(existsSync(path.join(home, '.cursor/skills/skill-router'))).toBe(false);
    expect(existsSync(path.join(home, '.cursor/mcp.json'))).toBe(false);
    expect(existsSync(config)).toBe(true);
    expect(existsSync(path.join(home, '.claude/skills/skill-router/SKILL.md'))).toBe(true);
    await run(home, ['--undo', '--client', 'claude-code', '--yes']);
    expect(existsSync(config)).toBe(false);
  });

  it('a damaged record is CLIENT_CONFIG_INVALID, and nothing is removed', async () => {
    const home = tmpTree(LIB);
    await run(home, ['--library', 'lib', '--yes']);
    writeTree(home, { '.local/state/skilldex/init.json': '{"version": 1, "records": [{}]}' });
    const r = await run(home, ['--undo', '--yes']);
    expect(r.code).toBe(2);
    expect(r.body.error?.code).toBe('CLIENT_CONFIG_INVALID');
    expect(existsSync(path.join(home, '.claude/skills/skill-router/SKILL.md'))).toBe(true);
  });

  it('keeps a hook the user edited since (timeout 5 → 10): modified, exit 1, record kept (issue 36 L8)', async () => {
    const home = tmpTree(LIB);
    expect((await run(home, ['--library', 'lib', '--yes'])).code).toBe(0);
    const settings = path.join(home, '.claude/settings.json');
    const edited = readFileSync(settings, 'utf8').replace('"timeout": 5', '"timeout": 10');
    expect(edited).toContain('"timeout": 10');
    writeTree(home, { '.claude/settings.json': edited });
    // A second init does not add a twin next to the edited hook.
    const again0 = await run(home, ['--yes']);
    expect(again0.body.error, JSON.stringify(again0.body.error)).toBeUndefined();
    expect(again0.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(edited);
    const undo = await run(home, ['--undo', '--yes']);
    expect(undo.code).toBe(1);
    expect(undo.body.steps.find((s) => s.step === 'hook')?.action).toBe('modified');
    expect(readFileSync(settings, 'utf8')).toBe(edited);
    // The record is kept: a second undo still knows the hook.
    const again = await run(home, ['--undo', '--yes']);
    expect(again.body.steps.map((s) => `${s.step} ${s.action}`)).toEqual(['hook modified']);
  });

  it('Codex {"hooks":{}} comes back byte for byte (issue 36 L11)', async () => {
    const home = tmpTree({ ...LIB, '.codex/hooks.json': '{"hooks":{}}' });
    expect((await run(home, ['--client', 'codex', '--library', 'lib', '--yes'])).code).toBe(0);
    const file = path.join(home, '.codex/hooks.json');
    expect(readFileSync(file, 'utf8')).toContain('UserPromptSubmit');
    expect((await run(home, ['--undo', '--yes'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"hooks":{}}');
  });

  describe('a hand-made record is refused, and nothing is touched (issue 36 L9)', () => {
    const recordOf = (home: string) => path.join(home, '.local/state/skilldex/init.json');
    const edit = (home: string, change: (r: Record<string, unknown>) => void): void => {
      const doc = JSON.parse(readFileSync(recordOf(home), 'utf8')) as {
        records: Record<string, unknown>[];
      };
      const router = doc.records.find((r) => r['step'] === 'router-skill')!;
      change(router);
      writeTree(home, { '.local/state/skilldex/init.json': JSON.stringify(doc) });
    };

    it('a backup outside init-backups is not copied over the target nor deleted', async () => {
      const home = tmpTree({ ...LIB, 'precious.txt': 'mine\n' });
      await run(home, ['--library', 'lib', '--yes']);
      edit(home, (r) => (r['backup'] = path.join(home, 'precious.txt')));
      const r = await run(home, ['--undo', '--yes']);
      expect(r.code).toBe(2);
      expect(r.body.error?.code).toBe('CLIENT_CONFIG_INVALID');
      expect(JSON.stringify(r.body)).toContain(recordOf(home));
      expect(readFileSync(path.join(home, 'precious.txt'), 'utf8')).toBe('mine\n');
      expect(existsSync(path.join(home, '.claude/skills/skill-router/SKILL.md'))).toBe(true);
    });

    it('a backup with a traversal in init-backups is refused too', async () => {
      const home = tmpTree({ ...LIB, 'precious.txt': 'mine\n' });
      await run(home, ['--library', 'lib', '--yes']);
      edit(
        home,
        (r) =>
          (r['backup'] = path.join(
            home,
            '.local/state/skilldex/init-backups/../../../../precious.txt',
          )),
      );
      const r = await run(home, ['--undo', '--yes']);
      expect(r.code).toBe(2);
      expect(readFileSync(path.join(home, 'precious.txt'), 'utf8')).toBe('mine\n');
    });

    it('--force does not remove a file init never writes', async () => {
      const home = tmpTree({ ...LIB, 'precious.txt': 'mine\n' });
      await run(home, ['--library', 'lib', '--yes']);
      edit(home, (r) => (r['file'] = path.join(home, 'precious.txt')));
      const r = await run(home, ['--undo', '--yes', '--force']);
      expect(r.code).toBe(2);
      expect(r.body.error?.code).toBe('CLIENT_CONFIG_INVALID');
      expect(readFileSync(path.join(home, 'precious.txt'), 'utf8')).toBe('mine\n');
      expect(existsSync(path.join(home, '.claude/skills/skill-router/SKILL.md'))).toBe(true);
    });
  });
});
