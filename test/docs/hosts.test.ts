/**
 * docs/hosts.md cannot drift from the hook: for every host column of its table, the "hook output"
 * row's object is what `skilldex hook <host>` prints (the same keys, the same `hookEventName`, a
 * context string), a host without one is refused by `skilldex hook`, and every host the hook
 * speaks for (but `generic`) has a column. README links the page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { HOOK_HOSTS } from '../../src/hook/index.js';
import { REPO, runCli, skillMd, tmpTree } from '../support/cli.js';

const DOC = readFileSync(path.join(REPO, 'docs', 'hosts.md'), 'utf8');

// The table's rows: first cell → the other cells, in column order.
function table(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of DOC.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    rows.set(cells[0]!, cells.slice(1));
  }
  return rows;
}

// Runs `skilldex hook <args>` in process with `input` on its standard input.
async function hook(args: string[], input: string, home: string) {
  let stdout = '';
  const code = await run(['hook', ...args], {
    stdout: (s) => {
      stdout += s;
    },
    stderr: () => {},
    env: { HOME: home },
    cwd: home,
    stderrIsTTY: false,
    readStdin: () => Promise.resolve(input),
  });
  return { code, stdout };
}

// The event object each host sends, in its own spelling (docs/hosts.md "hook input").
function event(host: string, prompt: string): string {
  if (host === 'gemini-cli')
    return JSON.stringify({ hook_event_name: 'BeforeAgent', session_id: 'd1', cwd: '/', prompt });
  if (host === 'vscode')
    return JSON.stringify({ hookEventName: 'UserPromptSubmit', sessionId: 'd1', cwd: '/', prompt });
  return JSON.stringify({
    hook_event_name: 'UserPromptSubmit',
    session_id: 'd1',
    cwd: '/',
    prompt,
  });
}

describe('docs/hosts.md', () => {
  const rows = table();
  const hosts = rows.get('`skilldex hook`') ?? [];
  const outputs = rows.get('hook output') ?? [];
  let home: string;
  let catalog: string;

  beforeAll(async () => {
    home = tmpTree({
      'lib/pdf-merge/SKILL.md': skillMd(
        'pdf-merge',
        'Merge, split and rotate PDF files. Use when asked to combine PDF documents into one.',
      ),
    });
    catalog = path.join(home, 'catalog.sqlite');
    const r = await runCli(['index', '--catalog', catalog, '--scope', 'lib', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code).toBe(0);
  });

  it('has one column per host the hook speaks for, and the rows the page promises', () => {
    const named = hosts.map((c) => /^`([a-z-]+)`$/.exec(c)?.[1]).filter(Boolean);
    expect(named.sort()).toEqual(HOOK_HOSTS.filter((h) => h !== 'generic').sort());
    for (const row of [
      'listing budget',
      'hook event',
      'hook input',
      'marker of events that are not a person',
      'hook output',
      'caps',
      'where init writes',
    ])
      expect(rows.get(row), row).toHaveLength(hosts.length);
  });

  it('each host’s "hook output" is what skilldex hook prints', async () => {
    let checked = 0;
    for (const [i, cell] of hosts.entries()) {
      const host = /^`([a-z-]+)`$/.exec(cell)?.[1];
      const shape = /`(\{"hookSpecificOutput".*?\})`/.exec(outputs[i]!)?.[1];
      if (host === undefined) {
        // A host without a hook: no output shape, and `skilldex hook` does not know it.
        expect(shape, cell).toBeUndefined();
        continue;
      }
      expect(shape, host).toBeDefined();
      const documented = JSON.parse(shape!) as { hookSpecificOutput: Record<string, string> };
      const r = await hook(
        [host, '--catalog', catalog, '--no-telemetry'],
        event(host, 'merge these two pdf files into one document'),
        home,
      );
      expect(r.code, host).toBe(0);
      const printed = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, unknown> };
      expect(Object.keys(printed), host).toEqual(Object.keys(documented));
      expect(Object.keys(printed.hookSpecificOutput), host).toEqual(
        Object.keys(documented.hookSpecificOutput),
      );
      expect(printed.hookSpecificOutput['hookEventName'], host).toBe(
        documented.hookSpecificOutput['hookEventName'],
      );
      expect(printed.hookSpecificOutput['additionalContext'], host).toMatch(/^- pdf-merge /m);
      checked++;
    }
    expect(checked).toBe(HOOK_HOSTS.length - 1);
  });

  it('a host the table gives no hook is refused by skilldex hook --strict', async () => {
    const r = await hook(['cursor', '--strict', '--json'], event('cursor', 'merge pdfs'), home);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('is linked from the README’s documentation table', () => {
    expect(readFileSync(path.join(REPO, 'README.md'), 'utf8')).toMatch(
      /^\| \[docs\/hosts\.md\]\(docs\/hosts\.md\) /m,
    );
  });
});
