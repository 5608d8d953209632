/**
 * The prompt hook command `skilldex init` installs (issue 35): the `skilldex` on PATH when there is
 * one, else this Node and this checkout's bin (with a warning saying so), always inside a
 * `/bin/sh -c` wrapper that stays silent — exit 0, nothing printed — when skilldex or node is
 * missing, so a moved clone or a switched Node never shows the user a hook error. Each command is
 * run the way the hosts run it: as a string through a shell.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/cli/init/hook-step.js';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

const LIB = { 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') };

/** Runs `command` as Claude Code and Codex do: one string through a shell, with this PATH. */
function runHook(command: string, PATH: string): { code: number | null; out: string; err: string } {
  const r = spawnSync('/bin/sh', ['-c', command], {
    env: { PATH },
    input: '{"prompt":"make a pdf table"}',
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A folder with fake `skilldex` and `node` executables that print what they were given. */
function fakeBin(root: string, names: readonly string[]): string {
  writeTree(
    root,
    Object.fromEntries(names.map((n) => [`fakebin/${n}`, `#!/bin/sh\necho "${n} $*"\n`])),
  );
  for (const n of names) chmodSync(path.join(root, 'fakebin', n), 0o755);
  return path.join(root, 'fakebin');
}

async function installedCommand(home: string, PATH: string | undefined) {
  const r = await runCli(['init', '--library', 'lib', '--yes', '--json'], {
    cwd: home,
    env: { HOME: home, ...(PATH !== undefined ? { PATH } : {}) },
  });
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout) as { warnings: string[]; catalog: string };
  const settings = JSON.parse(readFileSync(path.join(home, '.claude/settings.json'), 'utf8')) as {
    hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] };
  };
  return { report, command: settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command };
}

describe('the hook command init installs', () => {
  it('runs the skilldex on PATH by name, and stays silent (exit 0) when skilldex or node is gone', async () => {
    const home = tmpTree(LIB);
    const bin = fakeBin(home, ['skilldex', 'node']);
    const { report, command } = await installedCommand(home, bin);
    expect(report.warnings.join('\n')).not.toContain('not on your PATH');
    expect(command).not.toContain(process.execPath);
    const ran = runHook(command, bin);
    expect(ran.code).toBe(0);
    expect(ran.out.trim()).toBe(`skilldex hook claude-code --catalog ${report.catalog}`);

    for (const PATH of ['/nonexistent', fakeBin(path.join(home, 'only-skilldex'), ['skilldex'])]) {
      const silent = runHook(command, PATH);
      expect(silent, PATH).toEqual({ code: 0, out: '', err: '' });
    }
  });

  it('falls back to this Node and checkout when skilldex is not on PATH, and says so', async () => {
    const home = tmpTree(LIB);
    const { report, command } = await installedCommand(home, '/nonexistent');
    expect(report.warnings.join('\n')).toContain('skilldex is not on your PATH');
    expect(command).toContain(process.execPath);
  });

  it("a second init replaces init's own hook that runs another command; one the user edited is named, not replaced (issue 35)", async () => {
    const home = tmpTree(LIB);
    const settings = path.join(home, '.claude/settings.json');
    writeTree(home, { '.claude/settings.json': '{\n    "model" :  "opus"\n}\n' });
    const original = readFileSync(settings, 'utf8');
    // Installed while skilldex was on PATH...
    const first = await installedCommand(home, fakeBin(home, ['skilldex', 'node']));
    expect(first.command).not.toContain(process.execPath);
    // ... then skilldex went away: a second init puts this Node and checkout in its place.
    const env = { HOME: home, PATH: '/nonexistent' };
    const again = await runCli(['init', '--library', 'lib', '--yes', '--json'], { cwd: home, env });
    const report = JSON.parse(again.stdout) as {
      warnings: string[];
      steps: { step: string; action: string; detail: string }[];
    };
    const hook = report.steps.find((s) => s.step === 'hook')!;
    expect(hook.action).toBe('replace');
    expect(hook.detail).toContain('replaces the skilldex hook an earlier init wrote');
    expect(report.warnings.join('\n')).not.toContain('runs another command');
    const text = readFileSync(settings, 'utf8');
    expect(text).toContain(process.execPath);
    expect(text).not.toContain(first.command.replace(/"/g, '\\"'));
    expect(text.match(/hook claude-code/g)).toHaveLength(1);
    // A third init: unchanged. And undo gives back the file as it was before the first init.
    const third = await runCli(['init', '--library', 'lib', '--yes', '--json'], { cwd: home, env });
    const steps = (JSON.parse(third.stdout) as { steps: { step: string; action: string }[] }).steps;
    expect(steps.find((s) => s.step === 'hook')?.action).toBe('unchanged');
    expect((await runCli(['init', '--undo', '--yes'], { cwd: home, env })).code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(original);

    // A skilldex hook the user edited (its timeout) is theirs: named, left as it is.
    await installedCommand(home, fakeBin(home, ['skilldex', 'node']));
    writeFileSync(settings, readFileSync(settings, 'utf8').replace('"timeout": 5', '"timeout": 9'));
    const edited = await runCli(['init', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env,
    });
    const er = JSON.parse(edited.stdout) as {
      warnings: string[];
      steps: { step: string; action: string }[];
    };
    expect(er.steps.find((s) => s.step === 'hook')?.action).toBe('unchanged');
    const stale = er.warnings.find((w) => w.includes('runs another command'));
    expect(stale).toContain(settings);
    expect(stale).toContain(
      'skilldex init --undo --client claude-code --yes, then skilldex init --client claude-code --yes',
    );
  });

  it('the fallback stays silent when the Node or the checkout is gone', () => {
    const home = tmpTree({
      'app/bin/skilldex.js': 'console.log("ran", process.argv.slice(2).join(" "))\n',
    });
    const js = path.join(home, 'app/bin/skilldex.js');
    const catalog = path.join(home, "it's a catalog.sqlite");
    const ok = hookCommand({ onPath: false, node: process.execPath, bin: js }, 'codex', catalog);
    expect(runHook(ok, '/nonexistent')).toEqual({
      code: 0,
      out: `ran hook codex --catalog ${catalog}\n`,
      err: '',
    });
    for (const broken of [
      hookCommand({ onPath: false, node: '/nonexistent/node', bin: js }, 'codex', catalog),
      hookCommand(
        { onPath: false, node: process.execPath, bin: '/moved/bin/skilldex.js' },
        'codex',
        catalog,
      ),
    ])
      expect(runHook(broken, '/nonexistent')).toEqual({ code: 0, out: '', err: '' });
  });
});
