/**
 * `skilldex hook` as a host runs it (the built binary, stdin from the host), and `init` installing
 * it: on a fresh home init adds the UserPromptSubmit hook to ~/.claude/settings.json keeping every
 * other key; the installed command suggests a library skill for a prompt about it and prints
 * nothing for an off-topic one; errors print nothing, exit 0 and log one line (or, with --strict,
 * exit with their code); a host that never closes stdin gets nothing within the deadline;
 * --no-hook skips it, an unparsable settings file is refused, and --undo removes exactly the hook.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runBin, runCli, skillMd, tmpTree } from '../support/cli.js';

const BIN = path.join(REPO, 'bin', 'skilldex.js');
const ev = (prompt: string, session = 's1'): string =>
  JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: session, cwd: '/', prompt });

function library(): string {
  return tmpTree({
    'lib/pdf-merge/SKILL.md': skillMd(
      'pdf-merge',
      'Merge, split and rotate PDF files. Use when asked to combine PDF documents into one.',
    ),
    'lib/k8s-deploy/SKILL.md': skillMd(
      'k8s-deploy',
      'Deploy applications to Kubernetes clusters with Helm charts and rollouts.',
    ),
    'lib/commit-writer/SKILL.md': skillMd(
      'commit-writer',
      'Write conventional git commit messages from staged changes.',
    ),
  });
}

interface Settings {
  model?: string;
  hooks?: Record<string, { hooks: { type: string; command: string; timeout: number }[] }[]>;
}

// Runs a shell command line (the hook as the host runs it) with `input` on stdin.
function sh(command: string, input: string, home: string): { code: number; stdout: string } {
  const r = spawnSync('/bin/sh', ['-c', command], {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], HOME: home },
    timeout: 30_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout };
}

describe('skilldex init installs the prompt hook', () => {
  it('suggests a library skill for a prompt about it, and nothing for an off-topic one', async () => {
    const home = library();
    const settings = path.join(home, '.claude', 'settings.json');
    const original = '{\n  "model": "opus",\n  "hooks": { "Stop": [] }\n}\n';
    spawnSync('mkdir', ['-p', path.dirname(settings)]);
    writeFileSync(settings, original);
    const r = await runCli(['init', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { steps: { step: string; action: string }[] };
    expect(report.steps.find((s) => s.step === 'hook')?.action).toBe('merge');
    const s = JSON.parse(readFileSync(settings, 'utf8')) as Settings;
    expect(s.model).toBe('opus');
    expect(s.hooks!['Stop']).toEqual([]);
    const entry = s.hooks!['UserPromptSubmit']!;
    expect(entry).toHaveLength(1);
    expect(entry[0]!.hooks[0]).toMatchObject({ type: 'command', timeout: 5 });
    const command = entry[0]!.hooks[0]!.command;
    expect(command).toContain('hook claude-code');

    const hit = sh(command, ev('merge these two pdf files into one document'), home);
    expect(hit.code).toBe(0);
    const out = JSON.parse(hit.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^- pdf-merge /m);
    const miss = sh(command, ev('tell me a joke about cats and the weather'), home);
    expect(miss).toEqual({ code: 0, stdout: '' });

    // A second init changes nothing; undo removes the hook and leaves every other byte.
    const again = await runCli(['init', '--yes', '--json'], { cwd: home, env: { HOME: home } });
    expect(
      (JSON.parse(again.stdout) as { steps: { step: string; action: string }[] }).steps.find(
        (x) => x.step === 'hook',
      )?.action,
    ).toBe('unchanged');
    const undo = await runCli(['init', '--undo', '--yes'], { cwd: home, env: { HOME: home } });
    expect(undo.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(original);
  });

  it('--no-hook skips it, and a settings file it cannot parse is refused untouched', async () => {
    const home = library();
    const skipped = await runCli(['init', '--library', 'lib', '--no-hook', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    const steps = (JSON.parse(skipped.stdout) as { steps: { step: string; action: string }[] })
      .steps;
    expect(steps.find((s) => s.step === 'hook')?.action).toBe('skip');
    const settings = path.join(home, '.claude', 'settings.json');
    spawnSync('mkdir', ['-p', path.dirname(settings)]);
    writeFileSync(settings, '{ "model": "opus", }  // not JSON\n');
    const refused = await runCli(['init', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.stdout) as { error: { code: string } }).error.code).toBe(
      'CLIENT_CONFIG_INVALID',
    );
    expect(readFileSync(settings, 'utf8')).toBe('{ "model": "opus", }  // not JSON\n');
  });
});

describe('skilldex hook never gets in the way', () => {
  it('prints nothing, exits 0 and logs one line on bad input or a missing catalog', () => {
    const home = tmpTree({});
    const env = { HOME: home };
    const bad = runBin(['hook', 'claude-code', '--catalog', path.join(home, 'c.sqlite')], {
      env,
      input: 'not json',
    });
    expect(bad).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const none = runBin(['hook', 'codex', '--catalog', path.join(home, 'c.sqlite')], {
      env,
      input: ev('merge pdf files'),
    });
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const unknown = runBin(['hook', 'cursor'], { env, input: ev('merge pdf files') });
    expect(unknown).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const log = readFileSync(
      path.join(home, '.local', 'state', 'skilldex', 'hook', 'hook.log'),
      'utf8',
    )
      .trimEnd()
      .split('\n');
    expect(log).toHaveLength(3);
    expect(log[0]).toMatch(/^\S+Z claude-code HOOK_INPUT_INVALID: /);
    expect(log[1]).toMatch(/ codex CATALOG_MISSING: /);
    expect(log[2]).toMatch(/ cursor INVALID_ARGUMENT: /);
  });

  it('a bad option value in the host command line is logged, never exit 2 (a blocked prompt)', () => {
    const home = tmpTree({});
    for (const args of [
      ['--max', '9'],
      ['--deadline-ms', 'soon'],
      ['--min-confidence', '2'],
      ['--no-such-option'],
      [],
      // An option whose value is missing (issue 33 item 8): the parser must not refuse it.
      ['--max'],
      ['--min-confidence'],
      ['--deadline-ms'],
      ['--catalog'],
    ]) {
      const r = runBin(['hook', ...(args.length === 0 ? [] : ['claude-code']), ...args], {
        env: { HOME: home },
        input: ev('merge pdf files'),
      });
      expect(r, args.join(' ')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    const log = readFileSync(
      path.join(home, '.local', 'state', 'skilldex', 'hook', 'hook.log'),
      'utf8',
    );
    expect(log.match(/ INVALID_ARGUMENT: /g)).toHaveLength(8);
    expect(log).toMatch(/ claude-code INVALID_ARGUMENT: --max needs a value/);
    expect(log).toMatch(/ claude-code INVALID_ARGUMENT: --catalog needs a value/);
    // With --strict the same value is the coded refusal.
    const strict = runBin(['hook', 'claude-code', '--max', '9', '--strict', '--json'], {
      env: { HOME: home },
      input: ev('merge pdf files'),
    });
    expect(strict.code).toBe(2);
    expect((JSON.parse(strict.stdout) as { error: { code: string } }).error.code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('a missing option value, an unknown option or host is refused with --strict (exit 2)', () => {
    const home = tmpTree({});
    for (const args of [['claude-code', '--max'], ['claude-code', '--catalog'], ['gemini']]) {
      const r = runBin(['hook', ...args, '--strict', '--json'], {
        env: { HOME: home },
        input: ev('merge pdf files'),
      });
      expect(r.code, args.join(' ')).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
        'INVALID_ARGUMENT',
      );
    }
  });

  it('answers Gemini CLI and VS Code in their own shapes, through the built binary', async () => {
    const home = library();
    const catalog = path.join(home, 'catalog.sqlite');
    const idx = await runCli(['index', '--catalog', catalog, '--scope', 'lib', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(idx.code).toBe(0);
    const gemini = runBin(['hook', 'gemini-cli', '--catalog', catalog], {
      cwd: home,
      env: { HOME: home },
      input: JSON.stringify({
        hook_event_name: 'BeforeAgent',
        session_id: 'g1',
        cwd: home,
        timestamp: '2026-01-01T00:00:00Z',
        prompt: 'merge these two pdf files into one document',
      }),
    });
    expect(gemini.code).toBe(0);
    const g = JSON.parse(gemini.stdout) as Record<string, Record<string, string>>;
    expect(g['hookSpecificOutput']!['hookEventName']).toBe('BeforeAgent');
    expect(g['hookSpecificOutput']!['additionalContext']).toMatch(/^- pdf-merge /m);
    const vscode = runBin(['hook', 'vscode', '--catalog', catalog], {
      cwd: home,
      env: { HOME: home },
      input: JSON.stringify({
        hookEventName: 'UserPromptSubmit',
        sessionId: 'v1',
        cwd: home,
        prompt: 'merge these two pdf files into one document',
      }),
    });
    expect(vscode.code).toBe(0);
    const v = JSON.parse(vscode.stdout) as Record<string, Record<string, string>>;
    expect(v['hookSpecificOutput']!['hookEventName']).toBe('UserPromptSubmit');
    // A sub-agent's event gets nothing.
    const sub = runBin(['hook', 'claude-code', '--catalog', catalog], {
      cwd: home,
      env: { HOME: home },
      input: JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: 's9',
        agent_id: 'a1',
        prompt: 'merge these two pdf files into one document',
      }),
    });
    expect(sub).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a config file it cannot read is logged, not shown', () => {
    const home = tmpTree({ 'bad.toml': 'min_confidence = "high"\n' });
    const r = runBin(['hook', 'claude-code'], {
      env: { HOME: home, SKILLDEX_CONFIG: path.join(home, 'bad.toml') },
      input: ev('merge pdf files'),
    });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(
      readFileSync(path.join(home, '.local', 'state', 'skilldex', 'hook', 'hook.log'), 'utf8'),
    ).toMatch(/ claude-code CONFIG_INVALID: /);
  });

  it('--strict reports the coded error with its exit code', () => {
    const home = tmpTree({});
    const r = runBin(['hook', 'claude-code', '--strict', '--json'], {
      env: { HOME: home },
      input: '[]',
    });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
      'HOOK_INPUT_INVALID',
    );
  });

  it('answers nothing within its deadline when the host never closes stdin', async () => {
    const home = tmpTree({});
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code', '--deadline-ms', '300'], {
      env: { PATH: process.env['PATH'], HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.write('{"prompt": "never finished');
    const code = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (c) => {
        clearTimeout(kill);
        resolve(c);
      });
    });
    expect(code).toBe(0);
    expect(stdout).toBe('');
    // Not a timed assertion of speed: only that it did not wait for the 20 s kill.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(
      readFileSync(path.join(home, '.local', 'state', 'skilldex', 'hook', 'hook.log'), 'utf8'),
    ).toMatch(/ claude-code HOOK_DEADLINE: /);
  });
});
