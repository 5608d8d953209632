/**
 * The skills each host lists on this machine (issue 23 §2), with the controls that already apply
 * to them: where the host looks, what its settings say, and what its own usage record says. Reads
 * only the host's skill folders and settings files, each bounded (fsx), and never writes.
 *
 * Claude Code (code.claude.com/docs/en/skills, /settings): personal `~/.claude/skills`, project
 * `.claude/skills`, and the skills of enabled plugins (src/skills/scopes.ts reads the plugin
 * registry), each `<folder>/<name>/SKILL.md` (direct children only); not `.agents/skills`. A skill's listed name is its folder's name (`plugin:folder` for a
 * plugin's). `disable-model-invocation: true` keeps it out of the listing. `skillOverrides` and the
 * budget settings come from managed (`/etc/claude-code/managed-settings.json`), local
 * (`.claude/settings.local.json`), project (`.claude/settings.json`) and user
 * (`~/.claude/settings.json`) settings, in that precedence; `SLASH_COMMAND_TOOL_CHAR_BUDGET` from
 * the environment or a settings `env` block. Usage counts (which descriptions Claude Code keeps
 * first) come from `~/.claude.json` `skillUsage` (`{ usageCount, lastUsedAt }` per skill).
 *
 * Codex (openai/codex codex-rs/core-skills/src/loader.rs): System `$CODEX_HOME/skills/.system`,
 * Admin `/etc/codex/skills`, Repo `.agents/skills` in every folder from the project root (the
 * nearest `.git`) down to the working folder and the project's `.codex/skills`, User
 * `$CODEX_HOME/skills` (deprecated) and `~/.agents/skills`; at most 6 folders deep, folders whose
 * name starts with a dot skipped. A skill's name is its frontmatter `name` (else its folder).
 * `[[skills.config]]` entries of `$CODEX_HOME/config.toml` (`name` or `path`, `enabled = false`)
 * disable a skill (config_rules.rs); `policy.allow_implicit_invocation: false` in the skill's
 * `agents/openai.yaml` keeps it out of the listing (model.rs). Codex plugins are not read here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { problem, type Problem } from '../errors.js';
import { readTextCapped } from '../fsx/index.js';
import {
  enumerateSkillFiles,
  loadSkillFile,
  resolveIdentities,
  resolveScopes,
  type Scope,
  type SkillRecord,
} from '../skills/index.js';
import type { ListingHost, ListingSkill } from './listing-rules.js';

/** Largest settings file read (settings.json, config.toml, agents/openai.yaml). */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;
/** Largest `~/.claude.json` read (it also holds per-project state). */
export const MAX_CLAUDE_STATE_BYTES = 32 * 1024 * 1024;
/** Claude Code's depth below a skills folder: `<name>/SKILL.md`. */
export const CLAUDE_SKILL_DEPTH = 1;
/** Codex's scan depth below a skill root (MAX_SCAN_DEPTH). */
export const CODEX_MAX_DEPTH = 6;

/** A skill as one host sees it, with its control and the catalog id it maps to. */
export interface HostSkill extends ListingSkill {
  /** The skilldex catalog id (frontmatter name; `plugin:name` for a plugin's). */
  readonly skill_id: string;
  /** Where it was found: `personal`, `project`, `plugin`, or Codex's `system`, `admin`, `repo`, `user`. */
  readonly scope: string;
  /** False when the host offers no per-skill control for it (a Claude Code plugin's skill). */
  readonly controllable: boolean;
  /** The control in force now (`skillOverrides` value, `disabled`, `policy`), null for none. */
  readonly control: string | null;
  /** The settings file the control came from, when one did. */
  readonly control_file: string | null;
}

/** Budget settings found in the host's own files. */
export interface HostListingSettings {
  /** Claude Code `skillListingBudgetFraction`. */
  readonly budget_fraction?: number;
  /** Claude Code `skillListingMaxDescChars`. */
  readonly max_entry_chars?: number;
  /** `SLASH_COMMAND_TOOL_CHAR_BUDGET`. */
  readonly fixed_chars?: number;
  /** The files read, in the order applied. */
  readonly files: readonly string[];
}

/** The skills and settings of one host. */
export interface HostSkills {
  readonly host: ListingHost;
  readonly skills: readonly HostSkill[];
  readonly settings: HostListingSettings;
  readonly problems: readonly Problem[];
}

/** Where to look. */
export interface HostScopeOptions {
  readonly home: string;
  /** The working folder (project scopes). */
  readonly project: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Clock for usage decay (default now). */
  readonly now?: Date;
  /** Root of system-wide files (default `/`; tests point it elsewhere). */
  readonly systemRoot?: string;
}

type Json = Record<string, unknown>;

function readJsonFile(file: string, max: number, problems: Problem[]): Json | undefined {
  if (!existsSync(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: max });
  if (!r.ok) {
    problems.push(problem('HOST_SETTINGS_UNREADABLE', file, `${file}: ${r.problem.message}`));
    return undefined;
  }
  try {
    const v = JSON.parse(r.text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Json;
    throw new Error('not a JSON object');
  } catch (err) {
    problems.push(problem('HOST_SETTINGS_UNREADABLE', file, `${file}: ${(err as Error).message}`));
    return undefined;
  }
}

/** Claude Code's settings files, lowest precedence first. */
export function claudeSettingsFiles(o: HostScopeOptions): string[] {
  return [
    path.join(o.home, '.claude', 'settings.json'),
    path.join(o.project, '.claude', 'settings.json'),
    path.join(o.project, '.claude', 'settings.local.json'),
    path.join(o.systemRoot ?? '/', 'etc', 'claude-code', 'managed-settings.json'),
  ];
}

function positive(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

// Usage score of each skill in ~/.claude.json: count × max(0.5^(days since last use / 7), 0.1).
function claudeUsage(o: HostScopeOptions, problems: Problem[]): Map<string, number> {
  const out = new Map<string, number>();
  const state = readJsonFile(path.join(o.home, '.claude.json'), MAX_CLAUDE_STATE_BYTES, problems);
  const usage = state?.['skillUsage'];
  if (!usage || typeof usage !== 'object') return out;
  const now = (o.now ?? new Date()).getTime();
  for (const [name, v] of Object.entries(usage as Json)) {
    const u = v as { usageCount?: unknown; lastUsedAt?: unknown } | null;
    const count = positive(u?.usageCount) ?? 0;
    const last =
      typeof u?.lastUsedAt === 'number' ? u.lastUsedAt : Date.parse(String(u?.lastUsedAt));
    const days = Number.isFinite(last) ? Math.max(0, (now - last) / 86_400_000) : Infinity;
    out.set(name, count * Math.max(0.5 ** (days / 7), 0.1));
  }
  return out;
}

function loadRecords(
  scopes: readonly Scope[],
  maxDepth?: number,
): { records: SkillRecord[]; problems: Problem[] } {
  const found = enumerateSkillFiles(scopes, maxDepth !== undefined ? { maxDepth } : {});
  const problems: Problem[] = found.skipped.map((s) => problem(s.code, s.path, s.reason));
  const records: SkillRecord[] = [];
  for (const f of found.files) {
    const r = loadSkillFile(f);
    if (r.ok) records.push(r.record);
    else problems.push(r.problem);
  }
  return { records, problems };
}

/** The skills Claude Code lists for `o.project`, with their overrides, usage and settings. */
export function claudeCodeSkills(o: HostScopeOptions): HostSkills {
  const resolved = resolveScopes({ home: o.home, project: o.project });
  const scopes = resolved.scopes.filter(
    (s) => s.kind === 'personal' || s.kind === 'project' || s.kind === 'plugin',
  );
  // Claude Code reads `skills/<name>/SKILL.md`: direct children of a skills folder only.
  const { records, problems } = loadRecords(scopes, CLAUDE_SKILL_DEPTH);
  problems.push(...resolved.problems);
  const ids = resolveIdentities(records);
  const overrides = new Map<string, { value: string; file: string }>();
  let fraction: number | undefined;
  let maxChars: number | undefined;
  let fixed = positive(o.env['SLASH_COMMAND_TOOL_CHAR_BUDGET']);
  const files: string[] = [];
  for (const file of claudeSettingsFiles(o)) {
    const s = readJsonFile(file, MAX_SETTINGS_BYTES, problems);
    if (!s) continue;
    files.push(file);
    const ov = s['skillOverrides'];
    if (ov && typeof ov === 'object')
      for (const [k, v] of Object.entries(ov as Json))
        if (typeof v === 'string') overrides.set(k, { value: v, file });
    fraction = positive(s['skillListingBudgetFraction']) ?? fraction;
    maxChars = positive(s['skillListingMaxDescChars']) ?? maxChars;
    const env = s['env'] as Json | undefined;
    if (o.env['SLASH_COMMAND_TOOL_CHAR_BUDGET'] === undefined)
      fixed = positive(env?.['SLASH_COMMAND_TOOL_CHAR_BUDGET']) ?? fixed;
  }
  const usage = claudeUsage(o, problems);
  const skills = ids.skills.map((r): HostSkill => {
    const folder = path.basename(path.dirname(r.path));
    const plugin = r.scope === 'plugin';
    const id = plugin && r.plugin ? `${r.plugin}:${folder}` : folder;
    const ov = plugin ? undefined : overrides.get(id);
    const modelOff = r.frontmatter['disable-model-invocation'] === true;
    const visibility =
      modelOff || ov?.value === 'off' || ov?.value === 'user-invocable-only'
        ? 'hidden'
        : ov?.value === 'name-only'
          ? 'name-only'
          : 'full';
    return {
      id,
      skill_id: r.skill_id,
      description: r.description,
      ...(r.when_to_use !== undefined ? { when_to_use: r.when_to_use } : {}),
      path: r.path,
      root: r.scope_path,
      tier: 0,
      usage: usage.get(id) ?? 0,
      visibility,
      scope: r.scope,
      controllable: !plugin,
      control: modelOff ? 'disable-model-invocation' : (ov?.value ?? null),
      control_file: modelOff ? r.path : (ov?.file ?? null),
    };
  });
  return {
    host: 'claude-code',
    skills: skills.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    settings: {
      ...(fraction !== undefined ? { budget_fraction: fraction } : {}),
      ...(maxChars !== undefined ? { max_entry_chars: Math.floor(maxChars) } : {}),
      ...(fixed !== undefined ? { fixed_chars: Math.floor(fixed) } : {}),
      files,
    },
    problems,
  };
}
