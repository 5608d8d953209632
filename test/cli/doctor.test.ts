/**
 * `skilldex doctor` (issue 35) on a made-up home: a healthy set-up passes, and each way to break it
 * — nothing set up, the hook removed, its command failing, hanging or logging an error, errors in
 * the hook's log, the catalog missing or drifted, the MCP server unregistered for Claude Code,
 * Codex, Cursor or Gemini CLI (or naming a program that is gone), the router skill removed, listing
 * controls that strand skills — is named, with its fix, and exits 1. `status` sums it up in one
 * line without running the hook.
 */
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor, type DoctorCheck, type DoctorReport } from '../../src/cli/doctor.js';
import { codexHookHash } from '../../src/cli/doctor/hook-hosts.js';
import { hookCommand } from '../../src/cli/init/hook-step.js';
import { REPO, runCli, skillMd, tmpDir, writeTree } from '../support/cli.js';

/** The built bin (needs npm run build): the real hook doctor runs in one test. */
const BIN = path.join(REPO, 'bin', 'skilldex.js');

interface Home {
  home: string;
  env: Record<string, string>;
  hookBin: string;
  settings: string;
}

const HOOK_OK = '#!/bin/sh\ncat >/dev/null\nexit 0\n';

/**
 * A home where init set up `clients` (default Claude Code): its records, the hook in the host's
 * settings running a script (`script`), the router skill, the MCP server registered.
 */
function setUp(opts: { clients?: string[]; script?: string } = {}): Home {
  const home = tmpDir('skilldex-doctor-');
  const env = { HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const hookBin = path.join(home, 'bin', 'fake-skilldex');
  mkdirSync(path.dirname(hookBin), { recursive: true });
  writeFileSync(hookBin, opts.script ?? HOOK_OK);
  chmodSync(hookBin, 0o755);
  const records: unknown[] = [];
  const server = { command: process.execPath, args: [hookBin, 'mcp'] };
  const hookFor = (client: string, file: string, event: string, more = {}): void => {
    const value = {
      hooks: [{ type: 'command', command: `'${hookBin}' hook ${client}`, timeout: 5 }],
    };
    writeTree(home, {
      [path.relative(home, file)]: JSON.stringify({
        theme: 'dark',
        hooks: { [event]: [value] },
        ...more,
      }),
    });
    records.push({
      kind: 'json',
      client,
      step: 'hook',
      file,
      path: ['hooks', event],
      element: true,
      value,
      inserted: JSON.stringify(value),
      created_file: false,
    });
  };
  const routerFor = (client: string, dir: string): void => {
    const file = path.join(dir, 'skill-router', 'SKILL.md');
    writeTree(home, { [path.relative(home, file)]: skillMd('skill-router', 'Find a skill.') });
    records.push({ kind: 'file', client, step: 'router-skill', file, sha256: 'x', backup: null });
  };
  for (const client of opts.clients ?? ['claude-code']) {
    if (client === 'claude-code') {
      hookFor(client, path.join(home, '.claude', 'settings.json'), 'UserPromptSubmit');
      routerFor(client, path.join(home, '.claude', 'skills'));
      writeTree(home, { '.claude.json': JSON.stringify({ mcpServers: { skilldex: server } }) });
    } else if (client === 'codex') {
      hookFor(client, path.join(home, '.codex', 'hooks.json'), 'UserPromptSubmit');
      routerFor(client, path.join(home, '.codex', 'skills'));
      writeTree(home, {
        // The hook trusted in Codex's /hooks, as Codex records it (issue 35).
        '.codex/config.toml': `model = "x"\n\n[mcp_servers.skilldex]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\n\n[hooks.state.${JSON.stringify(`${path.join(home, '.codex', 'hooks.json')}:user_prompt_submit:0:0`)}]\ntrusted_hash = ${JSON.stringify(codexHookHash('user_prompt_submit', { type: 'command', command: `'${hookBin}' hook codex`, timeout: 5 }))}\n`,
      });
    } else if (client === 'cursor') {
      routerFor(client, path.join(home, '.cursor', 'skills'));
      writeTree(home, { '.cursor/mcp.json': JSON.stringify({ mcpServers: { skilldex: server } }) });
    } else if (client === 'vscode') {
      // VS Code: flat entries in init's own ~/.copilot/hooks/skilldex.json.
      const file = path.join(home, '.copilot', 'hooks', 'skilldex.json');
      const value = { type: 'command', command: `'${hookBin}' hook vscode`, timeout: 5 };
      writeTree(home, {
        [path.relative(home, file)]: JSON.stringify({ hooks: { UserPromptSubmit: [value] } }),
      });
      records.push({
        kind: 'json',
        client,
        step: 'hook',
        file,
        path: ['hooks', 'UserPromptSubmit'],
        element: true,
        value,
        inserted: JSON.stringify(value),
        created_file: true,
      });
      routerFor(client, path.join(home, '.copilot', 'skills'));
    } else if (client === 'gemini-cli') {
      hookFor(client, path.join(home, '.gemini', 'settings.json'), 'BeforeAgent', {
        mcpServers: { skilldex: server },
      });
    }
  }
  writeTree(home, {
    '.local/state/skilldex/init.json': JSON.stringify({ version: 1, records }),
  });
  return { home, env, hookBin, settings: path.join(home, '.claude', 'settings.json') };
}

async function doctor(
  h: Home,
  extra: { catalog?: string; hookTimeoutMs?: number } = {},
): Promise<DoctorReport> {
  return runDoctor({ home: h.home, env: h.env, cwd: h.home, runHook: true, ...extra });
}

function check(r: DoctorReport, id: string): DoctorCheck {
  const c = r.checks.find((x) => x.id === id);
  expect(c, `check ${id} in ${JSON.stringify(r.checks.map((x) => x.id))}`).toBeDefined();
  return c!;
}

describe('skilldex doctor', () => {
  it('passes a healthy set-up: every check ok or skip', async () => {
    const r = await doctor(setUp({ clients: ['claude-code', 'codex', 'cursor', 'gemini-cli'] }));
    expect(r.checks.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
    expect(r.healthy).toBe(true);
    for (const id of ['init', 'hook.claude-code', 'hook.codex', 'hook.gemini-cli', 'hook-log'])
      expect(check(r, id).status).toBe('ok');
    for (const c of ['claude-code', 'codex', 'cursor', 'gemini-cli'])
      expect(check(r, `mcp.${c}`).status).toBe('ok');
    expect(check(r, 'listing.claude-code').status).toBe('skip');
  });

  it('runs the real hook command with its harmless prompt: exit 0, nothing logged', async () => {
    const h = setUp();
    const cmd = `'${process.execPath}' '${BIN}' hook claude-code --catalog '${path.join(h.home, 'none.db')}'`;
    const settings = JSON.parse(readFileSync(h.settings, 'utf8')) as {
      hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] };
    };
    settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command = cmd;
    writeFileSync(h.settings, JSON.stringify(settings));
    const r = await doctor(h);
    expect(check(r, 'hook.claude-code')).toMatchObject({ status: 'ok' });
    expect(existsSync(path.join(h.home, '.local/state/skilldex/hook/hook.log'))).toBe(false);
    // The same command with a flag it does not know logs an error, which doctor names.
    settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command = `${cmd} --max 99`;
    writeFileSync(h.settings, JSON.stringify(settings));
    const bad = check(await doctor(h), 'hook.claude-code');
    expect(bad.status).toBe('fail');
    expect(bad.message).toContain('logged INVALID_ARGUMENT');
  });

  it('names a machine init never set up', async () => {
    const h = setUp();
    rmSync(path.join(h.home, '.local/state/skilldex/init.json'));
    const c = check(await doctor(h), 'init');
    expect(c).toMatchObject({ status: 'fail' });
    expect(c.fix).toContain('skilldex init');
  });

  it('names a hook removed from the host settings', async () => {
    const h = setUp();
    writeFileSync(h.settings, JSON.stringify({ theme: 'dark' }));
    const r = await doctor(h);
    expect(check(r, 'hook.claude-code')).toMatchObject({
      status: 'fail',
      fix: 'skilldex init --client claude-code --yes',
    });
    expect(check(r, 'hook.claude-code').message).toContain(h.settings);
  });

  it('names a hook command that does not run (its program gone)', async () => {
    const h = setUp();
    rmSync(h.hookBin);
    const c = check(await doctor(h), 'hook.claude-code');
    expect(c.status).toBe('fail');
    expect(c.message).toMatch(/exited 127/);
  });

  it('names a hook command that exits non-zero', async () => {
    const h = setUp({ script: '#!/bin/sh\ncat >/dev/null\necho broken >&2\nexit 3\n' });
    const c = check(await doctor(h), 'hook.claude-code');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('exited 3: broken');
  });

  it('names a hook command that hangs, and kills it in time', async () => {
    const h = setUp({ script: '#!/bin/sh\nsleep 30\n' });
    const t0 = Date.now();
    const c = check(await doctor(h, { hookTimeoutMs: 300 }), 'hook.claude-code');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(c.status).toBe('fail');
    expect(c.message).toContain('did not finish');
  });

  it('is not held open by a process the hook leaves behind on its stderr', async () => {
    const h = setUp({ script: '#!/bin/sh\ncat >/dev/null\nsleep 5 >&2 &\nexit 0\n' });
    const t0 = Date.now();
    expect(check(await doctor(h), 'hook.claude-code').status).toBe('ok');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('names a hook run that exits 0 but logs an error', async () => {
    const h = setUp({
      script:
        '#!/bin/sh\ncat >/dev/null\nmkdir -p "$HOME/.local/state/skilldex/hook"\necho "$(date -u +%Y-%m-%dT%H:%M:%S.000Z) claude-code CATALOG_MISSING: no catalog at /x" >> "$HOME/.local/state/skilldex/hook/hook.log"\nexit 0\n',
    });
    const r = await doctor(h);
    expect(check(r, 'hook.claude-code').message).toContain('logged CATALOG_MISSING');
    expect(check(r, 'hook-log')).toMatchObject({ status: 'fail' });
    expect(check(r, 'hook-log').fix).toContain('CATALOG_MISSING: create one with');
  });

  it('names errors the hook logged since its last success, with codes and hints', async () => {
    const h = setUp();
    const dir = path.join(h.home, '.local/state/skilldex/hook');
    mkdirSync(path.join(dir, 'sessions'), { recursive: true });
    const old = new Date(Date.now() - 3_600_000).toISOString();
    appendFileSync(path.join(dir, 'hook.log'), `${old} claude-code HOOK_DEADLINE: too slow\n`);
    // A session state written after the old error: the hook answered since.
    writeFileSync(path.join(dir, 'sessions', '0'.repeat(32) + '.json'), '{}');
    expect(check(await doctor(h), 'hook-log').status).toBe('ok');
    const now = new Date(Date.now() + 1000).toISOString();
    appendFileSync(path.join(dir, 'hook.log'), `${now} claude-code INVALID_ARGUMENT: --max\n`);
    const c = check(await doctor(h), 'hook-log');
    // The live run passed after it: a warning, naming the code and its hint.
    expect(c.status).toBe('warn');
    expect(c.message).toContain('INVALID_ARGUMENT');
    expect(c.message).not.toContain('HOOK_DEADLINE');
    expect(c.fix).toContain('INVALID_ARGUMENT: check the command line');
    // An event the hook could not read stays a failure: doctor's own well-formed event passing
    // says nothing about what the host sends.
    appendFileSync(path.join(dir, 'hook.log'), `${now} claude-code HOOK_INPUT_INVALID: bad\n`);
    const input = check(await doctor(h), 'hook-log');
    expect(input.status).toBe('fail');
    expect(input.fix).toContain('UserPromptSubmit');
    // status runs no hook, so it cannot tell history from a live problem: a warning, as doctor
    // gives for the history alone (status never counts more problems than doctor).
    writeFileSync(path.join(dir, 'hook.log'), `${now} claude-code INVALID_ARGUMENT: --max\n`);
    const cheap = await runDoctor({ home: h.home, env: h.env, cwd: h.home, runHook: false });
    expect(check(cheap, 'hook-log').status).toBe('warn');
    expect(check(await doctor(h), 'hook-log').status).toBe('warn');
  });

  it("names init's silent hook wrapper whose Node or checkout is gone: the live run alone exits 0 (issue 35)", async () => {
    const h = setUp();
    const catalog = path.join(h.home, 'catalog.db');
    const setCommand = (command: string): void => {
      const settings = JSON.parse(readFileSync(h.settings, 'utf8')) as {
        hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] };
      };
      settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command = command;
      writeFileSync(h.settings, JSON.stringify(settings));
    };
    // The exact line init writes, naming a Node that went away (nvm switched it).
    const goneNode = path.join(h.home, 'nvm', 'v20', 'bin', 'node');
    setCommand(hookCommand({ onPath: false, node: goneNode, bin: BIN }, 'claude-code', catalog));
    const node = check(await doctor(h), 'hook.claude-code');
    expect(node.status).toBe('fail');
    expect(node.message).toContain(`the Node it runs, ${goneNode}, is gone`);
    expect(node.fix).toContain(
      'skilldex init --client claude-code --yes again: it replaces the hook an earlier init wrote',
    );
    // status sees it too: no process is needed to find it.
    const cheap = await runDoctor({ home: h.home, env: h.env, cwd: h.home, runHook: false });
    expect(check(cheap, 'hook.claude-code').status).toBe('fail');
    // A checkout that moved.
    const goneBin = path.join(h.home, 'old-clone', 'bin', 'skilldex.js');
    setCommand(
      hookCommand({ onPath: false, node: process.execPath, bin: goneBin }, 'claude-code', catalog),
    );
    expect(check(await doctor(h), 'hook.claude-code').message).toContain(
      `the skilldex it runs, ${goneBin}, is gone`,
    );
    // The installed form runs `skilldex` from PATH: a PATH without it is named...
    setCommand(hookCommand({ onPath: true, node: '', bin: '' }, 'claude-code', catalog));
    const emptyPath = path.join(h.home, 'empty-bin');
    mkdirSync(emptyPath);
    const noSkilldex = check(
      await runDoctor({
        home: h.home,
        env: { ...h.env, PATH: emptyPath },
        cwd: h.home,
        runHook: true,
      }),
      'hook.claude-code',
    );
    expect(noSkilldex.status).toBe('fail');
    expect(noSkilldex.message).toContain('node and skilldex are not on this PATH');
    // ... and with both on PATH the wrapper runs skilldex, and the check passes.
    const binDir = path.dirname(h.hookBin);
    writeFileSync(path.join(binDir, 'skilldex'), HOOK_OK);
    chmodSync(path.join(binDir, 'skilldex'), 0o755);
    symlinkSync(process.execPath, path.join(binDir, 'node'));
    const ok = await runDoctor({
      home: h.home,
      env: { ...h.env, PATH: `${binDir}:/usr/bin:/bin` },
      cwd: h.home,
      runHook: true,
    });
    expect(check(ok, 'hook.claude-code')).toMatchObject({ status: 'ok' });
  });

  it("checks VS Code's hook file (its flat UserPromptSubmit entry, gone or not runnable) and its MCP server", async () => {
    const h = setUp({ clients: ['vscode'] });
    const file = path.join(h.home, '.copilot', 'hooks', 'skilldex.json');
    // init only prints `code --add-mcp` for VS Code: until it is run, the hook's skill_fetch
    // suggestions name a tool VS Code does not have, and doctor says so with that line.
    const unregistered = check(await doctor(h), 'mcp.vscode');
    expect(unregistered.status).toBe('fail');
    expect(unregistered.fix).toMatch(/^code --add-mcp '\{"name":"skilldex","command":/);
    // What `code --add-mcp` writes: `servers` in the user profile's mcp.json (a comment allowed).
    writeTree(h.home, {
      '.config/Code/User/mcp.json': `// mine\n${JSON.stringify({ servers: { skilldex: { type: 'stdio', command: process.execPath, args: [h.hookBin, 'mcp'] } } })}`,
    });
    const healthy = await doctor(h);
    expect(check(healthy, 'mcp.vscode')).toMatchObject({ status: 'ok' });
    expect(check(healthy, 'mcp.vscode').message).toContain(
      '.config/Code/User/mcp.json servers.skilldex',
    );
    expect(check(healthy, 'hook.vscode')).toMatchObject({ status: 'ok' });
    expect(check(healthy, 'hook.vscode').message).toContain(file);
    // VS Code's own settings can switch the folder off (chat.hookFilesLocations, JSON with comments).
    const vsSettings = path.join(h.home, '.config/Code/User/settings.json');
    writeTree(h.home, {
      '.config/Code/User/settings.json': `{\n  // mine\n  "chat.hookFilesLocations": {"~/.copilot/hooks": false}\n}\n`,
    });
    const off = check(await doctor(h), 'hook.vscode');
    expect(off.status).toBe('fail');
    expect(off.message).toContain(`"~/.copilot/hooks" to false in ${vsSettings}`);
    // Switching off another location leaves it on.
    writeFileSync(vsSettings, '{"chat.hookFilesLocations": {"~/.claude/settings.json": false}}');
    expect(check(await doctor(h), 'hook.vscode').status).toBe('ok');
    writeFileSync(file, JSON.stringify({ hooks: { UserPromptSubmit: [] } }));
    expect(check(await doctor(h), 'hook.vscode')).toMatchObject({
      status: 'fail',
      fix: 'skilldex init --client vscode --yes',
    });
    const catalog = path.join(h.home, 'catalog.db');
    const goneBin = path.join(h.home, 'old-clone', 'bin', 'skilldex.js');
    const command = hookCommand(
      { onPath: false, node: process.execPath, bin: goneBin },
      'vscode',
      catalog,
    );
    writeFileSync(
      file,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ type: 'command', command, timeout: 5 }] } }),
    );
    const gone = check(await doctor(h), 'hook.vscode');
    expect(gone.status).toBe('fail');
    expect(gone.message).toContain(goneBin);
  });

  it('names a missing catalog and a drifted one', async () => {
    const h = setUp();
    const missing = check(await doctor(h, { catalog: path.join(h.home, 'none.db') }), 'catalog');
    expect(missing.status).toBe('fail');
    expect(missing.message).toContain('CATALOG_MISSING');
    const lib = path.join(h.home, 'lib');
    writeTree(lib, { 'a/SKILL.md': skillMd('a-skill', 'Sort widgets.') });
    const catalog = path.join(h.home, 'catalog.db');
    expect(
      (await runCli(['index', '--catalog', catalog, '--scope', lib], { env: h.env })).code,
    ).toBe(0);
    expect(check(await doctor(h, { catalog }), 'catalog').status).toBe('ok');
    writeFileSync(path.join(lib, 'a/SKILL.md'), skillMd('a-skill', 'Sort widgets blue.'));
    const drifted = check(await doctor(h, { catalog }), 'catalog');
    expect(drifted).toMatchObject({ status: 'fail', fix: 'skilldex index' });
    expect(drifted.message).toContain('changed');
  });

  it('names an MCP server Claude Code does not have, with the claude mcp add line', async () => {
    const h = setUp();
    writeFileSync(path.join(h.home, '.claude.json'), JSON.stringify({ projects: {} }));
    const c = check(await doctor(h), 'mcp.claude-code');
    expect(c.status).toBe('fail');
    // The line init prints (this Node, this package's bin, mcp), never one derived from the hook
    // command: init's hook is a silent /bin/sh wrapper, no MCP server command.
    expect(c.fix).toBe(
      `claude mcp add --scope user skilldex -- ${process.execPath} ${path.join(REPO, 'bin', 'skilldex.js')} mcp`,
    );
  });

  it("gives init's claude mcp add line after a real init, whose hook is a shell wrapper", async () => {
    const home = tmpDir('skilldex-doctor-init-');
    writeTree(path.join(home, '.claude', 'skills'), {
      'pdf-kit/SKILL.md': skillMd('pdf-kit', 'Merge and split PDF files.'),
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const init = await runCli(['init', '--client', 'claude-code', '--yes', '--json'], { env });
    expect(init.code).toBe(0);
    const catalog = path.join(home, '.local', 'share', 'skilldex', 'catalog.sqlite');
    const r = await runCli(['doctor', '--json'], { env });
    const report = JSON.parse(r.stdout) as DoctorReport;
    const mcp = report.checks.find((x) => x.id === 'mcp.claude-code')!;
    expect(mcp.status).toBe('fail');
    expect(mcp.fix).toContain(`mcp --catalog ${catalog}`);
    expect(mcp.message).toContain(
      'no config file found; claude-code keeps its servers in ~/.claude.json (claude mcp add)',
    );
    expect(mcp.fix).not.toContain('skilldex-hook');
    expect(mcp.fix).not.toContain('/bin/sh');
  });

  it('names the hook init withheld for want of skills, and the note leads to an init that installs it (issue 35)', async () => {
    const home = tmpDir('skilldex-doctor-nohook-');
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const first = await runCli(['init', '--client', 'claude-code', '--yes', '--json'], { env });
    const report = JSON.parse(first.stdout) as { notes: string[]; library: string };
    expect(report.notes.join('\n')).toContain('then run skilldex init again');
    const before = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as DoctorReport;
    expect(check(before, 'hook.claude-code')).toMatchObject({ status: 'warn' });
    expect(check(before, 'hook.claude-code').message).not.toBe(
      'init installed no prompt hook for claude-code (--no-hook)',
    );
    expect(check(before, 'hook.claude-code').fix).toContain(
      'skilldex init --client claude-code --yes',
    );
    // status: no catalog yet is an answer (exit 1, not the refusal 2), and it says init ran and
    // doctor knows more, not the generic "run skilldex init".
    const status = await runCli(['status'], { env });
    expect(status.code).toBe(1);
    expect(status.stderr).toBe('');
    expect(status.stdout).toContain(
      'no catalog yet — run skilldex doctor: skilldex init has set this machine up, but its catalog is not there',
    );
    // No catalog either: the fix names the library to fill and init, not "skilldex index --scope".
    expect(check(before, 'catalog').fix).toBe(
      `add skill folders (each with a SKILL.md) to ${report.library}, then run skilldex init again (it indexes them and installs the prompt hook)`,
    );
    // Following the note: skills in the library, init again: the hook goes in and runs.
    writeTree(report.library, { 'pdf-kit/SKILL.md': skillMd('pdf-kit', 'Merge PDF files.') });
    expect((await runCli(['init', '--client', 'claude-code', '--yes'], { env })).code).toBe(0);
    const after = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as DoctorReport;
    expect(check(after, 'hook.claude-code')).toMatchObject({ status: 'ok' });
    expect(check(after, 'catalog')).toMatchObject({ status: 'ok' });
    // A skill added to the library since: no file of the catalog drifted, yet the hook never
    // offers it. doctor reads the configured library as index --dry-run does, and names it.
    writeTree(report.library, { 'zip-kit/SKILL.md': skillMd('zip-kit', 'Pack ZIP archives.') });
    const stale = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as DoctorReport;
    expect(check(stale, 'catalog')).toMatchObject({ status: 'fail', fix: 'skilldex index' });
    expect(check(stale, 'catalog').message).toContain('not in');
    expect(check(stale, 'catalog').message).toContain('zip-kit');
    expect((await runCli(['index'], { env })).code).toBe(0);
    const fixed = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as DoctorReport;
    expect(check(fixed, 'catalog')).toMatchObject({ status: 'ok' });
  });

  it("finds Claude Code's local-scope and project-scope registrations", async () => {
    const h = setUp();
    const server = { command: 'skilldex', args: ['mcp'] };
    writeFileSync(
      path.join(h.home, '.claude.json'),
      JSON.stringify({ projects: { [h.home]: { mcpServers: { skilldex: server } } } }),
    );
    expect(check(await doctor(h), 'mcp.claude-code').status).toBe('ok');
    writeFileSync(path.join(h.home, '.claude.json'), '{}');
    writeFileSync(path.join(h.home, '.mcp.json'), JSON.stringify({ mcpServers: { sd: server } }));
    expect(check(await doctor(h), 'mcp.claude-code')).toMatchObject({ status: 'ok' });
  });

  it('names a registered server whose program is gone', async () => {
    const h = setUp();
    writeFileSync(
      path.join(h.home, '.claude.json'),
      JSON.stringify({
        mcpServers: { skilldex: { command: '/gone/node', args: ['/gone/skilldex.js', 'mcp'] } },
      }),
    );
    const c = check(await doctor(h), 'mcp.claude-code');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('/gone/node');
  });

  it('names Codex, Cursor and Gemini CLI without the server', async () => {
    const h = setUp({ clients: ['codex', 'cursor', 'gemini-cli'] });
    writeFileSync(
      path.join(h.home, '.codex/config.toml'),
      'model = "x"\n[mcp_servers.skilldex]\ncommand = "skilldex"\nenabled = false\n',
    );
    rmSync(path.join(h.home, '.cursor/mcp.json'));
    const gemini = path.join(h.home, '.gemini/settings.json');
    const g = JSON.parse(readFileSync(gemini, 'utf8')) as Record<string, unknown>;
    delete g['mcpServers'];
    writeFileSync(gemini, JSON.stringify(g));
    const r = await doctor(h);
    expect(check(r, 'mcp.codex').status).toBe('fail');
    expect(check(r, 'mcp.cursor').status).toBe('fail');
    expect(check(r, 'mcp.gemini-cli').status).toBe('fail');
    expect(r.problems).toBe(3);
  });

  it('names a Gemini CLI hook gone from BeforeAgent', async () => {
    const h = setUp({ clients: ['gemini-cli'] });
    writeFileSync(
      path.join(h.home, '.gemini/settings.json'),
      JSON.stringify({ hooks: { BeforeAgent: [] } }),
    );
    const c = check(await doctor(h), 'hook.gemini-cli');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('hooks.BeforeAgent');
  });

  it("warns when VS Code would also run Claude Code's skilldex hook: each prompt answered twice", async () => {
    const h = setUp({ clients: ['claude-code', 'vscode'] });
    writeTree(h.home, {
      '.config/Code/User/mcp.json': JSON.stringify({ servers: { skilldex: { command: 'x' } } }),
    });
    const twice = check(await doctor(h), 'hook.vscode');
    expect(twice.status).toBe('warn');
    expect(twice.message).toContain(h.settings);
    expect(twice.fix).toContain('"chat.hookFilesLocations": {"~/.claude/settings.json": false}');
    // Turned off in VS Code's settings, as the fix says: one answer, ok.
    writeTree(h.home, {
      '.config/Code/User/settings.json':
        '{\n  // mine\n  "chat.hookFilesLocations": {"~/.claude/settings.json": false}\n}\n',
    });
    expect(check(await doctor(h), 'hook.vscode').status).toBe('ok');
    // And VS Code alone is never warned.
    expect(check(await doctor(setUp({ clients: ['vscode'] })), 'hook.vscode').status).toBe('ok');
  });

  it('names a Gemini CLI hook that Gemini CLI would not run: hooks off, or skilldex disabled', async () => {
    const h = setUp({ clients: ['gemini-cli'] });
    const file = path.join(h.home, '.gemini', 'settings.json');
    expect(check(await doctor(h), 'hook.gemini-cli').status).toBe('ok');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    // gemini-cli settingsSchema.ts: hooksConfig.enabled is the canonical toggle, hooksConfig.disabled
    // lists hook names (`/hooks disable skilldex`); older releases: hooks.disabled.
    for (const [extra, what] of [
      [{ hooksConfig: { enabled: false } }, 'hooksConfig.enabled: false'],
      [{ hooksConfig: { disabled: ['skilldex'] } }, 'hooksConfig.disabled names it'],
    ] as const) {
      writeFileSync(file, `// comments are fine\n${JSON.stringify({ ...settings, ...extra })}`);
      const c = check(await doctor(h), 'hook.gemini-cli');
      expect(c.status, what).toBe('fail');
      expect(c.message).toContain(what);
      expect(c.fix).toContain(file);
    }
    const hooks = settings['hooks'] as Record<string, unknown>;
    writeFileSync(
      file,
      JSON.stringify({ ...settings, hooks: { ...hooks, disabled: ['skilldex'] } }),
    );
    expect(check(await doctor(h), 'hook.gemini-cli').message).toContain('hooks.disabled names it');
    writeFileSync(file, JSON.stringify({ ...settings, hooksConfig: { disabled: ['other'] } }));
    expect(check(await doctor(h), 'hook.gemini-cli').status).toBe('ok');
  });

  it('names a router skill that was removed', async () => {
    const h = setUp();
    rmSync(path.join(h.home, '.claude/skills/skill-router'), { recursive: true });
    expect(check(await doctor(h), 'router-skill.claude-code')).toMatchObject({
      status: 'fail',
      fix: 'skilldex init --client claude-code --yes',
    });
  });

  it('names listing controls that strand skills without the MCP server', async () => {
    const h = setUp();
    writeFileSync(path.join(h.home, '.claude.json'), '{}');
    const settings = JSON.parse(readFileSync(h.settings, 'utf8')) as Record<string, unknown>;
    settings['skillOverrides'] = { pdf: 'user-invocable-only' };
    writeFileSync(h.settings, JSON.stringify(settings));
    writeTree(h.home, {
      '.local/share/skilldex/listing/claude-code.json': JSON.stringify({
        host: 'claude-code',
        file: h.settings,
        applied_at: '2026-01-01T00:00:00.000Z',
        created_file: false,
        backup: null,
        written: { pdf: 'user-invocable-only' },
        previous: { pdf: null },
      }),
    });
    const c = check(await doctor(h), 'listing.claude-code');
    expect(c.status).toBe('fail');
    expect(c.message).toContain('skill_fetch');
    expect(c.fix).toContain('skilldex listing --host claude-code --undo');
    // A project's .mcp.json does not serve the global settings; a user-scope server does.
    const server = { command: 'skilldex', args: ['mcp'] };
    writeFileSync(
      path.join(h.home, '.mcp.json'),
      JSON.stringify({ mcpServers: { skilldex: server } }),
    );
    const project = check(await doctor(h), 'listing.claude-code');
    expect(project.status).toBe('fail');
    expect(project.message).toContain('only for this project');
    writeFileSync(
      path.join(h.home, '.claude.json'),
      JSON.stringify({ mcpServers: { skilldex: server } }),
    );
    expect(check(await doctor(h), 'listing.claude-code')).toMatchObject({ status: 'ok' });
  });

  it('the CLI: exits 1 naming each problem and its fix, --json has the checks; status sums it up without running the hook', async () => {
    const marker = 'ran-marker';
    const h = setUp({ script: `#!/bin/sh\ncat >/dev/null\ntouch "$HOME/${marker}"\nexit 0\n` });
    rmSync(path.join(h.home, '.claude/skills/skill-router'), { recursive: true });
    const lib = path.join(h.home, 'lib');
    writeTree(lib, { 'a/SKILL.md': skillMd('a-skill', 'Sort widgets.') });
    const catalog = path.join(h.home, 'catalog.db');
    await runCli(['index', '--catalog', catalog, '--scope', lib], { env: h.env, cwd: h.home });
    const status = await runCli(['status', '--catalog', catalog], { env: h.env, cwd: h.home });
    expect(status.stdout).toContain('set-up: 1 problem(s) — run skilldex doctor');
    expect(existsSync(path.join(h.home, marker))).toBe(false);
    const sj = await runCli(['status', '--catalog', catalog, '--json'], {
      env: h.env,
      cwd: h.home,
    });
    expect(JSON.parse(sj.stdout).setup).toEqual({ healthy: false, problems: 1, warnings: 0 });
    const text = await runCli(['doctor', '--catalog', catalog], { env: h.env, cwd: h.home });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/fail {2}router-skill\.claude-code: .*\n {6}fix: skilldex init/);
    expect(text.stdout).toContain('1 problem(s)');
    expect(existsSync(path.join(h.home, marker))).toBe(true);
    const json = await runCli(['doctor', '--catalog', catalog, '--json'], {
      env: h.env,
      cwd: h.home,
    });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    for (const c of report.checks) expect(['ok', 'warn', 'fail', 'skip']).toContain(c.status);
    expect(report.checks.find((c) => c.id === 'catalog')?.status).toBe('ok');
    mkdirSync(path.join(h.home, '.claude/skills/skill-router'), { recursive: true });
    writeFileSync(
      path.join(h.home, '.claude/skills/skill-router/SKILL.md'),
      skillMd('skill-router', 'x'),
    );
    expect((await runCli(['doctor', '--catalog', catalog], { env: h.env, cwd: h.home })).code).toBe(
      0,
    );
    const help = await runCli(['doctor', '--help'], { env: h.env });
    expect(help.stdout).toContain('hook-log');
  });
});
