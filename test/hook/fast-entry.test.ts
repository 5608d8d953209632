/**
 * The prompt hook's own entry (src/cli/hook-main.ts, issue 35 hook latency): it parses exactly the
 * command lines it knows (else hands them to the full CLI), and a hook run through it answers as the
 * full CLI's `skilldex hook` does — same output, exit code and log line — for prompts that get
 * suggestions, prompts that get none, and every kind of error. Then the built launcher: `skilldex
 * hook …` loads dist/cli/hook.cjs and not the full bundle (needs `npm run build`), and gives the
 * same bytes as the full bundle for a set of prompts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_ID, indexCatalog } from '../../src/internal.js';
import { parseFastHookArgv, runFastHook } from '../../src/cli/hook-main.js';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/context.js';
import { HOOK_TEST_LIBRARY, REPO, skillMd, tmpDir, writeTree } from '../support/cli.js';

const NOW = (): Date => new Date('2026-01-01T00:00:00Z');

// `probe` until it gives a value (every 100 ms, 15 s at most: a hook server starts in the
// background, in well under a second on a quiet machine).
async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gave up waiting');
}

const event = (prompt: string, session = 's1', extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    hook_event_name: 'UserPromptSubmit',
    session_id: session,
    cwd: '/',
    prompt,
    ...extra,
  });

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  log: string;
}

describe('the hook entry answers as the full CLI', () => {
  let dir: string;
  let catalog: string;
  beforeAll(() => {
    dir = tmpDir('skilldex-fast-hook-');
    writeTree(dir, {
      ...HOOK_TEST_LIBRARY,
      'lib/quiet/SKILL.md': skillMd(
        'quiet',
        'Merge PDF files quietly without asking anything.',
        'disable-model-invocation: true\n',
      ),
    });
    catalog = path.join(dir, 'catalog.sqlite');
    indexCatalog({
      catalog,
      scopes: [path.join(dir, 'lib')],
      now: NOW,
      policy: DEFAULT_POLICY_ID,
    });
  });

  // One run, through the full CLI (`run`) or the hook entry, in a home of its own with a copy of
  // the catalog (a run records telemetry beside it, which the next run would rank with).
  async function once(via: 'full' | 'fast', argvIn: string[], input: string): Promise<Outcome> {
    const home = path.join(dir, `home-${via}`);
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    const copy = path.join(home, 'catalog.sqlite');
    copyFileSync(catalog, copy);
    const argv = argvIn.includes('--catalog')
      ? argvIn
      : ['hook', '--catalog', copy, ...argvIn.slice(1)];
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: { HOME: home, PATH: '' },
      cwd: home,
      stderrIsTTY: false,
      readStdin: () => Promise.resolve(input),
      releaseStdin: () => {},
    };
    let code: number;
    if (via === 'full') code = await run(argv, io);
    else {
      const args = parseFastHookArgv(argv);
      expect(args, `the hook entry takes ${argv.join(' ')}`).toBeDefined();
      code = await runFastHook(args!, io);
    }
    let log = '';
    try {
      log = readFileSync(
        path.join(home, '.local', 'state', 'skilldex', 'hook', 'hook.log'),
        'utf8',
      );
    } catch {
      // No log: nothing went wrong.
    }
    // The time stamp differs between runs; the rest of the line is the answer.
    return { code, stdout, stderr, log: log.replace(/^\S+ /gm, '') };
  }

  const cases: [string, string[], string][] = [
    ['a prompt with suggestions', ['hook', 'claude-code'], event('merge these two pdf files')],
    ['another host', ['hook', 'codex'], event('deploy my app to a kubernetes cluster')],
    [
      'gemini-cli',
      ['hook', 'gemini-cli'],
      event('write a docx word report', 'g', { hook_event_name: 'BeforeAgent' }),
    ],
    ['generic, plain text', ['hook', 'generic'], 'merge pdf files into one document'],
    ['a prompt that fits nothing', ['hook', 'claude-code'], event('what is the weather today')],
    ['a slash command', ['hook', 'claude-code'], event('/pdf-merge a.pdf b.pdf')],
    [
      'a sub-agent event',
      ['hook', 'claude-code'],
      event('merge pdf files', 's', { agent_id: 'a' }),
    ],
    ['--max and --min-confidence', ['hook', 'generic', '--max', '1', '--min-confidence=0'], 'pdf'],
    ['--no-telemetry --no-usage', ['hook', 'generic', '--no-telemetry', '--no-usage'], 'pdf merge'],
    ['input that is not JSON', ['hook', 'claude-code'], 'merge pdf files'],
    ['an unknown host', ['hook', 'cursor'], event('merge pdf files')],
    ['no host', ['hook'], event('merge pdf files')],
    ['a bad --max', ['hook', 'claude-code', '--max', '9'], event('merge pdf files')],
    ['--max without a value', ['hook', 'claude-code', '--max'], event('merge pdf files')],
    ['a bad --deadline-ms', ['hook', 'claude-code', '--deadline-ms=3'], event('merge pdfs')],
    ['extra operands', ['hook', 'claude-code', 'extra', 'words'], event('merge pdf files')],
    [
      'a missing catalog',
      ['hook', 'claude-code', '--catalog', '/nonexistent/c.sqlite'],
      event('merge pdf files'),
    ],
  ];

  it.each(cases)('%s', async (_, argv, input) => {
    const full = await once('full', argv, input);
    const fast = await once('fast', argv, input);
    // The log names the catalog copy of each run's home.
    expect({ ...fast, log: fast.log.replaceAll('home-fast', 'home-full') }).toEqual(full);
  });

  it('answers with suggestions and logs errors (the cases above are not all empty)', async () => {
    const shown = await once('fast', ['hook', 'claude-code'], event('merge these two pdf files'));
    expect(shown.stdout).toContain('pdf-merge');
    expect(shown.stdout).not.toContain('quiet');
    const bad = await once('fast', ['hook', 'claude-code'], 'not json');
    expect(bad).toMatchObject({ code: 0, stdout: '' });
    expect(bad.log).toMatch(/^claude-code HOOK_INPUT_INVALID: /);
  });

  it('leaves every command line it does not know for sure to the full CLI', () => {
    for (const argv of [
      ['search', 'x'],
      ['-q', 'hook', 'claude-code'],
      ['hook', 'claude-code', '--help'],
      ['hook', '-h'],
      ['hook', 'claude-code', '--strict'],
      ['hook', 'claude-code', '--json'],
      ['hook', 'claude-code', '--config', 'c.toml'],
      ['hook', 'claude-code', '--unknown'],
      ['hook', 'claude-code', '--catalog', '-x'],
      ['hook', 'claude-code', '--', 'x'],
      ['hook', '-'],
    ])
      expect(parseFastHookArgv(argv), argv.join(' ')).toBeUndefined();
    expect(
      parseFastHookArgv(['hook', 'codex', '--catalog', 'a', '--catalog=b', '--max=2', 'more']),
    ).toEqual({
      host: 'codex',
      flags: { telemetry: true, usage: true, catalog: 'b', max: '2' },
    });
  });
});

describe('the built launcher runs the hook through its own bundle', () => {
  const BIN = path.join(REPO, 'bin', 'skilldex.js');
  let dir: string;
  let catalog: string;
  let preload: string;
  beforeAll(() => {
    dir = tmpDir('skilldex-fast-hook-bin-');
    catalog = path.join(dir, 'catalog.sqlite');
    indexCatalog({
      catalog,
      scopes: [path.join(REPO, 'examples', 'skills')],
      now: NOW,
      policy: DEFAULT_POLICY_ID,
    });
    // Notes on stderr, at exit, which bundles the process read and whether it made process.stdin.
    preload = path.join(dir, 'trace.cjs');
    writeFileSync(
      preload,
      "const fs = require('node:fs'); const read = fs.readFileSync; const seen = new Set();\n" +
        'fs.readFileSync = function (f, ...a) { if (typeof f === "string" && f.endsWith(".cjs")) seen.add(require("node:path").basename(f)); return read.call(this, f, ...a); };\n' +
        "process.on('exit', () => process.stderr.write('\\nTRACE ' + JSON.stringify([...seen].sort()) + '\\n'));\n" +
        // What start-up work the run did: node:crypto loaded, modules required from node_modules.
        "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify({ crypto: process.moduleLoadList.includes('NativeModule crypto'), modules: Object.keys(require.cache).filter((f) => f.includes('node_modules')).map((f) => f.split('node_modules/').pop().split('/')[0]) }) + '\\n'));\n",
    );
  });

  function spawn(
    args: string[],
    input: string,
    entry: 'bin' | 'full',
    homeName = `home-${entry}`,
    env: Record<string, string> = {},
  ): { out: string; err: string; code: number | null } {
    // A home per entry: each keeps its own session state.
    const home = path.join(dir, homeName);
    const script =
      entry === 'bin'
        ? [BIN]
        : [
            '-e',
            `require(${JSON.stringify(BIN)}).loadCli().cli.main(process.argv.slice(1)).then((c) => { process.exitCode = c; })`,
          ];
    const r = spawnSync(process.execPath, ['--require', preload, ...script, ...args], {
      input,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: home, ...env },
      cwd: dir,
    });
    return { out: r.stdout, err: r.stderr, code: r.status };
  }

  // Ends the hook server a test started in `homeName` (it would end by itself once the folder goes).
  function stopServer(homeName: string): void {
    spawnSync(process.execPath, [BIN, 'hook-server', 'stop'], {
      env: { PATH: process.env['PATH'] ?? '', HOME: path.join(dir, homeName) },
      encoding: 'utf8',
    });
  }

  it('reads the hook server client and dist/cli/hook.cjs, not the full bundle, for a hook command line; the full one otherwise', () => {
    // With the hook server off, the client hands over at once and the hook bundle runs here.
    const fast = spawn(
      ['hook', 'claude-code', '--catalog', catalog],
      event('extract the tables from this pdf file'),
      'bin',
      'home-bin-off',
      { SKILLDEX_HOOK_SERVER: 'off' },
    );
    expect(fast.code).toBe(0);
    expect(fast.err).toContain('TRACE ["hook-client.cjs","hook.cjs"]');
    const help = spawn(['hook', '--help'], '', 'bin');
    expect(help.code).toBe(0);
    expect(help.err).toContain('TRACE ["hook-client.cjs","hook.cjs","skilldex.cjs"]');
    expect(help.out).toContain('Usage: skilldex hook');
  });

  it('answers from the hook server once one runs: the prompt then loads the client bundle only', async () => {
    const home = 'home-served';
    const first = spawn(
      ['hook', 'claude-code', '--catalog', catalog],
      event('extract the tables from this pdf file', 'served-1'),
      'bin',
      home,
    );
    expect(first.code).toBe(0);
    // No server yet: answered here, and a server started for the next prompt.
    expect(first.err).toContain('TRACE ["hook-client.cjs","hook.cjs"]');
    let probe = 0;
    const served = await waitFor(() => {
      // A new session each time: a probe answered here also records its suggestion in its session.
      const r = spawn(
        ['hook', 'claude-code', '--catalog', catalog],
        event('extract the tables from this pdf file', `served-${++probe + 1}`),
        'bin',
        home,
      );
      return r.err.includes('TRACE ["hook-client.cjs"]') ? r : undefined;
    });
    expect(served.code).toBe(0);
    expect(served.out).toBe(first.out);
    expect(served.err).toContain('"modules":[]');
    stopServer(home);
  });

  it('reads the user config and the session state without node:crypto or a TOML parser from node_modules', () => {
    // The config init writes; a prompt that gets suggestions (its telemetry and the session state
    // are written), then one of the same session that gets none: the usual prompt, which reads
    // the config and the session's state and writes nothing.
    const home = path.join(dir, 'home-config');
    writeTree(home, {
      '.config/skilldex/config.toml': `catalog = ${JSON.stringify(catalog)}\n\n[library]\nscopes = ["/nowhere"]\n`,
    });
    const runs = ['extract the tables from this pdf file', 'what is the weather like today'].map(
      (p) => spawn(['hook', 'claude-code'], event(p, 'same-session'), 'bin', 'home-config'),
    );
    const loaded = runs.map((r) => {
      expect(r.code).toBe(0);
      return JSON.parse(/LOADED (.*)/.exec(r.err)![1]!) as { crypto: boolean; modules: string[] };
    });
    // The config was read: the catalog it names answered (no --catalog was given).
    expect(runs[0]!.out).toContain('hookSpecificOutput');
    expect(
      readdirSync(path.join(home, '.local', 'state', 'skilldex', 'hook', 'sessions')),
    ).toHaveLength(1);
    expect(runs[1]!.out).toBe('');
    expect(loaded[1]!.crypto).toBe(false);
    for (const l of loaded) expect(l.modules).not.toContain('smol-toml');
  });

  it('prints the same bytes as the full bundle for a set of prompts', () => {
    const prompts = [
      'extract the tables from this pdf file',
      'deploy this app to kubernetes',
      'what is the weather today',
      '/commit',
      'write unit tests for this python function',
      'summarise this spreadsheet and chart the totals',
    ];
    let suggested = 0;
    prompts.forEach((p, i) => {
      for (const host of ['claude-code', 'gemini-cli', 'generic']) {
        const input =
          host === 'generic'
            ? p
            : event(
                p,
                `bin-${host}-${i}`,
                host === 'gemini-cli' ? { hook_event_name: 'BeforeAgent' } : {},
              );
        const args = ['hook', host, '--catalog', catalog, '--no-telemetry'];
        const fast = spawn(args, input, 'bin');
        const full = spawn(args, input, 'full');
        expect(fast.code, p).toBe(0);
        expect(fast.out, `${host}: ${p}`).toBe(full.out);
        if (host === 'claude-code' && fast.out !== '') suggested++;
      }
    });
    expect(suggested).toBeGreaterThan(0);
  });
});
