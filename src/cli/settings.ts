/**
 * The effective settings of one CLI run (issue #12): each value with where it came from, resolved
 * flags > environment > project config > user config > defaults (config.ts reads the files). The
 * library scopes fall back to the scopes the catalog remembers from its last index, then to the
 * default Claude Code scopes. `skilldex config` prints exactly this object.
 */
import path from 'node:path';
import {
  DEFAULT_USAGE_RETENTION_DAYS,
  catalogLocation,
  isPgLocation,
  resolveCatalogLocation,
  resolveCatalogPath,
} from '../catalog/index.js';
import { readCatalogScopes, type RememberedScopes } from '../router/index.js';
import {
  isInsideReal,
  pick,
  type ConfigLayers,
  type IgnoredProjectKey,
  type Setting,
} from './config.js';

/** Every setting a command may read. `undefined` values mean "not set: the command's default". */
export interface Settings {
  readonly catalog: Setting<string>;
  readonly policy: Setting<string | undefined>;
  readonly telemetry: Setting<boolean>;
  /** The confidence floor of `search`, `hook` and `mcp` (undefined: the policy's). */
  readonly min_confidence: Setting<number | undefined>;
  /** Days a usage example is kept (user config only; default DEFAULT_USAGE_RETENTION_DAYS). */
  readonly usage_retention_days: Setting<number>;
  /** Whether the prompt hook uses (and starts) the hook server (user config only; default true). */
  readonly hook_server: Setting<boolean>;
  readonly 'library.scopes': Setting<readonly string[] | undefined>;
  /** Folders whose skills win an id collision (`index --prefer` overrides). */
  readonly 'library.prefer': Setting<readonly string[] | undefined>;
  readonly 'mcp.cascade_roots': Setting<readonly string[]>;
  readonly 'mcp.substrate': Setting<string | undefined>;
  readonly 'mcp.host': Setting<string>;
}

/** Flags a command passes in (only the ones it has). */
export interface SettingFlags {
  readonly catalog?: string | undefined;
  readonly policy?: string | undefined;
  /** `false` only when `--no-telemetry` was given. */
  readonly telemetry?: boolean | undefined;
  readonly minConfidence?: number | undefined;
  readonly scopes?: readonly string[] | undefined;
  readonly cascadeRoots?: readonly string[] | undefined;
  readonly substrate?: string | undefined;
  readonly host?: string | undefined;
}

/** The default MCP HTTP bind address: loopback only. */
export const DEFAULT_MCP_HOST = '127.0.0.1';

/** Resolves every setting. Reads the catalog's remembered scopes only when `withCatalogScopes`. */
export function resolveSettings(
  layers: ConfigLayers,
  flags: SettingFlags,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  withCatalogScopes = false,
): Settings {
  return resolveSettingsNoting(layers, flags, env, cwd, withCatalogScopes).settings;
}

/** The layers without the project config: what applies when a project key may not. */
function userLayers(layers: ConfigLayers): ConfigLayers {
  return { userPath: layers.userPath, ...(layers.user ? { user: layers.user } : {}), ignored: [] };
}

/** Whether a setting came from an untrusted project config. */
function fromUntrustedProject(layers: ConfigLayers, s: Setting<unknown>): boolean {
  return layers.projectTrusted !== true && s.source.startsWith('project ');
}

/**
 * The scopes `catalog` remembers, when they may be used. A catalog an untrusted project config
 * names may come with the repository (issue 36 L3): its remembered scopes are used only when every
 * folder they name (scopes, prefer, project) is inside the project and their home is this run's
 * home; otherwise they are not re-read (a PROJECT_CONFIG_IGNORED note says so) and the defaults
 * apply, so indexing in a repository never copies an outside folder's texts into its catalog.
 */
export function rememberedScopesOf(
  layers: ConfigLayers,
  catalog: Setting<string>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { remembered: RememberedScopes | undefined; ignored?: IgnoredProjectKey } {
  const remembered = readCatalogScopes(catalog.value);
  if (remembered === undefined || !fromUntrustedProject(layers, catalog)) return { remembered };
  const root = layers.projectRoot ?? cwd;
  const folders = [
    ...(remembered.scopes ?? []),
    ...(remembered.prefer ?? []),
    ...(remembered.project !== undefined ? [remembered.project] : []),
  ];
  const outside = folders.find((f) => !isInsideReal(root, f));
  const home = path.resolve(cwd, env['HOME'] ?? '.');
  const otherHome = remembered.home !== undefined && path.resolve(remembered.home) !== home;
  if (outside === undefined && !otherHome) return { remembered };
  return {
    remembered: undefined,
    ignored: {
      code: 'PROJECT_CONFIG_IGNORED',
      file: layers.projectPath ?? catalog.value,
      key: 'catalog (remembered scopes)',
      reason: `the project's catalog ${catalog.value} remembers ${outside !== undefined ? `${outside}, outside the project folder ${root}` : `another home folder (${remembered.home ?? ''})`}; its remembered scopes are not re-read, the default scopes apply`,
    },
  };
}

/** The environment, as every function here receives it. */
type Env = Readonly<Record<string, string | undefined>>;

/** The catalog setting: a file path made absolute, or a PostgreSQL URL with its password masked. */
function pickCatalog(
  layers: ConfigLayers,
  flags: SettingFlags,
  env: Env,
  cwd: string,
): Setting<string> {
  const loc = (p: string): string => resolveCatalogLocation(p, cwd);
  const envCatalog = env['SKILLDEX_CATALOG'] ? loc(env['SKILLDEX_CATALOG']) : undefined;
  return pick(
    layers,
    flags.catalog !== undefined ? loc(flags.catalog) : undefined,
    { name: 'SKILLDEX_CATALOG', value: envCatalog },
    (c) => c.catalog,
    {
      value: resolveCatalogPath(
        undefined,
        { HOME: env['HOME'], XDG_DATA_HOME: env['XDG_DATA_HOME'] },
        cwd,
      ),
      source: 'default',
    },
  );
}

/** The telemetry setting: `--no-telemetry`, then SKILLDEX_TELEMETRY=off|on, then the configs. */
function pickTelemetry(layers: ConfigLayers, flags: SettingFlags, env: Env): Setting<boolean> {
  const telemetryEnv = env['SKILLDEX_TELEMETRY'];
  return pick(
    layers,
    flags.telemetry === false ? false : undefined,
    {
      name: 'SKILLDEX_TELEMETRY',
      value: telemetryEnv === 'off' ? false : telemetryEnv === 'on' ? true : undefined,
    },
    (c) => c.telemetry,
    { value: true, source: 'default' },
  );
}

/** The hook server setting: SKILLDEX_HOOK_SERVER=off|on, then the user config, default on. */
function pickHookServer(layers: ConfigLayers, env: Env): Setting<boolean> {
  const v = env['SKILLDEX_HOOK_SERVER'];
  return pick(
    layers,
    undefined,
    { name: 'SKILLDEX_HOOK_SERVER', value: v === 'off' ? false : v === 'on' ? true : undefined },
    (c) => c.hook_server,
    { value: true, source: 'default' },
  );
}

/** The policy setting, the project's left out (and noted) when the catalog is not the project's. */
function pickPolicy(
  layers: ConfigLayers,
  flags: SettingFlags,
  catalog: Setting<string>,
  ignored: IgnoredProjectKey[],
): Setting<string | undefined> {
  const policy = pick<string | undefined>(layers, flags.policy, undefined, (c) => c.policy, {
    value: undefined,
    source: 'default',
  });
  // A project's policy is for the project's own catalog only (issue 36 M2).
  if (!fromUntrustedProject(layers, policy) || fromUntrustedProject(layers, catalog)) return policy;
  ignored.push({
    code: 'PROJECT_CONFIG_IGNORED',
    file: layers.projectPath ?? '',
    key: 'policy',
    reason: `the catalog is ${catalog.value} (${catalog.source}), not the one the project config names; its policy stays`,
  });
  return pick<string | undefined>(userLayers(layers), undefined, undefined, (c) => c.policy, {
    value: undefined,
    source: 'default',
  });
}

/**
 * The library scopes: `picked` is what the flags and config files set (its source tells whether a
 * project set them), `effective` the setting in force (the catalog's remembered scopes, when asked
 * for and nothing set them).
 */
function pickScopes(
  layers: ConfigLayers,
  flags: SettingFlags,
  catalog: Setting<string>,
  env: Env,
  cwd: string,
  withCatalogScopes: boolean,
  ignored: IgnoredProjectKey[],
): {
  picked: Setting<readonly string[] | undefined>;
  effective: Setting<readonly string[] | undefined>;
} {
  let scopesFallback: Setting<readonly string[] | undefined> = {
    value: undefined,
    source: 'default',
  };
  const scopes = pick<readonly string[] | undefined>(
    layers,
    flags.scopes?.map((p) => path.resolve(cwd, p)),
    undefined,
    (c) => c.library?.scopes,
    scopesFallback,
  );
  if (scopes.source === 'default' && withCatalogScopes) {
    const r = rememberedScopesOf(layers, catalog, env, cwd);
    if (r.ignored !== undefined) ignored.push(r.ignored);
    if (r.remembered?.scopes !== undefined)
      scopesFallback = { value: r.remembered.scopes, source: `catalog ${catalog.value}` };
  }
  return { picked: scopes, effective: scopes.source === 'default' ? scopesFallback : scopes };
}

/** The library.prefer setting, the project's left out (and noted) when the scopes are not its. */
function pickPrefer(
  layers: ConfigLayers,
  scopes: Setting<readonly string[] | undefined>,
  ignored: IgnoredProjectKey[],
): Setting<readonly string[] | undefined> {
  const prefer = pick<readonly string[] | undefined>(
    layers,
    undefined,
    undefined,
    (c) => c.library?.prefer,
    { value: undefined, source: 'default' },
  );
  // A project's preference orders the project's own scopes only, never the user's (issue 36 M3).
  if (!fromUntrustedProject(layers, prefer) || fromUntrustedProject(layers, scopes)) return prefer;
  ignored.push({
    code: 'PROJECT_CONFIG_IGNORED',
    file: layers.projectPath ?? '',
    key: 'library.prefer',
    reason: `the scopes read are not the project config's library.scopes (${scopes.source}); a project may not order them`,
  });
  return pick<readonly string[] | undefined>(
    userLayers(layers),
    undefined,
    undefined,
    (c) => c.library?.prefer,
    { value: undefined, source: 'default' },
  );
}

/** The settings no other setting depends on: min_confidence, usage_retention_days and mcp.*. */
function pickOthers(
  layers: ConfigLayers,
  flags: SettingFlags,
  cwd: string,
): Pick<
  Settings,
  'min_confidence' | 'usage_retention_days' | 'mcp.cascade_roots' | 'mcp.substrate' | 'mcp.host'
> {
  const abs = (p: string): string => path.resolve(cwd, p);
  return {
    min_confidence: pick<number | undefined>(
      layers,
      flags.minConfidence,
      undefined,
      (c) => c.min_confidence,
      { value: undefined, source: 'default' },
    ),
    usage_retention_days: pick<number>(
      layers,
      undefined,
      undefined,
      (c) => c.usage_retention_days,
      { value: DEFAULT_USAGE_RETENTION_DAYS, source: 'default' },
    ),
    'mcp.cascade_roots': pick<readonly string[]>(
      layers,
      flags.cascadeRoots?.map(abs),
      undefined,
      (c) => c.mcp?.cascade_roots,
      { value: [], source: 'default' },
    ),
    'mcp.substrate': pick<string | undefined>(
      layers,
      flags.substrate !== undefined ? abs(flags.substrate) : undefined,
      undefined,
      (c) => c.mcp?.substrate,
      {
        value: undefined,
        source: 'default',
      },
    ),
    'mcp.host': pick(layers, flags.host, undefined, (c) => c.mcp?.host, {
      value: DEFAULT_MCP_HOST,
      source: 'default',
    }),
  };
}

/**
 * resolveSettings, with the project keys it did not apply (each a PROJECT_CONFIG_IGNORED note):
 * a project's `policy` when the catalog is not the project's (a flag or the environment chose
 * another), its `library.prefer` when the scopes are not the project's, and the remembered scopes
 * of a project catalog that point outside the project (rememberedScopesOf).
 */
export function resolveSettingsNoting(
  layers: ConfigLayers,
  flags: SettingFlags,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  withCatalogScopes = false,
): { settings: Settings; ignored: IgnoredProjectKey[] } {
  const ignored: IgnoredProjectKey[] = [];
  const catalog = pickCatalog(layers, flags, env, cwd);
  const telemetry = pickTelemetry(layers, flags, env);
  const policy = pickPolicy(layers, flags, catalog, ignored);
  const scopes = pickScopes(layers, flags, catalog, env, cwd, withCatalogScopes, ignored);
  const prefer = pickPrefer(layers, scopes.picked, ignored);
  const others = pickOthers(layers, flags, cwd);
  const settings: Settings = {
    catalog,
    policy,
    telemetry,
    min_confidence: others.min_confidence,
    usage_retention_days: others.usage_retention_days,
    hook_server: pickHookServer(layers, env),
    'library.scopes': scopes.effective,
    'library.prefer': prefer,
    'mcp.cascade_roots': others['mcp.cascade_roots'],
    'mcp.substrate': others['mcp.substrate'],
    'mcp.host': others['mcp.host'],
  };
  return { settings, ignored };
}

/** `settings` with a PostgreSQL catalog's password read from `file` (--password-file). */
export function withPasswordFile(settings: Settings, file: string): Settings {
  if (!isPgLocation(settings.catalog.value)) return settings;
  return {
    ...settings,
    catalog: { ...settings.catalog, value: catalogLocation(settings.catalog.value, file) },
  };
}
