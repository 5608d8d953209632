/**
 * What a prompt hook suggests (issue 23 §1, docs/integration.md "Prompt hook"): the router's
 * candidates for the prompt that clear its confidence floor, without the skills whose authors set
 * `disable-model-invocation: true`, without the skills already suggested on this session's topic,
 * at most `max` of them — or nothing when the router abstains. Each says how to load it: natively
 * when the host lists it (Claude Code: a personal or project skill, `/name` or the Skill tool, or
 * an installed plugin's, `/plugin:name`;
 * Codex: a skill it lists, as src/hosts' codexListedSkills finds them, `$name`; VS Code: a skill in
 * a folder its agent mode loads, `/name`) and the listing plan did not route it, else through
 * skilldex's `skill_fetch` with its pins. Reads the catalog and the listing state;
 * writes nothing (the caller records telemetry and session state).
 */
import path from 'node:path';
import { codexListedSkills, listingStateDir, readListingState } from '../hosts/index.js';
import { isInside, realpathOrUndefined } from '../fsx/index.js';
import { hookRuleOf, isSmallTalk, type Router, type SearchResult } from '../router/index.js';
import { sanitizeField } from '../text/index.js';
import type { HookHost } from './input.js';
import { sessionStep, type SessionState } from './state.js';

/** Default and largest number of suggestions per prompt. */
export const DEFAULT_HOOK_SUGGESTIONS = 3;
export const MAX_HOOK_SUGGESTIONS = 5;
/**
 * Candidates the hook asks the router for: as many as it may ever name. Each is read and explained,
 * so asking for 10 cost a prompt ~0.3 ms more for nothing: over the 1,558 requests of the trigger
 * set with corpus-real, at most 3 candidates ever cleared v5's hook rule. A skill held back for the
 * session is not replaced by one ranked below this.
 */
export const HOOK_SEARCH_LIMIT = MAX_HOOK_SUGGESTIONS;
/** Longest one-line summary of a suggested skill. */
export const MAX_SUMMARY_CHARS = 160;

/** How a suggested skill is loaded. */
export type HookLoad =
  | { readonly kind: 'native'; readonly invoke: string }
  | {
      readonly kind: 'skill_fetch';
      readonly skill_id: string;
      readonly expected_revision: string;
      readonly catalog_generation: string;
    };

/** One suggestion. Name and summary are sanitised single lines (skill text is data). */
export interface HookSuggestion {
  readonly skill_id: string;
  readonly name: string;
  readonly summary: string;
  readonly confidence: number;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly load: HookLoad;
}

/** The hook's answer for one prompt. */
export interface HookAnswer {
  readonly catalog_generation: string;
  readonly policy: string;
  readonly min_confidence: number;
  /** True when no candidate cleared the floor: the hook prints nothing. */
  readonly abstain: boolean;
  readonly suggestions: readonly HookSuggestion[];
  /** Skills that cleared the floor but were suggested already on this topic. */
  readonly held_back: readonly string[];
  /** The skills that cleared the floor (eligible ones), best first: the session's topic. */
  readonly above: readonly string[];
  readonly same_topic: boolean;
}

/** What suggest() needs besides the router and the query. */
export interface SuggestOptions {
  readonly host: HookHost;
  readonly max?: number;
  readonly minConfidence?: number;
  readonly state?: SessionState;
  /** The folder the host runs in (project skill folders are found above it). */
  readonly cwd?: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The first sentence of a description, as one sanitised line of at most MAX_SUMMARY_CHARS. */
export function summaryOf(description: string): string {
  const line = sanitizeField(description.replace(/\s+/g, ' ').trim(), 4 * MAX_SUMMARY_CHARS);
  const m = /^(.{20,}?[.!?])\s/.exec(line + ' ');
  const first = m ? m[1]! : line;
  return first.length > MAX_SUMMARY_CHARS ? first.slice(0, MAX_SUMMARY_CHARS - 1) + '…' : first;
}

// The folders and their ancestors a host looks in for project skills, from `cwd` up.
function ancestors(cwd: string | undefined): string[] {
  if (cwd === undefined || !path.isAbsolute(cwd)) return [];
  const out: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d || out.length >= 64) return out;
  }
}

// Claude Code lists personal (~/.claude/skills/<name>/SKILL.md) and project
// (<project>/.claude/skills/<name>/SKILL.md) skills natively, by folder name
// (code.claude.com/docs/en/skills), and an enabled plugin's skills
// (~/.claude/plugins/…/skills/<name>/SKILL.md) as `<plugin>:<name>` — the id the catalog gives them
// when init indexes the plugin in place (src/skills/scopes.ts; docs/hosts.md "Plugin skills").
function claudeNative(
  file: string,
  skillId: string,
  o: SuggestOptions,
  routed: ReadonlySet<string>,
): string | undefined {
  const folder = path.dirname(file);
  const parent = path.dirname(folder);
  if (
    path.basename(file) === 'SKILL.md' &&
    path.basename(parent) === 'skills' &&
    isInside(path.join(o.home, '.claude', 'plugins'), file) &&
    skillId === `${skillId.split(':')[0]}:${path.basename(folder)}`
  )
    return routed.has(skillId) ? undefined : skillId;
  const roots = [
    path.join(o.home, '.claude', 'skills'),
    ...ancestors(o.cwd).map((d) => path.join(d, '.claude', 'skills')),
  ];
  if (path.basename(file) !== 'SKILL.md' || !roots.includes(parent)) return undefined;
  const name = path.basename(folder);
  return routed.has(name) ? undefined : name;
}

// VS Code's agent mode (Copilot harness) loads skills natively from personal ~/.copilot/skills,
// ~/.agents/skills and ~/.claude/skills and from a workspace's .github/skills, .agents/skills and
// .claude/skills, each `<folder>/<name>/SKILL.md`, invocable as `/<name>` (microsoft/vscode
// extensions/copilot/assets/prompts/skills/agent-customization/references/skills.md "Locations";
// code.visualstudio.com/docs/agents/reference/agent-skills-reference "Skill locations"). The
// workspace is taken as the prompt's folder or one above it, as for Claude Code's project skills.
function vscodeNative(file: string, o: SuggestOptions): string | undefined {
  const parent = path.dirname(path.dirname(file));
  const roots = [
    ...['.copilot', '.agents', '.claude'].map((d) => path.join(o.home, d, 'skills')),
    ...ancestors(o.cwd).flatMap((d) =>
      ['.github', '.agents', '.claude'].map((s) => path.join(d, s, 'skills')),
    ),
  ];
  if (path.basename(file) !== 'SKILL.md' || !roots.includes(parent)) return undefined;
  return path.basename(path.dirname(file));
}

// Codex lists skills by frontmatter name under its own folders and rules; src/hosts knows them
// (codexListedSkills, the same function `skilldex listing` uses), read once per run and only when
// a suggestion needs it. A skill the listing plan routed is not listed natively any more.
function codexNative(
  file: string,
  o: SuggestOptions,
  listed: () => ReadonlyMap<string, string>,
  routed: ReadonlySet<string>,
): string | undefined {
  const real = realpathOrUndefined(file) ?? file;
  const name = listed().get(real);
  return name !== undefined && !routed.has(file) && !routed.has(real) ? name : undefined;
}

// The skills a listing plan (`skilldex listing --apply`) took out of the host's own listing.
function routedSkills(o: SuggestOptions): ReadonlySet<string> {
  if (o.host !== 'claude-code' && o.host !== 'codex') return new Set();
  try {
    const s = readListingState(listingStateDir(o.home, o.env), o.host);
    if (s === undefined) return new Set();
    return new Set(o.host === 'codex' ? (s.paths ?? []) : Object.keys(s.written ?? {}));
  } catch {
    return new Set();
  }
}

function loadOf(
  router: Router,
  r: SearchResult,
  c: SearchResult['candidates'][number],
  o: SuggestOptions,
  routed: ReadonlySet<string>,
  listed: () => ReadonlyMap<string, string>,
): HookLoad {
  // Claude Code, Codex and VS Code load skills natively; every other host gets the pins.
  const nativeHost = o.host === 'claude-code' || o.host === 'codex' || o.host === 'vscode';
  const at = nativeHost ? router.locate([c.skill_id]).get(c.skill_id) : undefined;
  const native =
    at === undefined
      ? undefined
      : o.host === 'claude-code'
        ? claudeNative(at.path, c.skill_id, o, routed)
        : o.host === 'vscode'
          ? vscodeNative(at.path, o)
          : codexNative(at.path, o, listed, routed);
  if (native !== undefined && /^[\w.:-]{1,128}$/.test(native))
    return { kind: 'native', invoke: o.host === 'codex' ? `$${native}` : `/${native}` };
  return {
    kind: 'skill_fetch',
    skill_id: c.skill_id,
    expected_revision: c.revision_id,
    catalog_generation: r.catalog_generation,
  };
}

function modelInvocable(router: Router, skillId: string): boolean {
  try {
    return router.getSkill(skillId).frontmatter['disable-model-invocation'] !== true;
  } catch {
    return false;
  }
}

/**
 * The candidates of `r` the hook may name, best first, under the rule of the answer's policy
 * (router hookRuleOf: v5 names rank 1 at or above 0.45 and the next at or above 0.25, stopping at
 * the first below, and nothing for small talk; v1 and v4 every candidate at or above the policy's
 * floor); a floor the user gave (`minConfidence`) is every rank's floor. Never a skill with
 * disable-model-invocation, never one the trust bound held back (its confidence is capped below
 * the policy's floor, which v5's floors are under).
 */
function namedByRule(
  router: Router,
  r: SearchResult,
  query: string,
  minConfidence: number | undefined,
): SearchResult['candidates'] {
  const rule = hookRuleOf(r.policy);
  const out: SearchResult['candidates'][number][] = [];
  if (rule.smallTalk && isSmallTalk(query)) return out;
  for (const c of r.candidates) {
    if (c.explanation.trust_bound?.role === 'held_back') continue;
    const floor = minConfidence ?? (out.length === 0 ? rule.f1 : rule.f2);
    // A contiguous rule's policy (v5) serves confidences non-increasing down the list, so the first
    // candidate below the floor ends it whether or not the model may invoke that skill.
    if (c.confidence < floor) {
      if (rule.contiguous) break;
      continue;
    }
    // A skill the model may not invoke is passed over as if it were not ranked. Asked only of a
    // candidate that would be named: each asks the catalog.
    if (modelInvocable(router, c.skill_id)) out.push(c);
  }
  return out;
}

/** The hook's answer for `query` (see the file header). */
export function suggest(router: Router, query: string, o: SuggestOptions): HookAnswer {
  const r = router.search({
    query,
    limit: HOOK_SEARCH_LIMIT,
    ...(o.minConfidence === undefined ? {} : { min_confidence: o.minConfidence }),
  });
  const eligible = namedByRule(router, r, query, o.minConfidence);
  const above = eligible.map((c) => c.skill_id);
  const { hold, sameTopic } = sessionStep(o.state, above);
  const routed = eligible.length > 0 ? routedSkills(o) : new Set<string>();
  let codexListed: ReadonlyMap<string, string> | undefined;
  const listed = (): ReadonlyMap<string, string> => {
    if (codexListed === undefined) {
      try {
        codexListed = codexListedSkills({
          home: o.home,
          env: o.env,
          project: o.cwd !== undefined && path.isAbsolute(o.cwd) ? o.cwd : o.home,
        });
      } catch {
        codexListed = new Map();
      }
    }
    return codexListed;
  };
  const chosen = eligible
    .filter((c) => !hold.has(c.skill_id))
    .slice(0, Math.min(o.max ?? hookRuleOf(r.policy).k, MAX_HOOK_SUGGESTIONS));
  return {
    catalog_generation: r.catalog_generation,
    policy: r.policy,
    // The floor rank 1 had to reach: the user's, else the policy's hook rule (v1, v4: its floor).
    min_confidence: o.minConfidence ?? hookRuleOf(r.policy).f1,
    abstain: eligible.length === 0,
    suggestions: chosen.map((c) => ({
      skill_id: c.skill_id,
      name: sanitizeField(c.name, 128),
      summary: summaryOf(c.description),
      confidence: c.confidence,
      skill_version: c.skill_version,
      revision_id: c.revision_id,
      load: loadOf(router, r, c, o, routed, listed),
    })),
    held_back: above.filter((id) => hold.has(id)),
    above,
    same_topic: sameTopic,
  };
}
