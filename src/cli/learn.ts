/**
 * `skilldex learn` and `skilldex forget` (docs/ranking.md §9): import usage examples that policy
 * bm25f.v3 ranks with, and remove them. Operator commands: they write the telemetry file beside
 * the catalog, never the catalog or a skill file, and are never MCP tools.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../errors.js';
import { escapeInvisible } from '../text/index.js';
import { action, type CliContext } from './context.js';
import { readInput } from './context.js';

/** Registers learn and forget. */
export function registerLearn(program: Command, ctx: CliContext): void {
  const catalogHelp =
    'catalog file or postgres:// URL (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)';
  program
    .command('learn <file>')
    .summary('import usage examples (query → skill) that v3 ranks with')
    .description(
      'Import usage examples from FILE ("-" for stdin), one JSON object per line: {"query": "...", "skill_id": "..."},\n' +
        'or the {"id","query","relevant":[...]} lines of skilldex eval files (one example per relevant skill).\n' +
        'Examples live in <catalog>.telemetry.sqlite, at most 200 per skill (the newest kept), survive re-indexing,\n' +
        'and are dropped when their skill is retired or archived. Lines naming a skill the catalog does not serve\n' +
        'are reported and skipped. Exit 0 when at least one example was stored, 1 when none was.',
    )
    .option('--catalog <file>', catalogHelp)
    .option('--json', 'print the learn report object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex learn examples.jsonl\n  echo \'{"query":"slides to pdf handout","skill_id":"pdf-toolkit"}\' | skilldex learn -',
    )
    .action(
      action(ctx, async (file: string, o: { catalog?: string; json?: boolean }) => {
        const { learnExamples } = await import('../router/index.js');
        const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
        const r = learnExamples({ catalog, text: await readInput(ctx, file), file });
        if (o.json) ctx.json(r);
        else {
          const lines = [
            `learned ${r.added} example(s) from ${r.lines} line(s) into ${escapeInvisible(r.telemetry)}`,
          ];
          for (const u of r.unknown)
            lines.push(
              `  skipped line ${u.line}: no served skill ${escapeInvisible(JSON.stringify(u.skill_id))}`,
            );
          for (const [id, n] of Object.entries(r.per_skill))
            lines.push(`  ${escapeInvisible(id)}: ${n} example(s) kept`);
          ctx.out(lines.join('\n'));
        }
        return r.added > 0 ? 0 : 1;
      }),
    );
  program
    .command('forget')
    .summary('remove learned usage examples (--skill ID or --all)')
    .description(
      'Remove the usage examples of one skill, or all of them, from the telemetry file beside the catalog.',
    )
    .option('--skill <skill_id>', 'forget the examples of this skill')
    .option('--all', 'forget every example')
    .option('--catalog <file>', catalogHelp)
    .option('--json', 'print the forget report object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex forget --skill pdf-toolkit\n  skilldex forget --all --json',
    )
    .action(
      action(
        ctx,
        async (o: {
          skill?: string;
          all?: boolean;
          catalog?: string;
          json?: boolean;
        }): Promise<ExitCode> => {
          const { forgetExamples } = await import('../router/index.js');
          const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
          const r = forgetExamples({
            catalog,
            ...(o.skill !== undefined ? { skill_id: o.skill } : {}),
            ...(o.all ? { all: true } : {}),
          });
          if (o.json) ctx.json(r);
          else ctx.out(`forgot ${r.removed} example(s)`);
          return 0;
        },
      ),
    );
}
