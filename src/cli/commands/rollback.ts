/**
 * `skilldex rollback [GENERATION]`: republish an earlier generation's members as a new generation
 * (revisions are kept in the catalog, so no file is read). An operator command; the router loads
 * inside the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { action, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, type CatalogFlag } from '../options.js';

/** Registers `rollback`. */
export function registerRollback(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('rollback [generation]')
      .summary('republish an earlier generation (default: the one before the current)')
      .description(
        'Set the working set to the members of an earlier generation (GENERATION: its sequence number\n' +
          'from skilldex generations, or its id sha256:… or an 8+ hex-digit prefix) and publish it as a\n' +
          'new generation with the old content. Revisions are kept in the catalog, so no file is read.\n' +
          'The next skilldex index works from the files again.',
      ),
  )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex rollback                 # back to the generation before the current one\n  skilldex rollback 3 --json\n  skilldex rollback sha256:956dbfad',
    )
    .action(
      action(ctx, async (generation: string | undefined, o: CatalogFlag): Promise<ExitCode> => {
        const { rollbackCatalog } = await import('../../router/index.js');
        const r = rollbackCatalog({
          catalog: catalogOf(ctx, o),
          ...(generation !== undefined ? { generation } : {}),
        });
        if (o.json) ctx.json(r);
        else
          ctx.out(
            r.publish.changed
              ? `republished generation ${r.to.seq} (${r.to.catalog_generation}) as generation ${r.publish.seq}; was ${r.from.seq}`
              : `generation ${r.to.seq} has the content already published (${r.publish.catalog_generation}): nothing to do`,
          );
        return 0;
      }),
    );
}
