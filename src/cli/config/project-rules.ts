/**
 * What a project config may do (docs/integration.md §7): the rule of every key when it comes from a
 * project (PROJECT_KEY_RULES), the floor a project's `min_confidence` must reach, whether the user
 * config trusts a project whole, and applyProjectRules, which keeps the keys a rule lets through
 * and drops the others with a coded PROJECT_CONFIG_IGNORED reason. Paths are compared by real path.
 */
import path from 'node:path';
import { isPgLocation } from '../../catalog/store/location.js';
import { isInside, realpathOrUndefined } from '../../fsx/index.js';
import type { ConfigFile, IgnoredProjectKey } from './shape.js';

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
  // Whether a process of the user's stays running is the user's choice, never a project's.
  hook_server: 'never',
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

/** The floor a project's `min_confidence` must reach when the user config sets none: the default policy's (v4's and v5's, 0.60). */
export const RAISE_ONLY_FLOOR = 0.6;

/** Whether the user config's `trust_project_config` list names this project (its config file or folder). */
export function isTrusted(list: readonly string[], configPath: string, root: string): boolean {
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
  if (config.hook_server !== undefined)
    drop('hook_server', 'only the user config may say whether the hook server runs');
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
