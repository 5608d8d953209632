/**
 * `skilldex lock` (issue #28): the library's skills pinned in a lock file, `skills.lock.json` by
 * default — per skill id its scope, folder, `revision_id` (the SKILL.md's sha256), the digest over
 * the whole folder and every file's digest (catalog/read/folder-digest.ts: the digests the index records
 * and the MCP Skills extension lists), its version, and its git origin when the folder is in a work
 * tree (git.ts). Canonical JSON (canonical-json.ts): sorted keys and entries, no timestamp, so the
 * same library gives the same bytes and a re-run that changes nothing changes no byte.
 *
 * The format borrows from the two lock files agent-skill installers write (docs/supply-chain.md maps
 * the fields): vercel-labs/skills `skills-lock.json` (src/local-lock.ts: `{ version, skills: { name:
 * { source, ref, sourceType, computedHash } } }`, entries sorted by name, no timestamps to keep merges
 * clean) and Microsoft APM `apm.lock.yaml` (src/apm_cli/deps/lockfile.py, _locked_dependency.py:
 * `repo_url`, `resolved_commit`, per-file `deployed_file_hashes`). Pure over the snapshot; the CLI
 * writes the file.
 */
import path from 'node:path';
import { DISCOVER_OPTION_KEYS, type DiscoverOptions, type ScanReport } from '../skills/index.js';
import { canonicalJson } from './canonical-json.js';
import { GitOrigins, type GitOrigin } from './git.js';
import { lockPathOf, snapshotLibrary, type LibrarySnapshot } from './snapshot.js';
import { assertKnownOptions, optionKeys } from '../errors.js';

/** The lock format version this code writes and reads. */
export const LOCK_VERSION = 1;

/** The lock file's default name, in the current folder. */
export const DEFAULT_LOCK_FILE = 'skills.lock.json';

/** One locked skill. */
export interface LockedSkill {
  readonly scope: string;
  /** The skill folder: relative to the lock's folder, `~/…`, or absolute (snapshot.ts lockPathOf). */
  readonly path: string;
  readonly revision_id: string;
  /** `sha256:` over the folder's files (catalog/read/folder-digest.ts). */
  readonly folder_digest: string;
  /** Every file of the folder (SKILL.md included) → its `sha256:` digest. */
  readonly files: Readonly<Record<string, string>>;
  /** Present (true) when a bound left files out of `files` and the digest. */
  readonly files_truncated?: true;
  /**
   * Present when the folder holds entries `files` leaves out (folders behind a nested SKILL.md,
   * node_modules, links, special files, empty folders): path → kind (inventory.ts). Absent: none.
   */
  readonly unlisted?: Readonly<Record<string, string>>;
  /** Present (true) when a bound cut `unlisted`. */
  readonly unlisted_truncated?: true;
  readonly version: string | null;
  /** Where the folder comes from, when it is in a git work tree. */
  readonly origin?: { readonly type: 'git' } & GitOrigin;
}

/** The lock file's content. */
export interface SkillsLock {
  readonly lockfile_version: typeof LOCK_VERSION;
  readonly generator: 'skilldex';
  /** The `--scope` folders the lock was made from, as written for `path`; absent: the default scopes. */
  readonly scopes?: readonly string[];
  readonly skills: Readonly<Record<string, LockedSkill>>;
}

/** Options of `buildLock`: the scopes (as for discovery) and where the lock will live. */
export interface LockOptions extends DiscoverOptions {
  /** Absolute path of the lock file (paths inside are written relative to its folder). */
  readonly lockFile: string;
  /** Record each folder's git origin (default true). */
  readonly gitOrigin?: boolean;
  /** Progress of discovery: SKILL.md files read out of found. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What `buildLock` made: the lock, its exact text, and what discovery left out. */
export interface LockReport {
  readonly lock_file: string;
  readonly skills: number;
  readonly lock: SkillsLock;
  /** The canonical JSON text of `lock` (what is written). */
  readonly text: string;
  /** SKILL.md files not locked, with discovery's reason. */
  readonly skipped: ScanReport['skipped'];
  /** Ids defined in more than one scope: only the winner is locked. */
  readonly shadowed: ScanReport['shadowed'];
}

/** Builds the lock of the skills in the scopes `options` selects. */
export function buildLock(options: LockOptions): LockReport {
  assertKnownOptions(options, BUILD_LOCK_OPTION_KEYS, 'buildLock');
  const { lockFile, gitOrigin, onProgress, ...discover } = options;
  const dir = path.dirname(lockFile);
  const snapshot = snapshotLibrary(discover, dir, discover.home, onProgress);
  const lock = lockOf(snapshot, {
    ...(discover.scopes !== undefined
      ? { scopes: discover.scopes.map((s) => lockPathOf(path.resolve(s), dir, discover.home)) }
      : {}),
    git: gitOrigin !== false,
  });
  return {
    lock_file: lockFile,
    skills: Object.keys(lock.skills).length,
    lock,
    text: canonicalJson(lock),
    skipped: snapshot.scan.skipped,
    shadowed: snapshot.scan.shadowed,
  };
}

/** The lock of a snapshot (pure but for the git reads). */
export function lockOf(
  snapshot: LibrarySnapshot,
  o: { scopes?: readonly string[]; git: boolean },
): SkillsLock {
  const origins = new GitOrigins();
  const skills: Record<string, LockedSkill> = {};
  for (const id of [...snapshot.skills.keys()].sort()) {
    const s = snapshot.skills.get(id)!;
    const origin = o.git ? origins.originOf(s.dir) : undefined;
    skills[id] = {
      scope: s.scope,
      path: s.path,
      revision_id: s.revision_id,
      folder_digest: s.folder_digest,
      files: Object.fromEntries(s.files.map((f) => [f.path, f.digest])),
      ...(s.truncated ? { files_truncated: true as const } : {}),
      ...(s.unlisted.size > 0 ? { unlisted: Object.fromEntries(s.unlisted) } : {}),
      ...(s.unlisted_truncated ? { unlisted_truncated: true as const } : {}),
      version: s.version,
      ...(origin ? { origin: { type: 'git' as const, ...origin } } : {}),
    };
  }
  return {
    lockfile_version: LOCK_VERSION,
    generator: 'skilldex',
    ...(o.scopes !== undefined ? { scopes: [...o.scopes] } : {}),
    skills,
  };
}

/** The keys `buildLock` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const BUILD_LOCK_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof buildLock>[0]>>()(
  'lockFile',
  'gitOrigin',
  'onProgress',
  ...DISCOVER_OPTION_KEYS,
);
