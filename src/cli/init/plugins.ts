/**
 * The skills Claude Code loads from installed plugins (issue 35), which init indexes in place
 * beside the personal folders. Claude Code keeps installed plugins below `~/.claude/plugins`
 * (downloaded copies in `~/.claude/plugins/cache/<marketplace>/<plugin>/<version>`), lists them in
 * `~/.claude/plugins/installed_plugins.json` (each `name@marketplace` with its `installPath`), turns
 * one off with `enabledPlugins: {"name@marketplace": false}` in settings.json, loads a plugin's
 * skills from its `skills/<name>/SKILL.md` and names them `<plugin>:<skill>`
 * (code.claude.com/docs/en/plugins/overview: a plugin is a directory of skills, agents, hooks…;
 * docs.claude.com/en/docs/agent-sdk/plugins: plugin components are namespaced
 * `plugin-name:command-name`, and an installed plugin's path is its installPath; the cache layout
 * and the registry file as Claude Code's plugin loader, utils/plugins/pluginLoader.ts, uses them).
 * Which plugins count is src/skills' resolvePluginScopes (the same rule `skilldex scan` uses: the
 * registry's enabled plugins, install paths only inside ~/.claude/plugins); this file only keeps the
 * folders that hold a skill and counts them. Reads; writes nothing.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { resolvePluginScopes } from '../../skills/index.js';
import type { Client } from './clients.js';
import { exists } from './files.js';

/** One plugin's skills folder that holds at least one skill. */
export interface PluginSkills {
  /** The plugin's name: its skills are `<plugin>:<skill>`. */
  readonly plugin: string;
  /** Its `skills` folder. */
  readonly path: string;
  /** The skill folders in it (each with a SKILL.md), sorted. */
  readonly skills: readonly string[];
}

// The folders of `dir` holding a SKILL.md, sorted; none when it cannot be read.
function skillFolders(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .filter((n) => {
        try {
          return statSync(path.join(dir, n)).isDirectory() && exists(path.join(dir, n, 'SKILL.md'));
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/**
 * The enabled plugins' skill folders `client` loads, each with its skills: Claude Code's only (no
 * other client loads Claude Code plugins); a folder named twice (a plugin's plain folder and its
 * installPath) once.
 */
export function pluginSkillFolders(
  client: Client,
  home: string,
  /** src/skills' resolvePluginScopes, loaded by init's action (no skill code at start-up). */
  resolve: typeof resolvePluginScopes,
): PluginSkills[] {
  if (client !== 'claude-code') return [];
  const seen = new Set<string>();
  const out: PluginSkills[] = [];
  for (const s of resolve(home, []).scopes) {
    const p = path.resolve(s.path);
    if (seen.has(p)) continue;
    seen.add(p);
    const skills = skillFolders(p);
    if (skills.length > 0) out.push({ plugin: s.plugin, path: p, skills });
  }
  return out;
}
