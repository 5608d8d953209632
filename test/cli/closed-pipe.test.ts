/**
 * Output into a closed pipe (issue 35): `skilldex --help | head -1` and any command whose reader
 * goes away end silently with exit 0 — EPIPE is the reader having enough, not an error. Runs the
 * built binary (`npm run build` first).
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/cli.js';

const BIN = path.join(REPO, 'bin', 'skilldex.js');

// Runs the binary with its stdout's reader already gone: the pipe is closed before it writes.
async function intoClosedPipe(argv: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'], HOME: REPO },
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, stderr };
}

describe('output into a closed pipe', () => {
  it.each([[['--help']], [['hook', '--help']], [['search', '--help']]])(
    'skilldex %j exits 0 with nothing on stderr',
    async (argv) => {
      expect(await intoClosedPipe(argv)).toEqual({ code: 0, stderr: '' });
    },
    40_000,
  );

  it('`skilldex --help | head -1` prints the first line and the pipeline succeeds', () => {
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" --help | head -1`],
      { encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: REPO }, timeout: 30_000 },
    );
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe('');
  });
});
