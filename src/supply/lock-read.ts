/**
 * Reading lock files for `skilldex verify` and `index --locked` (issue #28): skilldex's own
 * `skills.lock.json` (lock.ts), and where the fields fit, the lock files agent-skill installers
 * write — vercel-labs/skills `skills-lock.json` (src/local-lock.ts: per skill name a `computedHash`,
 * sha256 hex over every file's relative path and bytes) and Microsoft APM `apm.lock.yaml`
 * (src/apm_cli/deps/lockfile.py, documented at microsoft.github.io/apm/reference/lockfile-spec:
 * per deployed file a sha256 in `deployed_file_hashes` / `local_deployed_file_hashes`). Each becomes
 * one list of locked entries; docs/supply-chain.md says which fields map. The YAML is parsed as data
 * only (core schema, alias limits: the frontmatter parser's settings). A file that is none of these
 * is LOCK_INVALID, naming the file and what is wrong.
 */
import path from 'node:path';
import { SkilldexError } from '../errors.js';
import { readTextCapped } from '../fsx/index.js';
import { parseFrontmatter } from '../skills/index.js';
import { LOCK_VERSION } from './lock.js';

/** Largest lock file read: 64 MiB. */
export const MAX_LOCK_BYTES = 64 * 1024 * 1024;

/** The lock formats `verify` reads. */
export type LockFormat = 'skilldex' | 'skills-lock' | 'apm';

/** One locked skill, whatever the format. */
export interface LockedEntry {
  /** The skill id (an APM entry: its folder's name until a skill there is found). */
  readonly skill_id: string;
  /** The folder as the lock writes it (relative to the lock's folder); null when the format has none. */
  readonly path: string | null;
  /** Each file's `sha256:` digest by its path in the folder, when the format lists files. */
  readonly files?: ReadonlyMap<string, string>;
  /** A skilldex lock's `unlisted` entries (inventory.ts); empty when the entry has none. */
  readonly unlisted?: ReadonlyMap<string, string>;
  readonly folder_digest?: string;
  readonly revision_id?: string;
  /** skills-lock.json's `computedHash` (64 hex). */
  readonly computed_hash?: string;
}

/**
 * A lock file read: its format, the scopes it names (a skilldex lock's `scopes`; for an APM lock the
 * folders it deployed skills into) and its entries.
 */
export interface ParsedLock {
  readonly file: string;
  readonly format: LockFormat;
  readonly scopes?: readonly string[];
  readonly entries: readonly LockedEntry[];
}

/** Reads and parses the lock file `file` (absolute). FILE_NOT_FOUND, NOT_A_FILE, FILE_TOO_LARGE, LOCK_INVALID. */
export function readLockFile(file: string): ParsedLock {
  const r = readTextCapped(file, { maxBytes: MAX_LOCK_BYTES });
  if (!r.ok) {
    const code =
      r.problem.code === 'FILE_TOO_LARGE'
        ? 'FILE_TOO_LARGE'
        : r.problem.code === 'NOT_A_FILE'
          ? 'NOT_A_FILE'
          : r.problem.code === 'BINARY_CONTENT' || r.problem.code === 'INVALID_UTF8'
            ? 'LOCK_INVALID'
            : 'FILE_NOT_FOUND';
    throw new SkilldexError(code, `lock file ${file}: ${r.problem.message}`, { lock_file: file });
  }
  return parseLock(r.text, file);
}

/** Parses the text of a lock file named `file` (pure). LOCK_INVALID when it is no known format. */
export function parseLock(text: string, file: string): ParsedLock {
  if (/^<{7}( |$)/m.test(text))
    throw invalid(file, 'it holds git merge conflict markers: resolve the merge first');
  const trimmed = text.trimStart();
  let data: unknown;
  if (trimmed.startsWith('{')) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw invalid(file, `not valid JSON (${(err as Error).message})`);
    }
  } else {
    const parsed = parseFrontmatter(text, file, 1, { fastPath: false });
    if (!parsed.ok)
      throw invalid(file, `neither JSON nor a YAML mapping (${parsed.problem.message})`);
    data = parsed.data;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalid(file, 'the top level is not an object');
  const o = data as Record<string, unknown>;
  if (o['generator'] === 'skilldex') return parseSkilldex(o, file);
  if (typeof o['version'] === 'number' && isObject(o['skills'])) return parseSkillsLock(o, file);
  if (o['lockfile_version'] !== undefined && ('dependencies' in o || 'local_deployed_files' in o))
    return parseApm(o, file);
  throw invalid(
    file,
    'not a lock format skilldex reads (skilldex skills.lock.json, vercel-labs skills-lock.json, APM apm.lock.yaml)',
  );
}

function invalid(file: string, why: string, details: Record<string, unknown> = {}): SkilldexError {
  return new SkilldexError('LOCK_INVALID', `lock file ${file}: ${why}`, {
    lock_file: file,
    ...details,
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
// The kinds inventory.ts records for an entry the listing leaves out.
const UNLISTED_KIND =
  /^(sha256:[0-9a-f]{64}|link:[^]*|dir|special|unhashed:\d+|unreadable:[A-Z0-9_a-z]+)$/;

function parseSkilldex(o: Record<string, unknown>, file: string): ParsedLock {
  if (o['lockfile_version'] !== LOCK_VERSION)
    throw invalid(
      file,
      `lockfile_version ${JSON.stringify(o['lockfile_version'])} is not ${LOCK_VERSION}`,
    );
  const scopes = o['scopes'];
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))
  )
    throw invalid(file, 'scopes must be a list of folders');
  if (!isObject(o['skills'])) throw invalid(file, 'skills must be an object of skill ids');
  const entries: LockedEntry[] = [];
  for (const [id, v] of Object.entries(o['skills'])) {
    const bad = (field: string): SkilldexError =>
      invalid(file, `skills.${JSON.stringify(id)}.${field} is missing or malformed`, {
        skill_id: id,
        field,
      });
    if (!isObject(v)) throw bad('(entry)');
    if (typeof v['path'] !== 'string') throw bad('path');
    if (typeof v['revision_id'] !== 'string' || !DIGEST.test(v['revision_id']))
      throw bad('revision_id');
    if (typeof v['folder_digest'] !== 'string' || !DIGEST.test(v['folder_digest']))
      throw bad('folder_digest');
    const files = v['files'];
    if (
      !isObject(files) ||
      !Object.values(files).every((d) => typeof d === 'string' && DIGEST.test(d))
    )
      throw bad('files');
    const unlisted = v['unlisted'] ?? {};
    if (
      !isObject(unlisted) ||
      !Object.values(unlisted).every((k) => typeof k === 'string' && UNLISTED_KIND.test(k))
    )
      throw bad('unlisted');
    entries.push({
      skill_id: id,
      path: v['path'],
      files: new Map(Object.entries(files as Record<string, string>)),
      unlisted: new Map(Object.entries(unlisted as Record<string, string>)),
      folder_digest: v['folder_digest'],
      revision_id: v['revision_id'],
    });
  }
  return {
    file,
    format: 'skilldex',
    ...(scopes !== undefined ? { scopes: scopes as string[] } : {}),
    entries,
  };
}

// vercel-labs/skills skills-lock.json: { version, skills: { name: { source, sourceType, computedHash, ref? } } }.
function parseSkillsLock(o: Record<string, unknown>, file: string): ParsedLock {
  const entries: LockedEntry[] = [];
  for (const [name, v] of Object.entries(o['skills'] as Record<string, unknown>)) {
    const hash = isObject(v) ? v['computedHash'] : undefined;
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      throw invalid(file, `skills.${JSON.stringify(name)}.computedHash is not 64 hex digits`, {
        skill_id: name,
      });
    entries.push({ skill_id: name, path: null, computed_hash: hash });
  }
  return { file, format: 'skills-lock', entries };
}

// Microsoft APM apm.lock.yaml: every deployed file's hash, grouped here by the skill folder (a
// folder holding a deployed SKILL.md) the file is in. Files outside skill folders are not skills.
function parseApm(o: Record<string, unknown>, file: string): ParsedLock {
  const hashes = new Map<string, string>();
  const add = (v: unknown, where: string): void => {
    if (v === undefined || v === null) return;
    if (!isObject(v)) throw invalid(file, `${where} is not a mapping of file paths to hashes`);
    for (const [p, h] of Object.entries(v)) {
      const hex = typeof h === 'string' ? h.replace(/^sha256:/, '') : '';
      if (!/^[0-9a-f]{64}$/.test(hex)) throw invalid(file, `${where}.${p} is not a sha256 hash`);
      hashes.set(path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, ''), `sha256:${hex}`);
    }
  };
  add(o['local_deployed_file_hashes'], 'local_deployed_file_hashes');
  const deps = o['dependencies'];
  if (deps !== undefined && deps !== null && !Array.isArray(deps))
    throw invalid(file, 'dependencies is not a list');
  (Array.isArray(deps) ? deps : []).forEach((d, i) => {
    if (isObject(d)) add(d['deployed_file_hashes'], `dependencies[${i}].deployed_file_hashes`);
  });
  const folders = [...hashes.keys()]
    .filter((p) => p === 'SKILL.md' || p.endsWith('/SKILL.md'))
    .map((p) => path.posix.dirname(p))
    .sort((a, b) => b.length - a.length);
  const entries: LockedEntry[] = [];
  const taken = new Set<string>();
  for (const dir of folders) {
    const prefix = dir === '.' ? '' : `${dir}/`;
    const files = new Map<string, string>();
    for (const [p, h] of hashes) {
      if (taken.has(p) || !p.startsWith(prefix)) continue;
      files.set(p.slice(prefix.length), h);
      taken.add(p);
    }
    entries.push({ skill_id: path.posix.basename(dir), path: dir, files });
  }
  // The folders APM deployed skills into (.github/skills, .claude/skills, …) are the scopes verified.
  const scopes = [...new Set(entries.map((e) => path.posix.dirname(e.path!)))].sort();
  return {
    file,
    format: 'apm',
    ...(scopes.length > 0 ? { scopes } : {}),
    entries: entries.sort((a, b) => (a.path! < b.path! ? -1 : 1)),
  };
}
