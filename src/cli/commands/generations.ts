/**
 * `skilldex generations`: the publish history, newest first, the published one marked `*`. The
 * router loads inside the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import type { GenerationInfo } from '../../internal.js';
import { action, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, type CatalogFlag } from '../options.js';

/** Registers `generations`. */
export function registerGenerations(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('generations')
      .summary('list published generations, newest first')
      .description(
        'List every published generation, newest first: sequence, time, catalog_generation and counts.\nThe current one is marked *.',
      )
      .addHelpText('after', '\nExamples:\n  skilldex generations\n  skilldex generations --json'),
  )
    .option('--json', 'print the list as JSON')
    .action(
      action(ctx, async (o: CatalogFlag): Promise<ExitCode> => {
        const { getGenerations } = await import('../../router/index.js');
        const gens = getGenerations({ catalog: catalogOf(ctx, o) });
        if (o.json) ctx.json({ generations: gens });
        else ctx.out(renderGenerations(gens));
        return 0;
      }),
    );
}

/** Human rendering of the generation list: one line each, the published one marked `*`. */
export function renderGenerations(gens: readonly GenerationInfo[]): string {
  if (gens.length === 0) return 'no generation published yet';
  return gens
    .map(
      (g) =>
        `${g.published ? '*' : ' '} ${String(g.seq).padStart(4)}  ${g.created_at}  ${g.catalog_generation}  ${g.counts.total} skills (${g.counts.active} active, ${g.counts.deprecated} deprecated, ${g.counts.archived} archived)`,
    )
    .join('\n');
}
