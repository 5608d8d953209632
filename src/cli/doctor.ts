/**
 * `skilldex doctor` (issue 35): is this machine's skilldex set-up working? It reads what `skilldex
 * init` recorded (init/record.ts) and checks each piece against the hosts' own files:
 *
 * - `init`: init's record file exists and reads; which clients it set up.
 * - `hook.<client>`: the prompt hook init added is still in the host's hook settings (Claude Code
 *   `~/.claude/settings.json` and Codex `$CODEX_HOME/hooks.json` `hooks.UserPromptSubmit`; Gemini CLI
 *   `~/.gemini/settings.json` `hooks.BeforeAgent` running `skilldex hook gemini-cli`,
 *   geminicli.com/docs/hooks/reference), and its command runs: doctor runs it with a harmless event
 *   on stdin (a slash-command prompt, which the hook answers without routing or writing anything),
 *   a timeout, and checks it exits 0 and logs no error.
 * - `hook-log`: the errors the hook logged since its last success (the newest session state it
 *   wrote), with their codes and hints (`$XDG_STATE_HOME/skilldex/hook/hook.log`).
 * - `catalog`: the catalog exists, has a published generation, and no file drifted since indexing.
 * - `mcp.<client>`: the skilldex MCP server is registered in the client's own config
 *   (hosts/mcp-registration.ts), and the command it names exists.
 * - `router-skill.<client>`: the router skill init installed is still there.
 * - `listing.<host>`: the listing controls `listing --apply` wrote are in force, and cannot strand
 *   a skill (the router skill installed; for Claude Code, skills taken out of the model's listing
 *   with `user-invocable-only` need the MCP server's `skill_fetch`).
 *
 * Reads only; the one process it starts is the hook command (not in `cheap` mode, which `status`
 * uses).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, isSkilldexError, type ErrorCode } from '../errors.js';
import { readTextCapped } from '../fsx/index.js';
import { sanitizeField } from '../text/index.js';
import type * as Hosts from '../hosts/index.js';
import { SKILLDEX_BIN } from './bin-path.js';
import { CLIENTS, type Client } from './init/clients.js';
import { shellWord } from './render/shell.js';
import { parseJsonText, valueAt } from './init/json-edit.js';
import { readRecords, recordPath, type UndoRecord } from './init/record.js';

/** One check's outcome. */
export interface DoctorCheck {
  readonly id: string;
  readonly status: 'ok' | 'warn' | 'fail' | 'skip';
  readonly message: string;
  /** What to do about a `warn` or `fail`. */
  readonly fix?: string;
}

/** The doctor's report: `healthy` when no check failed. */
export interface DoctorReport {
  readonly healthy: boolean;
  readonly problems: number;
  readonly warnings: number;
  readonly checks: readonly DoctorCheck[];
}

/** What doctor is asked. */
export interface DoctorOptions {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The catalog the settings name (undefined: the catalog check is skipped, as in `status`). */
  readonly catalog?: string;
  /** False (status): no hook command is run. */
  readonly runHook: boolean;
  /** Milliseconds a hook command may take before it is killed (default HOOK_RUN_TIMEOUT_MS). */
  readonly hookTimeoutMs?: number;
}

/** How long doctor lets the hook command run (the hosts wait 5 s; the hook's own deadline is 1 s). */
export const HOOK_RUN_TIMEOUT_MS = 10_000;
/** Most distinct error codes of the hook log a check names. */
const MAX_LOG_CODES = 5;
/** Largest hook log read (the hook keeps it under 256 KiB). */
const MAX_LOG_READ = 1024 * 1024;

/** The hook events each client's hook is registered for. */
const HOOK_EVENT: Readonly<Record<string, string>> = {
  'claude-code': 'UserPromptSubmit',
  codex: 'UserPromptSubmit',
  'gemini-cli': 'BeforeAgent',
};

function hookStateDir(home: string, env: DoctorOptions['env']): string {
  const base = env['XDG_STATE_HOME'] || path.join(home, '.local', 'state');
  return path.join(base, 'skilldex', 'hook');
}

function hintOf(code: string): string {
  return code in ERROR_CODES ? ERROR_CODES[code as ErrorCode].hint : '';
}

function readJsonFile(file: string): unknown {
  const r = readTextCapped(file, { maxBytes: 4 * 1024 * 1024 });
  if (!r.ok) throw new Error(r.problem.message);
  return parseJsonText(r.text);
}

/** The commands of the hook entries in `file` under `hooks.<event>` that run `skilldex hook`. */
function hookCommands(file: string, event: string, host: string): string[] {
  const groups = valueAt(readJsonFile(file), ['hooks', event]);
  if (!Array.isArray(groups)) return [];
  const out: string[] = [];
  for (const g of groups) {
    const hooks = (g as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(hooks)) continue;
    for (const h of hooks) {
      const cmd = (h as { command?: unknown } | null)?.command;
      if (typeof cmd === 'string' && new RegExp(`\\bhook\\s+['"]?${host}\\b`).test(cmd))
        out.push(cmd);
    }
  }
  return out;
}

/** The exit code, first stderr line and timing of running `command` through the shell. */
async function runCommand(
  command: string,
  input: string,
  o: DoctorOptions,
): Promise<{ code: number | null; timedOut: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: o.cwd,
      env: { ...o.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }, o.hookTimeoutMs ?? HOOK_RUN_TIMEOUT_MS);
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString('utf8');
    });
    child.stdin.on('error', () => {
      // A command that does not read its input: fine.
    });
    child.stdin.end(input);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, timedOut, stderr: err.message });
    });
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      clearTimeout(timer);
      exitCode = code;
      // A process the hook left behind must not hold doctor open through the pipe: its output
      // gets a moment to arrive, then the pipe is closed.
      setTimeout(() => child.stderr.destroy(), 300).unref();
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ code: exitCode, timedOut, stderr });
    });
  });
}

/** The hook log's lines after `since` (ms), as `{ at, code, message }`. */
function logErrorsSince(
  file: string,
  since: number,
): { at: string; code: string; message: string }[] {
  if (!existsSync(file)) return [];
  const r = readTextCapped(file, { maxBytes: MAX_LOG_READ });
  if (!r.ok) return [];
  const out: { at: string; code: string; message: string }[] = [];
  for (const line of r.text.split('\n')) {
    const m = /^(\S+) (\S+) ([A-Z_]+): (.*)$/.exec(line);
    if (!m) continue;
    const t = Date.parse(m[1]!);
    if (Number.isNaN(t) || t <= since) continue;
    out.push({ at: m[1]!, code: m[3]!, message: m[4]! });
  }
  return out;
}

// The newest session state the hook wrote: the last time it answered a prompt.
function lastHookSuccess(stateDir: string): number {
  let newest = 0;
  try {
    for (const n of readdirSync(path.join(stateDir, 'sessions')))
      newest = Math.max(newest, statSync(path.join(stateDir, 'sessions', n)).mtimeMs);
  } catch {
    // No sessions folder: no success recorded.
  }
  return newest;
}

function initFix(client: string): string {
  return `skilldex init --client ${client} --yes`;
}

/** The clients init set up (from its records), in CLIENTS order, plus any others it recorded. */
function clientsOf(records: readonly UndoRecord[]): string[] {
  const seen = new Set(records.map((r) => r.client));
  return [
    ...CLIENTS.filter((c) => seen.has(c)),
    ...[...seen].filter((c) => !CLIENTS.includes(c as Client)).sort(),
  ];
}

/** The `claude mcp add` line for this skilldex (the fix of a missing Claude Code registration). */
export function claudeMcpAddLine(
  hookCommand: string | undefined,
  catalog: string | undefined,
): string {
  // The hook command init wrote names this node and bin: the server runs the same with `mcp`.
  const m = hookCommand ? /^(.*?)\shook\s+\S+(.*)$/.exec(hookCommand) : null;
  if (m) return `claude mcp add --scope user skilldex -- ${m[1]} mcp${m[2]}`;
  return `claude mcp add --scope user skilldex -- ${[process.execPath, SKILLDEX_BIN, 'mcp', ...(catalog ? ['--catalog', catalog] : [])].map(shellWord).join(' ')}`;
}

/** The `init` check (init's record file reads and names clients), with the records it read. */
function initCheck(o: DoctorOptions): { check: DoctorCheck; records: UndoRecord[] } {
  const recordFile = recordPath(o.env, o.home);
  let records: UndoRecord[] = [];
  try {
    records = readRecords(recordFile);
    if (records.length === 0)
      return {
        records,
        check: {
          id: 'init',
          status: 'fail',
          message: `skilldex init has set nothing up on this machine (no ${recordFile})`,
          fix: 'skilldex init --yes (or --client claude-code|codex|cursor)',
        },
      };
    return {
      records,
      check: {
        id: 'init',
        status: 'ok',
        message: `skilldex init set up: ${clientsOf(records).join(', ')}`,
      },
    };
  } catch (err) {
    return {
      records,
      check: {
        id: 'init',
        status: 'fail',
        message: isSkilldexError(err) ? `${err.code}: ${err.message}` : String(err),
        fix: isSkilldexError(err) ? err.hint : `remove ${recordFile} and run skilldex init again`,
      },
    };
  }
}

/** One `hook.<client>` check, with the hook command found, and whether it ran and passed. */
interface HookOutcome {
  readonly check: DoctorCheck;
  readonly command?: string;
  readonly ran: boolean;
  readonly passed: boolean;
}

/** The `hook.<client>` check: the hook init added is still there and (runHook) runs clean. */
async function hookCheck(
  o: DoctorOptions,
  client: string,
  event: string,
  rec: UndoRecord | undefined,
  logFile: string,
): Promise<HookOutcome> {
  const id = `hook.${client}`;
  const checked = (check: DoctorCheck): HookOutcome => ({ check, ran: false, passed: false });
  if (!rec)
    return checked({
      id,
      status: 'skip',
      message: `init installed no prompt hook for ${client} (--no-hook)`,
    });
  let cmds: string[];
  try {
    cmds = existsSync(rec.file) ? hookCommands(rec.file, event, client) : [];
  } catch (err) {
    return checked({
      id,
      status: 'fail',
      message: `${rec.file} cannot be read: ${(err as Error).message}`,
      fix: `fix ${rec.file} (it must be JSON), then ${initFix(client)}`,
    });
  }
  if (cmds.length === 0)
    return checked({
      id,
      status: 'fail',
      message: `the prompt hook init added to ${rec.file} (hooks.${event}) is gone`,
      fix: initFix(client),
    });
  const cmd = cmds[0]!;
  if (!o.runHook)
    return {
      check: { id, status: 'ok', message: `installed in ${rec.file} (not run)` },
      command: cmd,
      ran: false,
      passed: false,
    };
  return { ...(await runHookCheck(o, client, event, rec.file, cmd, logFile)), command: cmd };
}

/** Runs the hook command with a harmless slash-command prompt: it must exit 0 and log no error. */
async function runHookCheck(
  o: DoctorOptions,
  client: string,
  event: string,
  file: string,
  cmd: string,
  logFile: string,
): Promise<HookOutcome> {
  const id = `hook.${client}`;
  const logBefore = logErrorsSince(logFile, 0).length;
  const input = JSON.stringify({
    hook_event_name: event,
    prompt: '/skilldex-doctor',
    cwd: o.cwd,
  });
  const r = await runCommand(cmd, input, o);
  const logged = logErrorsSince(logFile, 0).slice(logBefore);
  if (r.timedOut || r.code !== 0 || logged.length > 0) {
    const why = r.timedOut
      ? `did not finish in ${(o.hookTimeoutMs ?? HOOK_RUN_TIMEOUT_MS) / 1000} s`
      : r.code !== 0
        ? `exited ${r.code ?? 'without a code'}${r.stderr.trim() ? `: ${sanitizeField(r.stderr.trim().split('\n')[0]!, 300)}` : ''}`
        : `logged ${logged[0]!.code}: ${sanitizeField(logged[0]!.message, 300)}`;
    return {
      ran: true,
      passed: false,
      check: {
        id,
        status: 'fail',
        message: `the hook command in ${file} ${why} (command: ${sanitizeField(cmd, 500)})`,
        fix: `${logged[0] ? `${hintOf(logged[0].code)}; ` : ''}check the command runs by hand (echo '{"prompt":"test"}' | ${sanitizeField(cmd, 500)} --strict), or reinstall it: ${initFix(client)} --force`,
      },
    };
  }
  return {
    ran: true,
    passed: true,
    check: { id, status: 'ok', message: `installed in ${file}; its command ran and exited 0` },
  };
}

/** The `hook.<client>` checks of every client with a prompt hook, in order, one run at a time. */
async function hookChecks(
  o: DoctorOptions,
  clients: readonly string[],
  records: readonly UndoRecord[],
  logFile: string,
): Promise<{ checks: DoctorCheck[]; hookCmd: string | undefined; livePassed: boolean }> {
  const checks: DoctorCheck[] = [];
  let hookCmd: string | undefined;
  let liveOk = false;
  let liveRan = false;
  for (const client of clients) {
    const event = HOOK_EVENT[client];
    if (event === undefined) continue;
    const rec = records.find((r) => r.client === client && r.step === 'hook');
    const h = await hookCheck(o, client, event, rec, logFile);
    checks.push(h.check);
    if (client === 'claude-code' && h.command !== undefined) hookCmd = h.command;
    liveRan ||= h.ran;
    liveOk ||= h.passed;
  }
  return { checks, hookCmd, livePassed: liveRan && liveOk };
}

/** The `hook-log` check: errors the hook logged since its last success (warn after a live pass). */
function hookLogCheck(stateDir: string, logFile: string, livePassed: boolean): DoctorCheck {
  const since = lastHookSuccess(stateDir);
  const errors = logErrorsSince(logFile, since);
  if (errors.length === 0)
    return {
      id: 'hook-log',
      status: 'ok',
      message: `no error logged${since > 0 ? ' since the last answered prompt' : ''} (${logFile})`,
    };
  const byCode = new Map<string, { n: number; last: (typeof errors)[number] }>();
  for (const e of errors) byCode.set(e.code, { n: (byCode.get(e.code)?.n ?? 0) + 1, last: e });
  const codes = [...byCode].slice(0, MAX_LOG_CODES);
  return {
    id: 'hook-log',
    // A live run that passed after the errors makes them history: a warning.
    status: livePassed ? 'warn' : 'fail',
    message: `the hook logged ${errors.length} error(s) since its last success: ${codes
      .map(([c, v]) => `${c} ×${v.n} (last ${v.last.at}: ${sanitizeField(v.last.message, 200)})`)
      .join('; ')} (${logFile})`,
    fix: codes.map(([c]) => `${c}: ${hintOf(c) || 'see docs/integration.md §4'}`).join('; '),
  };
}

/** The `mcp.<client>` checks, with whether each client has the skilldex MCP server registered. */
function mcpChecks(
  hosts: typeof Hosts,
  o: DoctorOptions,
  clients: readonly string[],
  hookCmd: string | undefined,
): { checks: DoctorCheck[]; registered: Map<string, boolean> } {
  const checks: DoctorCheck[] = [];
  const registered = new Map<string, boolean>();
  for (const client of clients) {
    if (client === 'generic') continue;
    if (!['claude-code', 'cursor', 'codex', 'gemini-cli'].includes(client)) continue;
    const reg = hosts.skilldexMcpServer(client as 'claude-code', {
      home: o.home,
      env: o.env,
      cwd: o.cwd,
    });
    registered.set(client, reg.registered);
    checks.push(mcpCheck(client, reg, hookCmd, o.catalog));
  }
  return { checks, registered };
}

/** One `mcp.<client>` check: the server is registered and the files its command names exist. */
function mcpCheck(
  client: string,
  reg: Hosts.McpRegistration,
  hookCmd: string | undefined,
  catalog: string | undefined,
): DoctorCheck {
  const id = `mcp.${client}`;
  const fix =
    client === 'claude-code'
      ? claudeMcpAddLine(hookCmd, catalog)
      : client === 'gemini-cli'
        ? 'add a "skilldex" entry under mcpServers in ~/.gemini/settings.json'
        : `${initFix(client)} (it adds the server to ${reg.files[0] ?? 'the client config'})`;
  if (!reg.registered)
    return {
      id,
      status: 'fail',
      message: `no skilldex MCP server registered for ${client} (read: ${reg.files.length > 0 ? reg.files.join(', ') : 'no config file found'})${reg.problems.length > 0 ? `; ${reg.problems.map((p) => sanitizeField(p, 200)).join('; ')}` : ''}`,
      fix,
    };
  const missing = [reg.command, ...reg.args.filter((a) => a.endsWith('.js'))].filter(
    (p): p is string => p !== null && path.isAbsolute(p) && !existsSync(p),
  );
  if (missing.length > 0)
    return {
      id,
      status: 'fail',
      message: `the skilldex MCP server in ${reg.where} names ${missing.join(', ')}, which does not exist`,
      fix:
        client === 'claude-code'
          ? `claude mcp remove skilldex, then ${fix}`
          : `${initFix(client)} --force`,
    };
  return { id, status: 'ok', message: `registered in ${reg.where}` };
}

/** The `router-skill.<client>` checks, with whether each installed router skill is still there. */
function routerSkillChecks(
  clients: readonly string[],
  records: readonly UndoRecord[],
): { checks: DoctorCheck[]; routerOf: Map<string, boolean> } {
  const checks: DoctorCheck[] = [];
  const routerOf = new Map<string, boolean>();
  for (const client of clients) {
    const rec = records.find((r) => r.client === client && r.step === 'router-skill');
    const id = `router-skill.${client}`;
    if (!rec) {
      if (client !== 'generic')
        checks.push({
          id,
          status: 'skip',
          message: `init installed no router skill for ${client}`,
        });
      continue;
    }
    const ok = existsSync(rec.file);
    routerOf.set(client, ok);
    checks.push(
      ok
        ? { id, status: 'ok', message: `installed at ${rec.file}` }
        : {
            id,
            status: 'fail',
            message: `the router skill init installed at ${rec.file} is gone`,
            fix: initFix(client),
          },
    );
  }
  return { checks, routerOf };
}

/** Runs every check. */
export async function runDoctor(o: DoctorOptions): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const init = initCheck(o);
  checks.push(init.check);
  const records = init.records;
  const clients = clientsOf(records);

  // The prompt hooks and their log.
  const stateDir = hookStateDir(o.home, o.env);
  const logFile = path.join(stateDir, 'hook.log');
  const hooks = await hookChecks(o, clients, records, logFile);
  checks.push(...hooks.checks);
  if (clients.some((c) => HOOK_EVENT[c] !== undefined))
    checks.push(hookLogCheck(stateDir, logFile, hooks.livePassed));

  // The catalog.
  if (o.catalog !== undefined) checks.push(await catalogCheck(o.catalog));

  // MCP registrations and router skills.
  const hosts = await import('../hosts/index.js');
  const mcp = mcpChecks(hosts, o, clients, hooks.hookCmd);
  checks.push(...mcp.checks);
  const router = routerSkillChecks(clients, records);
  checks.push(...router.checks);

  // Listing controls in force.
  for (const host of ['claude-code', 'codex'] as const) {
    checks.push(listingCheck(hosts, host, o, mcp.registered, router.routerOf));
  }

  const problems = checks.filter((c) => c.status === 'fail').length;
  const warnings = checks.filter((c) => c.status === 'warn').length;
  return { healthy: problems === 0, problems, warnings, checks };
}

async function catalogCheck(catalog: string): Promise<DoctorCheck> {
  try {
    const { getCatalogStatus } = await import('../router/index.js');
    const s = getCatalogStatus({ catalog });
    if (!s.published)
      return {
        id: 'catalog',
        status: 'fail',
        message: `${catalog} has no published generation`,
        fix: hintOf('CATALOG_EMPTY'),
      };
    if (s.drifted.length > 0)
      return {
        id: 'catalog',
        status: 'fail',
        message: `${s.drifted.length} file(s) changed or vanished since the last index of ${catalog} (${s.drifted
          .slice(0, 3)
          .map((d) => `${d.reason} ${sanitizeField(d.path, 200)}`)
          .join(', ')}${s.drifted.length > 3 ? ', …' : ''})`,
        fix: 'skilldex index',
      };
    return {
      id: 'catalog',
      status: 'ok',
      message: `${catalog}: generation ${s.published.seq}, ${s.working.active} active skill(s), no drift`,
    };
  } catch (err) {
    if (isSkilldexError(err))
      return {
        id: 'catalog',
        status: 'fail',
        message: `${err.code}: ${err.message}`,
        fix: err.hint,
      };
    throw err;
  }
}

function listingCheck(
  hosts: typeof Hosts,
  host: 'claude-code' | 'codex',
  o: DoctorOptions,
  registered: ReadonlyMap<string, boolean>,
  routerOf: ReadonlyMap<string, boolean>,
): DoctorCheck {
  const id = `listing.${host}`;
  let state: ReturnType<typeof hosts.readListingState>;
  try {
    state = hosts.readListingState(hosts.listingStateDir(o.home, o.env), host);
  } catch (err) {
    return {
      id,
      status: 'fail',
      message: isSkilldexError(err) ? err.message : String(err),
      fix: `skilldex listing --host ${host} --undo`,
    };
  }
  if (!state) return { id, status: 'skip', message: `no listing plan applied for ${host}` };
  const undo = `skilldex listing --host ${host} --undo`;
  let inForce = 0;
  const written = Object.entries(hosts.controlsOf(state));
  try {
    if (host === 'claude-code') {
      const ov = valueAt(existsSync(state.file) ? readJsonFile(state.file) : {}, [
        'skillOverrides',
      ]);
      for (const [k, v] of written)
        if ((ov as Record<string, unknown> | undefined)?.[k] === v) inForce++;
    } else {
      const r = existsSync(state.file)
        ? readTextCapped(state.file, { maxBytes: 4 * 1024 * 1024 })
        : undefined;
      inForce = r?.ok && r.text.includes(hosts.CODEX_BEGIN) ? (state.paths ?? []).length : 0;
    }
  } catch (err) {
    return {
      id,
      status: 'fail',
      message: `${state.file}: ${(err as Error).message}`,
      fix: `fix ${state.file}`,
    };
  }
  const total = host === 'claude-code' ? written.length : (state.paths ?? []).length;
  const hidden = written.filter(([, v]) => v === 'user-invocable-only' || v === 'off').length;
  if (routerOf.get(host) === false)
    return {
      id,
      status: 'fail',
      message: `${inForce} skill(s) are left to the router skill, which is gone`,
      fix: `${initFix(host)}, or ${undo}`,
    };
  // The global settings may rely only on a registration every project sees (user scope).
  const userScope =
    host === 'claude-code' &&
    hosts.skilldexMcpServer(host, { home: o.home, env: o.env, cwd: o.cwd, userScopeOnly: true })
      .registered;
  if (host === 'claude-code' && hidden > 0 && !userScope)
    return {
      id,
      status: 'fail',
      message: `${hidden} skill(s) are out of Claude Code's listing (user-invocable-only) and reachable only through skill_fetch, but no skilldex MCP server is registered for Claude Code in user scope${registered.get(host) === true ? ' (only for this project)' : ''}`,
      fix: `${claudeMcpAddLine(undefined, o.catalog)}, or ${undo}`,
    };
  return {
    id,
    status: inForce === total ? 'ok' : 'warn',
    message: `${inForce} of ${total} control(s) applied ${state.applied_at} in force in ${state.file}`,
    ...(inForce === total ? {} : { fix: `skilldex listing --host ${host} --apply to plan again` }),
  };
}
