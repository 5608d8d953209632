/**
 * The reads behind the security checks (security.ts is pure): for each discovered skill, its
 * SKILL.md frontmatter (every string value, scanned like the body) and body, its supporting text
 * files, and the hooks file of the plugin it belongs to.
 *
 * Nothing a skill ships is skipped silently (issue 36 L7): supporting files are walked in the skill
 * folder (bounded, `.git` and `node_modules` and nested skills left out); a link is followed when
 * its real path is inside the skill's scope (the sanctioned root) and reported as SCAN_INCOMPLETE
 * when it leads outside; text is decoded lossily (an invalid UTF-8 byte becomes U+FFFD), UTF-16
 * with a byte-order mark (or the NUL pattern of UTF-16 text) is decoded as such; a file over
 * MAX_SCANNED_FILE_BYTES has its first MAX_SCANNED_FILE_BYTES scanned and is reported as
 * SCAN_INCOMPLETE, as are files past the per-skill budget and files that cannot be read. Only
 * binary files (NUL bytes that are not UTF-16) are data and not scanned. A plugin's root is the
 * folder above the skill's `skills/` folder when the skill comes from a plugin scope, or when that
 * folder holds `.claude-plugin/plugin.json`; its hooks are `hooks/hooks.json` and the `hooks` of
 * plugin.json. Never reads outside a skill's scope or its plugin's root.
 */
import path from 'node:path';
import {
  SKIPPED_DIRS,
  readFirstBytes,
  readTextCapped,
  realpathOrUndefined,
  resolveInside,
  walkFiles,
} from '../fsx/index.js';
import { splitFrontmatter, type SkillRecord } from '../skills/index.js';
import { escapeInvisible } from '../text/index.js';
import { LINT_CODES, type RawFinding } from './codes.js';
import {
  checkPluginHooks,
  checkSecurity,
  type HooksFile,
  type SecuritySkill,
  type SecurityText,
} from './security.js';

/** Bytes scanned of one supporting file: 512 KiB (a larger file has its first 512 KiB scanned). */
export const MAX_SCANNED_FILE_BYTES = 512 * 1024;

// Bounds of the walk of one skill folder.
const MAX_WALK_DEPTH = 8;
const MAX_WALK_ENTRIES = 5000;

/** Most bytes of supporting files scanned per skill: 4 MiB. */
export const MAX_SCANNED_SKILL_BYTES = 4 * 1024 * 1024;

// Largest hooks or plugin.json file read.
const MAX_HOOKS_BYTES = 256 * 1024;

/**
 * The security findings of `records` (discovered skills) whose SKILL.md texts are `texts` (same
 * order; an empty text when the file could not be read again).
 */
export function securityFindings(
  records: readonly SkillRecord[],
  texts: readonly string[],
): RawFinding[] {
  const out: RawFinding[] = [];
  const plugins = new Map<string, string[]>();
  records.forEach((r, i) => {
    const text = texts[i] ?? '';
    const unscanned: Unscanned[] = [];
    out.push(...checkSecurity(securitySkillOf(r, text, unscanned)));
    out.push(...unscanned.map((u) => unscannedFinding(r.skill_id, u)));
    const root = pluginRootOf(r);
    if (root !== undefined) plugins.set(root, [...(plugins.get(root) ?? []), r.skill_id]);
  });
  for (const [root, ids] of [...plugins].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const file of hooksFilesOf(root)) out.push(...checkPluginHooks(file, ids));
  }
  return out;
}

/** A file of a skill that was not (fully) scanned, and why. */
export interface Unscanned {
  /** The file as walked (below the skill's folder as discovery named it). */
  readonly path: string;
  readonly reason: 'partly-scanned' | 'budget' | 'link-outside' | 'unreadable';
  readonly detail: string;
  readonly size?: number;
  readonly scanned_bytes?: number;
}

/**
 * What the checks read of one skill: its frontmatter and body and its supporting text files. Files
 * not (fully) scanned are pushed to `unscanned` (reported as SCAN_INCOMPLETE by the caller).
 */
export function securitySkillOf(
  r: SkillRecord,
  text: string,
  unscanned: Unscanned[] = [],
): SecuritySkill {
  const split = splitFrontmatter(text, r.path);
  const offset = split.ok ? split.bodyOffset : 0;
  const texts: SecurityText[] = [
    { path: r.path, text: text.slice(offset), firstLine: text.slice(0, offset).split('\n').length },
  ];
  // The frontmatter as written (description, when_to_use, metadata, hooks…): its routed fields'
  // invisible characters are reported per field already (file-checks.ts HIDDEN_TEXT).
  if (offset > 0)
    texts.push({ path: r.path, text: text.slice(0, offset), firstLine: 1, frontmatter: true });
  const dir = path.dirname(r.real_path);
  const shown = (p: string): string => path.join(path.dirname(r.path), path.relative(dir, p));
  const scopeRoot = realpathOrUndefined(r.scope_path) ?? dir;
  const walked = walkFiles(dir, () => true, {
    allowedRoots: [scopeRoot, dir],
    maxDepth: MAX_WALK_DEPTH,
    maxEntries: MAX_WALK_ENTRIES,
  });
  // A folder holding its own SKILL.md is another skill, scanned as itself.
  const nested = walked.files
    .filter((f) => path.basename(f.path) === 'SKILL.md' && path.dirname(f.path) !== dir)
    .map((f) => path.dirname(f.path) + path.sep);
  const ours = (p: string): boolean =>
    !nested.some((n) => p.startsWith(n)) &&
    !path
      .relative(dir, p)
      .split(path.sep)
      .some((s) => SKIPPED_DIRS.has(s));
  for (const p of walked.problems) {
    if (!ours(p.path)) continue;
    unscanned.push({
      path: shown(p.path),
      reason: p.code === 'PATH_OUTSIDE_ROOT' ? 'link-outside' : 'unreadable',
      detail: p.message,
    });
  }
  let budget = MAX_SCANNED_SKILL_BYTES;
  const files = walked.files
    .filter((f) => f.path !== path.join(dir, 'SKILL.md') && ours(f.path) && f.isFile !== false)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of files) {
    if (budget <= 0) {
      unscanned.push({
        path: shown(f.path),
        reason: 'budget',
        detail: `the skill's files passed the ${MAX_SCANNED_SKILL_BYTES / 1024 / 1024} MiB scan budget`,
        ...(f.size !== undefined ? { size: f.size } : {}),
      });
      continue;
    }
    // A link inside the scope is read at its target (a real path: nothing left to follow).
    const head = readFirstBytes(f.realPath, Math.min(MAX_SCANNED_FILE_BYTES, budget));
    if (!head.ok) {
      unscanned.push({ path: shown(f.path), reason: 'unreadable', detail: head.problem.message });
      continue;
    }
    budget -= head.bytes.length;
    if (head.size > head.bytes.length)
      unscanned.push({
        path: shown(f.path),
        reason: 'partly-scanned',
        detail: `${head.size} bytes; the first ${head.bytes.length} were scanned`,
        size: head.size,
        scanned_bytes: head.bytes.length,
      });
    const decoded = decodeText(head.bytes);
    if (decoded === undefined) continue;
    texts.push({ path: shown(f.path), text: decoded, firstLine: 1 });
  }
  return {
    skill_id: r.skill_id,
    path: r.path,
    text,
    scope: r.scope,
    frontmatter: r.frontmatter,
    texts,
  };
}

/**
 * The text of `bytes` as a scanner should read it: UTF-16 (by its byte-order mark, or by NUL bytes
 * at every other position, as UTF-16 text has), else UTF-8 decoded lossily (an invalid byte becomes
 * U+FFFD, the rest is read). Undefined for binary content (other NUL bytes).
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString('utf16le');
  if (b[0] === 0xfe && b[1] === 0xff) return swap16(b.subarray(2)).toString('utf16le');
  if (b.includes(0)) {
    const sample = b.subarray(0, Math.min(b.length, 4096));
    const zeros = (odd: number): number => {
      let z = 0;
      for (let i = odd; i < sample.length; i += 2) if (sample[i] === 0) z++;
      return z;
    };
    const half = Math.floor(sample.length / 2);
    if (half > 0 && zeros(1) >= half * 0.9 && zeros(0) === 0) return b.toString('utf16le');
    if (half > 0 && zeros(0) >= half * 0.9 && zeros(1) === 0) return swap16(b).toString('utf16le');
    return undefined;
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(b);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function swap16(b: Buffer): Buffer {
  const out = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  return out.swap16();
}

function unscannedFinding(skillId: string, u: Unscanned): RawFinding {
  const what: Record<Unscanned['reason'], string> = {
    'partly-scanned': `only partly scanned: ${u.detail}`,
    budget: `not scanned: ${u.detail}`,
    'link-outside': `not scanned: a link leading outside the skill's scope (${u.detail})`,
    unreadable: `not scanned: ${u.detail}`,
  };
  return {
    code: 'SCAN_INCOMPLETE',
    severity: LINT_CODES.SCAN_INCOMPLETE.severity,
    skill_ids: [skillId],
    path: u.path,
    message: escapeInvisible(what[u.reason]),
    fix:
      u.reason === 'link-outside'
        ? 'ship the file inside the skill folder instead of linking to it, or review the link target by hand'
        : 'review the rest of the file by hand; ship scripts as small readable files',
    details: {
      reason: u.reason,
      ...(u.size !== undefined ? { size: u.size } : {}),
      ...(u.scanned_bytes !== undefined ? { scanned_bytes: u.scanned_bytes } : {}),
    },
  };
}

/** The root of the plugin `r` belongs to, or undefined. */
export function pluginRootOf(r: SkillRecord): string | undefined {
  const skillsDir = path.dirname(path.dirname(r.real_path));
  if (path.basename(skillsDir) !== 'skills') return undefined;
  const root = path.dirname(skillsDir);
  if (r.scope === 'plugin') return root;
  const manifest = readTextCapped(path.join(root, '.claude-plugin', 'plugin.json'), {
    maxBytes: MAX_HOOKS_BYTES,
  });
  return manifest.ok ? root : undefined;
}

/** The hooks files of the plugin at `root`: hooks/hooks.json, and plugin.json's inline or named hooks. */
export function hooksFilesOf(root: string): HooksFile[] {
  const out: HooksFile[] = [];
  const read = (rel: string): HooksFile | undefined => {
    let file: string;
    try {
      file = resolveInside(root, rel);
    } catch {
      // A hooks path that leaves the plugin's root is not read.
      return undefined;
    }
    const t = readTextCapped(file, { maxBytes: MAX_HOOKS_BYTES });
    if (!t.ok) return undefined;
    try {
      return { path: file, text: t.text, hooks: JSON.parse(t.text) as unknown };
    } catch {
      // Not JSON: the host will not load it either.
      return undefined;
    }
  };
  const standard = read('hooks/hooks.json');
  if (standard) out.push(standard);
  const manifest = read('.claude-plugin/plugin.json');
  const declared =
    manifest && manifest.hooks !== null && typeof manifest.hooks === 'object'
      ? (manifest.hooks as Record<string, unknown>)['hooks']
      : undefined;
  if (typeof declared === 'string') {
    const named = read(declared.replace(/^\.\//, ''));
    if (named && named.path !== standard?.path) out.push(named);
  } else if (manifest && declared !== null && typeof declared === 'object') {
    // Inline: the hooks.json shape (`{ "hooks": { Event: … } }`) or its events directly.
    out.push({ ...manifest, hooks: 'hooks' in declared ? declared : { hooks: declared } });
  }
  return out;
}
