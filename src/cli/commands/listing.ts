/**
 * `skilldex listing --host claude-code|codex` (issue 23 §2, docs/integration.md §9): what the host's
 * own skill listing holds for this machine's skills — cut, listed by name, dropped — and a plan
 * that fits its budget; `--apply` writes the plan into the host's settings (a backup kept),
 * `--undo` takes it back. A dry run by default. Every skill name and description is printed through
 * the sanitiser.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type * as Hosts from '../../hosts/index.js';
import type { JsonTextEditor, McpRegistration } from '../../hosts/index.js';
import type * as Lib from '../../internal.js';
import type { ListingControlReport, ListingHost, ListingReport } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { action, parseIntOption, parseProbability, type CliContext } from '../context.js';
import { addMember, removeMember } from '../init/json-edit.js';
import { shellWord } from '../render/shell.js';
import { SKILLDEX_BIN as BIN } from '../bin-path.js';

/** init's byte-preserving JSON edits (src/cli/init/json-edit.ts), for the host's settings file. */
export const JSON_EDITOR: JsonTextEditor = {
  set: (text, at, key, value) =>
    addMember(removeMember(text, [...at, key]) ?? text, at, key, value).text,
  remove: (text, at) => removeMember(text, at),
};

const CONTROLS = ['auto', 'name-only', 'user-invocable-only'] as const;

const HOSTS: readonly ListingHost[] = ['claude-code', 'codex'];

/** How the plan takes routed skills out of the model's listing. */
type RouteAs = 'hidden' | 'name-only';

/** Skills listed per group in the text report without --all. */
export const LISTED_PER_GROUP = 15;

interface ListingFlags {
  host: string;
  contextTokens?: number;
  budgetChars?: number;
  catalog?: string;
  apply?: boolean;
  undo?: boolean;
  control: string;
  budgetFraction?: number;
  force?: boolean;
  all?: boolean;
  json?: boolean;
}

/** Registers listing. */
export function registerListing(program: Command, ctx: CliContext): void {
  program
    .command('listing')
    .summary("what a host's own skill listing shows within its budget, and a plan that fits")
    .description(
      "Compute what HOST's own skill listing will contain for this machine's skills, by the host's documented\n" +
        'rules (docs/integration.md §9): which descriptions are cut (and which trigger phrases or "do not use"\n' +
        'clauses fall after the cut), which skills are listed by name alone or dropped, and the total against the\n' +
        'budget. Then a plan: the skills that stay natively listed (the skilldex router skill, the most used, the\n' +
        'most distinctive) and the rest, left to the router skill and the prompt hook, with the size that results.\n' +
        "--apply writes the plan into the host's settings (Claude Code: skillOverrides in ~/.claude/settings.json;\n" +
        'Codex: [[skills.config]] entries in ~/.codex/config.toml), keeping a backup and every byte it does not\n' +
        'change; --undo takes it back (the file exactly as it was, while it holds what --apply wrote). The plan is\n' +
        "made from your own skills only: a project's skills never push a personal skill out of the global settings.\n" +
        'A routed skill is taken out of the listing only when the host has the skilldex MCP server registered (its\n' +
        'skill_fetch is the way in): without it Claude Code gets name-only, and Codex is refused (MCP_SERVER_MISSING).\n' +
        'Without --apply or --undo nothing is written.',
    )
    .requiredOption('--host <host>', 'claude-code or codex')
    .option(
      '--context-tokens <n>',
      "the model's context window in tokens (default: 200000 for Claude Code, 272000 for Codex)",
      parseIntOption('--context-tokens', 1000, 100_000_000),
    )
    .option(
      '--budget-chars <n>',
      'a fixed listing budget in characters (overrides the window and the settings)',
      parseIntOption('--budget-chars', 1, 100_000_000),
    )
    .option(
      '--catalog <file>',
      'the skilldex catalog whose fetches and usage examples rank the skills (default: as for search)',
    )
    .option(
      '--control <how>',
      'Claude Code: how routed skills are controlled: name-only (listed by name: the model can still load them), user-invocable-only (out of the listing: needs the skilldex MCP server), or auto (user-invocable-only when the server is registered, else name-only)',
      'auto',
    )
    .option(
      '--budget-fraction <f>',
      'Claude Code: plan with this skillListingBudgetFraction (0-1, the share of the context window the listing gets) and, with --apply, write it into ~/.claude/settings.json',
      parseProbability('--budget-fraction'),
    )
    .option('--apply', "write the plan into the host's settings (a backup is kept)")
    .option('--undo', 'take the last --apply back')
    .option('--force', '--apply even when the skilldex router skill is not installed for the host')
    .option('--all', 'list every skill in the text report, not the first 15 of each group')
    .option('--json', 'print the listing report (and the apply or undo report) as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex listing --host claude-code\n  skilldex listing --host claude-code --context-tokens 1000000 --json\n  skilldex listing --host claude-code --apply --control name-only --budget-fraction 0.02\n  skilldex listing --host codex --apply\n  skilldex listing --host codex --undo',
    )
    .action(action(ctx, (o: ListingFlags) => runListing(ctx, o)));
}

function checkHost(host: string): ListingHost {
  if ((HOSTS as readonly string[]).includes(host)) return host as ListingHost;
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `--host ${JSON.stringify(host)}: one of ${HOSTS.join(', ')}`,
    {
      option: '--host',
      value: host,
    },
  );
}

/** The flag combinations listing refuses, checked before anything is read. */
function checkListingFlags(host: ListingHost, o: ListingFlags): void {
  if (o.apply && o.undo)
    throw new SkilldexError('INVALID_ARGUMENT', '--apply and --undo: give one of them', {
      option: '--undo',
    });
  if (!(CONTROLS as readonly string[]).includes(o.control))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--control ${JSON.stringify(o.control)}: one of ${CONTROLS.join(', ')}`,
      { option: '--control', value: o.control },
    );
  if (host === 'codex' && (o.control !== 'auto' || o.budgetFraction !== undefined))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${o.control !== 'auto' ? '--control' : '--budget-fraction'} is for --host claude-code: Codex has no such setting`,
      { option: o.control !== 'auto' ? '--control' : '--budget-fraction' },
    );
  if (o.budgetFraction === 0)
    throw new SkilldexError('INVALID_ARGUMENT', '--budget-fraction must be above 0', {
      option: '--budget-fraction',
    });
}

/** `--undo`: takes the last --apply back and prints what it did. */
function undoLastApply(
  ctx: CliContext,
  lib: typeof Lib,
  host: ListingHost,
  home: string,
  o: ListingFlags,
): ExitCode {
  const r = lib.undoListing({ host, home, env: ctx.io.env }, JSON_EDITOR);
  if (o.json) ctx.json({ undo: r });
  else ctx.out(renderControl(r));
  return r.done ? 0 : 1;
}

/** MCP_SERVER_MISSING when `--apply` would take skills out of the listing with no skill_fetch. */
function checkMcpForApply(
  host: ListingHost,
  o: ListingFlags,
  mcp: McpRegistration,
  addLine: string,
): void {
  if (o.apply && !mcp.registered && (host === 'codex' || o.control === 'user-invocable-only'))
    throw new SkilldexError(
      'MCP_SERVER_MISSING',
      `no skilldex MCP server is registered for ${host} (read: ${mcp.files.join(', ') || 'no config file'}): skills taken out of its listing could be loaded only with skill_fetch, which it would not have. Register it first: ${host === 'codex' ? 'skilldex init --client codex --yes' : `${addLine}, or use --control name-only`}`,
      { host, files: mcp.files },
    );
}

/** How routed skills leave the listing: hidden (needs the MCP server) or listed by name only. */
function routeAsOf(host: ListingHost, control: string, registered: boolean): RouteAs {
  return host === 'codex' || control === 'user-invocable-only' || (control === 'auto' && registered)
    ? 'hidden'
    : 'name-only';
}

/** The listing report and its plan, with the controls the last --apply wrote planned again. */
function planListing(
  ctx: CliContext,
  lib: typeof Lib,
  hosts: typeof Hosts,
  host: ListingHost,
  home: string,
  catalog: string,
  routeAs: RouteAs,
  o: ListingFlags,
): ListingReport {
  // The controls the last --apply wrote are planned again, not taken as the user's own.
  const state = lib.readListingState(lib.listingStateDir(home, ctx.io.env), host);
  const own = new Set([...Object.keys(hosts.controlsOf(state)), ...(state?.paths ?? [])]);
  return lib.listingReport({
    host,
    home,
    project: ctx.io.cwd,
    env: ctx.io.env,
    catalog,
    ...(o.contextTokens !== undefined ? { contextTokens: o.contextTokens } : {}),
    ...(o.budgetChars !== undefined ? { budgetChars: o.budgetChars } : {}),
    ...(o.budgetFraction !== undefined ? { budgetFraction: o.budgetFraction } : {}),
    ownControls: own,
    routeAs,
  });
}

/** `--apply`: writes the plan's routed skills into the host's settings (needs the router skill). */
function applyPlan(
  ctx: CliContext,
  lib: typeof Lib,
  host: ListingHost,
  home: string,
  report: ListingReport,
  routeAs: RouteAs,
  o: ListingFlags,
): ListingControlReport {
  if (!report.router_skill && o.force !== true)
    throw new SkilldexError(
      'ROUTER_SKILL_MISSING',
      `the skilldex router skill (${lib.ROUTER_SKILL}) is not among ${host}'s skills: routed skills would be reachable by nobody`,
      { host },
    );
  const routed = report.skills
    .filter((s) => s.plan === 'route')
    .map((s) => (host === 'codex' ? s.path : s.id));
  return lib.applyListing({ host, home, env: ctx.io.env }, routed, {
    value: routeAs === 'name-only' ? 'name-only' : 'user-invocable-only',
    ...(o.budgetFraction !== undefined ? { budgetFraction: o.budgetFraction } : {}),
    editor: JSON_EDITOR,
  });
}

/** Prints the report, the MCP registration and what --apply wrote (or that nothing was written). */
function printListing(
  ctx: CliContext,
  host: ListingHost,
  report: ListingReport,
  mcp: McpRegistration,
  addLine: string,
  applied: ListingControlReport | undefined,
  o: ListingFlags,
): void {
  const mcpReport = { registered: mcp.registered, where: mcp.where, files: mcp.files };
  if (o.json) ctx.json({ ...report, mcp: mcpReport, ...(applied ? { apply: applied } : {}) });
  else {
    const mcpLine = mcp.registered
      ? `mcp:     skilldex MCP server registered (${sanitizeField(mcp.where ?? '', 300)})`
      : host === 'codex'
        ? 'mcp:     no skilldex MCP server registered for codex: --apply refuses (skilldex init --client codex --yes)'
        : `mcp:     no skilldex MCP server registered for claude-code: routed skills are set name-only (still loadable by the model); for user-invocable-only register it: ${sanitizeField(addLine, 500)}`;
    ctx.out(
      renderListing(report, o.all === true) +
        '\n' +
        mcpLine +
        '\n' +
        (applied
          ? renderControl(applied)
          : 'dry run: nothing written (--apply writes the plan, --undo takes it back)'),
    );
  }
}

/** `skilldex listing`: checks the flags, then takes the last --apply back, or plans (and applies). */
async function runListing(ctx: CliContext, o: ListingFlags): Promise<ExitCode> {
  const host = checkHost(o.host);
  checkListingFlags(host, o);
  const lib = await import('../../internal.js');
  const hosts = await import('../../hosts/index.js');
  const home = ctx.io.env['HOME'] ?? '/';
  if (o.undo) return undoLastApply(ctx, lib, host, home, o);
  const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
  // A skill taken out of the listing is reachable through the MCP server's skill_fetch alone.
  // The controls go to the global settings: only a registration every project sees counts.
  const mcp = hosts.skilldexMcpServer(host, {
    home,
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    userScopeOnly: true,
  });
  const addLine = `claude mcp add --scope user skilldex -- ${[process.execPath, BIN, 'mcp', '--catalog', catalog].map(shellWord).join(' ')}`;
  checkMcpForApply(host, o, mcp, addLine);
  const routeAs = routeAsOf(host, o.control, mcp.registered);
  const report = planListing(ctx, lib, hosts, host, home, catalog, routeAs, o);
  const applied = o.apply ? applyPlan(ctx, lib, host, home, report, routeAs, o) : undefined;
  printListing(ctx, host, report, mcp, addLine, applied, o);
  return 0;
}

function pct(n: number, of: number): string {
  return of === 0 ? '0 %' : `${((100 * n) / of).toFixed(0)} %`;
}

/** Human rendering of a listing report. */
export function renderListing(r: ListingReport, all: boolean): string {
  const unit = r.budget.unit === 'chars' ? 'characters' : 'tokens';
  const c = r.now.counts;
  const shown = r.skills.length - c.hidden;
  const lines = [
    `${r.host}: ${r.skills.length} skill(s), ${shown} in the model's listing; budget ${r.budget.limit} ${unit} (${r.budget.source})`,
    `now:     ${r.now.total} of ${r.budget.limit} ${unit}${r.now.over_budget ? ` (all in full: ${r.now.full_total}, ${pct(r.now.full_total, r.budget.limit)} of the budget)` : ''}`,
    `         ${c.full} full, ${c.truncated} cut, ${c['name-only']} by name only, ${c.omitted} dropped, ${c.hidden} kept out by a control`,
  ];
  const group = (
    title: string,
    pick: (s: ListingReport['skills'][number]) => boolean,
    detail: (s: ListingReport['skills'][number]) => string,
  ): void => {
    const list = r.skills.filter(pick);
    if (list.length === 0) return;
    lines.push(`  ${title} (${list.length}):`);
    for (const s of all ? list : list.slice(0, LISTED_PER_GROUP))
      lines.push(`    ${sanitizeField(s.id, 80)}${detail(s)}`);
    if (!all && list.length > LISTED_PER_GROUP)
      lines.push(`    … ${list.length - LISTED_PER_GROUP} more (--all)`);
  };
  const lost = (s: ListingReport['skills'][number]): string => {
    const l = s.now.loss;
    if (!l) return '';
    const parts = [`${l.lost_chars} chars lost`];
    if (l.lost_triggers.length > 0)
      parts.push(
        `triggers: ${l.lost_triggers
          .slice(0, 2)
          .map((t) => sanitizeField(t, 60))
          .join('; ')}`,
      );
    if (l.lost_negatives.length > 0)
      parts.push(`"do not use": ${sanitizeField(l.lost_negatives[0]!, 60)}`);
    return `  (${parts.join(', ')})`;
  };
  group('cut', (s) => s.now.outcome === 'truncated', lost);
  group('by name only', (s) => s.now.outcome === 'name-only', lost);
  group(
    'dropped',
    (s) => s.now.outcome === 'omitted',
    () => '',
  );
  const p = r.planned.counts;
  const keep = r.skills.filter((s) => s.plan === 'keep').length;
  const route = r.skills.filter((s) => s.plan === 'route').length;
  const fixed = r.skills.filter((s) => s.plan === 'fixed').length;
  const project = r.skills.filter((s) => s.plan === 'project').length;
  const routedAs =
    r.route_as === 'name-only'
      ? 'listed by name only (name-only), left to the router skill and the hook'
      : r.host === 'codex'
        ? 'disabled (enabled = false), left to the router skill and the hook'
        : 'out of the listing (user-invocable-only), left to the router skill and the hook';
  lines.push(
    `plan:    keep ${keep} natively listed, route ${route}: ${routedAs}${fixed > 0 ? `; ${fixed} without a control (plugin skills)` : ''}`,
    `         ${r.planned.total} of ${r.budget.limit} ${unit}: ${p.full} full, ${p.truncated} cut, ${p['name-only']} by name only, ${p.omitted} dropped`,
  );
  if (project > 0)
    lines.push(
      `         ${project} project skill(s) left out of the plan: the controls go to your global settings, planned from your own skills`,
    );
  group(
    'kept',
    (s) => s.plan === 'keep',
    (s) => {
      const k = s.keep_reason;
      if (!k) return '';
      return k.why === 'router'
        ? '  (the router skill)'
        : k.why === 'usage'
          ? `  (used: ${Math.round(k.n * 10) / 10})`
          : `  (distinctive: ${k.n} word(s) at most one other skill has)`;
    },
  );
  if (!r.router_skill)
    lines.push(
      `  note: the skilldex router skill is not installed for ${r.host} (skilldex init --client ${r.host}); --apply refuses without it`,
    );
  for (const pr of r.problems.slice(0, 5)) lines.push(`  ${pr.code}: ${sanitizeField(pr.message)}`);
  return lines.join('\n');
}

/** Human rendering of an apply or undo. */
export function renderControl(r: ListingControlReport): string {
  if (r.action === 'undo' && !r.done)
    return `nothing to undo for ${r.host} (no listing plan applied)`;
  const lines = [
    r.action === 'apply'
      ? `applied: ${r.changed.length} skill(s) routed in ${sanitizeField(r.file)} (every other byte of the file kept)`
      : `undone: ${r.changed.length} control(s) taken back in ${sanitizeField(r.file)}`,
  ];
  if (r.kept.length > 0)
    lines.push(
      `  ${r.kept.length} changed since the apply, left as they are: ${r.kept
        .slice(0, 10)
        .map((k) => sanitizeField(k, 80))
        .join(', ')}`,
    );
  if (r.backup) lines.push(`  the file as it was before: ${sanitizeField(r.backup)}`);
  return lines.join('\n');
}
