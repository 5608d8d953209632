/**
 * `skilldex serve` (issue 15): refusals come back as coded errors with exit code 2 before anything
 * listens; the built command prints its URL (as JSON with --json), answers on it, and ends with exit
 * code 0 on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { makeLibrary } from '../explorer/support.js';

function errorCode(stdout: string): string {
  return (JSON.parse(stdout) as { error: { code: string } }).error.code;
}

describe('skilldex serve refusals', () => {
  const lib = makeLibrary();

  it('refuses a missing catalog (CATALOG_MISSING, exit 2)', async () => {
    const r = await runCli([
      'serve',
      '--catalog',
      path.join(tmpDir(), 'none.sqlite'),
      '--port',
      '0',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(errorCode(r.stdout)).toBe('CATALOG_MISSING');
  });

  it('refuses a non-loopback host without a token (INVALID_ARGUMENT, exit 2)', async () => {
    const r = await runCli([
      'serve',
      '--catalog',
      lib.catalog,
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(errorCode(r.stdout)).toBe('INVALID_ARGUMENT');
  });

  it('refuses a missing, empty or short token file', async () => {
    const dir = tmpDir();
    const missing = await runCli([
      'serve',
      '--catalog',
      lib.catalog,
      '--token-file',
      path.join(dir, 'nope'),
      '--port',
      '0',
      '--json',
    ]);
    expect([missing.code, errorCode(missing.stdout)]).toEqual([2, 'FILE_NOT_FOUND']);
    writeFileSync(path.join(dir, 'empty'), '\n', { mode: 0o600 });
    const empty = await runCli([
      'serve',
      '--catalog',
      lib.catalog,
      '--token-file',
      path.join(dir, 'empty'),
      '--port',
      '0',
      '--json',
    ]);
    expect([empty.code, errorCode(empty.stdout)]).toEqual([2, 'INVALID_ARGUMENT']);
    writeFileSync(path.join(dir, 'short'), 'abc\n', { mode: 0o600 });
    const short = await runCli([
      'serve',
      '--catalog',
      lib.catalog,
      '--token-file',
      path.join(dir, 'short'),
      '--port',
      '0',
      '--json',
    ]);
    expect([short.code, errorCode(short.stdout)]).toEqual([2, 'INVALID_ARGUMENT']);
  });

  it('a port another process holds is PORT_IN_USE (exit 2), not an internal fault', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['serve', '--catalog', lib.catalog, '--port', String(port), '--json']);
      expect([r.code, errorCode(r.stdout)]).toEqual([2, 'PORT_IN_USE']);
    } finally {
      blocker.close();
    }
  });

  it('refuses a bad port and a missing cascade root', async () => {
    const port = await runCli(['serve', '--catalog', lib.catalog, '--port', '70000', '--json']);
    expect(port.code).toBe(2);
    const root = await runCli([
      'serve',
      '--catalog',
      lib.catalog,
      '--cascade-root',
      path.join(tmpDir(), 'nope'),
      '--port',
      '0',
      '--json',
    ]);
    expect([root.code, errorCode(root.stdout)]).toEqual([2, 'FILE_NOT_FOUND']);
  });
});

describe('skilldex serve (built)', () => {
  it('prints its URL, answers on it, and exits 0 on SIGTERM', async () => {
    const lib = makeLibrary();
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin', 'skilldex.js'),
        'serve',
        '--catalog',
        lib.catalog,
        '--port',
        '0',
        '--json',
      ],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: tmpDir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      const printed = await new Promise<{ url: string; catalog_generation: string }>(
        (resolve, reject) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString('utf8');
            try {
              resolve(JSON.parse(out) as { url: string; catalog_generation: string });
            } catch {
              // The JSON object is not complete yet.
            }
          });
          child.on('exit', () => reject(new Error(`serve exited before printing its URL: ${out}`)));
        },
      );
      const url = new URL(printed.url);
      expect(url.hostname).toBe('127.0.0.1');
      const res = await fetch(new URL('/api/policies', url));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { catalog_generation: string }).catalog_generation).toBe(
        printed.catalog_generation,
      );
      const page = await fetch(url);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

describe('skilldex serve --open (built)', () => {
  it('never puts the token on the opener command line: it opens a private page that forwards', async () => {
    const lib = makeLibrary();
    const token = 'open-token-0123456789abcdef';
    const bin = tmpDir();
    const record = path.join(bin, 'record');
    // A stand-in for xdg-open: records its arguments, the mode of the file it was given and the file.
    writeFileSync(
      path.join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}.argv'\nstat -c '%a' "$1" > '${record}.mode' 2>/dev/null\ncat "$1" > '${record}.page' 2>/dev/null\n`,
      { mode: 0o755 },
    );
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin', 'skilldex.js'),
        'serve',
        '--catalog',
        lib.catalog,
        '--port',
        '0',
        '--open',
        '--json',
      ],
      {
        env: {
          PATH: `${bin}:${process.env['PATH'] ?? ''}`,
          HOME: tmpDir(),
          SKILLDEX_SERVE_TOKEN: token,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      const printed = await new Promise<{ url: string }>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString('utf8');
          try {
            resolve(JSON.parse(out) as { url: string });
          } catch {
            // Not complete yet.
          }
        });
        child.on('exit', () => reject(new Error(`serve exited early: ${out}`)));
      });
      const deadline = Date.now() + 10_000;
      while (!existsSync(`${record}.page`) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const argv = readFileSync(`${record}.argv`, 'utf8');
      expect(argv).not.toContain(token);
      expect(readFileSync(`${record}.mode`, 'utf8').trim()).toBe('600');
      expect(readFileSync(`${record}.page`, 'utf8')).toContain(printed.url);
      expect(printed.url).toContain(`#token=${token}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // The forwarding page is removed when the server stops.
    expect(existsSync(readFileSync(`${record}.argv`, 'utf8').trim())).toBe(false);
  });
});
