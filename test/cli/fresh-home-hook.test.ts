/**
 * The "done when" of issue 35, end to end: a fresh home whose skills are already in
 * `~/.claude/skills` (and a hand-formatted settings.json) gets a working prompt hook from a plain
 * `skilldex init --client claude-code --yes` — no `--library`. The command init wrote into
 * settings.json, run as Claude Code runs it (one string through /bin/sh, the event on stdin),
 * answers a person's prompt with the matching skill in `additionalContext`, says nothing for a
 * host-made `<task-notification>`, and doctor's hook check passes; the router skill is no
 * suggestion; init's report says to start a new Claude Code session (Claude Code snapshots its
 * hooks at session start, code.claude.com/docs/en/hooks). Runs the built bin (`npm run build` first).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runBin, runCli, skillMd, tmpTree } from '../support/cli.js';

const BIN = path.join(REPO, 'bin', 'skilldex.js');

function event(prompt: string, session = 'fresh-1'): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  });
}

describe('a fresh home with skills in ~/.claude/skills (issue 35, done when)', () => {
  it('init --client claude-code --yes installs a hook that answers the next prompt', async () => {
    const home = tmpTree({
      '.claude/skills/pdf-merge/SKILL.md': skillMd(
        'pdf-merge',
        'Merge, split and rotate PDF files. Use when asked to combine PDF documents into one.',
      ),
      '.claude/skills/csv-clean/SKILL.md': skillMd(
        'csv-clean',
        'Clean CSV spreadsheets: fix delimiters, trim cells, drop duplicate rows.',
      ),
      '.claude/settings.json': '{\n\t"theme":   "dark"\n}',
    });
    // No skilldex on PATH: the hook runs this Node and this checkout's bin (BIN).
    const env = { HOME: home, PATH: '/nonexistent' };
    const init = await runCli(['init', '--client', 'claude-code', '--yes', '--json'], {
      cwd: home,
      env,
    });
    expect(init.code, init.stderr).toBe(0);
    const report = JSON.parse(init.stdout) as {
      steps: { step: string; action: string }[];
      library_scopes: string[];
      notes: string[];
    };
    expect(report.library_scopes).toEqual([path.join(home, '.claude', 'skills')]);
    expect(report.steps.find((s) => s.step === 'hook')?.action).toBe('merge');
    // Claude Code snapshots its hooks when a session starts: init says to start a new one, and
    // only when it wrote the hook (a second init, hook unchanged, does not repeat it).
    const restart = 'start a new Claude Code session for the prompt hook to run';
    expect(report.notes.join('\n')).toContain(restart);
    const again = await runCli(['init', '--client', 'claude-code', '--yes', '--json'], {
      cwd: home,
      env,
    });
    expect((JSON.parse(again.stdout) as { notes: string[] }).notes.join('\n')).not.toContain(
      restart,
    );

    const settings = JSON.parse(readFileSync(path.join(home, '.claude/settings.json'), 'utf8')) as {
      hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] };
    };
    const command = settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command;
    expect(command).toContain(BIN);
    const run = (input: string) =>
      spawnSync('/bin/sh', ['-c', command], {
        env: { HOME: home, PATH: '/usr/bin:/bin' },
        input,
        encoding: 'utf8',
        timeout: 30_000,
      });

    const answered = run(event('merge these two pdf files into one document'));
    expect(answered.status).toBe(0);
    expect(answered.stderr).toBe('');
    const out = JSON.parse(answered.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^- pdf-merge /m);
    expect(out.hookSpecificOutput.additionalContext).not.toContain('skill-router');
    expect(out.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(10_000);

    // A host-made delivery is not a person's prompt: nothing, exit 0.
    const notification = run(
      event(
        '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>',
      ),
    );
    expect({ code: notification.status, out: notification.stdout }).toEqual({ code: 0, out: '' });

    const doctor = await runCli(['doctor', '--json'], { cwd: home, env });
    const checks = (JSON.parse(doctor.stdout) as { checks: { id: string; status: string }[] })
      .checks;
    expect(checks.find((c) => c.id === 'hook.claude-code')?.status).toBe('ok');
    expect(checks.find((c) => c.id === 'catalog')?.status).toBe('ok');
    expect(checks.find((c) => c.id === 'router-skill.claude-code')?.status).toBe('ok');

    // The prompt the hook answered by itself started a hook server for the next one: the built
    // doctor sees it (docs/hosts.md, "The hook server"); the next prompt is answered by it.
    const serverCheck = () =>
      (
        JSON.parse(runBin(['doctor', '--json'], { cwd: home, env }).stdout) as {
          checks: { id: string; status: string; message: string }[];
        }
      ).checks.find((c) => c.id === 'hook-server');
    let seen = serverCheck();
    for (let i = 0; i < 100 && !seen?.message.includes('runs since'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = serverCheck();
    }
    expect(seen).toMatchObject({ status: 'ok', message: expect.stringContaining('runs since') });
    const served = run(event('merge these two pdf files into one document', 's2'));
    expect(served.stdout).toBe(answered.stdout);
    // init --undo takes the hook away and ends the server it started.
    const undo = runBin(['init', '--undo', '--yes', '--json'], { cwd: home, env });
    expect((JSON.parse(undo.stdout) as { notes: string[] }).notes.join('\n')).toMatch(
      /stopped the hook server \(process \d+\)/,
    );
    const left = JSON.parse(
      runBin(['hook-server', 'status', '--json'], { cwd: home, env }).stdout,
    ) as { servers: { running: boolean }[] };
    expect(left.servers.filter((x) => x.running)).toEqual([]);
  }, 60_000);
});

describe('init --undo one client at a time (issue 35)', () => {
  it('ends the hook server once the last hook init installed is undone, not before', () => {
    const home = tmpTree({
      'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one document.'),
      '.gemini/settings.json': '{}\n',
    });
    const env = { HOME: home, PATH: '/nonexistent', XDG_STATE_HOME: '', XDG_CONFIG_HOME: '' };
    for (const client of ['gemini-cli', 'vscode']) {
      const init = runBin(['init', '--client', client, '--library', 'lib', '--yes'], {
        cwd: home,
        env,
      });
      expect(init.code, init.stderr).toBe(0);
    }
    const start = runBin(['hook-server', 'start', '--json'], { cwd: home, env });
    expect(start.code, start.stderr).toBe(0);
    const running = () =>
      (
        JSON.parse(runBin(['hook-server', 'status', '--json'], { cwd: home, env }).stdout) as {
          servers: { running: boolean }[];
        }
      ).servers.filter((x) => x.running).length;
    expect(running()).toBe(1);
    const notes = (client: string) =>
      (
        JSON.parse(
          runBin(['init', '--undo', '--client', client, '--yes', '--json'], { cwd: home, env })
            .stdout,
        ) as { notes: string[] }
      ).notes.join('\n');
    // VS Code's hook is still there: its server stays.
    expect(notes('gemini-cli')).not.toContain('stopped the hook server');
    expect(running()).toBe(1);
    expect(notes('vscode')).toMatch(/stopped the hook server \(process \d+\)/);
    expect(running()).toBe(0);
  }, 60_000);
});
