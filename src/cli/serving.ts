/**
 * What the long-running commands share (`mcp`, `serve`, `index --watch`): the folders they may
 * serve checked before anything starts, the HTTP bearer token read by src/http's rules, and the
 * stop signal. Loads no capability: src/http loads on first use of the token.
 */
import path from 'node:path';
import { SkilldexError, type ErrorCode } from '../errors.js';
import { realpathOrUndefined } from '../fsx/index.js';
import type { CliContext } from './context.js';

/**
 * The real path of the folder `dir` an option names, else `code` (FILE_NOT_FOUND for a cascade
 * root, SUBSTRATE_NOT_FOUND for a substrate) naming the option and, when given, where the value
 * came from (`from`: a flag, the environment or a config file). A server refuses to start over a
 * folder that is not there rather than offer a tool whose every call fails.
 */
export function existingFolder(
  dir: string,
  option: string,
  code: ErrorCode,
  from?: string,
): string {
  const real = realpathOrUndefined(dir);
  if (real === undefined)
    throw new SkilldexError(
      code,
      `${option} ${dir} does not exist${from !== undefined ? ` (from ${from})` : ''}`,
      { option, value: dir },
    );
  return real;
}

/**
 * The HTTP bearer token of a server (src/http's rules: 16 characters at least, a token file of
 * this user not readable by others): the first line of `file` (resolved against the cwd), else
 * the environment variable `envName`, else none.
 */
export async function httpToken(
  ctx: CliContext,
  file: string | undefined,
  envName: string,
): Promise<string | undefined> {
  const { readToken } = await import('../http/index.js');
  return readToken({
    file: file === undefined ? undefined : path.resolve(ctx.io.cwd, file),
    option: '--token-file',
    envName,
    envValue: ctx.io.env[envName],
    uid: process.getuid?.(),
  });
}

/**
 * Resolves on the first SIGINT or SIGTERM, then stops listening for both. Call it before
 * announcing a server's URL: a supervisor may stop the server the moment it reads the URL, and an
 * unhandled SIGTERM would skip the close.
 */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * The substrate root `mcp` and `serve` use when none is named: the nearest `substrate/` at or
 * above the current folder, found under the project walk's rules (issue 36 M5: repository root,
 * home folder, owner). A refused folder is not served, and a note on stderr says which and why.
 */
export async function defaultSubstrateRoot(ctx: CliContext): Promise<string | undefined> {
  const { searchSubstrateRoot } = await import('../substrate/index.js');
  const home = ctx.io.env['HOME'];
  const found = searchSubstrateRoot(ctx.io.cwd, home === undefined ? {} : { home });
  if (found.refused !== undefined)
    ctx.err(
      `warning SUBSTRATE_NOT_FOUND: ${found.refused.path}: ${found.refused.reason}; no substrate is served`,
    );
  return found.root;
}
