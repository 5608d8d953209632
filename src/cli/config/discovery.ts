/**
 * Where skilldex's config files are: the user config (`--config`, `$SKILLDEX_CONFIG`, else the XDG
 * config folder), the nearest project config at or above the current folder (never the home folder
 * or above it, never past a repository root), the project folder it belongs to, and
 * loadConfigLayers, which reads both and applies the project rules (or the user's trust).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { ownedByAnotherUser, projectAncestors, xdgBaseDir } from '../../fsx/index.js';
import { readConfig, readConfigFile } from './parse.js';
import { applyProjectRules, isTrusted } from './project-rules.js';
import type { ConfigLayers } from './shape.js';

/** The user config path: `--config`, else `$SKILLDEX_CONFIG`, else the XDG config dir. */
export function userConfigPath(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  const given = flag || env['SKILLDEX_CONFIG'];
  if (given) return path.resolve(cwd, given);
  return path.join(
    xdgBaseDir('XDG_CONFIG_HOME', env, env['HOME'] ?? cwd),
    'skilldex',
    'config.toml',
  );
}

/**
 * The nearest project config at or above `cwd`: `.skilldex/config.toml`, then `skilldex.toml`. The
 * walk never reads the home folder or anything above it (a file there is no project's), and ends at
 * the first folder holding `.git` (a repository root) or at the file-system root.
 */
export function findProjectConfig(cwd: string, home?: string): string | undefined {
  // The walk's rules (home, repository root) are shared with the substrate root: fsx/project-walk.
  for (const dir of projectAncestors(cwd, home)) {
    for (const rel of [path.join('.skilldex', 'config.toml'), 'skilldex.toml']) {
      const p = path.join(dir, rel);
      if (existsSync(p)) return p;
    }
  }
  return undefined;
}

/** The folder a project config belongs to: above `.skilldex/`, or beside `skilldex.toml`. */
export function projectRootOf(configPath: string): string {
  const dir = path.dirname(configPath);
  return path.basename(dir) === '.skilldex' ? path.dirname(dir) : dir;
}

/** Loads the user and project config files. A `--config`/`SKILLDEX_CONFIG` file must exist. */
export function loadConfigLayers(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  uid: number | undefined = process.getuid?.(),
): ConfigLayers {
  const userPath = userConfigPath(flag, env, cwd);
  const named = Boolean(flag || env['SKILLDEX_CONFIG']);
  if (named && !existsSync(userPath)) {
    throw new SkilldexError('FILE_NOT_FOUND', `config file ${userPath} does not exist`, {
      file: userPath,
      option: flag ? '--config' : 'SKILLDEX_CONFIG',
    });
  }
  const home = env['HOME'] ?? cwd;
  const user = existsSync(userPath) ? readConfigFile(userPath, home) : undefined;
  const projectPath = findProjectConfig(cwd, env['HOME']);
  // The user config may itself sit where a project config would be found: read it once.
  if (projectPath === undefined || projectPath === userPath)
    return { userPath, ...(user ? { user } : {}), ignored: [] };
  const projectRoot = projectRootOf(projectPath);
  const read = readConfig(projectPath, home);
  if (ownedByAnotherUser(read.uid, uid)) {
    return {
      userPath,
      ...(user ? { user } : {}),
      projectPath,
      projectRoot,
      ignored: [
        {
          code: 'PROJECT_CONFIG_IGNORED',
          file: projectPath,
          key: '*',
          reason: `the file belongs to another user (uid ${read.uid}); not read`,
        },
      ],
    };
  }
  const trusted = isTrusted(user?.trust_project_config ?? [], projectPath, projectRoot);
  const { kept, ignored } = trusted
    ? { kept: read.config, ignored: [] }
    : applyProjectRules(read.config, projectPath, projectRoot, user);
  return {
    userPath,
    ...(user ? { user } : {}),
    projectPath,
    project: kept,
    projectRoot,
    projectTrusted: trusted,
    ignored,
  };
}
