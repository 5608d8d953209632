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
 * - `hook-server`: whether the hook can hand prompts to a warm hook server (doctor/hook-server.ts).
 * - `catalog`: the catalog exists, has a published generation, and no file drifted since indexing.
 * - `mcp.<client>`: the skilldex MCP server is registered in the client's own config
 *   (hosts/mcp-registration.ts), and the command it names exists.
 * - `router-skill.<client>`: the router skill init installed is still there.
 * - `codex-project.*`: what the current project's `.codex/config.toml` and `.codex/hooks.json`
 *   say about skilldex (its own skilldex MCP server or prompt hook, the server or hooks turned
 *   off) and whether Codex applies them (a trusted project); read as data, never run.
 * - `listing.<host>`: the listing controls `listing --apply` wrote are in force, and cannot strand
 *   a skill (the router skill installed; for Claude Code, skills taken out of the model's listing
 *   with `user-invocable-only` need the MCP server's `skill_fetch`).
 *
 * Reads only; the one process it starts is the hook command (not in `cheap` mode, which `status`
 * uses).
 *
 * This file runs the checks in order; each group lives in doctor/: the shared shapes (check.ts),
 * init's record and the router skills (setup.ts), the prompt hook and its log (hook.ts), the
 * catalog (catalog.ts), the MCP registrations (mcp.ts) and the listing controls (listing.ts).
 */
import path from 'node:path';
import { catalogCheck } from './doctor/catalog.js';
import { codexProjectChecks } from './doctor/codex-project.js';
import type { DoctorCheck, DoctorOptions, DoctorReport } from './doctor/check.js';
import { hookStateDir } from '../hook/lite.js';
import { HOOK_EVENT, hookChecks, hookLogCheck } from './doctor/hook.js';
import { hookServerCheck } from './doctor/hook-server.js';
import { listingCheck } from './doctor/listing.js';
import { mcpChecks } from './doctor/mcp.js';
import { clientsOf, initCheck, libraryCheck, routerSkillChecks } from './doctor/setup.js';

export {
  HOOK_RUN_TIMEOUT_MS,
  type DoctorCheck,
  type DoctorOptions,
  type DoctorReport,
} from './doctor/check.js';
export { claudeMcpAddLine } from './doctor/mcp.js';

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
    checks.push(hookLogCheck(stateDir, logFile, hooks.livePassed, o.runHook ? 'run' : 'not-run'));
  if (clients.some((c) => HOOK_EVENT[c] !== undefined) && o.hookServer !== undefined)
    checks.push(await hookServerCheck(o.home, o.env, o.hookServer));

  // The catalog.
  if (o.catalog !== undefined) checks.push(await catalogCheck(o.catalog, o.scopes, o.home));
  checks.push(...(await libraryCheck(o, clients)));

  // MCP registrations and router skills.
  const hosts = await import('../hosts/index.js');
  const mcp = mcpChecks(hosts, o, clients, hooks.hookCmd);
  checks.push(...mcp.checks);
  const router = routerSkillChecks(clients, records);
  checks.push(...router.checks);

  // The current project's own Codex configuration (untrusted: reported, never run).
  checks.push(...codexProjectChecks(hosts, o, clients));

  // Listing controls in force.
  for (const host of ['claude-code', 'codex'] as const) {
    checks.push(listingCheck(hosts, host, o, mcp.registered, router.routerOf));
  }

  const problems = checks.filter((c) => c.status === 'fail').length;
  const warnings = checks.filter((c) => c.status === 'warn').length;
  return { healthy: problems === 0, problems, warnings, checks };
}
