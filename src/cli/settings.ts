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
import { readCatalogScopes } from '../router/index.js';
import { pick, type ConfigLayers, type Setting } from './config.js';

/** Every setting a command may read. `undefined` values mean "not set: the command's default". */
export interface Settings {
  readonly catalog: Setting<string>;
  readonly policy: Setting<string | undefined>;
  readonly telemetry: Setting<boolean>;
  /** The confidence floor of `search`, `hook` and `mcp` (undefined: the policy's). */
  readonly min_confidence: Setting<number | undefined>;
  /** Days a usage example is kept (user config only; default DEFAULT_USAGE_RETENTION_DAYS). */
  readonly usage_retention_days: Setting<number>;
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
  const abs = (p: string): string => path.resolve(cwd, p);
  // A catalog is a file path or a PostgreSQL URL (its password masked: resolveCatalogLocation).
  const loc = (p: string): string => resolveCatalogLocation(p, cwd);
  const envCatalog = env['SKILLDEX_CATALOG'] ? loc(env['SKILLDEX_CATALOG']) : undefined;
  const catalog = pick(
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
  const telemetryEnv = env['SKILLDEX_TELEMETRY'];
  const telemetry = pick(
    layers,
    flags.telemetry === false ? false : undefined,
    {
      name: 'SKILLDEX_TELEMETRY',
      value: telemetryEnv === 'off' ? false : telemetryEnv === 'on' ? true : undefined,
    },
    (c) => c.telemetry,
    { value: true, source: 'default' },
  );
  const policy = pick<string | undefined>(layers, flags.policy, undefined, (c) => c.policy, {
    value: undefined,
    source: 'default',
  });
  let scopesFallback: Setting<readonly string[] | undefined> = {
    value: undefined,
    source: 'default',
  };
  const scopes = pick<readonly string[] | undefined>(
    layers,
    flags.scopes?.map(abs),
    undefined,
    (c) => c.library?.scopes,
    scopesFallback,
  );
  if (scopes.source === 'default' && withCatalogScopes) {
    const remembered = readCatalogScopes(catalog.value);
    if (remembered?.scopes !== undefined)
      scopesFallback = { value: remembered.scopes, source: `catalog ${catalog.value}` };
  }
  return {
    catalog,
    policy,
    telemetry,
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
    'library.scopes': scopes.source === 'default' ? scopesFallback : scopes,
    'library.prefer': pick<readonly string[] | undefined>(
      layers,
      undefined,
      undefined,
      (c) => c.library?.prefer,
      { value: undefined, source: 'default' },
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

/** `settings` with a PostgreSQL catalog's password read from `file` (--password-file). */
export function withPasswordFile(settings: Settings, file: string): Settings {
  if (!isPgLocation(settings.catalog.value)) return settings;
  return {
    ...settings,
    catalog: { ...settings.catalog, value: catalogLocation(settings.catalog.value, file) },
  };
}
