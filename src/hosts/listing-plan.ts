/**
 * `skilldex listing` (issue 23 §2): what a host's own skill listing holds for this machine's skills
 * now — full, cut, listed by name, dropped — and a plan that fits its budget: the skills that stay
 * natively listed (the router skill first, then the most used — skilldex's fetches and usage
 * examples, and the host's own usage record — then those whose descriptions carry the most words
 * no other skill has), the rest left to the router skill and the prompt hook. Reads; the plan's
 * controls are written by listing-controls.ts.
 */
import path from 'node:path';
import { TelemetryReader, catalogExists, listUsage, telemetryPathFor } from '../catalog/index.js';
import { realpathOrUndefined } from '../fsx/index.js';
import { analyzeTerms } from '../text/index.js';
import { codexHome, codexSkills } from './listing-codex.js';
import {
  CLAUDE_CODE_LISTING,
  claudeCodeBudget,
  codexBudget,
  fullLineCost,
  hostListing,
  type ListingBudget,
  type ListingHost,
  type ListingResult,
} from './listing-rules.js';
import {
  claudeCodeSkills,
  type HostListingSettings,
  type HostScopeOptions,
  type HostSkill,
} from './listing-scopes.js';
import type { Problem } from '../errors.js';
import { assertKnownOptions, optionKeys } from '../errors.js';

/** The skilldex router skill, kept natively listed first when present. */
export const ROUTER_SKILL = 'skill-router';

/** What `listing` is asked. */
export interface ListingOptions extends HostScopeOptions {
  readonly host: ListingHost;
  /** The model's context window in tokens (default: the host's default). */
  readonly contextTokens?: number;
  /** A fixed budget in characters (overrides the window and the host's settings). */
  readonly budgetChars?: number;
  /** The skilldex catalog whose telemetry and usage examples rank the skills (optional). */
  readonly catalog?: string;
  /**
   * Skills whose current control skilldex wrote (Claude Code ids, Codex SKILL.md paths): planned
   * again as if uncontrolled.
   */
  readonly ownControls?: ReadonlySet<string>;
  /**
   * How routed skills are controlled: `hidden` (Claude Code `user-invocable-only`, Codex `enabled =
   * false`: out of the model's listing) or `name-only` (Claude Code: listed by name alone, so the
   * model can still load it itself). Default `hidden`.
   */
  readonly routeAs?: 'hidden' | 'name-only';
  /** A `skillListingBudgetFraction` to plan with (Claude Code), as `listing --budget-fraction` writes. */
  readonly budgetFraction?: number;
}

/** Scopes whose skills belong to one project: never planned into the user's global settings. */
export const PROJECT_SCOPES: ReadonlySet<string> = new Set(['project', 'repo']);

/** One skill in a listing report: how the host lists it now and under the plan. */
export interface ListingSkillReport {
  readonly id: string;
  readonly skill_id: string;
  readonly scope: string;
  readonly path: string;
  readonly controllable: boolean;
  readonly control: string | null;
  readonly usage: number;
  readonly now: ListingResult['entries'][number];
  readonly planned: ListingResult['entries'][number];
  /**
   * `keep` (natively listed), `route` (left to the router and the hook), `fixed` (no control: plugin
   * skills), `hidden` (kept out by the user's own control), `project` (a project's skill: the plan
   * writes the user's global settings, so it neither controls nor makes room for project skills).
   */
  readonly plan: 'keep' | 'route' | 'fixed' | 'hidden' | 'project';
  /** Why a kept skill is kept: `router`, `usage` (used N times) or `distinctive` (N words only it has). */
  readonly keep_reason?: { readonly why: 'router' | 'usage' | 'distinctive'; readonly n: number };
}

/** The listing report. */
export interface ListingReport {
  readonly host: ListingHost;
  readonly budget: ListingBudget;
  readonly settings: HostListingSettings;
  readonly now: Omit<ListingResult, 'entries'>;
  readonly planned: Omit<ListingResult, 'entries'>;
  /** True when skilldex's router skill is among this host's skills. */
  readonly router_skill: boolean;
  /** How the plan controls routed skills (see ListingOptions.routeAs). */
  readonly route_as: 'hidden' | 'name-only';
  readonly skills: readonly ListingSkillReport[];
  readonly problems: readonly Problem[];
}

/** How much each catalog skill is used, for skilldex: fetches plus the weights of its examples. */
export function skilldexUsage(catalog: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (catalog === undefined || !catalogExists(catalog)) return out;
  const file = telemetryPathFor(catalog);
  for (const [id, n] of new TelemetryReader(file).fetchCounts()) out.set(id, n);
  try {
    for (const e of listUsage(file)) out.set(e.skill_id, (out.get(e.skill_id) ?? 0) + e.weight);
  } catch {
    // Usage examples are advisory: an unreadable file plans as if none had been learned.
  }
  return out;
}

function budgetOf(o: ListingOptions, settings: HostListingSettings): ListingBudget {
  if (o.host === 'codex') {
    return codexBudget({
      ...(o.contextTokens !== undefined ? { contextTokens: o.contextTokens } : {}),
      ...(o.budgetChars !== undefined ? { fixedChars: o.budgetChars } : {}),
    });
  }
  const fixed = o.budgetChars ?? settings.fixed_chars;
  const fraction = o.budgetFraction ?? settings.budget_fraction;
  const b = claudeCodeBudget({
    ...(o.contextTokens !== undefined ? { contextTokens: o.contextTokens } : {}),
    ...(fraction !== undefined ? { fraction } : {}),
    ...(fixed !== undefined ? { fixedChars: fixed } : {}),
  });
  if (o.budgetChars === undefined && settings.fixed_chars !== undefined)
    return { ...b, source: 'env' };
  if (fixed === undefined && fraction !== undefined) return { ...b, source: 'settings' };
  return b;
}

// Words of each skill's description no more than one other skill uses: what only it can match.
function uniqueness(skills: readonly HostSkill[]): Map<string, number> {
  const terms = new Map(skills.map((s) => [s.id, new Set(analyzeTerms(s.description))]));
  const df = new Map<string, number>();
  for (const t of terms.values()) for (const w of t) df.set(w, (df.get(w) ?? 0) + 1);
  return new Map(
    [...terms].map(([id, t]) => [id, [...t].filter((w) => (df.get(w) ?? 0) <= 2).length]),
  );
}

/** Why a kept skill is kept (see ListingSkillReport.keep_reason). */
export type KeepReason = NonNullable<ListingSkillReport['keep_reason']>;

/**
 * The plan (SKILL.md paths to keep and to route): skills with no control (fixed) stay; then the
 * router skill, the most used and the most distinctive are kept while their full lines fit the
 * budget (a line that does not fit is skipped, smaller later ones still tried; the router skill is
 * kept even when it does not fit); every other
 * controllable skill is routed. With `routeAs: 'name-only'` (Claude Code) a routed skill still
 * costs its name line, so that is set aside first. `why` says why each kept skill is kept.
 */
export function planListing(
  host: ListingHost,
  skills: readonly HostSkill[],
  budget: ListingBudget,
  usage: ReadonlyMap<string, number>,
  maxEntry: number = CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS,
  routeAs: 'hidden' | 'name-only' = 'hidden',
): { keep: Set<string>; route: Set<string>; why: Map<string, KeepReason> } {
  // Keyed by SKILL.md path: two Codex skills may share a name.
  const visible = skills.filter((s) => s.visibility !== 'hidden');
  let room = budget.limit;
  for (const s of visible) if (!s.controllable) room -= fullLineCost(host, s, budget, maxEntry);
  const nameCost = (s: HostSkill): number =>
    routeAs === 'name-only' && host === 'claude-code' ? `- ${s.id}`.length + 1 : 0;
  for (const s of visible) if (s.controllable) room -= nameCost(s);
  const uniq = uniqueness(visible);
  const score = (s: HostSkill): number => (usage.get(s.skill_id) ?? 0) + s.usage;
  const order = visible
    .filter((s) => s.controllable)
    .sort(
      (a, b) =>
        Number(b.id === ROUTER_SKILL) - Number(a.id === ROUTER_SKILL) ||
        score(b) - score(a) ||
        (uniq.get(b.id) ?? 0) - (uniq.get(a.id) ?? 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  const keep = new Set<string>();
  const route = new Set<string>();
  const why = new Map<string, KeepReason>();
  for (const s of order) {
    const cost = fullLineCost(host, s, budget, maxEntry) - nameCost(s);
    // The router skill is the way in to every routed skill: it stays listed even over the budget.
    if (cost <= room || s.id === ROUTER_SKILL) {
      keep.add(s.path);
      room -= cost;
      why.set(
        s.path,
        s.id === ROUTER_SKILL
          ? { why: 'router', n: 0 }
          : score(s) > 0
            ? { why: 'usage', n: score(s) }
            : { why: 'distinctive', n: uniq.get(s.id) ?? 0 },
      );
    } else route.add(s.path);
  }
  return { keep, route, why };
}

/** The listing report of `o.host` for this machine. */
export function listingReport(o: ListingOptions): ListingReport {
  assertKnownOptions(o, LISTING_REPORT_OPTION_KEYS, 'listingReport');
  const found = o.host === 'codex' ? codexSkills(o) : claudeCodeSkills(o);
  const own = o.ownControls ?? new Set<string>();
  // Controls skilldex wrote are planned again from scratch; the host's other controls stand.
  const mine = (s: HostSkill): boolean => own.has(o.host === 'codex' ? s.path : s.id);
  const skills = found.skills.map((s) =>
    mine(s) ? { ...s, visibility: 'full' as const, control: null } : s,
  );
  const budget = budgetOf(o, found.settings);
  const maxEntry = found.settings.max_entry_chars ?? CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS;
  const usage = skilldexUsage(o.catalog);
  const nowResult = hostListing(o.host, found.skills, budget, maxEntry);
  const routeAs = o.host === 'claude-code' ? (o.routeAs ?? 'hidden') : 'hidden';
  // The controls go to the user's global settings: planned from the user's own skills alone, so a
  // project's skills never push a personal skill out of every other project's listing (L14).
  // A project folder that is the home folder reads the user's own folders as a project's: those stay the user's.
  const userRoots = new Set(
    (o.host === 'codex'
      ? [path.join(codexHome(o), 'skills'), path.join(o.home, '.agents', 'skills')]
      : [path.join(o.home, '.claude', 'skills')]
    ).map((r) => realpathOrUndefined(r) ?? path.resolve(r)),
  );
  const ofProject = (s: HostSkill): boolean =>
    PROJECT_SCOPES.has(s.scope) &&
    !userRoots.has(realpathOrUndefined(s.root) ?? path.resolve(s.root));
  const { keep, route, why } = planListing(
    o.host,
    skills.filter((s) => !ofProject(s)),
    budget,
    usage,
    maxEntry,
    routeAs,
  );
  const routedVisibility = routeAs === 'name-only' ? ('name-only' as const) : ('hidden' as const);
  const plannedSkills = skills.map((s) =>
    route.has(s.path) ? { ...s, visibility: routedVisibility } : s,
  );
  const plannedResult = hostListing(o.host, plannedSkills, budget, maxEntry);
  const nowByPath = new Map(nowResult.entries.map((e) => [e.path, e]));
  const plannedByPath = new Map(plannedResult.entries.map((e) => [e.path, e]));
  const report: ListingSkillReport[] = found.skills.map((s) => {
    const reason = why.get(s.path);
    return {
      id: s.id,
      skill_id: s.skill_id,
      scope: s.scope,
      path: s.path,
      controllable: s.controllable,
      control: s.control,
      usage: (usage.get(s.skill_id) ?? 0) + s.usage,
      now: nowByPath.get(s.path)!,
      planned: plannedByPath.get(s.path)!,
      plan: keep.has(s.path)
        ? 'keep'
        : route.has(s.path)
          ? 'route'
          : ofProject(s)
            ? 'project'
            : s.visibility === 'hidden' && !mine(s)
              ? 'hidden'
              : 'fixed',
      ...(reason ? { keep_reason: reason } : {}),
    };
  });
  const summary = ({ entries: _e, ...rest }: ListingResult): Omit<ListingResult, 'entries'> => rest;
  return {
    host: o.host,
    budget,
    settings: found.settings,
    now: summary(nowResult),
    planned: summary(plannedResult),
    router_skill: found.skills.some((s) => s.id === ROUTER_SKILL),
    route_as: routeAs,
    skills: report,
    problems: found.problems,
  };
}

/** The keys `listingReport` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const LISTING_REPORT_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof listingReport>[0]>>()(
  'host',
  'contextTokens',
  'budgetChars',
  'catalog',
  'ownControls',
  'home',
  'project',
  'env',
  'now',
  'systemRoot',
  'routeAs',
  'budgetFraction',
);
