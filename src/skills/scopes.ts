/**
 * Skill scopes: where SKILL.md files may be read from (issue #2 §4, docs/cli.md `skilldex scan`).
 * Default scopes are Claude Code's personal `~/.claude/skills`, project `.claude/skills`, the
 * cross-client `~/.agents/skills` and `.agents/skills`, and the skills of enabled plugins. Explicit
 * `--scope` folders replace the defaults. Scopes are returned in precedence order: when two
 * scopes define one skill id, the earlier wins (personal beats project, Claude Code's rule).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import { isInside, readTextCapped, realpathOrUndefined, statOrUndefined } from '../fsx/index.js';
import { compareStrings } from '../text/index.js';

/** Kinds of scope, in precedence order. */
export type ScopeKind =
  'personal' | 'personal-agents' | 'project' | 'project-agents' | 'plugin' | 'custom';

/** One folder skills are read from. */
export interface Scope {
  readonly kind: ScopeKind;
  /** Absolute path of the folder. */
  readonly path: string;
  /** True when the folder is there and can be listed; false when not found or unreadable. */
  readonly exists: boolean;
  /**
   * Why a folder that is there cannot be read (`not a folder`, a link loop, a refused permission):
   * set only then, so a scope with `exists: false` and no `unreadable` was not found.
   */
  readonly unreadable?: string;
  /** For plugin scopes: the plugin's name (the part of `name@marketplace` before the `@`). */
  readonly plugin?: string;
}

/** How plugin folders were chosen. */
export type PluginFilter =
  'enabled-list' | 'none (installed_plugins.json unreadable)' | 'not applicable';

/** Options of `resolveScopes`. */
export interface ScopeOptions {
  /** Home folder for personal and plugin scopes. Default: `$HOME`. */
  readonly home?: string;
  /** Project folder for project scopes. Default: the current directory. */
  readonly project?: string;
  /** Explicit scope folders; when given, they replace the default scopes. */
  readonly scopes?: readonly string[];
}

/** The resolved scopes, how plugins were filtered, and problems met on the way. */
export interface ResolvedScopes {
  readonly scopes: Scope[];
  readonly plugin_filter: PluginFilter;
  readonly problems: Problem[];
}

/** Largest plugin registry or settings file read: 4 MiB. */
const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;

/** The keys of ScopeOptions. */
const SCOPE_OPTION_KEYS = optionKeys<ScopeOptions>()('home', 'project', 'scopes');

/** The ScopeOptions part of a larger options object (discovery's, ingest's). */
export function scopeOptionsOf(options: ScopeOptions): ScopeOptions {
  return {
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
  };
}

/** Resolves the scopes to read, in precedence order. INVALID_ARGUMENT for an unknown option. */
export function resolveScopes(options: ScopeOptions = {}): ResolvedScopes {
  assertKnownOptions(options, SCOPE_OPTION_KEYS, 'resolveScopes');
  const problems: Problem[] = [];
  if (options.scopes && options.scopes.length > 0) {
    const seen = new Set<string>();
    const scopes: Scope[] = [];
    const plugins = explicitPluginScopes(options);
    for (const s of options.scopes) {
      const abs = path.resolve(s);
      if (seen.has(abs)) continue;
      seen.add(abs);
      // An enabled plugin's skills folder named as a scope (`skilldex init` indexes them in place,
      // issue 35) keeps its plugin, so its skills are `plugin:name` as Claude Code names them.
      const plugin = plugins.get(abs);
      scopes.push(
        plugin === undefined
          ? { kind: 'custom', path: abs, ...folderState(abs) }
          : { kind: 'plugin', path: abs, ...folderState(abs), plugin },
      );
    }
    return { scopes, plugin_filter: 'not applicable', problems };
  }
  const home = path.resolve(options.home ?? process.env['HOME'] ?? '.');
  const project = path.resolve(options.project ?? process.cwd());
  const scopes: Scope[] = [];
  const add = (kind: ScopeKind, p: string, plugin?: string): void => {
    if (scopes.some((s) => s.path === p)) return;
    scopes.push({ kind, path: p, ...folderState(p), ...(plugin !== undefined ? { plugin } : {}) });
  };
  add('personal', path.join(home, '.claude', 'skills'));
  add('personal-agents', path.join(home, '.agents', 'skills'));
  add('project', path.join(project, '.claude', 'skills'));
  add('project-agents', path.join(project, '.agents', 'skills'));
  const plugins = resolvePluginScopes(home, problems);
  for (const p of plugins.scopes) add('plugin', p.path, p.plugin);
  return { scopes, plugin_filter: plugins.filter, problems };
}

/**
 * The enabled plugins' skill folders among explicit `scopes` (path → plugin name), read only when
 * some scope lies below `<home>/.claude/plugins`; the registry's problems are the default scopes'
 * to report, not an explicit list's.
 */
function explicitPluginScopes(options: ScopeOptions): Map<string, string> {
  const home = path.resolve(options.home ?? process.env['HOME'] ?? '.');
  const pluginsDir = path.join(home, '.claude', 'plugins');
  const out = new Map<string, string>();
  if (!(options.scopes ?? []).some((s) => isInside(pluginsDir, path.resolve(s)))) return out;
  for (const p of resolvePluginScopes(home, []).scopes) out.set(path.resolve(p.path), p.plugin);
  return out;
}

/**
 * Plugin skill folders under `home`. Enabled = listed in installed_plugins.json (version 1 or 2)
 * and not set to false in settings.json `enabledPlugins`. Unreadable registry: every plugin folder.
 */
export function resolvePluginScopes(
  home: string,
  problems: Problem[],
): { scopes: { path: string; plugin: string }[]; filter: PluginFilter } {
  const pluginsDir = path.join(home, '.claude', 'plugins');
  const realPluginsDir = realpathOrUndefined(pluginsDir);
  const registryPath = path.join(pluginsDir, 'installed_plugins.json');
  const registry = readJson(registryPath);
  if (!registry.ok) {
    if (realPluginsDir !== undefined) {
      problems.push(
        problem(
          'PLUGIN_REGISTRY_UNREADABLE',
          registryPath,
          `${registryPath}: ${registry.reason}; every plugin folder is read, no enabled-list filter applied`,
        ),
      );
    }
    return {
      scopes: realPluginsDir
        ? keepInside(allPluginFolders(pluginsDir), realPluginsDir, pluginsDir, problems)
        : [],
      filter: 'none (installed_plugins.json unreadable)',
    };
  }
  const disabled = readDisabledPlugins(path.join(home, '.claude', 'settings.json'), problems);
  const entries = registryEntries(registry.value);
  const out: { path: string; plugin: string }[] = [];
  for (const { key, installPaths } of entries) {
    if (disabled.has(key)) continue;
    const plugin = key.split('@')[0] ?? key;
    // The key names a folder below ~/.claude/plugins: it must be one plain path segment, or a key
    // such as `../../../elsewhere@market` would make discovery read `elsewhere/skills`.
    if (!isPlainSegment(plugin)) {
      problems.push(
        problem(
          'PATH_OUTSIDE_ROOT',
          registryPath,
          `plugin key ${JSON.stringify(key)} in ${registryPath} is not a plain folder name; not read`,
        ),
      );
      continue;
    }
    for (const ip of installPaths) {
      const abs = path.resolve(pluginsDir, ip);
      const real = realpathOrUndefined(abs) ?? abs;
      // An installPath is trusted only inside ~/.claude/plugins: the registry must not widen the scopes.
      if (realPluginsDir === undefined || !isInside(realPluginsDir, real)) {
        problems.push(
          problem(
            'PATH_OUTSIDE_ROOT',
            abs,
            `plugin ${key}: installPath ${abs} is outside ${pluginsDir}; not read`,
          ),
        );
        continue;
      }
      out.push({ path: path.join(abs, 'skills'), plugin });
    }
    const plain = path.join(pluginsDir, plugin);
    const plainReal = realpathOrUndefined(plain);
    // A plugin folder that is a link out of ~/.claude/plugins is refused like an installPath.
    if (
      plainReal !== undefined &&
      (realPluginsDir === undefined || !isInside(realPluginsDir, plainReal))
    ) {
      problems.push(
        problem(
          'PATH_OUTSIDE_ROOT',
          plain,
          `plugin ${key}: folder ${plain} leads to ${plainReal}, outside ${pluginsDir}; not read`,
        ),
      );
      continue;
    }
    out.push({ path: path.join(plain, 'skills'), plugin });
  }
  out.sort((a, b) => compareStrings(a.plugin, b.plugin) || compareStrings(a.path, b.path));
  return {
    scopes: realPluginsDir ? keepInside(out, realPluginsDir, pluginsDir, problems) : [],
    filter: 'enabled-list',
  };
}

/**
 * The plugin skill folders whose real path lies inside ~/.claude/plugins: a plugin's `skills`
 * folder that is a link out of it (to a home folder, to /etc) is refused like an installPath,
 * with PATH_OUTSIDE_ROOT, and never becomes a scope. A folder that does not exist passes (there is
 * nothing to read).
 */
function keepInside(
  scopes: { path: string; plugin: string }[],
  realPluginsDir: string,
  pluginsDir: string,
  problems: Problem[],
): { path: string; plugin: string }[] {
  // A path named twice (an installPath that is also the plain layout) is judged and reported once.
  const judged = new Map<string, boolean>();
  return scopes.filter((s) => {
    const known = judged.get(s.path);
    if (known !== undefined) return known;
    const real = realpathOrUndefined(s.path);
    const ok = real === undefined || isInside(realPluginsDir, real);
    judged.set(s.path, ok);
    if (ok) return true;
    problems.push(
      problem(
        'PATH_OUTSIDE_ROOT',
        s.path,
        `plugin ${s.plugin}: ${s.path} leads to ${real}, outside ${pluginsDir}; not read`,
      ),
    );
    return false;
  });
}

function registryEntries(value: unknown): { key: string; installPaths: string[] }[] {
  if (!value || typeof value !== 'object') return [];
  const plugins = (value as Record<string, unknown>)['plugins'];
  if (!plugins || typeof plugins !== 'object') return [];
  const out: { key: string; installPaths: string[] }[] = [];
  for (const [key, rec] of Object.entries(plugins as Record<string, unknown>)) {
    // Version 2 maps each key to a list of install records; version 1 to one record.
    const records = Array.isArray(rec) ? rec : [rec];
    const installPaths: string[] = [];
    for (const r of records) {
      if (
        r &&
        typeof r === 'object' &&
        typeof (r as Record<string, unknown>)['installPath'] === 'string'
      ) {
        installPaths.push((r as Record<string, string>)['installPath']!);
      }
    }
    out.push({ key, installPaths });
  }
  return out.sort((a, b) => compareStrings(a.key, b.key));
}

// One folder name: not empty, not `.` or `..`, no separator and no NUL.
function isPlainSegment(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

function readDisabledPlugins(settingsPath: string, problems: Problem[]): Set<string> {
  const disabled = new Set<string>();
  if (!existsSync(settingsPath)) return disabled;
  const settings = readJson(settingsPath);
  if (!settings.ok) {
    problems.push(
      problem(
        'SETTINGS_UNREADABLE',
        settingsPath,
        `${settingsPath}: ${settings.reason}; enabledPlugins ignored`,
      ),
    );
    return disabled;
  }
  const enabled = (settings.value as Record<string, unknown> | null)?.['enabledPlugins'];
  if (enabled && typeof enabled === 'object') {
    for (const [k, v] of Object.entries(enabled as Record<string, unknown>))
      if (v === false) disabled.add(k);
  }
  return disabled;
}

// Without a registry: the plain layout ~/.claude/plugins/<name>/skills and the cache layout
// ~/.claude/plugins/cache/<marketplace>/<name>/<version>/skills.
function allPluginFolders(pluginsDir: string): { path: string; plugin: string }[] {
  const out: { path: string; plugin: string }[] = [];
  for (const name of listDirs(pluginsDir)) {
    if (name === 'cache' || name === 'marketplaces' || name.startsWith('.')) continue;
    out.push({ path: path.join(pluginsDir, name, 'skills'), plugin: name });
  }
  const cache = path.join(pluginsDir, 'cache');
  for (const mkt of listDirs(cache)) {
    for (const name of listDirs(path.join(cache, mkt))) {
      for (const ver of listDirs(path.join(cache, mkt, name))) {
        out.push({ path: path.join(cache, mkt, name, ver, 'skills'), plugin: name });
      }
    }
  }
  return (
    out
      // Missing or unreadable: reported as exists=false in the scope list.
      .filter((p) => statOrUndefined(p.path)?.isDirectory() === true)
      .sort((a, b) => compareStrings(a.plugin, b.plugin) || compareStrings(a.path, b.path))
  );
}

function readJson(p: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const r = readTextCapped(p, { maxBytes: MAX_REGISTRY_BYTES });
  if (!r.ok) return { ok: false, reason: r.problem.message };
  try {
    return { ok: true, value: JSON.parse(r.text) };
  } catch (err) {
    return {
      ok: false,
      reason: `not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort(compareStrings);
  } catch {
    // A missing folder simply has no plugins; the registry problem is already recorded.
    return [];
  }
}

// Whether a scope folder is there, and if it is there but cannot be read, why: a missing folder
// (or a missing parent) is "not found", anything else that stops a stat is "unreadable".
function folderState(p: string): { exists: boolean; unreadable?: string } {
  try {
    return statSync(p).isDirectory()
      ? { exists: true }
      : { exists: false, unreadable: 'not a folder' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
    return { exists: false, unreadable: code === 'ELOOP' ? 'link loop' : (code ?? String(err)) };
  }
}
