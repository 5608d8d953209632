/**
 * `skilldex catalog copy FROM TO`: a whole catalog into another backend (SQLite and PostgreSQL),
 * another file or another database, all or nothing and verified by its generation ids. The
 * catalog module loads inside the action.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { action, type CliContext } from '../context.js';

/** Registers the `catalog` group and `catalog copy`. */
export function registerCatalogCopy(program: Command, ctx: CliContext): void {
  const catalog = program
    .command('catalog')
    .summary('whole-catalog operations (copy between SQLite and PostgreSQL)')
    .description('Operations on a catalog as a whole. See: skilldex catalog copy --help');
  catalog
    .command('copy <from> <to>')
    .summary('copy a catalog between backends, verified by its generation ids')
    .description(
      'Copy the catalog FROM into TO: every revision, generation, lifecycle event, the serving\n' +
        'tables, and the telemetry and usage examples beside it. FROM and TO are catalog files or\n' +
        'postgres:// URLs (a password in a URL is never printed; --password-file applies to both).\n' +
        'TO must hold no catalog yet (a new file, an empty database or schema). The copy is all or\n' +
        'nothing: a file target is written under a temporary name beside TO and renamed into place\n' +
        'once verified, a database target in one transaction; a failed copy leaves TO as it was.\n' +
        "Verified: the generation history read back from TO must equal FROM's, and the published\n" +
        "generation's id is recomputed from its members.",
    )
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  skilldex catalog copy ~/.local/share/skilldex/catalog.sqlite postgres://skilldex@db.internal/skills\n' +
        '  skilldex catalog copy postgres://skilldex@db.internal/skills ./backup.sqlite --json',
    )
    .action(
      action(ctx, async (from: string, to: string, o: { json?: boolean }): Promise<ExitCode> => {
        const { copyCatalog, resolveCatalogLocation } = await import('../../catalog/index.js');
        const passwordFile =
          ctx.passwordFile === undefined ? undefined : path.resolve(ctx.io.cwd, ctx.passwordFile);
        const loc = (p: string): string => resolveCatalogLocation(p, ctx.io.cwd, passwordFile);
        const r = copyCatalog(loc(from), loc(to));
        if (o.json) ctx.json(r);
        else {
          const n = (t: string): number => r.rows[t] ?? 0;
          ctx.out(
            `copied ${r.from} to ${r.to}: ${r.generations.length} generations, ${n('revisions')} revisions, ` +
              `${n('skills')} skills, ${n('usage_examples')} usage examples, ${n('events')} telemetry events`,
          );
          ctx.out(`verified: published generation ${r.published ?? '(none)'} reads back the same`);
        }
        return 0;
      }),
    );
}
