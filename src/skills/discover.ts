/**
 * SKILL.md discovery (issue #2 §4): enumerate the scopes, load each file, dedup byte-identical
 * copies (keeping every path as provenance), note near-duplicates, and resolve id collisions by
 * scope precedence (the loser is reported as shadowed). Never reads outside the scopes: links are
 * followed only into another sanctioned scope.
 */
import { assertKnownOptions, optionKeys, type Problem } from '../errors.js';
import { isInside, realpathOrUndefined, walkFiles, type WalkListings } from '../fsx/index.js';
import { loadSkillFile, type FileOrigin, type SkillRecord } from './record.js';
import {
  resolveScopes,
  scopeOptionsOf,
  type PluginFilter,
  type Scope,
  type ScopeOptions,
} from './scopes.js';

/** The exact file name of a skill (docs/cli.md `skilldex scan`). */
export const SKILL_FILE = 'SKILL.md';

/** Options of `discoverSkills`: scope choice plus read and walk bounds. */
export interface DiscoverOptions extends ScopeOptions {
  /**
   * Folders whose skills win an id collision (`--prefer`, `library.prefer`): when two files define
   * one skill id, the one inside the earliest listed folder is kept, whatever the scope order
   * (so a skill shadowed by another in the same scope can be chosen). Default: none.
   */
  readonly prefer?: readonly string[];
  /** Size cap per SKILL.md in bytes (the whole file, hashed but not kept). Default 256 MiB. */
  readonly maxBytes?: number;
  /** Size cap of the frontmatter in bytes (the only part read as text). Default 64 KiB. */
  readonly maxFrontmatterBytes?: number;
  /** Deepest folder level walked in a scope. Default 24. */
  readonly maxDepth?: number;
  /** Most directory entries looked at per scope. Default 500,000. */
  readonly maxEntries?: number;
}

/** A file that was enumerated but not used, with its coded reason. */
export interface SkippedFile {
  readonly path: string;
  readonly code: Problem['code'];
  readonly reason: string;
  readonly line?: number;
}

/** Byte-identical copies: the kept path and the others. */
export interface DuplicateGroup {
  readonly revision_id: string;
  readonly kept: string;
  readonly copies: readonly string[];
}

/** Files that differ only by BOM or line endings. */
export interface NearDuplicateGroup {
  readonly normalized_sha256: string;
  readonly paths: readonly string[];
}

/** A skill id defined in more than one place; the winner is the earlier scope, or the preferred one. */
export interface ShadowedSkill {
  readonly skill_id: string;
  readonly winner: string;
  readonly winner_scope: string;
  readonly shadowed: string;
  readonly shadowed_scope: string;
  /** The `prefer` folder that chose the winner; absent when scope and path order did. */
  readonly preferred?: string;
}

/** The scan report (issue #2 §5). */
export interface ScanReport {
  readonly scopes: readonly Scope[];
  readonly plugin_filter: PluginFilter;
  readonly skills: readonly SkillRecord[];
  readonly skipped: readonly SkippedFile[];
  readonly duplicates: readonly DuplicateGroup[];
  readonly near_duplicates: readonly NearDuplicateGroup[];
  readonly shadowed: readonly ShadowedSkill[];
  /** Every SKILL.md path enumerated, in scope then path order. */
  readonly enumerated: readonly string[];
  /** Scope-level problems (plugin registry, settings). */
  readonly problems: readonly Problem[];
}

/**
 * Enumerates SKILL.md files of `scopes` in precedence order; refused links and unreadable folders
 * become skips. `listings`: folder listings an earlier walk recorded, reused where the folder is
 * unchanged (fsx `WalkListings`; an index keeps them in its catalog).
 */
export function enumerateSkillFiles(
  scopes: readonly Scope[],
  options: Pick<DiscoverOptions, 'maxDepth' | 'maxEntries'> = {},
  listings?: WalkListings,
): { files: FileOrigin[]; skipped: SkippedFile[] } {
  const allowed = scopes
    .map((s) => realpathOrUndefined(s.path))
    .filter((p): p is string => p !== undefined);
  const files: FileOrigin[] = [];
  const skipped: SkippedFile[] = [];
  for (const scope of scopes) {
    if (!scope.exists) continue;
    const walk = walkFiles(scope.path, (n) => n === SKILL_FILE, {
      allowedRoots: allowed,
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
      ...(options.maxEntries !== undefined ? { maxEntries: options.maxEntries } : {}),
      ...(listings !== undefined ? { listings } : {}),
    });
    for (const p of walk.problems) skipped.push(toSkipped(p));
    for (const f of walk.files) {
      files.push({
        path: f.path,
        realPath: f.realPath,
        ...(f.dev !== undefined && f.ino !== undefined
          ? { identity: { dev: f.dev, ino: f.ino } }
          : {}),
        ...(f.size !== undefined && f.mtimeMs !== undefined && f.isFile === true
          ? { seen: { size: f.size, mtimeMs: f.mtimeMs } }
          : {}),
        ...(f.alone === true ? { alone: true } : {}),
        scope: scope.kind,
        scopePath: scope.path,
        ...(scope.plugin !== undefined ? { plugin: scope.plugin } : {}),
      });
    }
  }
  return { files, skipped };
}

/**
 * Dedups records (same revision_id: first kept, later paths added to provenance) and resolves id
 * collisions: a record inside the earliest `prefer` folder wins, else the first. `records` must be
 * in precedence order; `prefer` folders are absolute.
 */
export function resolveIdentities(
  records: readonly SkillRecord[],
  prefer: readonly string[] = [],
): {
  skills: SkillRecord[];
  duplicates: DuplicateGroup[];
  near_duplicates: NearDuplicateGroup[];
  shadowed: ShadowedSkill[];
} {
  const byRevision = new Map<string, { record: SkillRecord; copies: string[] }>();
  for (const r of records) {
    const prior = byRevision.get(r.revision_id);
    if (prior) prior.copies.push(r.path);
    else byRevision.set(r.revision_id, { record: r, copies: [] });
  }
  const unique: SkillRecord[] = [];
  const duplicates: DuplicateGroup[] = [];
  for (const { record, copies } of byRevision.values()) {
    if (copies.length > 0) {
      duplicates.push({ revision_id: record.revision_id, kept: record.path, copies });
      unique.push({ ...record, provenance: [record.path, ...copies] });
    } else unique.push(record);
  }
  const byNormal = new Map<string, string[]>();
  for (const r of unique) {
    const list = byNormal.get(r.normalized_sha256);
    if (list) list.push(r.path);
    else byNormal.set(r.normalized_sha256, [r.path]);
  }
  const near_duplicates = [...byNormal.entries()]
    .filter(([, paths]) => paths.length > 1)
    .map(([normalized_sha256, paths]) => ({ normalized_sha256, paths }));
  const { skills, shadowed } = resolveCollisions(unique, prefer);
  return { skills, duplicates, near_duplicates, shadowed };
}

// One record per id: the one in the earliest `prefer` folder, else the first in precedence order.
// The kept record takes the place of the first record of its id, so the output order is stable.
function resolveCollisions(
  unique: readonly SkillRecord[],
  prefer: readonly string[],
): { skills: SkillRecord[]; shadowed: ShadowedSkill[] } {
  const rank = (r: SkillRecord): number => {
    const i = prefer.findIndex((dir) => isInside(dir, r.path) || isInside(dir, r.real_path));
    return i < 0 ? prefer.length : i;
  };
  const groups = new Map<string, SkillRecord[]>();
  for (const r of unique) {
    const g = groups.get(r.skill_id);
    if (g) g.push(r);
    else groups.set(r.skill_id, [r]);
  }
  const skills: SkillRecord[] = [];
  const shadowed: ShadowedSkill[] = [];
  for (const [id, group] of groups) {
    const winner = group.reduce((best, r) => (rank(r) < rank(best) ? r : best), group[0]!);
    skills.push(winner);
    const preferred = winner !== group[0] ? prefer[rank(winner)] : undefined;
    for (const r of group) {
      if (r === winner) continue;
      shadowed.push({
        skill_id: id,
        winner: winner.path,
        winner_scope: winner.scope,
        shadowed: r.path,
        shadowed_scope: r.scope,
        ...(preferred !== undefined ? { preferred } : {}),
      });
    }
  }
  return { skills, shadowed };
}

/** The keys of DiscoverOptions (also the first keys of the calls that discover and do more). */
export const DISCOVER_OPTION_KEYS = optionKeys<DiscoverOptions>()(
  'home',
  'project',
  'scopes',
  'prefer',
  'maxBytes',
  'maxDepth',
  'maxEntries',
  'maxFrontmatterBytes',
);

/**
 * The discovery options among `o` (the options of a call that discovers skills and does more:
 * lint, trigger evaluation), the undefined ones left out.
 */
export function discoverOptionsOf(o: DiscoverOptions): DiscoverOptions {
  const out: Record<string, unknown> = {};
  for (const key of DISCOVER_OPTION_KEYS) {
    const value = (o as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as DiscoverOptions;
}

/**
 * Discovers every skill in the scopes `options` selects. INVALID_ARGUMENT for an unknown option.
 * `onProgress(done, total)` is called every 256 files read and once at the end (total: the
 * SKILL.md files enumerated).
 */
export function discoverSkills(
  options: DiscoverOptions = {},
  onProgress?: (done: number, total: number) => void,
): ScanReport {
  assertKnownOptions(options, DISCOVER_OPTION_KEYS, 'discoverSkills');
  const resolved = resolveScopes(scopeOptionsOf(options));
  const { files, skipped } = enumerateSkillFiles(resolved.scopes, options);
  const records: SkillRecord[] = [];
  for (const [i, f] of files.entries()) {
    if (onProgress && (i & 255) === 0) onProgress(i, files.length);
    const loaded = loadSkillFile(f, {
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.maxFrontmatterBytes !== undefined
        ? { maxFrontmatterBytes: options.maxFrontmatterBytes }
        : {}),
    });
    if (loaded.ok) records.push(loaded.record);
    else skipped.push(toSkipped(loaded.problem));
  }
  onProgress?.(files.length, files.length);
  const ids = resolveIdentities(records, options.prefer);
  // A scope folder the walk could not list (a refused permission) was not read: say so.
  const unlisted = new Map(
    skipped.filter((k) => k.code === 'UNREADABLE').map((k) => [k.path, k.reason] as const),
  );
  const scopes = resolved.scopes.map((s) =>
    s.exists && unlisted.has(s.path)
      ? { ...s, exists: false, unreadable: unlisted.get(s.path)! }
      : s,
  );
  return {
    scopes,
    plugin_filter: resolved.plugin_filter,
    skills: ids.skills,
    skipped,
    duplicates: ids.duplicates,
    near_duplicates: ids.near_duplicates,
    shadowed: ids.shadowed,
    enumerated: files.map((f) => f.path),
    problems: resolved.problems,
  };
}

/** A problem of discovery as the report's skipped file. */
export function toSkipped(p: Problem): SkippedFile {
  return {
    path: p.path,
    code: p.code,
    reason: p.message,
    ...(p.line !== undefined ? { line: p.line } : {}),
  };
}
