/**
 * `skilldex init` merging into files of the user's (issues 25, 27): what it writes always parses
 * (a catalog path with DEL in Codex's TOML and the user config); shapes it cannot merge into (an
 * inline `mcp_servers = { … }`, `"mcpServers": "str"`, a top-level array, JSON with comments, a
 * FIFO) are CLIENT_CONFIG_INVALID naming the file, which is left byte for byte; Cursor's mcp.json
 * gets one inserted key and keeps every other byte and its permission bits; a project config
 * never steers what init writes; two clients reading one skills folder get a warning; a second
 * init reports the index step `unchanged`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface Report {
  catalog: string;
  steps: { step: string; action: string; target: string }[];
  warnings: string[];
}

async function init(
  home: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = home,
): Promise<{
  code: number;
  report: Report;
  error?: { code: string; details: Record<string, unknown> };
}> {
  const r = await runCli(['init', ...args, '--json'], { cwd, env: { HOME: home, ...env } });
  const body = JSON.parse(r.stdout) as Report & {
    error?: { code: string; details: Record<string, unknown> };
  };
  return { code: r.code, report: body, ...(body.error ? { error: body.error } : {}) };
}

/** True when `after` is `before` with one piece of text inserted at one place. */
function isOneInsertion(before: string, after: string): boolean {
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s])
    s++;
  return p + s === before.length && after.length > before.length;
}

const LIB = { 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') };

describe('init writes what parses, and refuses what it cannot merge into', () => {
  it('a catalog path with DEL and ESC gives a Codex config.toml and a user config that parse', async () => {
    const home = tmpTree({ ...LIB, '.codex/config.toml': 'model = "o4"\n' });
    const catalog = path.join(home, 'cat\u007f\u001b[31m.sqlite');
    const r = await init(home, ['--client', 'codex', '--library', 'lib', '--yes'], {
      SKILLDEX_CATALOG: catalog,
    });
    expect(r.code).toBe(0);
    const codex = parseToml(readFileSync(path.join(home, '.codex/config.toml'), 'utf8')) as {
      mcp_servers: { skilldex: { args: string[] } };
    };
    expect(codex.mcp_servers.skilldex.args.at(-1)).toBe(catalog);
    const config = parseToml(
      readFileSync(path.join(home, '.config/skilldex/config.toml'), 'utf8'),
    ) as { catalog: string };
    expect(config.catalog).toBe(catalog);
  });

  const refusals: [string, string, string, string][] = [
    ['codex', '.codex/config.toml', 'mcp_servers = { other = { command = "x" } }\n', 'shape'],
    ['codex', '.codex/config.toml', 'mcp_servers = "str"\n', 'shape'],
    ['codex', '.codex/config.toml', 'model = "o4\n', 'syntax'],
    ['cursor', '.cursor/mcp.json', '{ "mcpServers": "str" }\n', 'shape'],
    ['cursor', '.cursor/mcp.json', '[]\n', 'shape'],
    ['cursor', '.cursor/mcp.json', '{\n  // my servers\n  "mcpServers": {}\n}\n', 'comments'],
    ['cursor', '.cursor/mcp.json', '{ "mcpServers": {}, }\n', 'syntax'],
  ];
  for (const [client, file, text, reason] of refusals) {
    it(`${client}: ${JSON.stringify(text.trim())} is CLIENT_CONFIG_INVALID (${reason}), the file untouched, nothing written`, async () => {
      const home = tmpTree({ ...LIB, [file]: text });
      const r = await init(home, ['--client', client, '--library', 'lib', '--yes']);
      expect(r.code).toBe(2);
      expect(r.error?.code).toBe('CLIENT_CONFIG_INVALID');
      expect(r.error?.details['file']).toBe(path.join(home, file));
      expect(r.error?.details['reason']).toBe(reason);
      expect(readFileSync(path.join(home, file), 'utf8')).toBe(text);
      // Planned before anything was applied: no other file was written either.
      expect(spawnSync('ls', ['-A', home]).stdout.toString().split('\n').sort()).not.toContain(
        '.config',
      );
    });
  }

  it('a FIFO where mcp.json goes is refused at once, never waited on', async () => {
    const home = tmpTree({ ...LIB, '.cursor/.keep': '' });
    const fifo = path.join(home, '.cursor', 'mcp.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await init(home, ['--client', 'cursor', '--library', 'lib', '--yes']);
    expect(r.code).toBe(2);
    expect(r.error?.code).toBe('CLIENT_CONFIG_INVALID');
  });

  it("cursor: adds one key to mcp.json and keeps every other byte (layout, arrays on one line) and the file's mode", async () => {
    const original =
      '{\n    "mcpServers": {\n        "other": { "command": "x", "args": ["a", "b"] }\n    },\n    "theme": "dark"\n}\n';
    const home = tmpTree({ ...LIB, '.cursor/mcp.json': original });
    chmodSync(path.join(home, '.cursor/mcp.json'), 0o600);
    const r = await init(home, ['--client', 'cursor', '--library', 'lib', '--yes']);
    expect(r.code).toBe(0);
    const text = readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8');
    expect(isOneInsertion(original, text)).toBe(true);
    expect(statSync(path.join(home, '.cursor/mcp.json')).mode & 0o777).toBe(0o600);
    const parsed = JSON.parse(text) as { mcpServers: Record<string, { args: string[] }> };
    expect(Object.keys(parsed.mcpServers)).toEqual(['other', 'skilldex']);
  });
});

describe('init prints what it writes escaped', () => {
  it('a library path with ESC and OSC reaches the terminal escaped, never raw', async () => {
    const lib = 'lib\u001b]8;;https://x\u0007\u001b[31m';
    const home = tmpTree({ [`${lib}/alpha/SKILL.md`]: skillMd('alpha', 'alpha tool') });
    const r = await runCli(['init', '--library', lib, '--yes'], { cwd: home, env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
  });
});

describe('init and a project config', () => {
  it('ignores a project config: its catalog and library never reach the user config or mcp.json', async () => {
    const home = tmpTree({
      ...LIB,
      'repo/.skilldex/config.toml':
        'catalog = "postgres://victim@attacker.example/db"\n[library]\nscopes = ["/tmp"]\n',
    });
    const r = await init(home, ['--client', 'cursor', '--yes'], {}, path.join(home, 'repo'));
    expect(r.code).toBe(0);
    expect(r.report.catalog).toBe(path.join(home, '.local/share/skilldex/catalog.sqlite'));
    expect(r.report.warnings.join('\n')).toContain(path.join(home, 'repo/.skilldex/config.toml'));
    const mcp = readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8');
    const config = readFileSync(path.join(home, '.config/skilldex/config.toml'), 'utf8');
    for (const text of [mcp, config]) {
      expect(text).not.toContain('attacker');
      expect(text).not.toContain('"/tmp"');
    }
  });
});

describe('init across runs and clients', () => {
  it('a second init reports the index step unchanged; a new skill makes it run again', async () => {
    const home = tmpTree(LIB);
    const first = await init(home, ['--library', 'lib', '--yes']);
    expect(first.report.steps.find((s) => s.step === 'index')?.action).toBe('run');
    const plan = await init(home, []);
    expect(plan.report.steps.find((s) => s.step === 'index')?.action).toBe('unchanged');
    const second = await init(home, ['--yes']);
    expect(second.report.steps.map((s) => s.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'print',
      'unchanged',
    ]);
    writeTree(home, { 'lib/beta/SKILL.md': skillMd('beta', 'beta chart helper') });
    const third = await init(home, []);
    expect(third.report.steps.find((s) => s.step === 'index')?.action).toBe('run');
  });

  it('an empty library is set up, its index step skipped with a note, not a failure', async () => {
    const home = tmpTree({});
    const r = await init(home, ['--yes']);
    expect(r.code).toBe(0);
    expect(r.report.steps.find((s) => s.step === 'index')?.action).toBe('skip');
  });

  it('warns when two clients read one skills folder and each has a router skill', async () => {
    const home = tmpTree(LIB);
    // (No skilldex on the test's PATH: the one warning is that the hook runs this checkout.)
    expect(
      (await init(home, ['--library', 'lib', '--yes'])).report.warnings.filter(
        (w) => !w.includes('not on your PATH'),
      ),
    ).toEqual([]);
    const cursor = await init(home, ['--client', 'cursor', '--yes']);
    expect(cursor.report.warnings.join('\n')).toContain(path.join(home, '.claude', 'skills'));
    // And the other way round: Claude Code's init sees Cursor's copy reading its folder.
    const again = await init(home, ['--yes']);
    expect(again.report.warnings.join('\n')).toContain(path.join(home, '.cursor', 'skills'));
  });

  it('a settings.json of 5,000 nested arrays is CLIENT_CONFIG_INVALID (exit 2) naming the file, not INTERNAL (issue 36 L10)', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    for (const [client, file, text] of [
      ['claude-code', '.claude/settings.json', deep],
      ['cursor', '.cursor/mcp.json', `{"x": ${deep}}`],
    ] as const) {
      const home = tmpTree({ ...LIB, [file]: text });
      const r = await init(home, ['--client', client, '--library', 'lib', '--yes']);
      expect(r.code, client).toBe(2);
      expect(r.error?.code, client).toBe('CLIENT_CONFIG_INVALID');
      expect(r.error?.details['file'], client).toBe(path.join(home, file));
      expect(readFileSync(path.join(home, file), 'utf8')).toBe(text);
    }
    // Undo over a hook file that became that deep leaves it alone instead of crashing.
    const home = tmpTree(LIB);
    expect((await init(home, ['--library', 'lib', '--yes'])).code).toBe(0);
    writeTree(home, { '.claude/settings.json': `{"hooks": ${deep}}` });
    const undo = await runCli(['init', '--undo', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(undo.code).toBe(1);
    expect(readFileSync(path.join(home, '.claude/settings.json'), 'utf8')).toBe(
      `{"hooks": ${deep}}`,
    );
  });
});
