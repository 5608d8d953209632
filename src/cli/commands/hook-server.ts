/**
 * `skilldex hook-server run|start|stop|status` (docs/hosts.md, "The hook server"): the per-user
 * process that answers the prompt hook warm. The hook starts it by itself (unless `hook_server =
 * false` in the user config or SKILLDEX_HOOK_SERVER=off); these commands show it, stop it, start it
 * ahead of the first prompt, or run it in the foreground.
 */
import type * as ChildProcess from 'node:child_process';
import type { Command } from 'commander';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SkilldexError, type ExitCode } from '../../errors.js';
import {
  HOOK_SERVER_NODE_FLAGS,
  hookServerDir,
  hookServerSocket,
  hookStateDir,
} from '../../hook/lite.js';
import { sanitizeField } from '../../text/index.js';
import { BUILD } from '../../version.js';
import { SKILLDEX_BIN } from '../bin-path.js';
import { action, parseIntOption, type CliContext } from '../context.js';
import type { HookServerInfo } from '../hook-server-control.js';

const HELP_AFTER =
  '\nWhat it is: the prompt hook runs on every prompt, and most of its time is Node loading and\n' +
  'warming the router. The hook server keeps that code loaded: the hook hands each prompt to it over\n' +
  'a Unix socket in $XDG_STATE_HOME/skilldex/hook/server/ (default ~/.local/state/...; private to\n' +
  'you) and prints its answer, which is the answer the hook would have given by itself. Each prompt\n' +
  'still opens the catalog and reads the config, so an index or a config change counts at once.\n\n' +
  'The hook starts the server by itself after a prompt it answered alone, and the server ends after\n' +
  '30 minutes without a prompt (--idle-minutes), when skilldex is upgraded (a new build talks to a\n' +
  'server of its own), or when the settings turn it off: hook_server = false in your config file, or\n' +
  'SKILLDEX_HOOK_SERVER=off (a project config cannot change it). Without a server the hook answers in\n' +
  'its own process, as before.\n\n' +
  'Examples:\n' +
  '  skilldex hook-server status\n' +
  '  skilldex hook-server stop\n' +
  '  skilldex hook-server start --idle-minutes 120\n' +
  '  skilldex hook-server run              # in the foreground, until Ctrl-C';

interface ServerFlags {
  json?: boolean;
  idleMinutes?: number;
  socket?: string;
}

/** One server socket of this user and what answered on it. */
interface ServerRow {
  readonly socket: string;
  /** The build named by the socket; `current` when it is this skilldex's. */
  readonly build: string;
  readonly current: boolean;
  readonly running: boolean;
  readonly info?: HookServerInfo;
}

/** Registers `hook-server`. */
export function registerHookServer(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('hook-server')
    .summary('show, stop, start or run the hook server that answers the prompt hook warm')
    .description(
      'The per-user process the prompt hook hands each prompt to, so a prompt does not load and warm\n' +
        'the router in a process of its own (bench/results/hook.md has the times).',
    )
    .addHelpText('after', HELP_AFTER);
  registerStatus(cmd, ctx);
  registerStop(cmd, ctx);
  registerStart(cmd, ctx);
  registerRun(cmd, ctx);
}

function registerStatus(cmd: Command, ctx: CliContext): void {
  cmd
    .command('status')
    .description("this user's hook servers: running or not, build, process, runs answered")
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      "\nExamples:\n  skilldex hook-server status\n  skilldex hook-server status --json | jq '.servers[] | select(.running)'",
    )
    .action(
      action(ctx, async (o: ServerFlags): Promise<ExitCode> => {
        const r = await statusReport(ctx);
        if (o.json) ctx.json(r);
        else ctx.out(renderStatus(r));
        return 0;
      }),
    );
}

function registerStop(cmd: Command, ctx: CliContext): void {
  cmd
    .command('stop')
    .description('end every hook server of this user (the hook answers alone until it starts one)')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nThe hook answers in its own process until it starts a server again (after its next prompt),\nunless hook_server = false.\n\nExamples:\n  skilldex hook-server stop\n  skilldex hook-server stop --json',
    )
    .action(
      action(ctx, async (o: ServerFlags): Promise<ExitCode> => {
        const { stopAllHookServers } = await import('../hook-server-control.js');
        const stopped = await stopAllHookServers(serverFolder(ctx));
        if (o.json) ctx.json({ stopped });
        else
          ctx.out(
            stopped.length === 0
              ? 'no hook server was running'
              : stopped
                  .map((s) => `stopped hook server ${s.pid} (${s.served} prompts answered)`)
                  .join('\n'),
          );
        return 0;
      }),
    );
}

// --idle-minutes, which start passes on to run: 1 minute to 7 days.
const IDLE_MINUTES = [
  '--idle-minutes <n>',
  'end after this many minutes without a prompt (default 30)',
  parseIntOption('--idle-minutes', 1, 7 * 24 * 60),
] as const;

function registerStart(cmd: Command, ctx: CliContext): void {
  cmd
    .command('start')
    .description('start the hook server of this skilldex in the background, if none runs')
    .option(...IDLE_MINUTES)
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nRefused (INVALID_ARGUMENT, exit 2) when hook_server = false or SKILLDEX_HOOK_SERVER=off.\n\nExamples:\n  skilldex hook-server start\n  skilldex hook-server start --idle-minutes 480 --json',
    )
    .action(
      action(ctx, async (o: ServerFlags): Promise<ExitCode> => {
        const socket = currentSocket(ctx);
        const setting = ctx.settings({}).hook_server;
        if (!setting.value)
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `the hook server is turned off (${setting.source}): the hook answers in its own process`,
            { setting: 'hook_server' },
          );
        const { pingHookServer } = await import('../hook-server-control.js');
        let info = await pingHookServer(socket);
        const already = info !== undefined;
        if (!already) {
          // Required, not import()ed: the bundled CLI runs as a vm script (serve.ts's openBrowser).
          const { spawn } = createRequire(import.meta.url)(
            'node:child_process',
          ) as typeof ChildProcess;
          const args = [
            ...HOOK_SERVER_NODE_FLAGS,
            SKILLDEX_BIN,
            'hook-server',
            'run',
            '--socket',
            socket,
          ];
          if (o.idleMinutes !== undefined) args.push('--idle-minutes', String(o.idleMinutes));
          const child = spawn(process.execPath, args, {
            detached: true,
            stdio: 'ignore',
            cwd: '/',
            env: { ...ctx.io.env } as NodeJS.ProcessEnv,
          });
          child.on('error', () => undefined);
          child.unref();
          for (let i = 0; i < 50 && info === undefined; i++) {
            await new Promise((r) => setTimeout(r, 100));
            info = await pingHookServer(socket, 500);
          }
          if (info === undefined)
            throw new SkilldexError(
              'INTERNAL',
              `the hook server did not answer on ${socket} within 5 seconds of starting`,
            );
        }
        if (o.json) ctx.json({ started: !already, server: info });
        else
          ctx.out(
            `${already ? 'already running' : 'started'}: hook server ${info!.pid} on ${info!.socket}`,
          );
        return 0;
      }),
    );
}

function registerRun(cmd: Command, ctx: CliContext): void {
  cmd
    .command('run')
    .description('run the hook server in the foreground (what the hook and start run)')
    .option(
      '--socket <file>',
      "socket to listen on (default: this skilldex's, in the hook's state folder)",
    )
    .option(...IDLE_MINUTES)
    .option('--json', 'print the end report as JSON')
    .addHelpText(
      'after',
      '\nIt listens until it ends (idle, stopped, its socket removed, turned off, Ctrl-C) and then\nprints why and how many prompts it answered.\n\nExamples:\n  skilldex hook-server run\n  skilldex hook-server run --idle-minutes 5 --json',
    )
    .action(
      action(ctx, async (o: ServerFlags): Promise<ExitCode> => {
        const { serveHooks } = await import('../hook-server.js');
        const socket = o.socket ?? currentSocket(ctx);
        let server: Awaited<ReturnType<typeof serveHooks>>;
        try {
          server = await serveHooks({
            socket,
            ...(o.idleMinutes !== undefined ? { idleMs: o.idleMinutes * 60_000 } : {}),
          });
        } catch (err) {
          // A server the hook started in the background has no terminal: its failure goes to the
          // hook's log too, where doctor's hook-log check finds it.
          const { codedFromForeign } = await import('../../errors.js');
          const { logHookError } = await import('../../hook/index.js');
          const coded =
            err instanceof SkilldexError
              ? err
              : (codedFromForeign(err) ??
                new SkilldexError('INTERNAL', `the hook server did not start: ${String(err)}`));
          const env = ctx.io.env;
          logHookError(hookStateDir(env['HOME'] ?? '/', env), 'hook-server', coded);
          throw coded;
        }
        if (server === undefined) {
          if (o.json) ctx.json({ ran: false, reason: 'already-running', socket });
          else ctx.out(`a hook server already answers on ${socket}`);
          return 0;
        }
        const onSignal = (): void => server.stop('signal');
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
        if (!o.json) ctx.err(`hook server ${process.pid} listening on ${socket}`);
        const end = await server.ended;
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        if (o.json) ctx.json({ ran: true, socket, ...end });
        else ctx.out(`hook server ended (${end.reason}) after ${end.served} prompts`);
        return 0;
      }),
    );
}

// The socket of this skilldex's build for this user; INVALID_ARGUMENT when there is none to use.
function currentSocket(ctx: CliContext): string {
  const env = ctx.io.env;
  const stateDir = hookStateDir(env['HOME'] ?? '/', env);
  if (BUILD === undefined)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      'this skilldex is not a bundled build (run it through bin/skilldex.js after npm run build): it has no hook server',
    );
  const socket = hookServerSocket(stateDir, BUILD);
  if (socket === undefined)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `the hook state folder ${stateDir} is too deep for a Unix socket path: set XDG_STATE_HOME to a shorter folder`,
      { file: stateDir },
    );
  return socket;
}

// This user's hook server folder.
function serverFolder(ctx: CliContext): string {
  const env = ctx.io.env;
  return hookServerDir(hookStateDir(env['HOME'] ?? '/', env));
}

async function statusReport(ctx: CliContext): Promise<{
  setting: { value: boolean; source: string };
  folder: string;
  servers: ServerRow[];
}> {
  const dir = serverFolder(ctx);
  const setting = ctx.settings({}).hook_server;
  const { pingHookServer, serverSockets } = await import('../hook-server-control.js');
  const servers: ServerRow[] = [];
  for (const socket of serverSockets(dir)) {
    const info = await pingHookServer(socket, 500);
    const build = path.basename(socket, '.sock');
    servers.push({
      socket,
      build,
      current: build === BUILD,
      running: info !== undefined,
      ...(info ? { info } : {}),
    });
  }
  return { setting: { value: setting.value, source: setting.source }, folder: dir, servers };
}

function renderStatus(r: Awaited<ReturnType<typeof statusReport>>): string {
  const lines = [
    `hook server: ${r.setting.value ? 'on' : 'off'} (${r.setting.source})`,
    `folder: ${sanitizeField(r.folder, 500)}`,
  ];
  if (r.servers.length === 0) lines.push('no server is running');
  for (const s of r.servers) {
    const which = s.current ? 'this skilldex' : `another build (${sanitizeField(s.build, 40)})`;
    lines.push(
      s.running && s.info
        ? `  running: ${which}, process ${s.info.pid}, since ${s.info.started_at}, ${s.info.served} prompts answered`
        : `  not running: ${which} (a socket left behind; the next server replaces it)`,
    );
  }
  return lines.join('\n');
}
