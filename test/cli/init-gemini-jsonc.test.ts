/**
 * `skilldex init --client gemini-cli` on a ~/.gemini/settings.json with comments (issue 35): Gemini
 * CLI reads its settings as JSON with comments, so init reads and edits the file — the MCP entry
 * and the BeforeAgent hook added, every comment and every other byte kept — a second init is
 * `unchanged`, doctor finds both, and `init --undo` gives the file back byte for byte. Another
 * client's JSON file with comments is still refused (CLIENT_CONFIG_INVALID), and the comment
 * reader keeps `//` inside strings and blanks comments at the same offsets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor.js';
import { blankJsonComments } from '../../src/text/index.js';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

const LIB = { 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') };

const MINE = [
  '// Gemini CLI settings, kept by hand',
  '{',
  '  "theme": "Dracula", // the dark one',
  '  /* servers I use:',
  '     none yet */',
  '  "mcpServers": {},',
  '  "context": { "fileName": "GEMINI.md" } // "a // in a comment"',
  '}',
  '',
].join('\n');

async function init(home: string, args: string[]) {
  return runCli(['init', '--client', 'gemini-cli', ...args, '--json'], {
    cwd: home,
    env: { HOME: home },
  });
}

describe('init edits a Gemini CLI settings.json with comments', () => {
  it('adds the MCP server and the hook keeping every comment; a second init is unchanged; undo restores every byte', async () => {
    const home = tmpTree({ ...LIB, '.gemini/settings.json': MINE });
    const file = path.join(home, '.gemini', 'settings.json');
    const first = await init(home, ['--library', 'lib', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const steps = (JSON.parse(first.stdout) as { steps: { step: string; action: string }[] }).steps;
    expect(steps.find((s) => s.step === 'mcp')?.action).toBe('merge');
    expect(steps.find((s) => s.step === 'hook')?.action).toBe('merge');
    const after = readFileSync(file, 'utf8');
    // Every comment of the user's is still there, where it was.
    for (const comment of [
      '// Gemini CLI settings, kept by hand\n{\n  "theme": "Dracula", // the dark one\n',
      '  /* servers I use:\n     none yet */\n  "mcpServers": {',
      '"context": { "fileName": "GEMINI.md" },\n',
    ])
      expect(after).toContain(comment);
    // A comment after the last member stays after what init appended there (init inserts right
    // after the member's value): its bytes are kept, and undo puts them back in place.
    expect(after).toMatch(/\n {2}\} \/\/ "a \/\/ in a comment"\n\}\n$/);
    const doc = JSON.parse(blankJsonComments(after)) as {
      theme: string;
      mcpServers: { skilldex: { args: string[] } };
      hooks: { BeforeAgent: { hooks: { command: string }[] }[] };
    };
    expect(doc.theme).toBe('Dracula');
    expect(doc.mcpServers.skilldex.args).toContain('mcp');
    expect(doc.hooks.BeforeAgent[0]!.hooks[0]!.command).toContain('hook gemini-cli');

    const second = await init(home, ['--yes']);
    expect(second.code, second.stderr).toBe(0);
    for (const s of (JSON.parse(second.stdout) as { steps: { step: string; action: string }[] })
      .steps)
      expect(s.action, s.step).toBe('unchanged');

    const report = await runDoctor({
      home,
      env: { HOME: home },
      cwd: home,
      runHook: false,
    });
    expect(report.checks.find((c) => c.id === 'mcp.gemini-cli')?.status).toBe('ok');
    expect(report.checks.find((c) => c.id === 'hook.gemini-cli')?.status).not.toBe('fail');

    const undo = await runCli(['init', '--undo', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(MINE);
  });

  it("still refuses another client's JSON file with comments, untouched", async () => {
    const text = '{\n  // my servers\n  "mcpServers": {}\n}\n';
    const home = tmpTree({ ...LIB, '.cursor/mcp.json': text });
    const r = await runCli(['init', '--client', 'cursor', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
      'CLIENT_CONFIG_INVALID',
    );
    expect(readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8')).toBe(text);
  });

  it('blanks comments at the same offsets and leaves // inside strings', () => {
    const t = '{"a": "x//y", /* c\n d */ "b": 1 // e\n}';
    const b = blankJsonComments(t);
    expect(b).toHaveLength(t.length);
    expect(b.split('\n')).toHaveLength(t.split('\n').length);
    expect(JSON.parse(b)).toEqual({ a: 'x//y', b: 1 });
    expect(blankJsonComments('{"a": 1}')).toBe('{"a": 1}');
    expect(JSON.parse(blankJsonComments('{"a": 1} /* open'))).toEqual({ a: 1 });
  });
});
