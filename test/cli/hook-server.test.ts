/**
 * The hook server (src/cli/hook-server.ts, src/cli/hook-client.ts; docs/hosts.md "The hook
 * server"): a prompt answered by the server prints exactly what the hook prints in its own process;
 * the client never asks a socket in a folder others can write, gives up at the deadline, and falls
 * back to answering itself; the server ends when idle, when its socket goes, when the settings turn
 * it off, and on `hook-server stop`; `hook_server = false` keeps the hook from starting one.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import Database from 'better-sqlite3';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_ID, indexCatalog } from '../../src/internal.js';
import { HOOK_SERVER_NODE_FLAGS, hookServerSocket } from '../../src/hook/index.js';
import { MAX_POOLED_ROUTERS, RouterPool, serveHooks } from '../../src/cli/hook-server.js';
import { MAX_INPUT_BYTES } from '../../src/cli/stdio.js';
import { HOOK_TEST_LIBRARY, REPO, skillMd, tmpDir, writeTree } from '../support/cli.js';

const BIN = path.join(REPO, 'bin', 'skilldex.js');
const NOW = () => new Date('2026-01-01T00:00:00Z');

const event = (prompt: string, session: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    hook_event_name: 'UserPromptSubmit',
    session_id: session,
    cwd: '/',
    prompt,
    ...extra,
  });

async function waitFor<T>(probe: () => T | undefined, ms = 15_000): Promise<T> {
  for (let waited = 0; waited < ms; waited += 100) {
    const v = probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('gave up waiting');
}

let dir: string;
let catalog: string;
const homes: string[] = [];

beforeAll(() => {
  dir = tmpDir('skilldex-hook-server-');
  writeTree(dir, HOOK_TEST_LIBRARY);
  catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({ catalog, scopes: [path.join(dir, 'lib')], now: NOW, policy: DEFAULT_POLICY_ID });
});

afterAll(() => {
  for (const home of homes) run(home, ['hook-server', 'stop']);
});

function home(name: string): string {
  const h = path.join(dir, name);
  mkdirSync(h, { recursive: true });
  homes.push(h);
  return h;
}

function run(
  homeDir: string,
  args: string[],
  input = '',
  env: Record<string, string> = {},
): { out: string; err: string; code: number | null } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: homeDir, ...env },
    cwd: dir,
  });
  return { out: r.stdout, err: r.stderr, code: r.status };
}

const serverDir = (homeDir: string): string =>
  path.join(homeDir, '.local', 'state', 'skilldex', 'hook', 'server');
const hookLog = (homeDir: string): string => {
  try {
    return readFileSync(
      path.join(homeDir, '.local', 'state', 'skilldex', 'hook', 'hook.log'),
      'utf8',
    );
  } catch {
    return '';
  }
};

interface Status {
  setting: { value: boolean; source: string };
  servers: {
    socket: string;
    current: boolean;
    running: boolean;
    info?: { pid: number; served: number };
  }[];
}
const status = (homeDir: string, env: Record<string, string> = {}): Status =>
  JSON.parse(run(homeDir, ['hook-server', 'status', '--json'], '', env).out) as Status;

// Starts this build's server in `homeDir` and returns its socket.
function started(homeDir: string): string {
  const r = run(homeDir, ['hook-server', 'start', '--json']);
  expect(r.code, r.err).toBe(0);
  const report = JSON.parse(r.out) as { server: { socket: string; pid: number } };
  // Started with Node's flags for a server (HOOK_SERVER_NODE_FLAGS), where /proc shows them.
  const cmdline = `/proc/${report.server.pid}/cmdline`;
  if (existsSync(cmdline))
    expect(readFileSync(cmdline, 'utf8').split('\0')).toEqual(
      expect.arrayContaining([...HOOK_SERVER_NODE_FLAGS, 'hook-server', 'run']),
    );
  return report.server.socket;
}

describe('answers through the server are the answers of the hook in its own process', () => {
  const cases: [string, string[], string][] = [
    ['suggestions', ['hook', 'claude-code'], event('merge these two pdf files', 'a')],
    ['another host', ['hook', 'codex'], event('deploy my app to a kubernetes cluster', 'b')],
    [
      'gemini-cli',
      ['hook', 'gemini-cli'],
      event('write a docx word report', 'c', { hook_event_name: 'BeforeAgent' }),
    ],
    ['vscode', ['hook', 'vscode'], event('merge these two pdf files please', 'd')],
    ['generic', ['hook', 'generic'], 'deploy this to kubernetes'],
    ['nothing fits', ['hook', 'claude-code'], event('what is the weather today', 'e')],
    [
      'a bad option value (logged)',
      ['hook', 'claude-code', '--max', '9'],
      event('merge pdfs', 'f'),
    ],
    ['input that is not JSON (logged)', ['hook', 'claude-code'], 'not json at all'],
    ['an unknown host (logged)', ['hook', 'cursor'], event('merge pdfs', 'g')],
    [
      '--min-confidence',
      ['hook', 'claude-code', '--min-confidence', '0.99'],
      event('merge pdf files', 'h'),
    ],
  ];

  it('prints the same, exits the same and logs the same, prompt by prompt', async () => {
    const alone = home('alone');
    const served = home('served');
    started(served);
    for (const [what, args, input] of cases) {
      const argv = [...args, '--catalog', catalog, '--no-telemetry'];
      const a = run(alone, argv, input, { SKILLDEX_HOOK_SERVER: 'off' });
      const b = run(served, argv, input);
      expect({ what, out: b.out, err: b.err, code: b.code }).toEqual({
        what,
        out: a.out,
        err: a.err,
        code: a.code,
      });
    }
    // The same errors were logged, in the same order (the time stamps aside).
    const lines = (h: string) => hookLog(h).replace(/^\S+ /gm, '');
    expect(lines(served)).toBe(lines(alone));
    expect(lines(alone)).toContain('INVALID_ARGUMENT');
    expect(lines(alone)).toContain('HOOK_INPUT_INVALID');
    // Every prompt but the unknown host (refused before the server is asked) was served.
    const s = status(served);
    expect(s.servers.find((x) => x.current)?.info?.served).toBe(cases.length - 1);
    expect(cases.some(([, , input]) => input.includes('pdf'))).toBe(true);
    expect(
      run(
        served,
        [...cases[0]![1], '--catalog', catalog, '--no-telemetry'],
        event('merge these two pdf files', 'a2'),
      ).out,
    ).toContain('pdf-merge');
  });

  it('records the same telemetry: the host, its session, the skills suggested', async () => {
    const alone = home('tel-alone');
    const served = home('tel-served');
    started(served);
    const events = (h: string): unknown[] => {
      const db = new Database(path.join(h, 'catalog.telemetry.sqlite'), { readonly: true });
      try {
        return db
          .prepare(
            'SELECT kind, query_hash, skill_id, rank, generation, source, client, session FROM events ORDER BY id',
          )
          .all();
      } finally {
        db.close();
      }
    };
    for (const h of [alone, served]) {
      const copy = path.join(h, 'catalog.sqlite');
      copyFileSync(catalog, copy);
      const env: Record<string, string> = h === alone ? { SKILLDEX_HOOK_SERVER: 'off' } : {};
      for (const [i, prompt] of [
        'merge these two pdf files',
        'deploy to a kubernetes cluster',
      ].entries())
        expect(
          run(h, ['hook', 'codex', '--catalog', copy], event(prompt, `tel-${i}`), env).out,
        ).not.toBe('');
    }
    // The server records after it answers, before it takes the next request: a ping waits for it.
    status(served);
    const got = events(served);
    expect(got.length).toBeGreaterThan(1);
    expect(got).toEqual(events(alone));
    expect(got).toContainEqual(
      expect.objectContaining({ source: 'hook', client: 'codex', session: 'tel-1' }),
    );
  });

  it('reads a new index at once: the catalog is opened for every prompt', async () => {
    const h = home('reindex');
    started(h);
    const copy = path.join(h, 'catalog.sqlite');
    copyFileSync(catalog, copy);
    const ask = (s: string) =>
      run(
        h,
        ['hook', 'claude-code', '--catalog', copy, '--no-telemetry'],
        event('make an animated gif from these frames', s),
      ).out;
    expect(ask('r1')).not.toContain('gif-maker');
    writeTree(dir, {
      'lib/gif-maker/SKILL.md': skillMd(
        'gif-maker',
        'Make an animated GIF from a folder of image frames, with frame rate and looping.',
      ),
    });
    try {
      indexCatalog({
        catalog: copy,
        scopes: [path.join(dir, 'lib')],
        now: NOW,
        policy: DEFAULT_POLICY_ID,
      });
      expect(ask('r2')).toContain('gif-maker');
    } finally {
      rmSync(path.join(dir, 'lib', 'gif-maker'), { recursive: true, force: true });
    }
    expect(status(h).servers.find((x) => x.current)?.info?.served).toBe(2);
    // A catalog replaced by another file (a new inode): the server opens the new one.
    const other = path.join(h, 'other.sqlite');
    writeTree(dir, {
      'lib2/gif-maker/SKILL.md': skillMd(
        'gif-studio',
        'Make an animated GIF from a folder of image frames, with frame rate and looping.',
      ),
    });
    indexCatalog({
      catalog: other,
      scopes: [path.join(dir, 'lib2')],
      now: NOW,
      policy: DEFAULT_POLICY_ID,
    });
    renameSync(other, copy);
    for (const f of ['-wal', '-shm']) rmSync(copy + f, { force: true });
    expect(ask('r3')).toContain('gif-studio');
  });
});

describe('starting, stopping and turning off', () => {
  it('the hook starts a server after a prompt it answered itself; stop ends it', async () => {
    const h = home('auto');
    expect(status(h).servers).toEqual([]);
    const first = run(
      h,
      ['hook', 'claude-code', '--catalog', catalog],
      event('merge these two pdf files', 'x1'),
    );
    expect(first.code).toBe(0);
    expect(first.out).toContain('pdf-merge');
    const s = await waitFor(() => {
      const st = status(h);
      return st.servers.some((x) => x.current && x.running) ? st : undefined;
    });
    expect(s.setting).toEqual({ value: true, source: 'default' });
    // It runs with Node's flags for a server (--expose-gc: it collects between prompts), as one
    // started by `hook-server start` does.
    const pid = s.servers.find((x) => x.current)!.info!.pid;
    if (existsSync(`/proc/${pid}/cmdline`))
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(
        expect.arrayContaining([...HOOK_SERVER_NODE_FLAGS, 'hook-server', 'run']),
      );
    const stop = JSON.parse(run(h, ['hook-server', 'stop', '--json']).out) as {
      stopped: unknown[];
    };
    expect(stop.stopped).toHaveLength(1);
    await waitFor(() => (status(h).servers.some((x) => x.running) ? undefined : true));
  });

  it('hook_server = false in the user config: no server is started, and a running one ends', async () => {
    const h = home('off');
    const socket = started(h);
    mkdirSync(path.join(h, '.config', 'skilldex'), { recursive: true });
    writeFileSync(path.join(h, '.config', 'skilldex', 'config.toml'), 'hook_server = false\n');
    // Answered by the running server, which reads the setting in that run and ends.
    const r = run(
      h,
      ['hook', 'claude-code', '--catalog', catalog],
      event('merge two pdf files', 'o1'),
    );
    expect(r.out).toContain('pdf-merge');
    await waitFor(() => (existsSync(socket) ? undefined : true));
    // Now answered alone, and no server comes back.
    expect(
      run(h, ['hook', 'claude-code', '--catalog', catalog], event('merge two pdf files', 'o2')).out,
    ).toContain('pdf-merge');
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(socket)).toBe(false);
    expect(status(h).setting.value).toBe(false);
    const refused = run(h, ['hook-server', 'start', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('INVALID_ARGUMENT');
  });

  it('SKILLDEX_HOOK_SERVER=off: the hook neither asks nor starts a server', async () => {
    const h = home('env-off');
    const r = run(
      h,
      ['hook', 'claude-code', '--catalog', catalog],
      event('merge two pdf files', 'e1'),
      {
        SKILLDEX_HOOK_SERVER: 'off',
      },
    );
    expect(r.out).toContain('pdf-merge');
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(serverDir(h))).toBe(false);
  });

  it('a project config cannot turn the server on or off', () => {
    const h = home('project');
    const project = path.join(dir, 'proj');
    mkdirSync(path.join(project, '.skilldex'), { recursive: true });
    writeFileSync(path.join(project, '.skilldex', 'config.toml'), 'hook_server = false\n');
    const r = spawnSync(process.execPath, [BIN, 'config', '--json'], {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: h },
    });
    expect(r.stdout).toContain('hook_server');
    const config = JSON.parse(r.stdout) as {
      settings?: Record<string, { value: unknown }>;
    } & Record<string, unknown>;
    const setting = (config.settings ?? config)['hook_server'] as { value: unknown };
    expect(setting.value).toBe(true);
    expect(r.stdout).toContain('only the user config may say whether the hook server runs');
  });

  it('a server killed without removing its socket is replaced on the next prompt', async () => {
    const h = home('killed');
    const socket = started(h);
    const pid = status(h).servers.find((x) => x.current)!.info!.pid;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    expect(existsSync(socket)).toBe(true);
    const r = run(
      h,
      ['hook', 'claude-code', '--catalog', catalog],
      event('merge two pdf files', 'k1'),
    );
    expect(r.out).toContain('pdf-merge');
    const again = await waitFor(() => status(h).servers.find((x) => x.current && x.running));
    expect(again.info!.pid).not.toBe(pid);
  });
});

describe('what the client trusts and how long it waits', () => {
  it('never asks a socket in a folder others may write: answers alone and logs why', async () => {
    const h = home('unsafe');
    const socket = started(h);
    chmodSync(serverDir(h), 0o777);
    try {
      const r = run(
        h,
        ['hook', 'claude-code', '--catalog', catalog],
        event('merge two pdf files', 'u1'),
      );
      expect(r.out).toContain('pdf-merge');
      expect(status(h).servers.find((x) => x.current)!.info!.served).toBe(0);
      expect(hookLog(h)).toContain('UNSAFE_PERMISSIONS');
    } finally {
      chmodSync(serverDir(h), 0o700);
    }
    expect(existsSync(socket)).toBe(true);
  });

  it('a server that never answers: nothing printed, HOOK_DEADLINE logged, within the deadline', async () => {
    const h = home('hang');
    const socket = started(h);
    run(h, ['hook-server', 'stop']);
    await waitFor(() => (existsSync(socket) ? undefined : true));
    // Something that accepts and never answers, where the server would be.
    const held: net.Socket[] = [];
    const fake = net.createServer((c) => held.push(c));
    await new Promise<void>((r) => fake.listen(socket, r));
    try {
      const t = Date.now();
      const r = await new Promise<{ out: string; code: number | null }>((resolve) => {
        const child = spawn(
          process.execPath,
          [BIN, 'hook', 'claude-code', '--catalog', catalog, '--deadline-ms', '400'],
          {
            env: { PATH: process.env['PATH'] ?? '', HOME: h },
          },
        );
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (code) => resolve({ out, code }));
        child.stdin.end(event('merge two pdf files', 'h1'));
      });
      expect(r).toEqual({ out: '', code: 0 });
      expect(Date.now() - t).toBeLessThan(5000);
      expect(hookLog(h)).toContain(
        'HOOK_DEADLINE: the hook server did not answer before the deadline',
      );
    } finally {
      for (const c of held) c.destroy();
      await new Promise((r) => fake.close(r));
    }
  });

  it('input over 64 MiB: nothing printed, FILE_TOO_LARGE logged as the hook logs it, the server never asked', () => {
    const h = home('huge');
    started(h);
    const huge = 'x'.repeat(MAX_INPUT_BYTES + 1);
    const r = run(h, ['hook', 'claude-code', '--catalog', catalog], huge);
    expect({ out: r.out, err: r.err, code: r.code }).toEqual({ out: '', err: '', code: 0 });
    expect(hookLog(h)).toContain(`FILE_TOO_LARGE: standard input is over ${MAX_INPUT_BYTES} bytes`);
    // A ping unanswered within status's second (a loaded machine) says nothing: ask again.
    let current = status(h).servers.find((x) => x.current);
    for (let i = 0; i < 10 && current?.info === undefined; i++)
      current = status(h).servers.find((x) => x.current);
    expect(current?.info?.served).toBe(0);
    run(h, ['hook-server', 'stop']);
  });
});

describe('serveHooks', () => {
  it('ends when idle, removing its socket', async () => {
    const d = tmpDir('skilldex-hs-idle-');
    const socket = path.join(d, 'server', 'x.sock');
    const s = await serveHooks({ socket, idleMs: 200 });
    expect(s).toBeDefined();
    expect(existsSync(socket)).toBe(true);
    const end = await s!.ended;
    expect(end).toEqual({ reason: 'idle', served: 0 });
    expect(existsSync(socket)).toBe(false);
  });

  it('ends when its socket is removed, and listens in a private folder only', async () => {
    const d = tmpDir('skilldex-hs-gone-');
    mkdirSync(path.join(d, 'server'), { mode: 0o755 });
    chmodSync(path.join(d, 'server'), 0o755);
    const socket = path.join(d, 'server', 'x.sock');
    const s = await serveHooks({ socket, idleMs: 60_000 });
    // The folder was the user's: made private.
    expect(readdirSync(path.join(d, 'server'))).toEqual(['x.sock']);
    const { statSync } = await import('node:fs');
    expect(statSync(path.join(d, 'server')).mode & 0o077).toBe(0);
    unlinkSync(socket);
    expect((await s!.ended).reason).toBe('socket-gone');
  }, 15_000);

  it('answers nothing to a request it cannot run, and goes on serving', async () => {
    const d = tmpDir('skilldex-hs-bad-');
    const socket = path.join(d, 'server', 'x.sock');
    const errors: unknown[] = [];
    const s = (await serveHooks({ socket, idleMs: 60_000, onError: (e) => errors.push(e) }))!;
    const send = (text: string) =>
      new Promise<string>((resolve) => {
        const c = net.createConnection(socket);
        let got = '';
        c.on('connect', () => c.end(text));
        c.on('data', (b: Buffer) => (got += b.toString()));
        c.on('error', () => undefined);
        c.on('close', () => resolve(got));
      });
    expect(await send('not json\n')).toBe('');
    expect(
      await send(
        JSON.stringify({
          v: 1,
          argv: ['search', 'x'],
          env: {},
          cwd: '/',
          stdin: '',
          elapsed_ms: 0,
        }) + '\n',
      ),
    ).toBe('');
    expect(await send(JSON.stringify({ v: 1, op: 'ping' }) + '\n')).toContain('"ping"');
    const text = await send(
      JSON.stringify({
        v: 1,
        argv: ['hook', 'generic', '--catalog', catalog, '--no-telemetry'],
        env: { HOME: d },
        cwd: d,
        stdin: 'merge two pdf files',
        elapsed_ms: 0,
      }) + '\n',
    );
    expect(errors).toEqual([]);
    const answer = JSON.parse(text) as { code: number; stdout: string };
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('pdf-merge');
    s.stop();
    expect(await s.ended).toEqual({ reason: 'stopped', served: 1 });
  });
});

describe('RouterPool', () => {
  it('keeps one router per catalog file, a new one when the file is replaced, at most MAX_POOLED_ROUTERS', () => {
    const d = tmpDir('skilldex-hs-pool-');
    const files = Array.from({ length: MAX_POOLED_ROUTERS + 1 }, (_, i) => {
      const f = path.join(d, `c${i}.sqlite`);
      copyFileSync(catalog, f);
      return f;
    });
    const pool = new RouterPool();
    const o = (catalogFile: string) => ({ catalog: catalogFile, telemetry: false, usage: true });
    const a = pool.open(o(files[0]!)).router;
    expect(pool.open(o(files[0]!)).router).toBe(a);
    // Other settings, another router.
    expect(pool.open({ ...o(files[0]!), usage: false }).router).not.toBe(a);
    // Replaced by a copy (a new inode): a new router, and the old one closed.
    const moved = path.join(d, 'moved.sqlite');
    copyFileSync(catalog, moved);
    renameSync(moved, files[0]!);
    const b = pool.open(o(files[0]!)).router;
    expect(b).not.toBe(a);
    expect(() => a.currentGeneration()).toThrow();
    expect(b.currentGeneration()).toMatch(/^sha256:/);
    // More catalogs than the pool keeps: the least recently used is closed.
    for (const f of files.slice(1)) pool.open(o(f));
    expect(() => b.currentGeneration()).toThrow();
    pool.close();
  });
});

describe('hookServerSocket', () => {
  it('names the socket by build under the state folder; none when too long or on Windows', () => {
    expect(hookServerSocket('/home/a/.local/state/skilldex/hook', '0123456789ab', 'linux')).toBe(
      '/home/a/.local/state/skilldex/hook/server/0123456789ab.sock',
    );
    expect(hookServerSocket(`/home/${'x'.repeat(80)}`, '0123456789ab', 'linux')).toBeUndefined();
    expect(hookServerSocket('C:\\Users\\a\\state', '0123456789ab', 'win32')).toBeUndefined();
  });
});

describe("doctor's hook-server check", () => {
  it('skip when off, warn for a folder others may write, ok running or not', async () => {
    const { hookServerCheck } = await import('../../src/cli/doctor/hook-server.js');
    const h = home('doctor');
    const env = { HOME: h };
    const on = { value: true, source: 'default' };
    expect(await hookServerCheck(h, env, { value: false, source: 'user config' })).toMatchObject({
      status: 'skip',
    });
    // src/ is not a bundled build: no socket name to look for.
    expect(await hookServerCheck(h, env, on)).toMatchObject({
      status: 'skip',
      message: expect.stringContaining('not a bundled build'),
    });
    mkdirSync(serverDir(h), { recursive: true });
    chmodSync(serverDir(h), 0o755);
    expect(await hookServerCheck(h, env, on)).toMatchObject({
      status: 'warn',
      fix: `make it yours and private: chmod 700 ${serverDir(h)}`,
    });
    // The built CLI knows its build: the check as `skilldex doctor` runs it.
    chmodSync(serverDir(h), 0o700);
    const doctor = () =>
      (
        JSON.parse(run(h, ['doctor', '--json']).out) as {
          checks: { id: string; status: string; message: string }[];
        }
      ).checks.find((c) => c.id === 'hook-server');
    // No init record here, so doctor has no hook to speak of and leaves the check out.
    expect(doctor()).toBeUndefined();
  });
});

describe('hook-server run', () => {
  it('refuses a socket path that holds something else (PORT_IN_USE, exit 2), and logs it for doctor', () => {
    const h = home('squat');
    const socket = path.join(serverDir(h), 'x.sock');
    mkdirSync(serverDir(h), { recursive: true, mode: 0o700 });
    writeFileSync(socket, 'not a socket');
    const r = run(h, ['hook-server', 'run', '--socket', socket, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ error: { code: 'PORT_IN_USE' } });
    expect(readFileSync(socket, 'utf8')).toBe('not a socket');
    expect(hookLog(h)).toMatch(/hook-server PORT_IN_USE: the hook server cannot listen on /);
  });
});
