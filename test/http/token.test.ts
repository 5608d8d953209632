/**
 * Token reading shared by `mcp --http` and `serve` (src/http/token.ts): a token file readable or
 * writable by group or others, or owned by another user, is refused with UNSAFE_PERMISSIONS naming
 * its mode (as ssh refuses an unprotected key); a FIFO is NOT_A_FILE without hanging; a missing
 * file is FILE_NOT_FOUND; an empty or short token (file or environment) is INVALID_ARGUMENT.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_TOKEN_CHARS, readToken } from '../../src/http/index.js';
import { runCli, tmpDir } from '../support/cli.js';

const TOKEN = 'token-0123456789abcdef';

function tokenFile(content: string, mode: number): string {
  const file = path.join(tmpDir(), 'token');
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

const from = (file: string, uid?: number) =>
  readToken({ file, option: '--token-file', envName: 'X_TOKEN', uid });

describe('readToken', () => {
  it('reads the first line of a private file', () => {
    expect(from(tokenFile(`${TOKEN}\nignored\n`, 0o600))).toBe(TOKEN);
    expect(from(tokenFile(`  ${TOKEN}\r\n`, 0o400))).toBe(TOKEN);
  });

  it.each([0o644, 0o640, 0o604, 0o620, 0o602, 0o666])(
    'refuses mode %s with UNSAFE_PERMISSIONS and its mode',
    (mode) => {
      expect(() => from(tokenFile(TOKEN, mode))).toThrow(
        expect.objectContaining({
          code: 'UNSAFE_PERMISSIONS',
          details: expect.objectContaining({ mode: mode.toString(8).padStart(4, '0') }),
        }),
      );
    },
  );

  it('refuses a file of another user', () => {
    const file = tokenFile(TOKEN, 0o600);
    // As root the file can be given away; otherwise ask as if this process were another user.
    if (process.getuid?.() === 0) {
      chownSync(file, 65534, 65534);
      expect(from(file, 65534)).toBe(TOKEN);
      expect(() => from(file, 0)).toThrow(expect.objectContaining({ code: 'UNSAFE_PERMISSIONS' }));
    } else {
      expect(() => from(file, (process.getuid?.() ?? 0) + 1)).toThrow(
        expect.objectContaining({ code: 'UNSAFE_PERMISSIONS' }),
      );
    }
  });

  it('refuses a FIFO without waiting for a writer, and a missing file', () => {
    const fifo = path.join(tmpDir(), 'fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(() => from(fifo)).toThrow(expect.objectContaining({ code: 'NOT_A_FILE' }));
    expect(() => from(path.join(tmpDir(), 'none'))).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
  });

  it('refuses an empty or short token, from a file or the environment', () => {
    expect(() => from(tokenFile('\n', 0o600))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => from(tokenFile('x'.repeat(MIN_TOKEN_CHARS - 1), 0o600))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() =>
      readToken({ option: '--token-file', envName: 'X_TOKEN', envValue: 'short' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(readToken({ option: '--token-file', envName: 'X_TOKEN', envValue: ' ' })).toBe(
      undefined,
    );
    expect(readToken({ option: '--token-file', envName: 'X_TOKEN', envValue: TOKEN })).toBe(TOKEN);
  });
});

describe('both servers read tokens by these rules', () => {
  it('mcp --http and serve refuse a token file readable by others (exit 2)', async () => {
    const file = tokenFile(TOKEN, 0o644);
    const home = tmpDir();
    for (const argv of [
      ['mcp', '--http', '0', '--token-file', file, '--catalog', path.join(home, 'c.sqlite')],
      ['serve', '--port', '0', '--token-file', file, '--catalog', path.join(home, 'c.sqlite')],
    ]) {
      const r = await runCli([...argv, '--json'], { cwd: home, env: { HOME: home } });
      expect(r.code, argv[0]).toBe(2);
      expect(JSON.parse(r.stdout), argv[0]).toMatchObject({
        error: { code: 'UNSAFE_PERMISSIONS' },
      });
    }
  });
});
