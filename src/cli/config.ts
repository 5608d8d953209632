/**
 * The skilldex config file (issue #12): where it lives, how it parses, and the effective settings
 * with the source of each. Layers, strongest first: command-line flags, environment variables, the
 * project config, the user config, built-in defaults. Reads only the config files it names; never
 * writes (`skilldex init` writes the user config through `renderConfig`).
 *
 * User config: `--config FILE`, else `$SKILLDEX_CONFIG`, else `$XDG_CONFIG_HOME/skilldex/config.toml`
 * (default `~/.config/skilldex/config.toml`). Project config: the nearest `.skilldex/config.toml` or
 * `skilldex.toml` at or above the current folder, the walk stopping below the home folder and at
 * the first repository root (a folder holding `.git`). TOML is parsed by smol-toml; a file ending in
 * `.json` is parsed as JSON. Relative paths inside a file are relative to that file's folder, and a
 * leading `~/` is the home folder. Config files are read as regular files of at most
 * MAX_CONFIG_BYTES (a FIFO, a device or a larger file is CONFIG_INVALID).
 *
 * A project config is untrusted input (docs/integration.md §7): a cloned repository must not
 * choose where credentials go, turn recording on, widen what is read or served, or choose a bind
 * address. PROJECT_KEY_RULES says what each key may do from a project; a key that breaks its rule
 * is dropped with a coded warning (PROJECT_CONFIG_IGNORED) naming the file and the key, unless the
 * user config lists the project in `trust_project_config`. A project config owned by another user
 * is not read at all.
 *
 * This file is the module's entry: it re-exports what the rest of the CLI uses and holds `pick`,
 * which chooses among the layers. The pieces live in config/: the shapes (shape.ts), reading,
 * checking and writing one file (parse.ts), finding and loading the files of a run (discovery.ts),
 * and what a project config may do (project-rules.ts).
 */
import type { ConfigFile, ConfigLayers, Setting } from './config/shape.js';

export {
  findProjectConfig,
  loadConfigLayers,
  projectRootOf,
  userConfigPath,
} from './config/discovery.js';
export {
  CONFIG_KEYS,
  MAX_CONFIG_BYTES,
  readConfigFile,
  renderConfig,
  toml,
  validateConfig,
} from './config/parse.js';
export {
  applyProjectRules,
  isInsideReal,
  PROJECT_KEY_RULES,
  RAISE_ONLY_FLOOR,
  type ProjectRule,
} from './config/project-rules.js';
export type {
  ConfigFile,
  ConfigLayers,
  ConfigSource,
  IgnoredProjectKey,
  LintIgnoreRule,
  Setting,
} from './config/shape.js';

/**
 * Picks the strongest of the layers for one setting: flag, then environment, then project config,
 * then user config, then the default.
 */
export function pick<T>(
  layers: ConfigLayers,
  flag: T | undefined,
  env: { name: string; value: T | undefined } | undefined,
  fromFile: (c: ConfigFile) => T | undefined,
  fallback: Setting<T>,
): Setting<T> {
  if (flag !== undefined) return { value: flag, source: 'flag' };
  if (env !== undefined && env.value !== undefined)
    return { value: env.value, source: `env ${env.name}` };
  const fromProject = layers.project ? fromFile(layers.project) : undefined;
  if (fromProject !== undefined && layers.projectPath)
    return { value: fromProject, source: `project ${layers.projectPath}` };
  const fromUser = layers.user ? fromFile(layers.user) : undefined;
  if (fromUser !== undefined) return { value: fromUser, source: `user ${layers.userPath}` };
  return fallback;
}
