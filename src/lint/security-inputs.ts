/**
 * The reads behind the security checks (security.ts is pure): for each discovered skill, the body
 * of its SKILL.md and its supporting text files, and the hooks file of the plugin it belongs to.
 * Supporting files are listed as the index lists them (catalog `listSupportingFiles`: confined to
 * the skill folder, no links followed, bounded) and read size-capped without following a link;
 * binary and non-UTF-8 files are skipped. A plugin's root is the folder above the skill's `skills/`
 * folder when the skill comes from a plugin scope, or when that folder holds
 * `.claude-plugin/plugin.json`; its hooks are `hooks/hooks.json` and the `hooks` of plugin.json.
 * Never reads outside a skill folder or its plugin's root.
 */
import path from 'node:path';
import { listSupportingFiles } from '../catalog/index.js';
import { readTextCapped, resolveInside } from '../fsx/index.js';
import { splitFrontmatter, type SkillRecord } from '../skills/index.js';
import type { RawFinding } from './codes.js';
import {
  checkPluginHooks,
  checkSecurity,
  type HooksFile,
  type SecuritySkill,
  type SecurityText,
} from './security.js';

/** Largest supporting file scanned: 512 KiB (scripts; larger files are data). */
export const MAX_SCANNED_FILE_BYTES = 512 * 1024;

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
    out.push(...checkSecurity(securitySkillOf(r, text)));
    const root = pluginRootOf(r);
    if (root !== undefined) plugins.set(root, [...(plugins.get(root) ?? []), r.skill_id]);
  });
  for (const [root, ids] of [...plugins].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const file of hooksFilesOf(root)) out.push(...checkPluginHooks(file, ids));
  }
  return out;
}

/** What the checks read of one skill: its body and its supporting text files. */
export function securitySkillOf(r: SkillRecord, text: string): SecuritySkill {
  const split = splitFrontmatter(text, r.path);
  const offset = split.ok ? split.bodyOffset : 0;
  const texts: SecurityText[] = [
    { path: r.path, text: text.slice(offset), firstLine: text.slice(0, offset).split('\n').length },
  ];
  const dir = path.dirname(r.real_path);
  const listing = listSupportingFiles(dir);
  let budget = MAX_SCANNED_SKILL_BYTES;
  for (const f of listing.files) {
    if (f.size > MAX_SCANNED_FILE_BYTES || f.size > budget) continue;
    const read = readTextCapped(path.join(dir, ...f.path.split('/')), {
      maxBytes: MAX_SCANNED_FILE_BYTES,
      noFollow: true,
    });
    if (!read.ok) continue;
    budget -= read.size;
    texts.push({
      path: path.join(path.dirname(r.path), ...f.path.split('/')),
      text: read.text,
      firstLine: 1,
    });
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
