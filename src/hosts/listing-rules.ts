/**
 * What an agent host puts in its model's skill listing, as pure functions (issue 23 §2): the
 * budget, the per-entry caps, the order and the overflow rules of Claude Code and of Codex, applied
 * to a list of skills. Never reads a file (listing-scopes.ts finds each host's skills on a machine)
 * and never decides what should be listed (listing-plan.ts does). `skilldex listing` and the lint
 * checks of listing cost both use these functions, so the two never disagree.
 *
 * Claude Code — code.claude.com/docs/en/skills, "Skill descriptions are cut short": every skill
 * name is listed; the description (with `when_to_use` appended) of each entry is capped at 1,536
 * characters (`skillListingMaxDescChars`); the listing's budget scales at 1 % of the context
 * window (`skillListingBudgetFraction`, default 0.01; `SLASH_COMMAND_TOOL_CHAR_BUDGET` sets a fixed
 * number of characters instead), 8,000 characters at the default 200,000-token window; when the
 * listing overflows, descriptions are dropped starting with the skills invoked least.
 * `disable-model-invocation: true` and the `skillOverrides` values `off` and
 * `user-invocable-only` keep a skill out of the listing, `name-only` lists its name alone
 * (settings schema of Claude Code 2.1.x, `skillListingBudgetFraction`, `skillListingMaxDescChars`,
 * `skillOverrides`); plugin skills are not affected by `skillOverrides`. The arithmetic as the
 * shipped CLI does it — budget = floor(window × 4 × fraction) characters, lines `- name: text`
 * joined by newlines, names always kept, descriptions granted whole in order of usage (count ×
 * max(0.5^(days since last use / 7), 0.1)), a description that does not fit skipped and later
 * ones still tried, a capped text ending in `…` — is as martinholovsky/SOTA-skills PR #349 read it
 * from Claude Code 2.1.268 and as the listing reimplementations it cites test it.
 *
 * Codex — openai/codex codex-rs/core-skills/src/render.rs: a budget of 2 % of the context window
 * in tokens (bytes / 4, rounded up, per line with its newline), or 8,000 characters when the
 * window is unknown; lines `- name: description (file: path)`, skills ordered System, Admin, Repo,
 * User, then by name and path; if every full line fits, all are shown; else if every line without
 * its description fits, the room left is handed out one description character at a time to each
 * skill in turn (shortening, no marker); else descriptions are all removed and skills are listed
 * in that order while their bare lines fit, the rest omitted. When shortening or omitting, Codex
 * also tries paths relative to aliased skill roots (`r0/…`, with a roots table) and keeps that
 * rendering when it lists more. A description is capped at 1,024 characters
 * (MAX_DEFAULT_CONTEXT_SKILL_DESCRIPTION_CHARS, suffix `...`). The 272,000-token default window is
 * the one whose 2 % Codex logs as `budget_limit=5440` (openai/codex issue #24299).
 */
import { findClauses } from '../text/index.js';
import { assertKnownOptions, optionKeys } from '../errors.js';

/** A host whose listing skilldex computes. */
export type ListingHost = 'claude-code' | 'codex';

/** Claude Code's listing rules (see the file header for the sources). */
export const CLAUDE_CODE_LISTING = Object.freeze({
  /** The context window assumed when none is given (tokens). */
  DEFAULT_CONTEXT_TOKENS: 200_000,
  /** `skillListingBudgetFraction`'s default. */
  BUDGET_FRACTION: 0.01,
  /** Characters per token in the budget arithmetic. */
  CHARS_PER_TOKEN: 4,
  /** `skillListingMaxDescChars`'s default: the cap of one entry's text. */
  MAX_ENTRY_CHARS: 1_536,
  /** What a capped entry text ends with (counted in the cap). */
  ELLIPSIS: '…',
  /** Between the description and `when_to_use` in an entry's text. */
  WHEN_TO_USE_JOINER: ' - ',
});

/** Codex's listing rules (see the file header for the sources). */
export const CODEX_LISTING = Object.freeze({
  /** The context window assumed when none is given (tokens). */
  DEFAULT_CONTEXT_TOKENS: 272_000,
  /** SKILL_METADATA_CONTEXT_WINDOW_PERCENT. */
  CONTEXT_WINDOW_PERCENT: 2,
  /** DEFAULT_SKILL_METADATA_CHAR_BUDGET, when the window is unknown. */
  FALLBACK_CHARS: 8_000,
  /** APPROX_BYTES_PER_TOKEN. */
  BYTES_PER_TOKEN: 4,
  /** MAX_DEFAULT_CONTEXT_SKILL_DESCRIPTION_CHARS. */
  MAX_DESCRIPTION_CHARS: 1_024,
  /** TRUNCATED_SKILL_DESCRIPTION_SUFFIX. */
  TRUNCATED_SUFFIX: '...',
});

/** A listing budget: characters (Claude Code; Codex without a window) or tokens (Codex). */
export interface ListingBudget {
  readonly unit: 'chars' | 'tokens';
  readonly limit: number;
  /** How it was set, for reports: `default`, `context-tokens`, `budget-chars`, `settings`, `env`. */
  readonly source: string;
}

/** One skill as a host sees it, before the listing rules run. */
export interface ListingSkill {
  /** The name the host lists (`plugin:name` for a Claude Code plugin skill). */
  readonly id: string;
  readonly description: string;
  readonly when_to_use?: string;
  /** SKILL.md path as the host prints it (Codex lines carry it). */
  readonly path: string;
  /** The skill root it was found under (Codex's aliases shorten paths below it). */
  readonly root: string;
  /** Codex: 0 System, 1 Admin, 2 Repo, 3 User (listing order). Claude Code: 0. */
  readonly tier: number;
  /** Claude Code: its usage score (higher keeps its description first). Codex: unused. */
  readonly usage: number;
  /** What the host's own controls say: listed in full, by name alone, or not at all. */
  readonly visibility: 'full' | 'name-only' | 'hidden';
}

/** What the listing does to one skill. */
export type ListingOutcome = 'full' | 'truncated' | 'name-only' | 'omitted' | 'hidden';

/** Words of a description that the cut took away: trigger phrases and "do not use" clauses. */
export interface CutLoss {
  /** Characters of the entry's text shown. */
  readonly kept_chars: number;
  /** Characters of the entry's text not shown. */
  readonly lost_chars: number;
  /** Quoted phrases and "use when / trigger" clauses that end after the cut. */
  readonly lost_triggers: readonly string[];
  /** "Do not use / not for / don't use" clauses that end after the cut. */
  readonly lost_negatives: readonly string[];
}

/** One skill's fate in the listing. */
export interface ListedEntry {
  readonly id: string;
  /** The skill's SKILL.md path (what tells two skills of one name apart). */
  readonly path: string;
  readonly outcome: ListingOutcome;
  /** Characters of its full entry text (description, plus `when_to_use` on Claude Code). */
  readonly text_chars: number;
  /** What its line costs in the budget's unit (0 when hidden or omitted). */
  readonly cost: number;
  /** What was cut from its text, when it was truncated or listed by name. */
  readonly loss?: CutLoss;
}

/** A host's listing of a set of skills. */
export interface ListingResult {
  readonly host: ListingHost;
  readonly budget: ListingBudget;
  /** What the listing costs, in the budget's unit (at most the budget unless names alone exceed it). */
  readonly total: number;
  /** What every visible skill in full would cost. */
  readonly full_total: number;
  readonly over_budget: boolean;
  /** Codex: the listing printed paths relative to aliased roots. */
  readonly aliased: boolean;
  readonly counts: Readonly<Record<ListingOutcome, number>>;
  /** In the host's listing order (Claude Code: the skills' order given; Codex: its own). */
  readonly entries: readonly ListedEntry[];
}

/** A budget of `chars` characters, as `--budget-chars` (or SLASH_COMMAND_TOOL_CHAR_BUDGET) sets it. */
function fixedCharsBudget(chars: number): ListingBudget {
  return { unit: 'chars', limit: Math.max(1, Math.floor(chars)), source: 'budget-chars' };
}

/** The Claude Code budget in characters. */
export function claudeCodeBudget(
  options: { contextTokens?: number; fraction?: number; fixedChars?: number } = {},
): ListingBudget {
  assertKnownOptions(options, CLAUDE_CODE_BUDGET_OPTION_KEYS, 'claudeCodeBudget');
  if (options.fixedChars !== undefined) return fixedCharsBudget(options.fixedChars);
  const c = CLAUDE_CODE_LISTING;
  const window = options.contextTokens ?? c.DEFAULT_CONTEXT_TOKENS;
  const fraction = options.fraction ?? c.BUDGET_FRACTION;
  return {
    unit: 'chars',
    limit: Math.max(1, Math.floor(window * c.CHARS_PER_TOKEN * fraction)),
    source: options.contextTokens !== undefined ? 'context-tokens' : 'default',
  };
}

/** The Codex budget: tokens of 2 % of the window, or characters when told so. */
export function codexBudget(
  options: { contextTokens?: number; fixedChars?: number } = {},
): ListingBudget {
  assertKnownOptions(options, CODEX_BUDGET_OPTION_KEYS, 'codexBudget');
  if (options.fixedChars !== undefined) return fixedCharsBudget(options.fixedChars);
  const window = options.contextTokens ?? CODEX_LISTING.DEFAULT_CONTEXT_TOKENS;
  return {
    unit: 'tokens',
    limit: Math.max(1, Math.floor((window * CODEX_LISTING.CONTEXT_WINDOW_PERCENT) / 100)),
    source: options.contextTokens !== undefined ? 'context-tokens' : 'default',
  };
}

/** A Claude Code entry's text: description (+ ` - when_to_use`), capped with `…`. */
export function claudeCodeEntryText(
  description: string,
  whenToUse: string | undefined,
  maxChars: number = CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS,
): { full: string; shown: string; capped: boolean } {
  const c = CLAUDE_CODE_LISTING;
  const full =
    whenToUse !== undefined && whenToUse !== ''
      ? `${description}${c.WHEN_TO_USE_JOINER}${whenToUse}`
      : description;
  if (full.length <= maxChars) return { full, shown: full, capped: false };
  return {
    full,
    shown: full.slice(0, Math.max(0, maxChars - c.ELLIPSIS.length)) + c.ELLIPSIS,
    capped: true,
  };
}

/** A Codex description as listed: one line (whitespace runs as one space), capped at 1,024 with `...`. */
export function codexDescription(description: string): {
  full: string;
  shown: string;
  capped: boolean;
} {
  const full = description.replace(/\s+/g, ' ').trim();
  const chars = [...full];
  const max = CODEX_LISTING.MAX_DESCRIPTION_CHARS;
  if (chars.length <= max) return { full, shown: full, capped: false };
  const suffix = CODEX_LISTING.TRUNCATED_SUFFIX;
  return { full, shown: chars.slice(0, max - suffix.length).join('') + suffix, capped: true };
}

const QUOTED = /"[^"\n]{2,80}"|\u201c[^\u201d\n]{2,80}\u201d|'[^'\n]{3,80}'/g;

/**
 * What of `text` a cut after `keptChars` characters loses: the trigger phrases (quoted phrases,
 * "use when / triggers on" clauses) and the "do not use / not for" clauses that end after the cut.
 * The clauses are lint's (findClauses, src/text/clauses.ts), so `listing` and `lint` name the same
 * ones; a quoted phrase inside a "do not use" clause is part of that clause, not a trigger.
 */
export function cutLoss(text: string, keptChars: number): CutLoss {
  const clauses = findClauses(text).map((c) => ({ ...c, at: c.start }));
  const negatives = clauses.filter((c) => c.kind === 'negative');
  const inNegative = (x: { at: number }): boolean =>
    negatives.some((n) => x.at >= n.at && x.at < n.end);
  const quoted = [...text.matchAll(QUOTED)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
    text: m[0].trim(),
  }));
  const triggers = [...clauses.filter((c) => c.kind === 'trigger'), ...quoted]
    .filter((x) => !inNegative(x))
    .sort((a, b) => a.at - b.at || b.end - a.end);
  const lost = (xs: readonly { end: number; text: string }[]): string[] =>
    xs.filter((x) => x.end > keptChars).map((x) => x.text.slice(0, 120));
  return {
    kept_chars: Math.min(keptChars, text.length),
    lost_chars: Math.max(0, text.length - keptChars),
    lost_triggers: lost(triggers),
    lost_negatives: lost(negatives),
  };
}

function countOutcomes(entries: readonly ListedEntry[]): Record<ListingOutcome, number> {
  const out: Record<ListingOutcome, number> = {
    full: 0,
    truncated: 0,
    'name-only': 0,
    omitted: 0,
    hidden: 0,
  };
  for (const e of entries) out[e.outcome]++;
  return out;
}

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Claude Code's listing of `skills` under `budget` (characters): entries capped at `maxEntryChars`,
 * then, over budget, every name kept and descriptions granted whole by usage (ties: id), skipping
 * one that does not fit. Hidden skills cost nothing.
 */
export function claudeCodeListing(
  skills: readonly ListingSkill[],
  budget: ListingBudget,
  maxEntryChars: number = CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS,
): ListingResult {
  const visible = skills.filter((s) => s.visibility !== 'hidden');
  const texts = new Map(
    visible.map((s) => [s.id, claudeCodeEntryText(s.description, s.when_to_use, maxEntryChars)]),
  );
  const nameLine = (s: ListingSkill): number => `- ${s.id}`.length;
  const descPart = (s: ListingSkill): number => `: ${texts.get(s.id)!.shown}`.length;
  const newlines = Math.max(0, visible.length - 1);
  const fullTotal =
    visible.reduce((n, s) => n + nameLine(s) + (s.visibility === 'full' ? descPart(s) : 0), 0) +
    newlines;
  const granted = new Set<string>();
  if (fullTotal <= budget.limit) {
    for (const s of visible) if (s.visibility === 'full') granted.add(s.id);
  } else {
    let room = budget.limit - visible.reduce((n, s) => n + nameLine(s), 0) - newlines;
    const order = visible
      .filter((s) => s.visibility === 'full')
      .sort((a, b) => b.usage - a.usage || byId(a, b));
    for (const s of order) {
      const need = descPart(s);
      if (need <= room) {
        granted.add(s.id);
        room -= need;
      }
    }
  }
  let total = newlines;
  const entries: ListedEntry[] = skills.map((s) => {
    if (s.visibility === 'hidden')
      return { id: s.id, path: s.path, outcome: 'hidden', text_chars: 0, cost: 0 };
    const t = texts.get(s.id)!;
    const full = [...t.full].length;
    if (granted.has(s.id)) {
      const cost = nameLine(s) + descPart(s);
      total += cost;
      if (!t.capped) return { id: s.id, path: s.path, outcome: 'full', text_chars: full, cost };
      return {
        id: s.id,
        path: s.path,
        outcome: 'truncated',
        text_chars: full,
        cost,
        loss: cutLoss(t.full, t.shown.length - 1),
      };
    }
    const cost = nameLine(s);
    total += cost;
    return {
      id: s.id,
      path: s.path,
      outcome: 'name-only',
      text_chars: full,
      cost,
      loss: cutLoss(t.full, 0),
    };
  });
  return {
    host: 'claude-code',
    budget,
    total,
    full_total: fullTotal,
    over_budget: fullTotal > budget.limit,
    aliased: false,
    counts: countOutcomes(entries),
    entries,
  };
}

/** The listing of `skills` under `host`'s rules (claudeCodeListing or codexListing). */
export function hostListing(
  host: ListingHost,
  skills: readonly ListingSkill[],
  budget: ListingBudget,
  maxEntryChars: number = CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS,
): ListingResult {
  return host === 'codex'
    ? codexListing(skills, budget)
    : claudeCodeListing(skills, budget, maxEntryChars);
}

/**
 * What one skill's full line costs alone under `host`'s rules, its newline included: Claude Code's
 * `- id: text` (characters), Codex's `- id: description (file: path)` (characters, or tokens as
 * ceil(UTF-8 bytes / 4)). The planner's line-by-line arithmetic (listing-plan.ts).
 */
export function fullLineCost(
  host: ListingHost,
  s: ListingSkill,
  budget: ListingBudget,
  maxEntryChars: number = CLAUDE_CODE_LISTING.MAX_ENTRY_CHARS,
): number {
  if (host === 'claude-code')
    return (
      `- ${s.id}: ${claudeCodeEntryText(s.description, s.when_to_use, maxEntryChars).shown}`
        .length + 1
    );
  return lineCost(budget, `- ${s.id}: ${codexDescription(s.description).shown} (file: ${s.path})`);
}

// What a line costs under `budget`: characters, or tokens as ceil(UTF-8 bytes / 4); with its newline.
function lineCost(budget: ListingBudget, line: string): number {
  return costOf(budget, [...line].length + 1, Buffer.byteLength(line, 'utf8') + 1);
}

function costOf(budget: ListingBudget, chars: number, bytes: number): number {
  return budget.unit === 'chars' ? chars : Math.ceil(bytes / CODEX_LISTING.BYTES_PER_TOKEN);
}

interface CodexLine {
  readonly skill: ListingSkill;
  readonly desc: { full: string; shown: string; capped: boolean };
  readonly path: string;
}

function codexLine(l: CodexLine, descChars: number | undefined): string {
  const chars = [...l.desc.shown];
  const d = descChars === undefined ? l.desc.shown : chars.slice(0, descChars).join('');
  return d === ''
    ? `- ${l.skill.id}: (file: ${l.path})`
    : `- ${l.skill.id}: ${d} (file: ${l.path})`;
}

/**
 * Codex's three stages (see the file header): every full line; else bare lines plus description
 * characters handed out one at a time in turn; else bare lines in order while they fit.
 * Returns the description characters shown per line (undefined: the line is omitted).
 */
function codexStages(
  lines: readonly CodexLine[],
  limit: number,
  budget: ListingBudget,
): (number | undefined)[] {
  const full = lines.map((l) => lineCost(budget, codexLine(l, undefined)));
  if (full.reduce((a, b) => a + b, 0) <= limit) return lines.map((l) => [...l.desc.shown].length);
  const min = lines.map((l) => lineCost(budget, codexLine(l, 0)));
  const minTotal = min.reduce((a, b) => a + b, 0);
  if (minTotal > limit) {
    let used = 0;
    return min.map((c) => {
      if (used + c > limit) return undefined;
      used += c;
      return 0;
    });
  }
  // Description characters, one per skill per pass; a character costs what it adds to the line.
  const bare = lines.map((l) => codexLine(l, 0));
  const baseChars = bare.map((b) => [...b].length + 1);
  const baseBytes = bare.map((b) => Buffer.byteLength(b, 'utf8') + 1);
  const chars = lines.map((l) => [...l.desc.shown]);
  const alloc = lines.map(() => 0);
  const bytes = lines.map(() => 0);
  const extra = lines.map(() => 0);
  let room = limit - minTotal;
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < lines.length; i++) {
      const c = chars[i]!;
      if (alloc[i]! >= c.length) continue;
      const b = bytes[i]! + Buffer.byteLength(c[alloc[i]!]!, 'utf8');
      const next = costOf(budget, baseChars[i]! + alloc[i]! + 2, baseBytes[i]! + b + 1) - min[i]!;
      const delta = next - extra[i]!;
      if (delta > room) continue;
      alloc[i]!++;
      bytes[i] = b;
      extra[i] = next;
      room -= delta;
      changed = true;
    }
  }
  return alloc;
}

function codexEntries(
  lines: readonly CodexLine[],
  shown: readonly (number | undefined)[],
  budget: ListingBudget,
): ListedEntry[] {
  return lines.map((l, i) => {
    const n = shown[i];
    const text = [...l.desc.full].length;
    if (n === undefined)
      return {
        id: l.skill.id,
        path: l.skill.path,
        outcome: 'omitted',
        text_chars: text,
        cost: 0,
        loss: cutLoss(l.desc.full, 0),
      };
    const cost = lineCost(budget, codexLine(l, n));
    if (n === 0 && text > 0)
      return {
        id: l.skill.id,
        path: l.skill.path,
        outcome: 'name-only',
        text_chars: text,
        cost,
        loss: cutLoss(l.desc.full, 0),
      };
    if (n < [...l.desc.shown].length || l.desc.capped)
      return {
        id: l.skill.id,
        path: l.skill.path,
        outcome: 'truncated',
        text_chars: text,
        cost,
        loss: cutLoss(l.desc.full, Math.min(n, [...l.desc.shown].length - (l.desc.capped ? 3 : 0))),
      };
    return { id: l.skill.id, path: l.skill.path, outcome: 'full', text_chars: text, cost };
  });
}

// A path below one of `roots` as `r<i>/<rest>`, else as it is.
function aliasPath(p: string, roots: readonly string[]): string {
  for (let i = 0; i < roots.length; i++) {
    const r = roots[i]!.endsWith('/') ? roots[i]! : roots[i]! + '/';
    if (p.startsWith(r)) return `r${i}/${p.slice(r.length)}`;
  }
  return p;
}

function rankOf(entries: readonly ListedEntry[]): [number, number, number] {
  let included = 0;
  let lost = 0;
  let cost = 0;
  for (const e of entries) {
    if (e.outcome !== 'omitted' && e.outcome !== 'hidden') included++;
    lost += e.loss?.lost_chars ?? 0;
    cost += e.cost;
  }
  return [included, lost, cost];
}

/**
 * Codex's listing of `skills` under `budget`: hidden skills (disabled in config.toml, or
 * `allow_implicit_invocation: false`) are left out; the rest in Codex's order and stages, with the
 * aliased-roots rendering kept when it lists more (or cuts less). The roots table's cost is counted
 * as its own lines; Codex also swaps its intro paragraph then, which this leaves out (a few dozen
 * tokens either way).
 */
export function codexListing(
  skills: readonly ListingSkill[],
  budget: ListingBudget,
): ListingResult {
  const visible = skills
    .filter((s) => s.visibility !== 'hidden')
    .sort(
      (a, b) => a.tier - b.tier || byId(a, b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
  const plain: CodexLine[] = visible.map((s) => ({
    skill: s,
    desc: codexDescription(s.description),
    path: s.path,
  }));
  const stages = codexStages(plain, budget.limit, budget);
  const entries = codexEntries(plain, stages, budget);
  const fullTotal = plain.reduce((n, l) => n + lineCost(budget, codexLine(l, undefined)), 0);
  // Codex tries aliases only when the budget shortened or omitted something.
  const budgetCut = stages.some((n, i) => n === undefined || n < [...plain[i]!.desc.shown].length);
  if (budgetCut) {
    const roots = [...new Set(visible.map((s) => s.root))];
    const table = ['### Skill roots', ...roots.map((r, i) => `- \`r${i}\` = \`${r}\``)];
    const tableCost = table.reduce((n, l) => n + lineCost(budget, l), 0);
    if (tableCost < budget.limit) {
      const short: CodexLine[] = plain.map((l) => ({ ...l, path: aliasPath(l.path, roots) }));
      const alt = codexEntries(short, codexStages(short, budget.limit - tableCost, budget), budget);
      const [ai, al, ac] = rankOf(alt);
      const [pi, pl, pc] = rankOf(entries);
      if (ai > pi || (ai === pi && (al < pl || (al === pl && ac + tableCost < pc))))
        return finish(skills, alt, budget, fullTotal, true, tableCost);
    }
  }
  return finish(skills, entries, budget, fullTotal, false, 0);
}

function finish(
  skills: readonly ListingSkill[],
  visibleEntries: readonly ListedEntry[],
  budget: ListingBudget,
  fullTotal: number,
  aliased: boolean,
  overhead: number,
): ListingResult {
  const hidden: ListedEntry[] = skills
    .filter((s) => s.visibility === 'hidden')
    .map((s) => ({ id: s.id, path: s.path, outcome: 'hidden', text_chars: 0, cost: 0 }));
  const entries = [...visibleEntries, ...hidden.sort(byId)];
  const total = overhead + visibleEntries.reduce((n, e) => n + e.cost, 0);
  return {
    host: 'codex',
    budget,
    total,
    full_total: fullTotal,
    over_budget: fullTotal > budget.limit,
    aliased,
    counts: countOutcomes(entries),
    entries,
  };
}

/** The keys `claudeCodeBudget` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const CLAUDE_CODE_BUDGET_OPTION_KEYS = optionKeys<
  NonNullable<Parameters<typeof claudeCodeBudget>[0]>
>()('contextTokens', 'fraction', 'fixedChars');

/** The keys `codexBudget` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const CODEX_BUDGET_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof codexBudget>[0]>>()(
  'contextTokens',
  'fixedChars',
);
