/**
 * `skilldex verify` (issue #28): the library on disk checked against a lock file. Each locked skill
 * must be present with the same digests; the result is one coded finding per skill that is not —
 * SKILL_CHANGED (which files), SKILL_ADDED, SKILL_REMOVED, SKILL_MOVED — and a one-line summary for
 * CI logs. A skilldex lock is compared file by file; a vercel-labs `skills-lock.json` by its
 * `computedHash` (recomputed as its installer does, skills-lock-hash.ts); an APM `apm.lock.yaml` file
 * by file, its skills matched by folder. Reads the scopes and the lock file; writes nothing.
 */
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import type { DiscoverOptions, ScanReport } from '../skills/index.js';
import { digestChanges } from './file-changes.js';
import { readLockFile, type LockFormat, type LockedEntry, type ParsedLock } from './lock-read.js';
import { skillsLockHash } from './skills-lock-hash.js';
import { folderNow, lockPathOf, snapshotLibrary, type CurrentSkill } from './snapshot.js';

/** The verify finding codes, each with its rule (docs/supply-chain.md; SARIF rule texts). */
export const VERIFY_CODES = {
  SKILL_CHANGED:
    'a locked skill is present but its files differ from the lock (changed, added or removed files)',
  SKILL_ADDED: 'a skill is in the scopes but not in the lock',
  SKILL_REMOVED: 'a locked skill is no longer in the scopes',
  SKILL_MOVED: "a locked skill's files are unchanged but its folder moved",
} as const;

/** A verify finding code. */
export type VerifyCode = keyof typeof VERIFY_CODES;

/** A file of a changed skill, by its path in the skill folder. */
export interface VerifyFileChange {
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly locked_digest?: string;
  readonly digest?: string;
}

/** One finding: a skill that is not as locked. */
export interface VerifyFinding {
  readonly code: VerifyCode;
  readonly skill_id: string;
  readonly message: string;
  /** Its SKILL.md now (absolute); null for a removed skill. */
  readonly path: string | null;
  /** Its folder as the lock writes it now, and as the lock has it (null when absent or unknown). */
  readonly folder: string | null;
  readonly locked_folder: string | null;
  /** The files that differ (SKILL_CHANGED against a lock that lists files). */
  readonly files?: readonly VerifyFileChange[];
}

/** The verify report. */
export interface VerifyReport {
  readonly lock_file: string;
  readonly format: LockFormat;
  /** True when every locked skill is present with the same digests and none was added. */
  readonly ok: boolean;
  readonly counts: {
    readonly locked: number;
    readonly unchanged: number;
    readonly changed: number;
    readonly added: number;
    readonly removed: number;
    readonly moved: number;
  };
  /** One finding per skill, by skill_id. */
  readonly findings: readonly VerifyFinding[];
  /** One line for CI logs. */
  readonly summary: string;
  /** SKILL.md files discovery skipped (not verifiable; listed so a broken file is not silent). */
  readonly skipped: ScanReport['skipped'];
}

/** Options of `verifyLock`: the lock file and the scopes (as for discovery). */
export interface VerifyOptions extends DiscoverOptions {
  /** Absolute path of the lock file. */
  readonly lockFile: string;
  /** Progress of discovery: SKILL.md files read out of found. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Verifies the skills of the scopes against the lock file. Without `scopes`, a skilldex lock's own
 * scopes are used (resolved from its folder); otherwise discovery's defaults. Errors: the lock file's
 * (readLockFile).
 */
export function verifyLock(options: VerifyOptions): VerifyReport {
  assertKnownOptions(options, VERIFY_LOCK_OPTION_KEYS, 'verifyLock');
  return checkLock(options).report;
}

/**
 * `verifyLock`, and the folder digest of every skill found, by id: what `index --locked` holds the
 * publish to once the check passed.
 */
export function checkLock(options: VerifyOptions): {
  report: VerifyReport;
  digests: ReadonlyMap<string, string>;
} {
  assertKnownOptions(options, CHECK_LOCK_OPTION_KEYS, 'checkLock');
  const { lockFile, onProgress, ...discover } = options;
  const lock = readLockFile(lockFile);
  const dir = path.dirname(lockFile);
  const scopes =
    discover.scopes ?? lock.scopes?.map((s) => lockScope(s, dir, discover.home, lockFile));
  const snapshot = snapshotLibrary(
    { ...discover, ...(scopes !== undefined ? { scopes } : {}) },
    dir,
    discover.home,
    onProgress,
  );
  // Every folder discovery saw a SKILL.md in (copies of one file included), by its lock path.
  const seen = new Map<string, string>();
  for (const r of snapshot.scan.skills)
    for (const p of r.provenance)
      seen.set(lockPathOf(path.dirname(p), dir, discover.home), r.skill_id);
  const folders: FolderView = {
    now: (rel: string, id: string): CurrentSkill | undefined =>
      folderNow(dir, rel, seen.get(rel) ?? id),
  };
  return {
    report: compareToLock(lock, snapshot.skills, snapshot.scan.skipped, folders),
    digests: new Map([...snapshot.skills].map(([id, s]) => [id, s.folder_digest])),
  };
}

/**
 * A scope a lock names, as a folder to read: inside the lock's folder, or `~/…` inside the home
 * folder of whoever verifies. A lock comes with a repository and may not be trusted: any other
 * folder (absolute, or leaving the lock's folder) is LOCK_INVALID, and `--scope` must name it.
 */
function lockScope(s: string, dir: string, home: string | undefined, lockFile: string): string {
  if (s.startsWith('~/') && home !== undefined) {
    const abs = path.resolve(home, s.slice(2));
    if (isWithin(home, abs)) return abs;
  } else if (!path.isAbsolute(s) && !s.startsWith('~')) {
    const abs = path.resolve(dir, s);
    if (isWithin(dir, abs)) return abs;
  }
  throw new SkilldexError(
    'LOCK_INVALID',
    `lock file ${lockFile}: its scope ${JSON.stringify(s)} is outside the lock's folder and the home folder; give the scopes with --scope`,
    { lock_file: lockFile, scope: s },
  );
}

function isWithin(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** How a lock that pins folders (APM's) sees the library: each locked folder as it is now. */
export interface FolderView {
  /** The folder `rel` (as the lock writes it) now; `skillId` names it when discovery did not. */
  now(rel: string, skillId: string): CurrentSkill | undefined;
}

/**
 * Compares the skills found with a parsed lock (pure but for the reads of `folders` and of
 * skills-lock hashes, made on demand). A lock of folders needs `folders`.
 */
export function compareToLock(
  lock: ParsedLock,
  current: ReadonlyMap<string, CurrentSkill>,
  skipped: ScanReport['skipped'] = [],
  folders?: FolderView,
): VerifyReport {
  const findings: VerifyFinding[] = [];
  const matched = new Set<string>();
  const lockedFolders = new Set<string>();
  let unchanged = 0;
  for (const e of lock.entries) {
    // APM locks name folders, not skills: each locked folder is read as it is now.
    const now = lock.format === 'apm' ? folders?.now(e.path!, e.skill_id) : current.get(e.skill_id);
    if (e.path !== null) lockedFolders.add(e.path);
    if (!now) {
      findings.push(removed(e));
      continue;
    }
    matched.add(now.skill_id);
    const f = compareEntry(lock.format, e, now);
    if (f) findings.push(f);
    else unchanged++;
  }
  for (const s of current.values()) {
    if (lock.format === 'apm' ? lockedFolders.has(s.path) : matched.has(s.skill_id)) continue;
    findings.push({
      code: 'SKILL_ADDED',
      skill_id: s.skill_id,
      message: `${s.skill_id} (${s.path}) is not in the lock`,
      path: s.skill_md,
      folder: s.path,
      locked_folder: null,
    });
  }
  findings.sort((a, b) => (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0));
  const n = (c: VerifyCode): number => findings.filter((f) => f.code === c).length;
  const counts = {
    locked: lock.entries.length,
    unchanged,
    changed: n('SKILL_CHANGED'),
    added: n('SKILL_ADDED'),
    removed: n('SKILL_REMOVED'),
    moved: n('SKILL_MOVED'),
  };
  const ok = findings.length === 0;
  return {
    lock_file: lock.file,
    format: lock.format,
    ok,
    counts,
    findings,
    summary: `skilldex verify: ${counts.locked} locked, ${counts.unchanged} unchanged, ${counts.changed} changed, ${counts.added} added, ${counts.removed} removed, ${counts.moved} moved: ${ok ? 'OK' : 'FAILED'}`,
    skipped,
  };
}

function removed(e: LockedEntry): VerifyFinding {
  return {
    code: 'SKILL_REMOVED',
    skill_id: e.skill_id,
    message: `${e.skill_id}${e.path !== null ? ` (${e.path})` : ''} is locked but no longer found`,
    path: null,
    folder: null,
    locked_folder: e.path,
  };
}

// The finding for a locked skill found now, or undefined when it is as locked.
function compareEntry(
  format: LockFormat,
  e: LockedEntry,
  now: CurrentSkill,
): VerifyFinding | undefined {
  const moved = e.path !== null && e.path !== now.path;
  const base = {
    skill_id: now.skill_id,
    path: now.skill_md,
    folder: now.path,
    locked_folder: e.path,
  };
  if (format === 'skills-lock') {
    const hash = skillsLockHash(now.dir);
    if (hash === e.computed_hash) return undefined;
    return {
      code: 'SKILL_CHANGED',
      ...base,
      message:
        hash === undefined
          ? `${now.skill_id}: its folder is past the bounds skills-lock hashes are recomputed within`
          : `${now.skill_id}: the folder's computedHash is ${hash}, the lock has ${e.computed_hash} (skills-lock.json does not say which files)`,
    };
  }
  const files = fileChanges(e.files ?? new Map(), now);
  const same = format === 'skilldex' ? e.folder_digest === now.folder_digest : files.length === 0;
  if (same && !moved) return undefined;
  if (same)
    return {
      code: 'SKILL_MOVED',
      ...base,
      message: `${now.skill_id} moved from ${e.path} to ${now.path}; its files are unchanged`,
    };
  const list = files.map((f) => `${f.path} (${f.change})`).join(', ');
  return {
    code: 'SKILL_CHANGED',
    ...base,
    message: `${now.skill_id}: ${files.length} file(s) differ from the lock: ${list || 'the listing bound changed'}${moved ? `; also moved from ${e.path} to ${now.path}` : ''}`,
    files,
  };
}

function fileChanges(locked: ReadonlyMap<string, string>, now: CurrentSkill): VerifyFileChange[] {
  const cur = new Map(now.files.map((f) => [f.path, f.digest]));
  return digestChanges(locked, cur, ['locked_digest', 'digest']);
}

/** The keys `checkLock` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const CHECK_LOCK_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof checkLock>[0]>>()(
  'lockFile',
  'onProgress',
  'prefer',
  'maxBytes',
  'maxFrontmatterBytes',
  'maxDepth',
  'maxEntries',
  'home',
  'project',
  'scopes',
);

/** The keys `verifyLock` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const VERIFY_LOCK_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof verifyLock>[0]>>()(
  'lockFile',
  'onProgress',
  'prefer',
  'maxBytes',
  'maxFrontmatterBytes',
  'maxDepth',
  'maxEntries',
  'home',
  'project',
  'scopes',
);
