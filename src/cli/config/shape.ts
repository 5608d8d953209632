/**
 * The shapes of skilldex's configuration: what a config file may hold (ConfigFile and its
 * `[[lint.ignore]]` entries), where an effective setting came from, the config files found for one
 * run (ConfigLayers), and a project key that was not applied with the reason. Types only.
 */

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
  /**
   * User config only: whether the prompt hook may start and use the hook server, a per-user
   * process that answers prompts warm (default true; docs/hosts.md). Ignored in a project config.
   */
  readonly hook_server?: boolean;
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
