/**
 * Where a skill folder comes from in git (issue #28, `skilldex lock`): the work tree holding it,
 * its remote URL without credentials and the commit checked out, read from the repository's own
 * files — `.git` (a folder, or a `gitdir:` file for worktrees and submodules), `HEAD`, the loose or
 * packed ref it names, `commondir` and `config` — the layout git documents in
 * gitrepository-layout(5). No `git` process is run (nothing to hang, no hooks, no user config);
 * every file is size-capped. Reads nothing but the `.git` entries of the folder's ancestors and the
 * repository files they point to, and those only in a folder laid out as a repository (`HEAD`, and
 * `objects/` in the common folder): a `gitdir:` line naming any other folder is not followed.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined, readTextCapped } from '../fsx/index.js';

/** Where a folder comes from: its repository's remote, the commit, the folder's path in the repository. */
export interface GitOrigin {
  /** The `origin` remote's URL (else the first remote's), without user name or password; null when none. */
  readonly url: string | null;
  /** The commit HEAD names (40 or 64 hex digits); null for an unborn branch or an unreadable ref. */
  readonly commit: string | null;
  /** The folder's path inside the work tree (POSIX; `.` for the root). */
  readonly path: string;
}

// Deepest ancestor chain searched for a `.git` entry.
const MAX_LEVELS = 64;
// Caps of the repository files read.
const SMALL_FILE = 64 * 1024;
const CONFIG_FILE = 1024 * 1024;
const PACKED_REFS_FILE = 32 * 1024 * 1024;

interface Repo {
  readonly workTree: string;
  readonly url: string | null;
  readonly commit: string | null;
}

/** Finds the git origin of folders, caching each repository and each folder's answer. */
export class GitOrigins {
  // Folder → the repository holding it (null: none found).
  private readonly byDir = new Map<string, Repo | null>();

  /** The origin of the folder `dir` (an absolute real path), or undefined outside any work tree. */
  originOf(dir: string): GitOrigin | undefined {
    const repo = this.repoOf(dir);
    if (!repo) return undefined;
    const rel = path.relative(repo.workTree, dir).split(path.sep).join('/');
    return { url: repo.url, commit: repo.commit, path: rel === '' ? '.' : rel };
  }

  private repoOf(dir: string): Repo | null {
    const seen: string[] = [];
    let cur = dir;
    let found: Repo | null = null;
    for (let i = 0; i < MAX_LEVELS; i++) {
      const known = this.byDir.get(cur);
      if (known !== undefined) {
        found = known;
        break;
      }
      seen.push(cur);
      const repo = readRepo(cur);
      // A `.git` here that is no usable repository ends the search: an outer repository's origin
      // would not be this folder's.
      if (repo !== undefined) {
        found = repo;
        break;
      }
      const up = path.dirname(cur);
      if (up === cur) break;
      cur = up;
    }
    for (const d of seen) this.byDir.set(d, found);
    return found;
  }
}

// The repository whose work tree is `dir` (`dir/.git` a folder or a `gitdir:` file); undefined when
// `dir` has no `.git` entry, null when it has one that is no usable repository.
function readRepo(dir: string): Repo | null | undefined {
  const dotGit = path.join(dir, '.git');
  let gitDir: string;
  try {
    const st = lstatSync(dotGit);
    if (st.isDirectory()) gitDir = dotGit;
    else if (st.isFile()) {
      const t = readTextCapped(dotGit, { maxBytes: SMALL_FILE });
      const m = t.ok ? /^gitdir:\s*(.+?)\s*$/m.exec(t.text) : null;
      if (!m) return null;
      gitDir = path.resolve(dir, m[1]!);
    } else return null;
  } catch {
    // No `.git` here: look further up.
    return undefined;
  }
  const common = readSmall(path.join(gitDir, 'commondir'));
  const commonDir = common !== undefined ? path.resolve(gitDir, common.trim()) : gitDir;
  // A `gitdir:` or `commondir` may name any folder: read only one laid out as a repository.
  if (
    lstatOrUndefined(path.join(gitDir, 'HEAD'))?.isFile() !== true ||
    lstatOrUndefined(path.join(commonDir, 'objects'))?.isDirectory() !== true
  )
    return null;
  return { workTree: dir, url: remoteUrl(commonDir), commit: headCommit(gitDir, commonDir) };
}

function readSmall(file: string, max = SMALL_FILE): string | undefined {
  const t = readTextCapped(file, { maxBytes: max });
  return t.ok ? t.text : undefined;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

// HEAD's commit: a detached sha, or the sha of the ref it names (loose, then packed).
function headCommit(gitDir: string, commonDir: string): string | null {
  const head = readSmall(path.join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return null;
  if (SHA.test(head)) return head;
  const ref = /^ref:\s*(refs\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((s) => s === '..' || s === '')) return null;
  for (const base of [gitDir, commonDir]) {
    const loose = readSmall(path.join(base, ...ref.split('/')))?.trim();
    if (loose !== undefined && SHA.test(loose)) return loose;
  }
  const packed = readSmall(path.join(commonDir, 'packed-refs'), PACKED_REFS_FILE);
  for (const line of (packed ?? '').split('\n')) {
    const [sha, name] = line.trim().split(/\s+/);
    if (name === ref && sha !== undefined && SHA.test(sha)) return sha;
  }
  return null;
}

// The `origin` remote's URL, else the first remote's, from the repository's config.
function remoteUrl(commonDir: string): string | null {
  const text = readSmall(path.join(commonDir, 'config'), CONFIG_FILE);
  if (text === undefined) return null;
  const remotes = new Map<string, string>();
  let section: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const head = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line);
    if (head) {
      section = head[1]!;
      continue;
    }
    if (line.startsWith('[')) {
      section = undefined;
      continue;
    }
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (section !== undefined && kv && !remotes.has(section))
      remotes.set(section, unquote(kv[1]!.replace(/\s+[#;].*$/, '')));
  }
  const url = remotes.get('origin') ?? remotes.values().next().value;
  return url === undefined ? null : stripCredentials(url);
}

function unquote(v: string): string {
  const t = v.trim();
  return t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t;
}

/**
 * `url` without credentials: a URL with a scheme loses its user name and password (a token is often
 * written as either); an scp-like `user@host:path` keeps its user, an account name git needs.
 */
export function stripCredentials(url: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    // Not a URL the WHATWG parser takes: drop anything before an `@` in the authority.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
}
