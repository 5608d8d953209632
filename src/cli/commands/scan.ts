/**
 * `skilldex scan`: discover SKILL.md files across scopes and report them (issue #2 §5). One
 * `discoverSkills` call, rendered by scan-render.ts or printed as the report object (`--json`).
 * src/skills loads inside the action, never at start-up.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import type { ScanReport } from '../../internal.js';
import { action, type CliContext } from '../context.js';
import { addPreferOption, addScopeOptions, discoverOptions, type ScopeFlags } from '../options.js';
import { progressLine } from '../progress.js';
import { renderScan } from './scan-render.js';

/** Registers `scan`. */
export function registerScan(program: Command, ctx: CliContext): void {
  addPreferOption(
    addScopeOptions(
      program
        .command('scan')
        .summary(
          'discover SKILL.md files and report what was found, skipped, duplicated or shadowed',
        )
        .description(
          'Walk the skill scopes, parse and validate every SKILL.md, and report the skills found,\n' +
            'the files skipped (with a coded reason), byte-identical duplicates and shadowed ids.\n' +
            'Without --scope, reads ~/.claude/skills, ~/.agents/skills, <project>/.claude/skills,\n' +
            '<project>/.agents/skills and the skills of enabled plugins. When two files define one\n' +
            'skill id, the earlier scope wins (then path order), unless --prefer names the folder\n' +
            'of the one to keep.',
        ),
    ),
  )
    .option(
      '--verbose',
      'also list every skill, skipped file, duplicate and shadowed id (default: the summary only)',
    )
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex scan --scope examples/skills\n  skilldex scan --scope examples/skills --verbose\n  skilldex scan --home ~ --project . --json\n' +
        '\nExit codes: 0 skills found, 1 no skill found, 2 refused (bad arguments).',
    )
    .action(
      action(
        ctx,
        async (opts: ScopeFlags & { json?: boolean; verbose?: boolean }): Promise<ExitCode> => {
          const { discoverSkills } = await import('../../skills/index.js');
          const progress = progressLine(ctx.io, 'scanning', {
            enabled: opts.json !== true && !ctx.quiet,
          });
          let report: ScanReport;
          try {
            report = discoverSkills(discoverOptions(opts, ctx), progress.update);
          } finally {
            progress.done();
          }
          if (opts.json) ctx.json(report);
          else ctx.out(renderScan(report, ctx.io.cwd, opts.verbose === true));
          // No skill at all is "ran but found nothing usable" (docs/integration.md §4).
          return report.skills.length > 0 ? 0 : 1;
        },
      ),
    );
}
