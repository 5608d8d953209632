/**
 * doctor's prompt-hook checks: `hook.<client>` (the hook init added is still in the host's hook
 * settings and, unless in `cheap` mode, its command runs a harmless slash-command prompt, exits 0
 * and logs no error) and `hook-log` (the errors the hook logged since its last answered prompt,
 * with their codes and hints). Also where the hook keeps its state and log, and how doctor runs
 * the hook command through the shell with a time limit.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readTextCapped } from '../../fsx/index.js';
import { sanitizeField } from '../../text/index.js';
import { valueAt } from '../init/json-edit.js';
import {
  claudeHookOff,
  codexHookOff,
  codexHookTrust,
  geminiHookOff,
  vscodeHookOff,
  vscodeRunsTwice,
} from './hook-hosts.js';
import { wrapperGap } from './hook-wrapper.js';
import type { UndoRecord } from '../init/record.js';
import {
  HOOK_RUN_TIMEOUT_MS,
  hintOf,
  initFix,
  readJsonFile,
  type DoctorCheck,
  type DoctorOptions,
} from './check.js';

/** Most distinct error codes of the hook log a check names. */
const MAX_LOG_CODES = 5;
/** Codes of an event the hook could not read: a live run with doctor's own event cannot clear them. */
const HOST_INPUT_CODES: ReadonlySet<string> = new Set(['HOOK_INPUT_INVALID']);
/** Largest hook log read (the hook keeps it under 256 KiB). */
const MAX_LOG_READ = 1024 * 1024;

/** The hook events each client's hook is registered for. */
export const HOOK_EVENT: Readonly<Record<string, string>> = {
  'claude-code': 'UserPromptSubmit',
  codex: 'UserPromptSubmit',
  'gemini-cli': 'BeforeAgent',
  // VS Code agent mode: init's own ~/.copilot/hooks/skilldex.json (init/clients.ts).
  vscode: 'UserPromptSubmit',
};

/**
 * The commands of the hook entries in `file` under `hooks.<event>` that run `skilldex hook`: in
 * groups `{hooks: [{command}]}` (Claude Code, Codex, Gemini CLI) or flat `{command}` entries (VS
 * Code, microsoft/vscode-docs docs/agent-customization/hooks.md, "Hook command properties").
 */
function hookCommands(file: string, event: string, host: string): string[] {
  const groups = valueAt(readJsonFile(file, host === 'gemini-cli'), ['hooks', event]);
  if (!Array.isArray(groups)) return [];
  const out: string[] = [];
  for (const g of groups) {
    const inner = (g as { hooks?: unknown } | null)?.hooks;
    const hooks: unknown[] = Array.isArray(inner) ? inner : [g];
    for (const h of hooks) {
      const cmd = (h as { command?: unknown } | null)?.command;
      if (typeof cmd === 'string' && new RegExp(`\\bhook\\s+['"]?${host}\\b`).test(cmd))
        out.push(cmd);
    }
  }
  return out;
}

/**
 * How to put a fresh hook command in: init replaces the hook an earlier init wrote (as it wrote it);
 * one edited since comes out with --undo first.
 */
function reinstallFix(client: string): string {
  return `${initFix(client)} again: it replaces the hook an earlier init wrote (installing skilldex first, npm install -g <its folder>, makes the hook survive a moved folder or another Node; a hook you edited since: skilldex init --undo --client ${client} --yes first)`;
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
  // No hook record: init ran with --no-hook, or withheld the hook as there was no skill to index
  // then (issue 35). Which one is not recorded, so a warning (exit 0) that names both, and the fix
  // for the second: without the hook no prompt gets a suggestion.
  if (!rec)
    return checked({
      id,
      status: 'warn',
      message: `no prompt hook installed for ${client}: init ran with --no-hook, or had no skill to index then (a hook with no catalog is never installed), so no prompt gets a suggestion`,
      fix: `${initFix(client)} installs it once the library has skills (leave it if you chose --no-hook)`,
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
  const off =
    client === 'gemini-cli'
      ? geminiHookOff(rec.file, cmd)
      : client === 'vscode'
        ? vscodeHookOff(o, rec.file)
        : client === 'codex'
          ? codexHookOff(rec.file)
          : client === 'claude-code'
            ? claudeHookOff(rec.file)
            : undefined;
  if (off !== undefined)
    return { check: { id, status: 'fail', ...off }, command: cmd, ran: false, passed: false };
  // The silent wrapper exits 0 when what it runs is gone: a live run cannot see that (issue 35).
  const gap = wrapperGap(cmd, o.env['PATH']);
  if (gap !== undefined)
    return {
      check: {
        id,
        status: 'fail',
        message: `the hook command in ${rec.file} cannot run skilldex: ${gap} (command: ${sanitizeField(cmd, 500)})`,
        fix: reinstallFix(client),
      },
      command: cmd,
      ran: false,
      passed: false,
    };
  // Codex skips a hook the person has not trusted yet (issue 35: silent, but for a start-up line).
  const trust = client === 'codex' ? codexHookTrust(rec.file, cmd) : undefined;
  if (trust?.status === 'fail')
    return { check: { id, ...trust }, command: cmd, ran: false, passed: false };
  const untrusted = (outcome: HookOutcome): HookOutcome =>
    trust !== undefined && outcome.check.status === 'ok'
      ? {
          ...outcome,
          check: {
            id,
            status: 'warn',
            message: `${outcome.check.message}; but ${trust.message}`,
            fix: trust.fix,
          },
        }
      : outcome;
  if (!o.runHook)
    return untrusted({
      check: { id, status: 'ok', message: `installed in ${rec.file} (not run)` },
      command: cmd,
      ran: false,
      passed: false,
    });
  return untrusted({
    ...(await runHookCheck(o, client, event, rec.file, cmd, logFile)),
    command: cmd,
  });
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
        fix: `${logged[0] ? `${hintOf(logged[0].code)}; ` : ''}check the command runs by hand (echo '{"prompt":"test"}' | ${sanitizeField(cmd, 500)} --strict), or ${reinstallFix(client)}`,
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
export async function hookChecks(
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
    const twice =
      client === 'vscode' && h.check.status === 'ok'
        ? vscodeRunsTwice(
            o,
            records.find((r) => r.client === 'claude-code' && r.step === 'hook')?.file,
          )
        : undefined;
    checks.push(twice ? { id: h.check.id, status: 'warn', ...twice } : h.check);
    if (client === 'claude-code' && h.command !== undefined) hookCmd = h.command;
    liveRan ||= h.ran;
    liveOk ||= h.passed;
  }
  return { checks, hookCmd, livePassed: liveRan && liveOk };
}

/** The `hook-log` check: errors the hook logged since its last success (warn after a live pass). */
export function hookLogCheck(
  stateDir: string,
  logFile: string,
  livePassed: boolean,
  mode: 'run' | 'not-run' = 'run',
): DoctorCheck {
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
  // A live run that passed after the errors makes them history: a warning. Not an input the hook
  // could not read: doctor's own event is well-formed, so its pass says nothing about what the host
  // sends. Without a live run (status) nothing is known either way: a warning, doctor decides.
  const persistent = errors.some((e) => HOST_INPUT_CODES.has(e.code));
  return {
    id: 'hook-log',
    status: mode === 'not-run' || (livePassed && !persistent) ? 'warn' : 'fail',
    message: `the hook logged ${errors.length} error(s) since its last success: ${codes
      .map(([c, v]) => `${c} ×${v.n} (last ${v.last.at}: ${sanitizeField(v.last.message, 200)})`)
      .join('; ')} (${logFile})`,
    fix: codes.map(([c]) => `${c}: ${hintOf(c) || 'see docs/integration.md §4'}`).join('; '),
  };
}
