/**
 * `skilldex status`: the catalog's published generation, working-set counts, unpublished changes
 * and the files that drifted since indexing (exit 1 when any did). No catalog yet is a normal answer
 * (issue 35): a "no catalog yet — run …" line, `catalog_missing: true` in JSON, exit 1 (DESIGN §7:
 * ran, found nothing usable), never the refusal exit 2. The router loads inside the action.
 */
import type { Command } from 'commander';
import { isSkilldexError, type ExitCode } from '../../errors.js';
import type { CatalogStatus } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { action, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, type CatalogFlag } from '../options.js';

/** Registers `status`. */
export function registerStatus(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('status')
      .summary('catalog, published generation, counts, unpublished changes and drifted files')
      .description(
        'Print the catalog file, its published generation, working-set counts, unpublished changes and\nthe files that changed or vanished since indexing, and one line summing up skilldex doctor.\nExit 1 when any file drifted, or when there is no catalog yet (it says what to run: skilldex\ninit on a machine not set up, else skilldex doctor; --json has catalog_missing: true).',
      )
      .addHelpText(
        'after',
        '\nExamples:\n  skilldex status\n  skilldex status --json || skilldex index',
      ),
  )
    .option('--json', 'print the status as JSON')
    .action(
      action(ctx, async (o: CatalogFlag): Promise<ExitCode> => {
        const { getCatalogStatus, policyById } = await import('../../router/index.js');
        // One line summing up `skilldex doctor`, without running the hook (cheap).
        const { runDoctor } = await import('../doctor.js');
        const doctor = () =>
          runDoctor({
            home: ctx.io.env['HOME'] ?? '/',
            env: ctx.io.env,
            cwd: ctx.io.cwd,
            runHook: false,
          });
        let s: CatalogStatus;
        try {
          s = getCatalogStatus({ catalog: catalogOf(ctx, o) });
        } catch (err) {
          // No catalog yet is an answer, not a refusal (issue 35): status says so and what to run,
          // and exits 1 like a drifted catalog ("run skilldex index"), so `status || skilldex index`
          // still works. Every other error (a corrupt catalog, a retired policy) stays as it is.
          if (!isSkilldexError(err) || err.code !== 'CATALOG_MISSING') throw err;
          const d = await doctor();
          const initDone = d.checks.some((c) => c.id === 'init' && c.status === 'ok');
          const setup = { healthy: d.healthy, problems: d.problems, warnings: d.warnings };
          const missing = missingStatus(
            String(err.details['catalog'] ?? catalogOf(ctx, o)),
            initDone,
          );
          if (o.json) ctx.json({ ...missing, setup });
          else ctx.out(renderMissing(missing) + '\n' + setupLine(setup));
          return 1;
        }
        // A catalog published under a retired policy (v2, v3): REINDEX_REQUIRED with the command.
        if (s.published) policyById(s.published.policy, s.catalog);
        const d = await doctor();
        const setup = { healthy: d.healthy, problems: d.problems, warnings: d.warnings };
        if (o.json) ctx.json({ ...s, catalog_missing: false, setup });
        else ctx.out(renderStatus(s) + '\n' + setupLine(setup));
        return s.drifted.length > 0 ? 1 : 0;
      }),
    );
}

/** The status of a catalog that does not exist yet: what to run next, and why. */
export interface MissingStatus extends CatalogStatus {
  readonly catalog_missing: true;
  /** The command that makes one: `skilldex init`, or `skilldex doctor` when init ran already. */
  readonly next: string;
  readonly reason: string;
}

/** The status report of a missing catalog (`initDone`: skilldex init has set this machine up). */
export function missingStatus(catalog: string, initDone: boolean): MissingStatus {
  return {
    catalog,
    catalog_missing: true,
    published: null,
    working: { skills: 0, active: 0, deprecated: 0, archived: 0, retired: 0 },
    unpublished_changes: 0,
    drifted: [],
    revisions_seen: 0,
    next: initDone ? 'skilldex doctor' : 'skilldex init',
    reason: initDone
      ? 'skilldex init has set this machine up, but its catalog is not there (nothing indexed yet, or it was removed): skilldex doctor names what to do'
      : 'nothing is set up yet: skilldex init finds your skills, indexes them and installs the hook (or: skilldex index --catalog FILE --scope DIR)',
  };
}

/** Human rendering of a missing catalog's status. */
export function renderMissing(s: MissingStatus): string {
  return [
    `catalog: ${sanitizeField(s.catalog, 2000)} (none yet)`,
    `no catalog yet — run ${s.next}: ${s.reason}`,
  ].join('\n');
}

/** Human rendering of a catalog's status. */
export function renderStatus(s: CatalogStatus): string {
  const lines = [`catalog: ${sanitizeField(s.catalog, 2000)}`];
  lines.push(
    s.published
      ? `published: generation ${s.published.seq} ${s.published.catalog_generation} (${s.published.created_at})`
      : 'published: none',
  );
  lines.push(
    `working set: ${s.working.active} active, ${s.working.deprecated} deprecated, ${s.working.archived} archived, ${s.working.retired} retired`,
  );
  lines.push(`unpublished changes: ${s.unpublished_changes}`);
  lines.push(`revisions seen: ${s.revisions_seen}`);
  lines.push(`drifted files: ${s.drifted.length}`);
  for (const d of s.drifted)
    lines.push(`  ${d.reason.padEnd(8)} ${sanitizeField(d.skill_id)}  ${sanitizeField(d.path)}`);
  return lines.join('\n');
}

/** The one line of `status` that sums up `skilldex doctor` (run without executing the hook). */
export function setupLine(d: { healthy: boolean; problems: number; warnings: number }): string {
  if (d.problems > 0) return `set-up: ${d.problems} problem(s) — run skilldex doctor`;
  return d.warnings > 0
    ? `set-up: ok, ${d.warnings} warning(s) — run skilldex doctor`
    : 'set-up: ok';
}
