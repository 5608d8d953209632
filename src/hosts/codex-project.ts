/**
 * What a project's own Codex configuration says about skilldex (issue 35): the `.codex/config.toml`
 * (and `.codex/hooks.json`) layers between the project root and the current folder, read as data
 * for `skilldex doctor` — never applied, never run. It is a repository's file, untrusted input
 * (docs/integration.md §7): its commands are reported (sanitised), not executed.
 *
 * What Codex does with them (developers.openai.com/codex/config-basic, "Configuration precedence"):
 * project config files `.codex/config.toml`, "ordered from the project root down to your current
 * working directory (closest wins; trusted projects only)", sit above the user's
 * `~/.codex/config.toml` and below profiles and `--config` flags; the project root is the nearest
 * folder holding `.git` (the default project root marker). A project is trusted by
 * `[projects."<path>"] trust_level = "trusted"` in the user's config, for the current folder or
 * its git root (openai/codex config loader, resolve_root_git_project_for_trust). Hooks
 * (developers.openai.com/codex/hooks, "Where Codex looks for hooks"): `hooks.json` and inline
 * `[hooks]` tables next to every active config layer, `<repo>/.codex/hooks.json` and
 * `<repo>/.codex/config.toml` included; "matching hooks from multiple files all run" (a higher
 * layer does not replace a lower one's); project-local hooks load only when the project's `.codex/`
 * layer is trusted; `[features] hooks = false` turns hooks off. MCP servers are
 * `[mcp_servers.<name>]` tables (developers.openai.com/codex/mcp), `enabled = false` turning one
 * off.
 *
 * Reads are capped; a file that does not parse is a problem in the result, never an exception.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { codexConfigFile } from './listing-codex.js';
import { asObject, readSettingsFile, type HostFolders } from './settings-file.js';
import { skilldexMcpEntry } from './mcp-registration.js';

/** The skilldex MCP server a project layer declares. */
export interface CodexProjectMcp {
  /** The `[mcp_servers.<name>]` it is under. */
  readonly name: string;
  readonly command: string | null;
  readonly args: readonly string[];
  /** False when the layer sets `enabled = false`. */
  readonly enabled: boolean;
}

/** One project layer: a folder's `.codex/config.toml` and `.codex/hooks.json`. */
export interface CodexProjectLayer {
  /** The folder holding `.codex`. */
  readonly dir: string;
  /** The files of this layer that exist. */
  readonly files: readonly string[];
  /** skilldex's MCP server in this layer's config.toml, if it declares one. */
  readonly mcp?: CodexProjectMcp;
  /** The `UserPromptSubmit` hook commands of this layer (config.toml `[hooks]` and hooks.json). */
  readonly promptHooks: readonly { readonly file: string; readonly command: string }[];
  /** `[features] hooks` (or the older `codex_hooks`) of this layer's config.toml, when set. */
  readonly hooksFeature?: boolean;
}

/** A project's Codex layers and whether Codex applies them. */
export interface CodexProjectFacts {
  /** The project root (nearest `.git` above the current folder, else the current folder). */
  readonly root: string;
  /**
   * The user's trust decision for this project (`[projects."<cwd or root>"] trust_level`):
   * `trusted` (the layers apply), `untrusted`, or `unknown` (none recorded; Codex asks first).
   */
  readonly trust: 'trusted' | 'untrusted' | 'unknown';
  /** The layers that exist, from the root down to the current folder (the last wins). */
  readonly layers: readonly CodexProjectLayer[];
  /** Files that could not be read or parsed. */
  readonly problems: readonly string[];
}

// The nearest folder at or above `cwd` holding `.git`, else `cwd`.
function gitRoot(cwd: string): string {
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return path.resolve(cwd);
  }
}

// The folders from `root` down to `cwd`, root first.
function rootDown(root: string, cwd: string): string[] {
  const rel = path.relative(root, path.resolve(cwd));
  const out = [root];
  let dir = root;
  for (const seg of rel === '' || rel.startsWith('..') ? [] : rel.split(path.sep)) {
    dir = path.join(dir, seg);
    out.push(dir);
  }
  return out;
}

// The commands of `hooks.UserPromptSubmit` groups (`[{matcher?, hooks: [{type, command}]}]`).
function promptHookCommands(hooks: unknown): string[] {
  const groups = asObject(hooks)?.['UserPromptSubmit'];
  if (!Array.isArray(groups)) return [];
  const out: string[] = [];
  for (const g of groups) {
    const list = asObject(g)?.['hooks'];
    if (!Array.isArray(list)) continue;
    for (const h of list) {
      const cmd = asObject(h)?.['command'];
      if (typeof cmd === 'string') out.push(cmd);
    }
  }
  return out;
}

/** Reads the Codex project layers around `cwd` (see the file header); never throws. */
export function codexProjectFacts(o: HostFolders): CodexProjectFacts {
  const problems: string[] = [];
  const toml = (file: string): Record<string, unknown> | undefined =>
    readSettingsFile(file, 'toml', problems);

  const cwd = path.resolve(o.cwd);
  const root = gitRoot(cwd);
  const userConfig = codexConfigFile(o);
  const projects = existsSync(userConfig) ? asObject(toml(userConfig)?.['projects']) : undefined;
  const levelOf = (dir: string): unknown => asObject(projects?.[dir])?.['trust_level'];
  const level = levelOf(cwd) ?? levelOf(root);
  const trust = level === 'trusted' ? 'trusted' : level === 'untrusted' ? 'untrusted' : 'unknown';

  const layers: CodexProjectLayer[] = [];
  for (const dir of rootDown(root, cwd)) {
    // The user's own Codex home is not a project layer, even when the home folder is the project.
    if (path.join(dir, '.codex') === path.dirname(userConfig)) continue;
    const configFile = path.join(dir, '.codex', 'config.toml');
    const hooksFile = path.join(dir, '.codex', 'hooks.json');
    const files = [configFile, hooksFile].filter((f) => existsSync(f));
    if (files.length === 0) continue;
    const config = existsSync(configFile) ? toml(configFile) : undefined;
    const hooksJson = existsSync(hooksFile)
      ? readSettingsFile(hooksFile, 'json', problems)
      : undefined;
    const entry = skilldexMcpEntry(config?.['mcp_servers']);
    const features = asObject(config?.['features']);
    const feature = features?.['hooks'] ?? features?.['codex_hooks'];
    layers.push({
      dir,
      files,
      ...(entry
        ? {
            mcp: {
              name: entry[0],
              command: typeof entry[1]['command'] === 'string' ? entry[1]['command'] : null,
              args: Array.isArray(entry[1]['args'])
                ? entry[1]['args'].filter((x): x is string => typeof x === 'string')
                : [],
              enabled: entry[1]['enabled'] !== false,
            },
          }
        : {}),
      promptHooks: [
        ...promptHookCommands(config?.['hooks']).map((command) => ({ file: configFile, command })),
        ...promptHookCommands(hooksJson?.['hooks']).map((command) => ({
          file: hooksFile,
          command,
        })),
      ],
      ...(typeof feature === 'boolean' ? { hooksFeature: feature } : {}),
    });
  }
  return { root, trust, layers, problems };
}
