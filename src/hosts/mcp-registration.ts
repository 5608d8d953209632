/**
 * Whether an agent client has the skilldex MCP server registered, read from the client's own
 * configuration files (never written). `listing --apply` asks it before it takes skills out of a
 * listing (a skill whose only way in is `skill_fetch` needs the server), and `skilldex doctor`
 * reports it. The places each client reads:
 *
 * - Claude Code: `~/.claude.json`, top-level `mcpServers` (user scope) and
 *   `projects["<project path>"].mcpServers` (local scope), and `.mcp.json` at the project root
 *   (project scope) — code.claude.com/docs/en/mcp, "MCP installation scopes"; `claude mcp add
 *   --scope user` writes the top-level member.
 * - Codex: `[mcp_servers.<name>]` tables in `$CODEX_HOME/config.toml` (`enabled = false` switches one
 *   off) — developers.openai.com/codex/mcp and openai/codex docs/config.md.
 * - Cursor: `mcpServers` in `~/.cursor/mcp.json` (and a project's `.cursor/mcp.json`) —
 *   cursor.com/docs/context/mcp.
 * - Gemini CLI: `mcpServers` in `~/.gemini/settings.json` — google-gemini/gemini-cli
 *   docs/tools/mcp-server.md (geminicli.com/docs/tools/mcp-server).
 * - VS Code: `servers` in `mcp.json` of the user profile (`code --add-mcp` writes it) or of the
 *   workspace (`.vscode/mcp.json`) — microsoft/vscode-docs docs/agents/reference/mcp-configuration.md
 *   ("Configuration file"). The default profile's folder is `<user data>/User`: `$XDG_CONFIG_HOME`
 *   (default `~/.config`)`/Code/User` on Linux, `~/Library/Application Support/Code/User` on
 *   macOS (Insiders: `Code - Insiders`); a named profile's own folder is not read.
 *
 * A server counts when it is named `skilldex`, or when its command line runs skilldex's `mcp`
 * command. Reads are capped; a file that does not parse is reported, never fatal.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { codexConfigFile } from './listing-codex.js';
import { MAX_CLAUDE_STATE_BYTES, MAX_SETTINGS_BYTES } from './listing-scopes.js';
import {
  asObject,
  readSettingsFile,
  type HostFolders,
  type SettingsFormat,
} from './settings-file.js';

/** The clients whose MCP configuration skilldex reads. */
export type McpClient = 'claude-code' | 'cursor' | 'codex' | 'gemini-cli' | 'vscode';

/** Where a client's skilldex server is registered, if anywhere. */
export interface McpRegistration {
  readonly client: McpClient;
  readonly registered: boolean;
  /** The file and key it was found under (e.g. `~/.claude.json mcpServers.skilldex`). */
  readonly where: string | null;
  /** The registered command and arguments (stdio servers). */
  readonly command: string | null;
  readonly args: readonly string[];
  /** The files read. */
  readonly files: readonly string[];
  /** Files that could not be read or parsed (the check went on without them). */
  readonly problems: readonly string[];
}

/** What a registration look-up needs. */
export interface McpLookupOptions extends HostFolders {
  /**
   * Count only registrations every project sees (Claude Code's user scope, Cursor's
   * `~/.cursor/mcp.json`): what a change to the user's global settings may rely on. A project's
   * `.mcp.json` is also untrusted (docs/integration.md §7).
   */
  readonly userScopeOnly?: boolean;
}

type Servers = Record<string, unknown>;

/** The server entry that is skilldex's among `servers`, with its name. */
export function skilldexMcpEntry(servers: unknown): [string, Record<string, unknown>] | undefined {
  return skilldexEntry(servers);
}

function skilldexEntry(servers: unknown): [string, Record<string, unknown>] | undefined {
  const s = asObject(servers);
  if (!s) return undefined;
  const named = asObject(s['skilldex']);
  if (named) return ['skilldex', named];
  for (const [name, v] of Object.entries(s as Servers)) {
    const e = asObject(v);
    if (!e) continue;
    const line = [e['command'], ...(Array.isArray(e['args']) ? e['args'] : [])]
      .filter((x): x is string => typeof x === 'string')
      .join(' ');
    if (/skilldex/.test(line) && /(^|\s)mcp(\s|$)/.test(line)) return [name, e];
  }
  return undefined;
}

// The project folder and its ancestors, nearest first.
function upward(cwd: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/** Whether `client` has a skilldex MCP server registered, and where. */
export function skilldexMcpServer(client: McpClient, o: McpLookupOptions): McpRegistration {
  const files: string[] = [];
  const problems: string[] = [];
  const readJson = (
    file: string,
    max = MAX_SETTINGS_BYTES,
    comments = false, // Gemini CLI's settings.json is JSON with comments (strip-json-comments).
  ): Record<string, unknown> | undefined =>
    readNoted(file, comments ? 'jsonc' : 'json', files, problems, max);
  const found = (where: string, e: Record<string, unknown>): McpRegistration => ({
    client,
    registered: true,
    where,
    command: typeof e['command'] === 'string' ? e['command'] : null,
    args: Array.isArray(e['args']) ? e['args'].filter((x) => typeof x === 'string') : [],
    files,
    problems,
  });
  const none = (): McpRegistration => ({
    client,
    registered: false,
    where: null,
    command: null,
    args: [],
    files,
    problems,
  });
  switch (client) {
    case 'claude-code': {
      const user = path.join(o.home, '.claude.json');
      const state = readJson(user, MAX_CLAUDE_STATE_BYTES);
      const top = skilldexEntry(state?.['mcpServers']);
      if (top) return found(`${user} mcpServers.${top[0]}`, top[1]);
      const projects = asObject(state?.['projects']);
      for (const dir of o.userScopeOnly ? [] : upward(o.cwd)) {
        const local = skilldexEntry(asObject(projects?.[dir])?.['mcpServers']);
        if (local)
          return found(`${user} projects[${JSON.stringify(dir)}].mcpServers.${local[0]}`, local[1]);
        const mcpJson = path.join(dir, '.mcp.json');
        const project = skilldexEntry(readJson(mcpJson)?.['mcpServers']);
        if (project) return found(`${mcpJson} mcpServers.${project[0]}`, project[1]);
      }
      return none();
    }
    case 'cursor': {
      for (const file of [
        path.join(o.home, '.cursor', 'mcp.json'),
        ...(o.userScopeOnly ? [] : upward(o.cwd)).map((d) => path.join(d, '.cursor', 'mcp.json')),
      ]) {
        const e = skilldexEntry(readJson(file)?.['mcpServers']);
        if (e) return found(`${file} mcpServers.${e[0]}`, e[1]);
      }
      return none();
    }
    case 'gemini-cli': {
      const file = path.join(o.home, '.gemini', 'settings.json');
      const e = skilldexEntry(readJson(file, MAX_SETTINGS_BYTES, true)?.['mcpServers']);
      return e ? found(`${file} mcpServers.${e[0]}`, e[1]) : none();
    }
    case 'vscode': {
      for (const file of [
        ...vscodeUserMcpFiles(o),
        ...(o.userScopeOnly ? [] : upward(o.cwd)).map((d) => path.join(d, '.vscode', 'mcp.json')),
      ]) {
        // VS Code reads its JSON files with comments, as its settings.
        const e = skilldexEntry(readJson(file, MAX_SETTINGS_BYTES, true)?.['servers']);
        if (e) return found(`${file} servers.${e[0]}`, e[1]);
      }
      return none();
    }
    case 'codex': {
      const file = codexConfigFile(o);
      const doc = readNoted(file, 'toml', files, problems);
      const e = skilldexEntry(doc?.['mcp_servers']);
      if (!e || e[1]['enabled'] === false) return none();
      return found(`${file} [mcp_servers.${e[0]}]`, e[1]);
    }
  }
}

// The user profile mcp.json files of VS Code and VS Code Insiders on Linux and macOS.
function vscodeUserMcpFiles(o: McpLookupOptions): string[] {
  const config = o.env['XDG_CONFIG_HOME'] || path.join(o.home, '.config');
  const mac = path.join(o.home, 'Library', 'Application Support');
  return [config, mac].flatMap((base) =>
    ['Code', 'Code - Insiders'].map((app) => path.join(base, app, 'User', 'mcp.json')),
  );
}

// A settings file's document, the file noted in `files` when it exists (undefined when absent,
// unreadable or not a document: said in `problems`).
function readNoted(
  file: string,
  format: SettingsFormat,
  files: string[],
  problems: string[],
  max = MAX_SETTINGS_BYTES,
): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  files.push(file);
  return readSettingsFile(file, format, problems, max);
}
