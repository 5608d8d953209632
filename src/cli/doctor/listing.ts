/**
 * doctor's `listing.<host>` checks: the listing controls `skilldex listing --apply` wrote for Claude
 * Code or Codex are still in force, and cannot strand a skill (the router skill still installed;
 * for Claude Code, skills taken out of the model's listing need a user-scope skilldex MCP server
 * for `skill_fetch`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isSkilldexError } from '../../errors.js';
import { readTextCapped } from '../../fsx/index.js';
import type * as Hosts from '../../hosts/index.js';
import { ROUTER_FOLDER, clientPaths } from '../init/clients.js';
import { valueAt } from '../init/json-edit.js';
import { initFix, readJsonFile, type DoctorCheck, type DoctorOptions } from './check.js';
import { claudeMcpAddLine } from './mcp.js';

/** The `listing.<host>` check of `host`. */
export function listingCheck(
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
  // Init's record says where it put the router skill; with no record (init --undo ran since), the
  // host's skills folder says whether one is there.
  const skills = clientPaths(host, o.home, o.env).skills;
  const router =
    routerOf.get(host) ??
    (skills !== undefined && existsSync(path.join(skills, ROUTER_FOLDER, 'SKILL.md')));
  if (!router && inForce > 0)
    return {
      id,
      status: 'fail',
      message: `${inForce} skill(s) are left to the router skill, which is ${routerOf.has(host) ? 'gone' : 'not installed'}`,
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
      fix: `${claudeMcpAddLine(o.catalog)}, or ${undo}`,
    };
  return {
    id,
    status: inForce === total ? 'ok' : 'warn',
    message: `${inForce} of ${total} control(s) applied ${state.applied_at} in force in ${state.file}`,
    ...(inForce === total ? {} : { fix: `skilldex listing --host ${host} --apply to plan again` }),
  };
}
