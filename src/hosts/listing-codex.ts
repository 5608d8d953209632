/**
 * The skills Codex lists on this machine (issue 23 §2; the roots and rules are in the header of
 * listing-scopes.ts, after openai/codex codex-rs/core-skills/src/loader.rs, config_rules.rs and
 * model.rs). Reads the skill roots, `$CODEX_HOME/config.toml` and each skill's
 * `agents/openai.yaml`, bounded; never writes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { problem, type Problem } from '../errors.js';
import { readTextCapped, realpathOrUndefined, walkFiles } from '../fsx/index.js';
import { loadSkillFile, yamlLib } from '../skills/index.js';
import type { HostScopeOptions, HostSkill, HostSkills } from './listing-scopes.js';
import { CODEX_MAX_DEPTH, MAX_SETTINGS_BYTES } from './listing-scopes.js';

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(o: Pick<HostScopeOptions, 'home' | 'env'>): string {
  return o.env['CODEX_HOME'] ?? path.join(o.home, '.codex');
}

/** The Codex user config file. */
export function codexConfigFile(o: Pick<HostScopeOptions, 'home' | 'env'>): string {
  return path.join(codexHome(o), 'config.toml');
}

interface Root {
  readonly path: string;
  readonly tier: number;
  readonly scope: 'system' | 'admin' | 'repo' | 'user';
}

// The nearest ancestor of `cwd` holding `.git` (Codex's default project root marker), else cwd.
function projectRoot(cwd: string): string {
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return path.resolve(cwd);
  }
}

/** Codex's skill roots for `o`, in its scan order (tier: 0 System … 3 User). */
export function codexRoots(o: HostScopeOptions): Root[] {
  const home = codexHome(o);
  const project = projectRoot(o.project);
  const roots: Root[] = [
    { path: path.join(home, 'skills', '.system'), tier: 0, scope: 'system' },
    { path: path.join(o.systemRoot ?? '/', 'etc', 'codex', 'skills'), tier: 1, scope: 'admin' },
    { path: path.join(project, '.codex', 'skills'), tier: 2, scope: 'repo' },
  ];
  const rel = path.relative(project, path.resolve(o.project));
  let dir = project;
  roots.push({ path: path.join(dir, '.agents', 'skills'), tier: 2, scope: 'repo' });
  for (const seg of rel === '' ? [] : rel.split(path.sep)) {
    dir = path.join(dir, seg);
    roots.push({ path: path.join(dir, '.agents', 'skills'), tier: 2, scope: 'repo' });
  }
  roots.push(
    { path: path.join(home, 'skills'), tier: 3, scope: 'user' },
    { path: path.join(o.home, '.agents', 'skills'), tier: 3, scope: 'user' },
  );
  const seen = new Set<string>();
  return roots.filter((r) => !seen.has(r.path) && (seen.add(r.path), true));
}

/** One `[[skills.config]]` rule: a name or a path, enabled or not. */
interface ConfigRule {
  readonly name?: string;
  readonly path?: string;
  readonly enabled: boolean;
}

/** The `[[skills.config]]` rules of Codex's user config (config_rules.rs), in file order. */
export function codexConfigRules(file: string, problems: Problem[]): ConfigRule[] {
  if (!existsSync(file)) return [];
  const r = readTextCapped(file, { maxBytes: MAX_SETTINGS_BYTES });
  let parsed: Record<string, unknown>;
  try {
    if (!r.ok) throw new Error(r.problem.message);
    const toml = createRequire(import.meta.url)('smol-toml') as { parse(s: string): unknown };
    parsed = toml.parse(r.text) as Record<string, unknown>;
  } catch (err) {
    problems.push(unreadableSettings(file, err));
    return [];
  }
  const list = (parsed['skills'] as { config?: unknown } | undefined)?.config;
  if (!Array.isArray(list)) return [];
  const out: ConfigRule[] = [];
  for (const e of list as Record<string, unknown>[]) {
    const name = typeof e?.['name'] === 'string' ? e['name'].trim() : undefined;
    const p = typeof e?.['path'] === 'string' ? e['path'] : undefined;
    // An entry with both or neither selector is ignored, as Codex does.
    if ((name === undefined) === (p === undefined) || name === '') continue;
    out.push({
      ...(name !== undefined ? { name } : {}),
      ...(p !== undefined ? { path: realpathOrUndefined(p) ?? path.resolve(p) } : {}),
      enabled: e['enabled'] !== false,
    });
  }
  return out;
}

// `policy.allow_implicit_invocation` of a skill's agents/openai.yaml (undefined when none).
function implicitAllowed(skillFile: string, problems: Problem[]): boolean | undefined {
  const file = path.join(path.dirname(skillFile), 'agents', 'openai.yaml');
  if (!existsSync(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: 64 * 1024 });
  try {
    if (!r.ok) throw new Error(r.problem.message);
    const v = yamlLib().parse(r.text, { maxAliasCount: 100 }) as {
      policy?: { allow_implicit_invocation?: unknown };
    };
    const a = v?.policy?.allow_implicit_invocation;
    return typeof a === 'boolean' ? a : undefined;
  } catch (err) {
    problems.push(unreadableSettings(file, err));
    return undefined;
  }
}

/** The skills Codex lists for `o.project`, with their config rules and policies. */
export function codexSkills(o: HostScopeOptions): HostSkills {
  const problems: Problem[] = [];
  const found: { file: string; real: string; root: Root }[] = [];
  const seen = new Set<string>();
  for (const root of codexRoots(o)) {
    const real = realpathOrUndefined(root.path);
    if (real === undefined) continue;
    const walk = walkFiles(root.path, (n) => n === 'SKILL.md', { maxDepth: CODEX_MAX_DEPTH });
    for (const p of walk.problems) problems.push(p);
    for (const f of walk.files) {
      // Codex skips every entry whose name starts with a dot (`.system` is a root of its own).
      const rel = path.relative(root.path, f.path).split(path.sep);
      if (rel.some((seg) => seg.startsWith('.')) || seen.has(f.realPath)) continue;
      seen.add(f.realPath);
      found.push({ file: f.path, real: f.realPath, root });
    }
  }
  const file = codexConfigFile(o);
  const rules = codexConfigRules(file, problems);
  const skills: HostSkill[] = [];
  for (const f of found) {
    const r = loadSkillFile({
      path: f.file,
      realPath: f.real,
      scope: 'custom',
      scopePath: f.root.path,
    });
    if (!r.ok) {
      problems.push(r.problem);
      continue;
    }
    const rec = r.record;
    let disabled = false;
    for (const rule of rules) {
      if (rule.name === rec.name || rule.path === f.real) disabled = !rule.enabled;
    }
    const implicit = implicitAllowed(f.real, problems);
    skills.push({
      id: rec.name,
      skill_id: rec.skill_id,
      description: rec.description,
      path: f.real,
      root: realpathOrUndefined(f.root.path) ?? f.root.path,
      tier: f.root.tier,
      usage: 0,
      visibility: disabled || implicit === false ? 'hidden' : 'full',
      scope: f.root.scope,
      controllable: true,
      control: disabled
        ? 'disabled'
        : implicit === false
          ? 'allow_implicit_invocation: false'
          : null,
      control_file: disabled
        ? file
        : implicit === false
          ? path.join(path.dirname(f.real), 'agents', 'openai.yaml')
          : null,
    });
  }
  return {
    host: 'codex',
    skills: skills.sort((a, b) => a.tier - b.tier || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    settings: { files: existsSync(file) ? [file] : [] },
    problems,
  };
}

/** HOST_SETTINGS_UNREADABLE for `file`, with the first line of why. */
function unreadableSettings(file: string, err: unknown): Problem {
  return problem(
    'HOST_SETTINGS_UNREADABLE',
    file,
    `${file}: ${(err as Error).message.split('\n')[0]}`,
  );
}

/**
 * The skills Codex offers its model by name for `o.project`: real path of each SKILL.md → the
 * name Codex lists it under (its frontmatter name). The one place that knows Codex's folders and
 * rules (codexSkills: roots, depth, dot folders, `[[skills.config]]`, `allow_implicit_invocation`),
 * shared by `skilldex listing` and the prompt hook, so the hook never offers `$name` for a skill
 * Codex does not list (issue 33 item 8). A disabled or implicit-invocation-off skill is left out.
 */
export function codexListedSkills(o: HostScopeOptions): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const s of codexSkills(o).skills) if (s.visibility === 'full') out.set(s.path, s.id);
  return out;
}
