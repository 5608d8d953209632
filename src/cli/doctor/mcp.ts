/**
 * doctor's `mcp.<client>` checks: the skilldex MCP server is registered in each client's own config
 * (hosts/mcp-registration.ts) and the files its command names exist; plus the `claude mcp add`
 * line that fixes a missing Claude Code registration.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sanitizeField } from '../../text/index.js';
import type * as Hosts from '../../hosts/index.js';
import { SKILLDEX_BIN } from '../bin-path.js';
import { shellWord } from '../render/shell.js';
import { initFix, type DoctorCheck, type DoctorOptions } from './check.js';

/** The `claude mcp add` line for this skilldex (the fix of a missing Claude Code registration). */
export function claudeMcpAddLine(catalog: string | undefined): string {
  // The line init prints (src/cli/init.ts planMcp): this Node and this package's bin, `mcp`. Not
  // derived from the hook command, which init wraps in a shell that stays silent (hook-step.ts).
  return `claude mcp add --scope user skilldex -- ${[process.execPath, SKILLDEX_BIN, 'mcp', ...(catalog ? ['--catalog', catalog] : [])].map(shellWord).join(' ')}`;
}

/** Where each client keeps its MCP servers (hosts/mcp-registration.ts), for a message. */
const MCP_PLACES: Readonly<Record<string, string>> = {
  'claude-code': '~/.claude.json (claude mcp add) or a project .mcp.json',
  cursor: '~/.cursor/mcp.json or a project .cursor/mcp.json',
  codex: '$CODEX_HOME/config.toml (~/.codex)',
  'gemini-cli': '~/.gemini/settings.json',
  vscode: "its profile's mcp.json (code --add-mcp) or a workspace .vscode/mcp.json",
};

/** The `code --add-mcp` line for this skilldex, as init prints it (init/mcp-step.ts planMcp). */
function vscodeAddMcpLine(catalog: string | undefined): string {
  const args = [SKILLDEX_BIN, 'mcp', ...(catalog ? ['--catalog', catalog] : [])];
  return `code --add-mcp ${shellWord(JSON.stringify({ name: 'skilldex', command: process.execPath, args }))}`;
}

/** The `mcp.<client>` checks, with whether each client has the skilldex MCP server registered. */
export function mcpChecks(
  hosts: typeof Hosts,
  o: DoctorOptions,
  clients: readonly string[],
  hookCmd: string | undefined,
): { checks: DoctorCheck[]; registered: Map<string, boolean> } {
  const checks: DoctorCheck[] = [];
  const registered = new Map<string, boolean>();
  for (const client of clients) {
    if (client === 'generic') continue;
    if (!['claude-code', 'cursor', 'codex', 'gemini-cli', 'vscode'].includes(client)) continue;
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
      ? claudeMcpAddLine(catalog)
      : client === 'gemini-cli'
        ? 'add a "skilldex" entry under mcpServers in ~/.gemini/settings.json'
        : client === 'vscode'
          ? vscodeAddMcpLine(catalog)
          : `${initFix(client)} (it adds the server to ${reg.files[0] ?? 'the client config'})`;
  if (!reg.registered)
    return {
      id,
      status: 'fail',
      message: `no skilldex MCP server registered for ${client} (read: ${reg.files.length > 0 ? reg.files.join(', ') : `no config file found; ${client} keeps its servers in ${MCP_PLACES[client] ?? 'its config'}`})${reg.problems.length > 0 ? `; ${reg.problems.map((p) => sanitizeField(p, 200)).join('; ')}` : ''}`,
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
          : client === 'vscode'
            ? `remove skilldex from ${reg.where?.replace(/ servers\..*$/, '') ?? 'mcp.json'}, then ${fix}`
            : `${initFix(client)} --force`,
    };
  return { id, status: 'ok', message: `registered in ${reg.where}` };
}
