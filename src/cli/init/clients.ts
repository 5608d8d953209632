/**
 * The agent clients `skilldex init` sets up (issue 12, docs/init.md): where each loads personal
 * skills from, which folders it lists natively, and where its MCP configuration lives; and the
 * check that two clients reading one skills folder would list the router skill twice (issue 27).
 * Paths only: reads nothing but whether a router skill stands in a folder.
 */
import path from 'node:path';
import { exists } from './files.js';

/** The clients `init` knows how to configure. */
export const CLIENTS = [
  'claude-code',
  'cursor',
  'codex',
  'gemini-cli',
  'vscode',
  'generic',
] as const;
/** One of CLIENTS. */
export type Client = (typeof CLIENTS)[number];

/** The folder name of the router skill in a client's skills folder. */
export const ROUTER_FOLDER = 'skill-router';

/** A client's folders and files. */
export interface ClientPaths {
  /** Where init installs the router skill (undefined: the client has no personal skills folder). */
  readonly skills?: string;
  /** Every folder the client lists skills from by itself. */
  readonly native: readonly string[];
  /** The MCP configuration file init merges into (undefined: printed instead). */
  readonly mcp?: string;
  /** The file init adds the prompt hook to (undefined: the client has no such hook). */
  readonly hooks?: string;
}

// A client's own skills folder (where init installs the router skill) and every folder it lists
// skills from, its own first (issue 33: the rule written once for every client).
function folders(own: string, ...also: string[]): { skills: string; native: string[] } {
  return { skills: own, native: [own, ...also] };
}

/** Where `client` loads skills from and keeps its MCP configuration, for `home`. */
export function clientPaths(
  client: Client,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): ClientPaths {
  const codexHome = env['CODEX_HOME'] || path.join(home, '.codex');
  // Personal folders several clients read: the shared ~/.agents/skills and Claude Code's own.
  const agents = path.join(home, '.agents', 'skills');
  const claude = path.join(home, '.claude', 'skills');
  switch (client) {
    case 'claude-code':
      return {
        ...folders(claude, agents),
        hooks: path.join(home, '.claude', 'settings.json'),
      };
    case 'cursor':
      // Cursor also reads the Claude and Codex personal folders for compatibility.
      return {
        ...folders(path.join(home, '.cursor', 'skills'), claude, path.join(codexHome, 'skills')),
        mcp: path.join(home, '.cursor', 'mcp.json'),
      };
    case 'codex':
      return {
        ...folders(path.join(codexHome, 'skills'), agents),
        mcp: path.join(codexHome, 'config.toml'),
        hooks: path.join(codexHome, 'hooks.json'),
      };
    case 'gemini-cli':
      // Skills: ~/.gemini/skills and the ~/.agents/skills alias (geminicli.com/docs/cli/using-agent-skills,
      // "discovery tiers"); MCP servers and hooks both live in ~/.gemini/settings.json (`mcpServers`;
      // `hooks.BeforeAgent`, google-gemini/gemini-cli docs/hooks/reference.md).
      return {
        ...folders(path.join(home, '.gemini', 'skills'), agents),
        mcp: path.join(home, '.gemini', 'settings.json'),
        hooks: path.join(home, '.gemini', 'settings.json'),
      };
    case 'vscode':
      // VS Code agent mode: personal skills in ~/.copilot/skills, ~/.claude/skills, ~/.agents/skills
      // (microsoft/vscode-docs docs/agent-customization/agent-skills.md); user hook files are every
      // *.json in ~/.copilot/hooks, and ~/.claude/settings.json (docs/agent-customization/hooks.md,
      // "Hook file locations"): init owns one file there. Its MCP file sits in the VS Code profile
      // folder, which differs per OS and profile: printed (`code --add-mcp`) instead.
      return {
        ...folders(path.join(home, '.copilot', 'skills'), claude, agents),
        hooks: path.join(home, '.copilot', 'hooks', 'skilldex.json'),
      };
    case 'generic':
      return { native: [] };
  }
}

/**
 * Warnings for a router skill installed for `client` that some client would list twice: `client`
 * itself, when another of its native folders holds a router skill already (installed for another
 * client), and every other client that reads `client`'s skills folder and has its own copy.
 */
export function routerListedTwice(
  client: Client,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const mine = clientPaths(client, home, env).skills;
  if (mine === undefined) return [];
  const ownerOf = (dir: string): Client | undefined =>
    CLIENTS.find((c) => clientPaths(c, home, env).skills === dir);
  const hasRouter = (dir: string): boolean => exists(path.join(dir, ROUTER_FOLDER, 'SKILL.md'));
  const out: string[] = [];
  for (const dir of clientPaths(client, home, env).native) {
    if (dir === mine || !hasRouter(dir)) continue;
    const owner = ownerOf(dir);
    out.push(
      `${client} also lists the skills of ${dir}, which holds a ${ROUTER_FOLDER} already${owner ? ` (installed for ${owner})` : ''}: ${client} will list the router skill twice. Keep one copy: remove ${path.join(mine, ROUTER_FOLDER)}, and ${client} loads the router from ${dir}.`,
    );
  }
  for (const other of CLIENTS) {
    const p = clientPaths(other, home, env);
    if (other === client || p.skills === undefined || p.skills === mine) continue;
    if (!p.native.includes(mine) || !hasRouter(p.skills)) continue;
    out.push(
      `${other} lists the skills of ${mine} too and has its own ${ROUTER_FOLDER} in ${p.skills}: ${other} will list the router skill twice. Keep one copy: remove ${path.join(p.skills, ROUTER_FOLDER)}, and ${other} loads the router from ${mine}.`,
    );
  }
  return out;
}
