/**
 * `skilldex status`: the catalog's published generation, working-set counts, unpublished changes
 * and the files that drifted since indexing (exit 1 when any did). The router loads inside the
 * action.
 */
import type { Command } from 'commander';
import { SkilldexError, isSkilldexError, type ExitCode } from '../../errors.js';
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
        'Print the catalog file, its published generation, working-set counts, unpublished changes and\nthe files that changed or vanished since indexing. Exit 1 when any file drifted.',
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
          // No catalog on a machine init set up (its library held no skill then): the generic
          // hint says to run init, which ran; doctor names what to do (issue 35).
          if (!isSkilldexError(err) || err.code !== 'CATALOG_MISSING') throw err;
          const d = await doctor();
          if (d.checks.some((c) => c.id === 'init' && c.status === 'ok'))
            throw new SkilldexError(
              'CATALOG_MISSING',
              `${err.message} (skilldex init has set this machine up: run skilldex doctor, which names what to do)`,
              err.details,
              { cause: err },
            );
          throw err;
        }
        // A catalog published under a retired policy (v2, v3): REINDEX_REQUIRED with the command.
        if (s.published) policyById(s.published.policy, s.catalog);
        const d = await doctor();
        const setup = { healthy: d.healthy, problems: d.problems, warnings: d.warnings };
        if (o.json) ctx.json({ ...s, setup });
        else ctx.out(renderStatus(s) + '\n' + setupLine(setup));
        return s.drifted.length > 0 ? 1 : 0;
      }),
    );
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
