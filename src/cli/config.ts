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
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import { SkilldexError } from '../errors.js';
import { isPgLocation, resolveCatalogLocation } from '../catalog/location.js';
import {
  isInside,
  ownedByAnotherUser,
  projectAncestors,
  readTextCapped,
  realpathOrUndefined,
  xdgBaseDir,
} from '../fsx/index.js';

// smol-toml is loaded only when a config file is read or written, not at every start-up.
/** The TOML parser, loaded on first use. */
export function toml(): typeof SmolToml {
  return createRequire(import.meta.url)('smol-toml') as typeof SmolToml;
}

/** Largest config file read: 1 MiB (a config is a few lines). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** The settings a config file may hold. Unknown keys are refused with CONFIG_INVALID. */
export interface ConfigFile {
  /**
   * User config only: project folders (or their config files) whose project config is trusted
   * whole, as the user's own. Ignored in a project config.
   */
  readonly trust_project_config?: readonly string[];
  /** The catalog file. */
  readonly catalog?: string;
  /** Ranking policy id new generations are published under. */
  readonly policy?: string;
  /** Record suggestions and fetches in the telemetry file beside the catalog. */
  readonly telemetry?: boolean;
  /**
   * The confidence floor of `search`, `hook` and `mcp`, 0–1 (docs/ranking.md §11; default: the policy's).
   */
  readonly min_confidence?: number;
  /**
   * User config only: days a usage example (a learned prompt) is kept, 1–36500 (default 180;
   * issue 36 P1). Ignored in a project config.
   */
  readonly usage_retention_days?: number;
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

/** A key of a project config that was not applied, and why. */
export interface IgnoredProjectKey {
  /** Always PROJECT_CONFIG_IGNORED. */
  readonly code: 'PROJECT_CONFIG_IGNORED';
  readonly file: string;
  /** The key (`catalog`, `mcp.host`…), or `*` when the whole file was not read. */
  readonly key: string;
  readonly reason: string;
}

/** The config files found for one run, parsed. */
export interface ConfigLayers {
  /** The user config path looked at (whether or not it exists). */
  readonly userPath: string;
  readonly user?: ConfigFile;
  /** The project config found, if any. */
  readonly projectPath?: string;
  /** The project config's keys that may apply (PROJECT_KEY_RULES), all of them when trusted. */
  readonly project?: ConfigFile;
  /** The project folder: the one holding `.skilldex/` or `skilldex.toml`. */
  readonly projectRoot?: string;
  /** True when the user config's `trust_project_config` lists this project. */
  readonly projectTrusted?: boolean;
  /** The project keys that were dropped, with the reason. */
  readonly ignored: readonly IgnoredProjectKey[];
}

/** What a key may do when it comes from a project config. */
export type ProjectRule =
  /** Anything (lint suppressions). */
  | 'any'
  /**
   * Only for a catalog the same project config names inside the project (issue 36 M2): the
   * ranking policy of the user's own catalog is the user's. Dropped when the project names none.
   */
  | 'own-catalog-only'
  /**
   * Only paths inside the project, and only to order the project's own `library.scopes` (issue 36
   * M3): dropped when the same project config sets no `library.scopes`, so a project's skills
   * never win an id collision over the user's scopes.
   */
  | 'own-scopes-only'
  /** Only paths inside the project folder (real paths): nothing outside it is read or served. */
  | 'inside-project'
  /** A SQLite file inside the project folder; never a URL (a URL decides where credentials go). */
  | 'file-inside-project'
  /** Only turn it off; `true` is dropped when the user config turns it off. */
  | 'off-only'
  /**
   * Only raise it: a value below the user config's (or, when the user config sets none, below
   * RAISE_ONLY_FLOOR, the default policy's floor) is dropped.
   */
  | 'raise-only'
  /** Never from a project: bind addresses, the trust list itself. */
  | 'never';

/**
 * The rule of every config key when it comes from a project config (docs/integration.md §7). A test
 * holds this table equal to the keys a config may hold, so no new key can skip the rule.
 */
export const PROJECT_KEY_RULES: Readonly<Record<string, ProjectRule>> = Object.freeze({
  catalog: 'file-inside-project',
  // A project that chose the policy of the user's catalog would republish it (and lower its floor).
  policy: 'own-catalog-only',
  telemetry: 'off-only',
  // A project that lowered the floor would make the prompt hook suggest more of its own skills.
  min_confidence: 'raise-only',
  // How long a person's prompts are kept is the person's choice, never a project's.
  usage_retention_days: 'never',
  'library.scopes': 'inside-project',
  // A project that ordered the user's scopes would shadow a personal skill with its own copy.
  'library.prefer': 'own-scopes-only',
  // Lint suppressions only ever hide findings of a lint run in that project, and are counted; a
  // project's rules never hide a security code (src/lint/suppress.ts, SUPPRESSION_REFUSED).
  'lint.ignore': 'any',
  'mcp.cascade_roots': 'inside-project',
  'mcp.substrate': 'inside-project',
  'mcp.host': 'never',
  trust_project_config: 'never',
});

/** Largest `usage_retention_days`: MAX_USAGE_RETENTION_DAYS of src/catalog/usage-write.ts (not loaded at start-up). */
const MAX_RETENTION_DAYS = 36_500;

/** The floor a project's `min_confidence` must reach when the user config sets none: v4's default. */
export const RAISE_ONLY_FLOOR = 0.6;

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

function isTrusted(list: readonly string[], configPath: string, root: string): boolean {
  const real = (p: string): string => realpathOrUndefined(p) ?? path.resolve(p);
  const mine = new Set([real(configPath), real(root)]);
  return list.some((p) => mine.has(real(p)));
}

/**
 * The keys of a project config that PROJECT_KEY_RULES lets apply, and the ones it drops with
 * their reason. Paths are compared by real path (a link inside the project that leads out of it
 * counts as outside).
 */
export function applyProjectRules(
  config: ConfigFile,
  file: string,
  root: string,
  user: ConfigFile | undefined,
): { kept: ConfigFile; ignored: IgnoredProjectKey[] } {
  const ignored: IgnoredProjectKey[] = [];
  const drop = (key: string, reason: string): void => {
    ignored.push({ code: 'PROJECT_CONFIG_IGNORED', file, key, reason });
  };
  const inside = (p: string): boolean => isInsideReal(root, p);
  const kept: { -readonly [K in keyof ConfigFile]: ConfigFile[K] } = {};
  if (config.trust_project_config !== undefined)
    drop('trust_project_config', 'only the user config may say which projects to trust');
  if (config.catalog !== undefined) {
    if (isPgLocation(config.catalog))
      drop('catalog', 'a project config may not choose a database URL (where credentials go)');
    else if (!inside(config.catalog))
      drop('catalog', `${config.catalog} is outside the project folder ${root}`);
    else kept.catalog = config.catalog;
  }
  if (config.policy !== undefined) {
    if (kept.catalog === undefined)
      drop(
        'policy',
        "a project config may choose the ranking policy only of a catalog it names inside the project; the user's catalog keeps its own",
      );
    else kept.policy = config.policy;
  }
  if (config.telemetry !== undefined) {
    if (config.telemetry && user?.telemetry === false)
      drop(
        'telemetry',
        'a project config may not turn telemetry on when the user config turns it off',
      );
    else kept.telemetry = config.telemetry;
  }
  if (config.min_confidence !== undefined) {
    const least = user?.min_confidence ?? RAISE_ONLY_FLOOR;
    if (config.min_confidence < least)
      drop(
        'min_confidence',
        `a project config may only raise the confidence floor (to ${least} or more)`,
      );
    else kept.min_confidence = config.min_confidence;
  }
  if (config.usage_retention_days !== undefined)
    drop('usage_retention_days', 'only the user config may say how long learned prompts are kept');
  const paths = (key: string, list: readonly string[] | undefined): boolean => {
    const out = list?.find((p) => !inside(p));
    if (out !== undefined) drop(key, `${out} is outside the project folder ${root}`);
    return out === undefined;
  };
  const library: {
    -readonly [K in keyof NonNullable<ConfigFile['library']>]: NonNullable<
      ConfigFile['library']
    >[K];
  } = {};
  if (config.library?.scopes !== undefined && paths('library.scopes', config.library.scopes))
    library.scopes = config.library.scopes;
  if (config.library?.prefer !== undefined) {
    if (library.scopes === undefined)
      drop(
        'library.prefer',
        "a project config may only order its own library.scopes, never put its skills ahead of the user's scopes",
      );
    else if (paths('library.prefer', config.library.prefer)) library.prefer = config.library.prefer;
  }
  if (Object.keys(library).length > 0) kept.library = library;
  if (config.lint !== undefined) kept.lint = config.lint;
  if (config.mcp !== undefined) {
    const mcp: {
      -readonly [K in keyof NonNullable<ConfigFile['mcp']>]: NonNullable<ConfigFile['mcp']>[K];
    } = {};
    if (
      config.mcp.cascade_roots !== undefined &&
      paths('mcp.cascade_roots', config.mcp.cascade_roots)
    )
      mcp.cascade_roots = config.mcp.cascade_roots;
    if (config.mcp.substrate !== undefined && paths('mcp.substrate', [config.mcp.substrate]))
      mcp.substrate = config.mcp.substrate;
    if (config.mcp.host !== undefined)
      drop('mcp.host', 'a project config may not choose the address a server binds');
    if (Object.keys(mcp).length > 0) kept.mcp = mcp;
  }
  return { kept, ignored };
}

/** Inside by real path: the path's own when it exists, else its nearest existing ancestor's. */
export function isInsideReal(root: string, p: string): boolean {
  const realRoot = realpathOrUndefined(root) ?? root;
  let probe = path.resolve(p);
  let rest = '';
  for (;;) {
    const real = realpathOrUndefined(probe);
    if (real !== undefined) return isInside(realRoot, path.join(real, rest));
    const up = path.dirname(probe);
    if (up === probe) return isInside(realRoot, path.resolve(p));
    rest = path.join(path.basename(probe), rest);
    probe = up;
  }
}

/** Reads and validates one config file; paths come back absolute. */
export function readConfigFile(file: string, home: string): ConfigFile {
  return readConfig(file, home).config;
}

// One config file, read once as a regular file under the size cap, with its owner.
function readConfig(file: string, home: string): { config: ConfigFile; uid: number } {
  const r = readTextCapped(file, { maxBytes: MAX_CONFIG_BYTES, label: file });
  if (!r.ok) {
    const code = r.problem.code;
    if (code === 'UNREADABLE' && /ENOENT/.test(r.problem.message))
      throw new SkilldexError('FILE_NOT_FOUND', `config file ${file} does not exist`, { file });
    throw new SkilldexError(
      code === 'UNREADABLE' ? 'FILE_NOT_FOUND' : 'CONFIG_INVALID',
      `cannot read config file ${file}: ${r.problem.message}`,
      { file, problem: code },
    );
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(r.text) : toml().parse(r.text);
  } catch (err) {
    throw new SkilldexError(
      'CONFIG_INVALID',
      `${file}: ${(err as Error).message.split('\n')[0]}`,
      { file },
      { cause: err },
    );
  }
  return { config: validateConfig(raw, file, home), uid: r.uid };
}

const TOP_KEYS = [
  'catalog',
  'policy',
  'telemetry',
  'min_confidence',
  'usage_retention_days',
  'library',
  'mcp',
  'lint',
  'trust_project_config',
];
const LIBRARY_KEYS = ['scopes', 'prefer'];
const MCP_KEYS = ['cascade_roots', 'substrate', 'host'];
const LINT_KEYS = ['ignore'];
const LINT_IGNORE_KEYS = ['code', 'skills', 'reason'];

/** Every setting key a config file may hold (tables spelled `library.scopes`). */
export const CONFIG_KEYS: readonly string[] = Object.freeze([
  ...TOP_KEYS.filter((k) => k !== 'library' && k !== 'mcp' && k !== 'lint'),
  ...LIBRARY_KEYS.map((k) => `library.${k}`),
  ...MCP_KEYS.map((k) => `mcp.${k}`),
  ...LINT_KEYS.map((k) => `lint.${k}`),
]);

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
  if (top['trust_project_config'] !== undefined)
    out.trust_project_config = paths(top['trust_project_config'], 'trust_project_config');
  if (top['telemetry'] !== undefined) {
    if (typeof top['telemetry'] !== 'boolean') throw bad('telemetry', 'must be true or false');
    out.telemetry = top['telemetry'];
  }
  if (top['min_confidence'] !== undefined) {
    const v = top['min_confidence'];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      throw bad('min_confidence', 'must be a number from 0 to 1');
    out.min_confidence = v;
  }
  if (top['usage_retention_days'] !== undefined) {
    const v = top['usage_retention_days'];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_RETENTION_DAYS)
      throw bad(
        'usage_retention_days',
        `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}`,
      );
    out.usage_retention_days = v;
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
