/**
 * The skilldex config file (issue #12): where it lives, how it parses, and the effective settings
 * with the source of each. Layers, strongest first: command-line flags, environment variables, the
 * project config, the user config, built-in defaults. Reads only the config files it names; never
 * writes (`skilldex init` writes the user config through `renderConfig`).
 *
 * User config: `--config FILE`, else `$SKILLDEX_CONFIG`, else `$XDG_CONFIG_HOME/skilldex/config.toml`
 * (default `~/.config/skilldex/config.toml`). Project config: the nearest `.skilldex/config.toml` or
 * `skilldex.toml` at or above the current folder. TOML is parsed by smol-toml; a file ending in
 * `.json` is parsed as JSON. Relative paths inside a file are relative to that file's folder, and a
 * leading `~/` is the home folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import { SkilldexError } from '../errors.js';
import { resolveCatalogLocation } from '../catalog/location.js';

// smol-toml is loaded only when a config file is read or written, not at every start-up.
/** The TOML parser, loaded on first use. */
export function toml(): typeof SmolToml {
  return createRequire(import.meta.url)('smol-toml') as typeof SmolToml;
}

/** The settings a config file may hold. Unknown keys are refused with CONFIG_INVALID. */
export interface ConfigFile {
  /** The catalog file. */
  readonly catalog?: string;
  /** Ranking policy id new generations are published under. */
  readonly policy?: string;
  /** Record suggestions and fetches in the telemetry file beside the catalog. */
  readonly telemetry?: boolean;
  readonly library?: {
    /** The skill folders `index` reads (replaces the default Claude Code scopes). */
    readonly scopes?: readonly string[];
    /** Folders whose skills win when two files define one skill id (`index --prefer`). */
    readonly prefer?: readonly string[];
  };
  readonly mcp?: {
    /** skill.index cascade roots the MCP server's skill_index_crawl may read. */
    readonly cascade_roots?: readonly string[];
    /** Substrate root for substrate_read. */
    readonly substrate?: string;
    /** Address the Streamable HTTP server binds. */
    readonly host?: string;
  };
  readonly lint?: {
    /**
     * Findings `skilldex lint` leaves out, each counted in its summary: a lint code, skill-id globs
     * (none: every skill) and a reason. Allowed in a project config (it only hides findings).
     */
    readonly ignore?: readonly LintIgnoreRule[];
  };
}

/** One `[[lint.ignore]]` entry of a config file. */
export interface LintIgnoreRule {
  readonly code: string;
  readonly skills?: readonly string[];
  readonly reason?: string;
}

/** Where a setting's value came from. */
export type ConfigSource =
  | 'flag'
  | `env ${string}`
  | `project ${string}`
  | `user ${string}`
  | 'default'
  | `catalog ${string}`;

/** One effective setting. */
export interface Setting<T> {
  readonly value: T;
  readonly source: ConfigSource;
}

/** The config files found for one run, parsed. */
export interface ConfigLayers {
  /** The user config path looked at (whether or not it exists). */
  readonly userPath: string;
  readonly user?: ConfigFile;
  /** The project config found, if any. */
  readonly projectPath?: string;
  readonly project?: ConfigFile;
}

/** The user config path: `--config`, else `$SKILLDEX_CONFIG`, else the XDG config dir. */
export function userConfigPath(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  if (flag) return path.resolve(cwd, flag);
  if (env['SKILLDEX_CONFIG']) return path.resolve(cwd, env['SKILLDEX_CONFIG']);
  const base = env['XDG_CONFIG_HOME'] || path.join(env['HOME'] ?? cwd, '.config');
  return path.join(base, 'skilldex', 'config.toml');
}

/** The nearest project config at or above `cwd`: `.skilldex/config.toml`, then `skilldex.toml`. */
export function findProjectConfig(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const rel of [path.join('.skilldex', 'config.toml'), 'skilldex.toml']) {
      const p = path.join(dir, rel);
      if (existsSync(p)) return p;
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Loads the user and project config files. A `--config`/`SKILLDEX_CONFIG` file must exist. */
export function loadConfigLayers(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
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
  const projectPath = findProjectConfig(cwd);
  // The user config may itself sit where a project config would be found: read it once.
  const project =
    projectPath !== undefined && projectPath !== userPath
      ? readConfigFile(projectPath, home)
      : undefined;
  return {
    userPath,
    ...(user ? { user } : {}),
    ...(project && projectPath ? { projectPath, project } : {}),
  };
}

/** Reads and validates one config file; paths come back absolute. */
export function readConfigFile(file: string, home: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SkilldexError(
      'FILE_NOT_FOUND',
      `cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file },
      { cause: err },
    );
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : toml().parse(text);
  } catch (err) {
    throw new SkilldexError(
      'CONFIG_INVALID',
      `${file}: ${(err as Error).message.split('\n')[0]}`,
      { file },
      { cause: err },
    );
  }
  return validateConfig(raw, file, home);
}

const TOP_KEYS = ['catalog', 'policy', 'telemetry', 'library', 'mcp', 'lint'];
const LIBRARY_KEYS = ['scopes', 'prefer'];
const MCP_KEYS = ['cascade_roots', 'substrate', 'host'];
const LINT_KEYS = ['ignore'];
const LINT_IGNORE_KEYS = ['code', 'skills', 'reason'];

/** Checks the shape of a parsed config and resolves its paths against the file's folder. */
export function validateConfig(raw: unknown, file: string, home: string): ConfigFile {
  const bad = (key: string, what: string): SkilldexError =>
    new SkilldexError('CONFIG_INVALID', `${file}: ${key} ${what}`, { file, key });
  const table = (v: unknown, key: string, keys: readonly string[]): Record<string, unknown> => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(key, 'must be a table');
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!keys.includes(k))
        throw bad(key === '' ? k : `${key}.${k}`, `is not a known key (known: ${keys.join(', ')})`);
    return o;
  };
  const dir = path.dirname(file);
  const resolvePath = (p: string): string =>
    p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(dir, p);
  const str = (v: unknown, key: string): string => {
    if (typeof v !== 'string' || v.length === 0) throw bad(key, 'must be a non-empty string');
    return v;
  };
  const paths = (v: unknown, key: string): string[] => {
    if (!Array.isArray(v)) throw bad(key, 'must be an array of paths');
    return v.map((e, i) => resolvePath(str(e, `${key}[${i}]`)));
  };
  const top = table(raw, '', TOP_KEYS);
  const out: { -readonly [K in keyof ConfigFile]: ConfigFile[K] } = {};
  if (top['catalog'] !== undefined) {
    const c = str(top['catalog'], 'catalog');
    // A postgres:// URL keeps its text, its password masked; a path is resolved like every path here.
    try {
      out.catalog = resolveCatalogLocation(c.startsWith('~') ? resolvePath(c) : c, dir);
    } catch {
      throw bad('catalog', 'must be a file path or a postgres:// URL (it starts like another URL)');
    }
  }
  if (top['policy'] !== undefined) out.policy = str(top['policy'], 'policy');
  if (top['telemetry'] !== undefined) {
    if (typeof top['telemetry'] !== 'boolean') throw bad('telemetry', 'must be true or false');
    out.telemetry = top['telemetry'];
  }
  if (top['library'] !== undefined) {
    const lib = table(top['library'], 'library', LIBRARY_KEYS);
    out.library = {
      ...(lib['scopes'] !== undefined ? { scopes: paths(lib['scopes'], 'library.scopes') } : {}),
      ...(lib['prefer'] !== undefined ? { prefer: paths(lib['prefer'], 'library.prefer') } : {}),
    };
  }
  if (top['mcp'] !== undefined) {
    const m = table(top['mcp'], 'mcp', MCP_KEYS);
    out.mcp = {
      ...(m['cascade_roots'] !== undefined
        ? { cascade_roots: paths(m['cascade_roots'], 'mcp.cascade_roots') }
        : {}),
      ...(m['substrate'] !== undefined
        ? { substrate: resolvePath(str(m['substrate'], 'mcp.substrate')) }
        : {}),
      ...(m['host'] !== undefined ? { host: str(m['host'], 'mcp.host') } : {}),
    };
  }
  if (top['lint'] !== undefined)
    out.lint = lintTable(table(top['lint'], 'lint', LINT_KEYS), table, str, bad);
  return out;
}

// The [lint] table: `ignore` is an array of { code, skills?, reason? } (skills a glob or a list).
function lintTable(
  lint: Record<string, unknown>,
  table: (v: unknown, key: string, keys: readonly string[]) => Record<string, unknown>,
  str: (v: unknown, key: string) => string,
  bad: (key: string, what: string) => SkilldexError,
): NonNullable<ConfigFile['lint']> {
  if (lint['ignore'] === undefined) return {};
  if (!Array.isArray(lint['ignore'])) throw bad('lint.ignore', 'must be an array of tables');
  const ignore = lint['ignore'].map((e, i): LintIgnoreRule => {
    const key = `lint.ignore[${i}]`;
    const r = table(e, key, LINT_IGNORE_KEYS);
    const skills = r['skills'];
    let list: string[] | undefined;
    if (typeof skills === 'string') list = [str(skills, `${key}.skills`)];
    else if (Array.isArray(skills)) list = skills.map((g, j) => str(g, `${key}.skills[${j}]`));
    else if (skills !== undefined)
      throw bad(`${key}.skills`, 'must be a glob or an array of globs');
    return {
      code: str(r['code'], `${key}.code`),
      ...(list !== undefined ? { skills: list } : {}),
      ...(r['reason'] !== undefined ? { reason: str(r['reason'], `${key}.reason`) } : {}),
    };
  });
  return { ignore };
}

/** Renders a config as TOML (what `skilldex init` writes). */
export function renderConfig(config: ConfigFile): string {
  const header =
    '# skilldex configuration (written by skilldex init; see skilldex config --help).\n';
  return header + toml().stringify(config as Record<string, unknown>) + '\n';
}

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
