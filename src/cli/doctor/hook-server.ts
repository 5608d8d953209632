/**
 * doctor's `hook-server` check (docs/hosts.md, "The hook server"): whether the prompt hook can hand
 * its prompts to a warm server. Never `fail`: without a server the hook still answers, in its own
 * process. `skip` when the setting is off; `warn` when the server's folder is not private to the
 * user (the hook then never asks a server: every prompt pays the whole start); else `ok`, saying
 * whether this build's server runs and how many prompts it answered.
 */
import { existsSync } from 'node:fs';
import { hookServerDir, hookServerSocket, hookStateDir, isPrivateDir } from '../../hook/lite.js';
import { BUILD } from '../../version.js';
import type { DoctorCheck } from './check.js';

/** The hook server check for the user of `home` and `env`, with the `hook_server` setting. */
export async function hookServerCheck(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  setting: { readonly value: boolean; readonly source: string },
): Promise<DoctorCheck> {
  const id = 'hook-server';
  if (!setting.value)
    return {
      id,
      status: 'skip',
      message: `the hook server is off (${setting.source}): the hook answers each prompt in its own process`,
    };
  const stateDir = hookStateDir(home, env);
  const dir = hookServerDir(stateDir);
  if (existsSync(dir) && !isPrivateDir(dir))
    return {
      id,
      status: 'warn',
      message: `the hook server's folder ${dir} is not private to you: the hook never asks a server there and answers each prompt in its own process (slower)`,
      fix: `make it yours and private: chmod 700 ${dir}`,
    };
  const socket = BUILD === undefined ? undefined : hookServerSocket(stateDir, BUILD);
  if (socket === undefined)
    return {
      id,
      status: 'skip',
      message:
        BUILD === undefined
          ? 'this skilldex is not a bundled build: the hook has no server'
          : `the hook state folder ${stateDir} is too deep for a Unix socket: the hook answers in its own process`,
      ...(BUILD === undefined ? {} : { fix: 'set XDG_STATE_HOME to a shorter folder' }),
    };
  const { pingHookServer } = await import('../hook-server-control.js');
  const info = await pingHookServer(socket, 1000);
  return info === undefined
    ? {
        id,
        status: 'ok',
        message:
          'no hook server runs for this skilldex: the hook starts one after its next prompt (or: skilldex hook-server start)',
      }
    : {
        id,
        status: 'ok',
        message: `hook server ${info.pid} runs since ${info.started_at}, ${info.served} prompts answered`,
      };
}
