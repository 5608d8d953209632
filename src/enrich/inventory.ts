/**
 * The enrichment inventory (issue #7): the four scopes, every SKILL.md enumerated in them, the
 * records that may be scored and every file that may not, with its reason. Reuses discovery:
 * plugin filtering, the confined walker, the single-read loader (it hashes the whole file and
 * parses only the frontmatter, never the body) and content-hash dedup.
 *
 * Never reads outside the four scopes: a link whose real path leaves them is refused by the walker
 * (PATH_OUTSIDE_ROOT) and listed as skipped. Never scores a skill with hidden characters (docs/enrich.md "Skips").
 */
import path from 'node:path';
import type { Problem } from '../errors.js';
import { realpathOrUndefined } from '../fsx/index.js';
import {
  enumerateSkillFiles,
  loadSkillFile,
  resolveIdentities,
  resolvePluginScopes,
  toSkipped,
  type PluginFilter,
  type Scope,
  type ScopeKind,
  type SkillRecord,
  type SkippedFile,
} from '../skills/index.js';

/** Folder (below the project) of the in-tree plugin's skills. */
export const IN_TREE_SKILLS = path.join('crucible-plugin', 'skills');

/**
 * The enrichment scopes, as reports name them: the four default ones, or `library` for each folder
 * given as `scopes` (which replace the four).
 */
export type EnrichScopeName = 'personal' | 'plugin' | 'project' | 'in-tree' | 'library';

/** One folder the inventory reads. */
export interface InventoryScope {
  readonly scope: EnrichScopeName;
  /** Absolute path of the folder. */
  readonly path: string;
  readonly exists: boolean;
  /** For plugin scopes: the plugin's name. */
  readonly plugin?: string;
}

/** Options of `takeInventory`. */
export interface InventoryOptions {
  /** Home folder (personal and plugin scopes), absolute. */
  readonly home: string;
  /** Project folder (project and in-tree scopes), absolute. */
  readonly project: string;
  /**
   * Library folders read instead of the four default scopes (the CLI passes `--scope`, the
   * config's library.scopes or the catalog's remembered scopes), in precedence order.
   */
  readonly scopes?: readonly string[];
  /** Size cap per SKILL.md in bytes; default the loader's (1 MiB). */
  readonly maxBytes?: number;
  /** Called as the SKILL.md files are read with `(done, total)` files, for progress lines. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What the inventory found. Paths are absolute; reports turn them into display form. */
export interface Inventory {
  readonly scopes: readonly InventoryScope[];
  readonly plugin_filter: PluginFilter;
  /** True when a plugins folder exists but its installed_plugins.json could not be read. */
  readonly registry_unreadable: boolean;
  /** Records to score: deduplicated, unshadowed, without hidden characters, in precedence order. */
  readonly records: readonly SkillRecord[];
  /** Byte-identical copies of each scored record (paths other than its own). */
  readonly copies: ReadonlyMap<string, readonly string[]>;
  /** Every file enumerated but not scored, and every path the walk refused, with its reason. */
  readonly skipped: readonly SkippedFile[];
  /** Every SKILL.md path the walk enumerated, in scope then walk order. */
  readonly enumerated: readonly string[];
  /** Scope-level problems (plugin registry, settings, plugin install paths). */
  readonly problems: readonly Problem[];
}

/**
 * Builds the scope list: personal `~/.claude/skills`, project `<project>/.claude/skills`, in-tree
 * `<project>/crucible-plugin/skills`, then the enabled plugins' skill folders. That is the
 * precedence order: when two scopes define one skill id, the earlier one is scored.
 */
export function enrichmentScopes(
  home: string,
  project: string,
  problems: Problem[],
): { scopes: InventoryScope[]; filter: PluginFilter } {
  const scopes: InventoryScope[] = [];
  const seen = new Set<string>();
  const add = (scope: EnrichScopeName, p: string, plugin?: string): void => {
    const real = realpathOrUndefined(p);
    // One folder reached twice (a project inside the home folder, a plugin listed twice) is read once.
    const key = real ?? p;
    if (seen.has(key)) return;
    seen.add(key);
    scopes.push({
      scope,
      path: p,
      exists: real !== undefined,
      ...(plugin !== undefined ? { plugin } : {}),
    });
  };
  add('personal', path.join(home, '.claude', 'skills'));
  add('project', path.join(project, '.claude', 'skills'));
  add('in-tree', path.join(project, IN_TREE_SKILLS));
  const plugins = resolvePluginScopes(home, problems);
  for (const p of plugins.scopes) add('plugin', p.path, p.plugin);
  return { scopes, filter: plugins.filter };
}

/** The `library` scopes of `dirs`, in order, each folder once (by real path). */
export function libraryScopes(dirs: readonly string[]): InventoryScope[] {
  const seen = new Set<string>();
  const out: InventoryScope[] = [];
  for (const dir of dirs) {
    const p = path.resolve(dir);
    const real = realpathOrUndefined(p);
    if (seen.has(real ?? p)) continue;
    seen.add(real ?? p);
    out.push({ scope: 'library', path: p, exists: real !== undefined });
  }
  return out;
}

/** Enumerates, loads and deduplicates the SKILL.md files of the scopes (the four, or `scopes`). */
export function takeInventory(options: InventoryOptions): Inventory {
  const problems: Problem[] = [];
  const { scopes, filter } =
    options.scopes !== undefined
      ? { scopes: libraryScopes(options.scopes), filter: 'not applicable' as const }
      : enrichmentScopes(options.home, options.project, problems);
  const library = options.scopes !== undefined;
  const { files, skipped } = enumerateSkillFiles(scopes.map(toScope));
  const loaded: SkillRecord[] = [];
  let read = 0;
  for (const f of files) {
    options.onProgress?.(read++, files.length);
    const r = loadSkillFile(
      f,
      options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {},
    );
    if (r.ok) loaded.push(r.record);
    else skipped.push(toSkipped(r.problem));
  }
  options.onProgress?.(files.length, files.length);
  const ids = resolveIdentities(loaded);
  const copies = new Map<string, readonly string[]>();
  for (const d of ids.duplicates) {
    copies.set(d.kept, d.copies);
    for (const c of d.copies) {
      skipped.push({
        path: c,
        code: 'DUPLICATE',
        reason: `byte-identical copy of ${d.kept} (${d.revision_id}); that file is scored once in its place`,
      });
    }
  }
  for (const s of ids.shadowed) {
    skipped.push({
      path: s.shadowed,
      code: 'SHADOWED',
      reason: `skill id ${JSON.stringify(s.skill_id)} is also defined by ${s.winner} (${library ? 'library' : scopeName(s.winner_scope)} scope), which takes precedence`,
    });
  }
  const records: SkillRecord[] = [];
  for (const r of ids.skills) {
    const hidden = r.warnings.find((w) => w.code === 'HIDDEN_CHARACTERS');
    if (hidden) {
      // Text a reader cannot see must not steer a recommendation.
      const withCopies = copies.get(r.path) ?? [];
      for (const p of [r.path, ...withCopies]) {
        skipped.push({
          path: p,
          code: 'HIDDEN_CHARACTERS',
          reason: `${hidden.message}; skills with hidden characters are left out of enrichment`,
        });
      }
      continue;
    }
    records.push(r);
  }
  const registryUnreadable = problems.some((p) => p.code === 'PLUGIN_REGISTRY_UNREADABLE');
  return {
    scopes,
    plugin_filter: filter,
    registry_unreadable: registryUnreadable,
    records,
    copies,
    skipped: dropCopiesOfHidden(skipped),
    enumerated: files.map((f) => f.path),
    problems,
  };
}

/** The report name of a discovery scope kind (in enrichment, `custom` is only the in-tree scope). */
export function scopeName(kind: ScopeKind | string): EnrichScopeName {
  if (kind === 'personal' || kind === 'plugin' || kind === 'project') return kind;
  return 'in-tree';
}

function toScope(s: InventoryScope): Scope {
  const kind: ScopeKind = s.scope === 'in-tree' || s.scope === 'library' ? 'custom' : s.scope;
  return {
    kind,
    path: s.path,
    exists: s.exists,
    ...(s.plugin !== undefined ? { plugin: s.plugin } : {}),
  };
}

// A copy of a hidden-character skill is reported once, as HIDDEN_CHARACTERS, not also as DUPLICATE.
function dropCopiesOfHidden(skipped: SkippedFile[]): SkippedFile[] {
  const hidden = new Set(skipped.filter((s) => s.code === 'HIDDEN_CHARACTERS').map((s) => s.path));
  return skipped.filter((s) => s.code !== 'DUPLICATE' || !hidden.has(s.path));
}
