/**
 * `skilldex publish`: freeze the working set (after `index --no-publish` or lifecycle changes with
 * `--no-publish`) into a generation consumers see. An operator command; the router loads inside
 * the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { action, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, type CatalogFlag } from '../options.js';

/** Registers `publish`. */
export function registerPublish(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('publish')
      .summary('publish the working set as a new generation')
      .description(
        'Freeze the working set (after index --no-publish or lifecycle changes with --no-publish) into a generation consumers see.',
      ),
  )
    .option('--policy <id>', 'ranking policy to publish under (remembered by the catalog)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex index --no-publish && skilldex publish\n  skilldex publish --policy tf.skillrouter.hybrid-lexical.v1 --json',
    )
    .action(
      action(ctx, async (o: CatalogFlag & { policy?: string }): Promise<ExitCode> => {
        const { publishCatalog } = await import('../../router/index.js');
        const r = publishCatalog({
          catalog: catalogOf(ctx, o),
          ...(o.policy !== undefined ? { policy: o.policy } : {}),
        });
        if (o.json) ctx.json(r);
        else
          ctx.out(
            r.changed
              ? `published generation ${r.seq}: ${r.catalog_generation} (${r.counts.total} skills)`
              : `nothing to publish: generation ${r.seq} (${r.catalog_generation}) is current`,
          );
        return 0;
      }),
    );
}
