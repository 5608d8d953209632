/**
 * init's `mcp` step: the stdio server entry merged into the client's MCP configuration (Cursor's
 * and Gemini CLI's JSON, every other byte kept; Codex's config.toml, a table appended) or, for
 * Claude Code, VS Code and generic clients, the command or snippet printed for the user.
 */
import type { McpRegistration } from '../../hosts/index.js';
import { shellWord } from '../render/shell.js';
import { jsonSetMember, tomlAddEntries } from './edits.js';
import { jsonWithComments, planEdits, type PlannedStep, type StepContext } from './steps.js';

/** The stdio server entry init registers: this Node, this checkout's bin, the catalog. */
export interface ServerEntry {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The MCP step: merged into Cursor's mcp.json (`mcpServers.skilldex`, every other byte kept) or
 * Codex's config.toml (`[mcp_servers.skilldex]` appended); printed for Claude Code (`claude mcp
 * add`) and generic clients.
 */
export function planMcp(
  sc: StepContext,
  file: string | undefined,
  server: ServerEntry,
  registration?: McpRegistration,
): PlannedStep {
  const snippet = JSON.stringify({ mcpServers: { skilldex: server } }, null, 2);
  // Claude Code and VS Code: init only prints the command. Once the user has run it (the host's
  // own config has this very server, in user scope), a second init has nothing to ask: the step is
  // `unchanged` like every other (issue 35), not the same command printed again.
  if (
    (sc.client === 'claude-code' || sc.client === 'vscode') &&
    registration?.registered === true &&
    registration.command === server.command &&
    registration.args.length === server.args.length &&
    registration.args.every((a, i) => a === server.args[i])
  )
    return {
      step: {
        step: 'mcp',
        action: 'unchanged',
        target: registration.where ?? 'mcpServers.skilldex',
        detail: 'the skilldex MCP server is registered already, with this command',
      },
    };
  if (sc.client === 'vscode') {
    // `code --add-mcp <json>` adds a server to the user profile (code.visualstudio.com/docs/
    // agent-customization/mcp-servers, "command line").
    const json = JSON.stringify({ name: 'skilldex', command: server.command, args: server.args });
    const cmd = `code --add-mcp ${shellWord(json)}`;
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: cmd,
        detail: 'register the MCP server with VS Code',
      },
      notes: [`Register the MCP server with VS Code (user profile):\n  ${cmd}`],
    };
  }
  if (sc.client === 'claude-code') {
    const cmd = `claude mcp add --scope user skilldex -- ${[server.command, ...server.args].map(shellWord).join(' ')}`;
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: cmd,
        detail: 'register the MCP server with Claude Code',
      },
      notes: [
        `Register the MCP server with Claude Code (user scope):\n  ${cmd}\nor, for one project, put this in its .mcp.json:\n${snippet}`,
      ],
    };
  }
  if (file === undefined)
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: 'mcpServers',
        detail: 'add this server to your client',
      },
      notes: [`Add this server to your MCP client's configuration:\n${snippet}`],
    };
  if (sc.client === 'cursor' || sc.client === 'gemini-cli')
    return planEdits(sc, 'mcp', file, 'mcpServers.skilldex (every other byte of the file kept)', [
      (t) =>
        jsonSetMember(
          file,
          t,
          ['mcpServers', 'skilldex'],
          server,
          sc.force,
          jsonWithComments(sc.client),
        ),
    ]);
  return planEdits(
    sc,
    'mcp',
    file,
    '[mcp_servers.skilldex] appended; the rest of the file is kept byte for byte',
    [
      (t) =>
        tomlAddEntries(file, t, ['mcp_servers', 'skilldex'], {
          command: server.command,
          args: server.args,
        }),
    ],
  );
}
