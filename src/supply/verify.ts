/**
 * `skilldex verify` (issue #28): the library on disk checked against a lock file. Each locked skill
 * must be present with the same digests; the result is one coded finding per skill that is not —
 * SKILL_CHANGED (which files), SKILL_ADDED, SKILL_REMOVED, SKILL_MOVED — and a one-line summary for
 * CI logs. A skilldex lock is compared file by file; a vercel-labs `skills-lock.json` by its
 * `computedHash` (recomputed as its installer does, skills-lock-hash.ts), where only a mismatch is
 * conclusive: a match is HASH_AMBIGUOUS, never a pass (that hash's framing is ambiguous); an APM
 * `apm.lock.yaml` file
 * by file, its skills matched by folder. Reads the scopes and the lock file; writes nothing.
 */
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import { DISCOVER_OPTION_KEYS, type DiscoverOptions, type ScanReport } from '../skills/index.js';
import { compareUtf8, digestChanges } from './file-changes.js';
import { readLockFile, type LockFormat, type LockedEntry, type ParsedLock } from './lock-read.js';
import { skillsLockHash } from './skills-lock-hash.js';
import { folderNow, lockPathOf, snapshotLibrary, type CurrentSkill } from './snapshot.js';

/** The verify finding codes, each with its rule (docs/supply-chain.md; SARIF rule texts). */
export const VERIFY_CODES = {
  SKILL_CHANGED:
    'a locked skill is present but its files differ from the lock (changed, added or removed files, links or folders, including behind a nested SKILL.md or in node_modules)',
  SKILL_ADDED: 'a skill is in the scopes but not in the lock',
  SKILL_REMOVED: 'a locked skill is no longer in the scopes',
  SKILL_MOVED: "a locked skill's files are unchanged but its folder moved",
  SKILL_UNREADABLE:
    "a locked skill's SKILL.md is still there but cannot be read or parsed (the reason and line are given); it is not served",
  HASH_AMBIGUOUS:
    "a skills-lock.json computedHash matches, but it runs each path into the file's bytes with no separator, so it cannot pin which file holds which bytes: re-lock with skilldex lock",
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
    /** Skills a skills-lock.json hash matches without pinning their files (HASH_AMBIGUOUS). */
    readonly ambiguous: number;
    /** Locked skills whose SKILL.md is there but unreadable or unparseable (SKILL_UNREADABLE). */
    readonly unreadable: number;
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
  // Every folder whose SKILL.md discovery skipped (unreadable, unparseable), by its lock path.
  const skippedAt = new Map<string, Skipped>();
  for (const k of snapshot.scan.skipped) {
    const folder = path.basename(k.path) === 'SKILL.md' ? path.dirname(k.path) : k.path;
    skippedAt.set(lockPathOf(folder, dir, discover.home), k);
  }
  const folders: FolderView = {
    now: (rel: string, id: string): CurrentSkill | undefined =>
      folderNow(dir, rel, seen.get(rel) ?? id),
    skipped: (rel: string | null, id: string): Skipped | undefined =>
      rel !== null
        ? skippedAt.get(rel)
        : [...skippedAt].find(([p]) => path.posix.basename(p) === id)?.[1],
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

/** A SKILL.md discovery skipped, with its coded reason. */
type Skipped = ScanReport['skipped'][number];

/** How a lock that pins folders (APM's) sees the library: each locked folder as it is now. */
export interface FolderView {
  /** The folder `rel` (as the lock writes it) now; `skillId` names it when discovery did not. */
  now(rel: string, skillId: string): CurrentSkill | undefined;
  /**
   * The skip of the SKILL.md in the locked folder `rel` (null: a lock without folders, matched by
   * the folder's name `skillId`), when discovery found it but could not read or parse it.
   */
  skipped?(rel: string | null, skillId: string): Skipped | undefined;
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
      // Present but unreadable is not removed (issue 35): say so, with the reason and line.
      const skip = folders?.skipped?.(e.path, e.skill_id);
      findings.push(skip !== undefined ? unreadable(e, skip) : removed(e));
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
    ambiguous: n('HASH_AMBIGUOUS'),
    unreadable: n('SKILL_UNREADABLE'),
  };
  const ok = findings.length === 0;
  // Codes added after the first release are named only when they occur: the line stays the same.
  const more =
    (counts.unreadable > 0 ? `, ${counts.unreadable} unreadable` : '') +
    (counts.ambiguous > 0 ? `, ${counts.ambiguous} ambiguous` : '');
  return {
    lock_file: lock.file,
    format: lock.format,
    ok,
    counts,
    findings,
    summary: `skilldex verify: ${counts.locked} locked, ${counts.unchanged} unchanged, ${counts.changed} changed, ${counts.added} added, ${counts.removed} removed, ${counts.moved} moved${more}: ${ok ? 'OK' : 'FAILED'}`,
    skipped,
  };
}

function unreadable(e: LockedEntry, k: Skipped): VerifyFinding {
  return {
    code: 'SKILL_UNREADABLE',
    skill_id: e.skill_id,
    message: `${e.skill_id}: its SKILL.md is there but cannot be used (${k.code}${k.line !== undefined ? `, line ${k.line}` : ''}): ${k.reason}`,
    path: k.path,
    folder: e.path,
    locked_folder: e.path,
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
    // The installer's hash is path then bytes with no separator (vercel-labs/skills
    // src/local-lock.ts computeSkillFolderHash): a difference proves a change, a match proves
    // nothing about which file holds which bytes — a SKILL.md tail `zz-setup.sh<script>` moved into
    // a new file `zz-setup.sh` hashes the same (issue 36 L5). Never a pass: re-lock with skilldex.
    if (hash === e.computed_hash)
      return {
        code: 'HASH_AMBIGUOUS',
        ...base,
        message: `${now.skill_id}: the folder's computedHash matches skills-lock.json, but that hash runs each path into its file's bytes with no separator, so it cannot show that no text moved between files (or into a new file); pin the folder with skilldex lock and verify against skills.lock.json`,
      };
    return {
      code: 'SKILL_CHANGED',
      ...base,
      message:
        hash === undefined
          ? `${now.skill_id}: its folder is past the bounds skills-lock hashes are recomputed within`
          : `${now.skill_id}: the folder's computedHash is ${hash}, the lock has ${e.computed_hash} (skills-lock.json does not say which files)`,
    };
  }
  // Both sides of the folder: the listed files and what the listing leaves out (issue 36 L4:
  // nested SKILL.md folders, node_modules, links). An APM lock lists deployed files of any kind.
  const files =
    format === 'apm'
      ? fileChanges(e.files ?? new Map(), now, now.unlisted)
      : [
          ...fileChanges(e.files ?? new Map(), now),
          ...digestChanges(e.unlisted ?? new Map(), now.unlisted, ['locked_digest', 'digest']),
        ].sort((a, b) => compareUtf8(a.path, b.path));
  const same =
    format === 'skilldex'
      ? e.folder_digest === now.folder_digest && files.length === 0
      : files.length === 0;
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

function fileChanges(
  locked: ReadonlyMap<string, string>,
  now: CurrentSkill,
  unlisted: ReadonlyMap<string, string> = new Map(),
): VerifyFileChange[] {
  const cur = new Map([...unlisted, ...now.files.map((f) => [f.path, f.digest] as const)]);
  return digestChanges(locked, cur, ['locked_digest', 'digest']);
}

/** The keys `checkLock` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const CHECK_LOCK_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof checkLock>[0]>>()(
  'lockFile',
  'onProgress',
  ...DISCOVER_OPTION_KEYS,
);

/** The keys `verifyLock` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const VERIFY_LOCK_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof verifyLock>[0]>>()(
  'lockFile',
  'onProgress',
  ...DISCOVER_OPTION_KEYS,
);
