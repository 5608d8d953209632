/**
 * `init` then `init --undo` through the CLI, for every client that takes a prompt hook (issue 35):
 * the user's own hand-formatted CRLF files — Claude Code's settings.json, Codex's config.toml and
 * hooks.json, Gemini CLI's settings.json without a final newline, a VS Code hook file of the user's
 * — get the hook and the MCP entry in their own line ends (never a mix), and `--undo` gives every
 * one of them back byte for byte, leaving no file or folder init made in the host folders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

const HOST_FOLDERS = ['.claude', '.codex', '.gemini', '.copilot'];

const FILES: Record<string, string> = {
  'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge, split and rotate PDF files.'),
  '.claude/settings.json':
    '{\r\n  "theme":   "dark",\r\n  "permissions": { "allow": [ "Bash(ls)" ] }\r\n}\r\n',
  '.codex/config.toml': '# mine\r\nmodel = "o4"\r\n\r\n[features]\r\nx = true\r\n',
  '.codex/hooks.json': '{\r\n  "hooks": {\r\n    "Stop": []\r\n  }\r\n}\r\n',
  '.gemini/settings.json': '{\r\n\t"theme": "x",\r\n\t"hooks": {}\r\n}',
  '.copilot/hooks/mine.json': '{\r\n  "hooks": { "Stop": [] }\r\n}\r\n',
};

// Every file and folder below the host folders of `home`, files with their bytes (base64).
function snapshot(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const top of HOST_FOLDERS) {
    const dir = path.join(home, top);
    let entries: string[];
    try {
      entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    out[top] = '(folder)';
    for (const rel of entries.sort()) {
      const p = path.join(dir, rel);
      out[path.join(top, rel)] = statSync(p).isDirectory()
        ? '(folder)'
        : readFileSync(p).toString('base64');
    }
  }
  return out;
}

// True when every line end of `text` is CRLF (no bare LF).
const crlfOnly = (text: string): boolean => !/(^|[^\r])\n/.test(text);

describe('init and init --undo keep CRLF files byte for byte (issue 35)', () => {
  it('claude-code, codex, gemini-cli and vscode: hooks written in CRLF, undo gives every byte back', async () => {
    const home = tmpTree(FILES);
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const before = snapshot(home);
    const hookFile: Record<string, string> = {
      'claude-code': '.claude/settings.json',
      codex: '.codex/hooks.json',
      'gemini-cli': '.gemini/settings.json',
      vscode: '.copilot/hooks/skilldex.json',
    };
    for (const client of ['claude-code', 'codex', 'gemini-cli', 'vscode']) {
      const r = await runCli(['init', '--client', client, '--library', 'lib', '--yes', '--json'], {
        cwd: home,
        env,
      });
      expect(r.code, `${client}: ${r.stdout}${r.stderr}`).toBe(0);
      const steps = (JSON.parse(r.stdout) as { steps: { step: string; action: string }[] }).steps;
      expect(steps.find((s) => s.step === 'hook')?.action, client).toMatch(/^(merge|create)$/);
      const text = readFileSync(path.join(home, hookFile[client]!), 'utf8');
      expect(text, client).toContain(`hook ${client}`);
    }
    // The user's CRLF files took the entries in CRLF, never a mix.
    for (const rel of ['.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json']) {
      const text = readFileSync(path.join(home, rel), 'utf8');
      expect(text, rel).not.toBe(FILES[rel]);
      expect(crlfOnly(text), rel).toBe(true);
    }
    const toml = readFileSync(path.join(home, '.codex/config.toml'), 'utf8');
    expect(toml).toContain('[mcp_servers.skilldex]');
    expect(crlfOnly(toml)).toBe(true);

    const undo = await runCli(['init', '--undo', '--yes', '--json'], { cwd: home, env });
    expect(undo.code, undo.stdout).toBe(0);
    expect(snapshot(home)).toEqual(before);
  });
});
