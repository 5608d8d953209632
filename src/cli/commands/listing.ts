/**
 * `skilldex listing --host claude-code|codex` (issue 23 §2, docs/integration.md §9): what the host's
 * own skill listing holds for this machine's skills — cut, listed by name, dropped — and a plan
 * that fits its budget; `--apply` writes the plan into the host's settings (a backup kept),
 * `--undo` takes it back. A dry run by default. Every skill name and description is printed through
 * the sanitiser.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { ListingControlReport, ListingHost, ListingReport } from '../../index.js';
import { sanitizeField } from '../../text/index.js';
import { action, parseIntOption, type CliContext } from '../context.js';

const HOSTS: readonly ListingHost[] = ['claude-code', 'codex'];

/** Skills listed per group in the text report without --all. */
export const LISTED_PER_GROUP = 15;

interface ListingFlags {
  host: string;
  contextTokens?: number;
  budgetChars?: number;
  catalog?: string;
  apply?: boolean;
  undo?: boolean;
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
        'Codex: [[skills.config]] entries in ~/.codex/config.toml), keeping a backup; --undo takes it back.\n' +
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
    .option('--apply', "write the plan into the host's settings (a backup is kept)")
    .option('--undo', 'take the last --apply back')
    .option('--force', '--apply even when the skilldex router skill is not installed for the host')
    .option('--all', 'list every skill in the text report, not the first 15 of each group')
    .option('--json', 'print the listing report (and the apply or undo report) as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex listing --host claude-code\n  skilldex listing --host claude-code --context-tokens 1000000 --json\n  skilldex listing --host codex --apply\n  skilldex listing --host codex --undo',
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

async function runListing(ctx: CliContext, o: ListingFlags): Promise<ExitCode> {
  const host = checkHost(o.host);
  if (o.apply && o.undo)
    throw new SkilldexError('INVALID_ARGUMENT', '--apply and --undo: give one of them', {
      option: '--undo',
    });
  const lib = await import('../../index.js');
  const home = ctx.io.env['HOME'] ?? '/';
  if (o.undo) {
    const r = lib.undoListing({ host, home, env: ctx.io.env });
    if (o.json) ctx.json({ undo: r });
    else ctx.out(renderControl(r));
    return r.done ? 0 : 1;
  }
  const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
  // The controls the last --apply wrote are planned again, not taken as the user's own.
  const state = lib.readListingState(lib.listingStateDir(home, ctx.io.env), host);
  const own = new Set([...Object.keys(state?.written ?? {}), ...(state?.paths ?? [])]);
  const report = lib.listingReport({
    host,
    home,
    project: ctx.io.cwd,
    env: ctx.io.env,
    catalog,
    ...(o.contextTokens !== undefined ? { contextTokens: o.contextTokens } : {}),
    ...(o.budgetChars !== undefined ? { budgetChars: o.budgetChars } : {}),
    ownControls: own,
  });
  let applied: ListingControlReport | undefined;
  if (o.apply) {
    if (!report.router_skill && o.force !== true)
      throw new SkilldexError(
        'ROUTER_SKILL_MISSING',
        `the skilldex router skill (${lib.ROUTER_SKILL}) is not among ${host}'s skills: routed skills would be reachable by nobody`,
        { host },
      );
    const routed = report.skills
      .filter((s) => s.plan === 'route')
      .map((s) => (host === 'codex' ? s.path : s.id));
    applied = lib.applyListing({ host, home, env: ctx.io.env }, routed);
  }
  if (o.json) ctx.json(applied ? { ...report, apply: applied } : report);
  else
    ctx.out(
      renderListing(report, o.all === true) +
        '\n' +
        (applied
          ? renderControl(applied)
          : 'dry run: nothing written (--apply writes the plan, --undo takes it back)'),
    );
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
  lines.push(
    `plan:    keep ${keep} natively listed, route ${route} through the router skill and the hook${fixed > 0 ? `, ${fixed} without a control (plugin skills)` : ''}`,
    `         ${r.planned.total} of ${r.budget.limit} ${unit}: ${p.full} full, ${p.truncated} cut, ${p['name-only']} by name only, ${p.omitted} dropped`,
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
      ? `applied: ${r.changed.length} skill(s) routed in ${sanitizeField(r.file)}`
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
