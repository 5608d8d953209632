/**
 * `skilldex deprecate | archive | restore SKILL_ID`: lifecycle changes, published as a new
 * generation unless `--no-publish`. Operator commands: never served over MCP. The router loads
 * inside the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import type { LifecycleState } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { action, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, type CatalogFlag } from '../options.js';

/** Flags of the three lifecycle commands (`--reason` for deprecate and archive, `--replacement` for deprecate). */
type LifecycleFlags = CatalogFlag & { publish?: boolean; reason?: string; replacement?: string };

/** The example each command's help shows first. */
const EXAMPLE: Readonly<Record<string, string>> = {
  deprecate: 'csv-cleaner --reason "merged" --replacement spreadsheet-analyst',
  archive: 'old-skill --reason "superseded"',
  restore: 'old-skill',
};

/** Registers `deprecate`, `archive` and `restore`. */
export function registerLifecycle(program: Command, ctx: CliContext): void {
  lifecycleCommand(
    program,
    'deprecate',
    'mark a skill deprecated (penalised, hidden unless --include-deprecated)',
  )
    .option('--reason <text>', 'why it is deprecated')
    .option('--replacement <skill_id>', 'the skill to use instead')
    .action(action(ctx, runLifecycle(ctx, 'deprecated')));
  lifecycleCommand(
    program,
    'archive',
    'archive a skill (never a candidate; fetch answers SKILL_ARCHIVED)',
  )
    .option('--reason <text>', 'why it is archived')
    .action(action(ctx, runLifecycle(ctx, 'archived')));
  lifecycleCommand(program, 'restore', 'make a deprecated or archived skill active again').action(
    action(ctx, runLifecycle(ctx, 'active')),
  );
}

// The command `name` with what the three share: description, examples, --catalog, --no-publish, --json.
function lifecycleCommand(program: Command, name: string, summary: string): Command {
  return addCatalogOption(
    program
      .command(`${name} <skill_id>`)
      .summary(summary)
      .description(
        `${summary[0]!.toUpperCase()}${summary.slice(1)}, then publish a new generation (unless --no-publish).\nAn operator command: never served over MCP.`,
      )
      .addHelpText(
        'after',
        `\nExamples:\n  skilldex ${name} ${EXAMPLE[name]}\n  skilldex ${name} old-skill --no-publish && skilldex publish`,
      ),
  )
    .option('--no-publish', 'change the working set only; publish later')
    .option('--json', 'print the result as JSON');
}

// The action that moves a skill to `to`.
function runLifecycle(
  ctx: CliContext,
  to: LifecycleState,
): (id: string, o: LifecycleFlags) => Promise<ExitCode> {
  return async (id, o) => {
    const { changeLifecycle } = await import('../../router/index.js');
    const r = changeLifecycle({
      catalog: catalogOf(ctx, o),
      skill_id: id,
      to,
      ...(o.reason !== undefined ? { reason: o.reason } : {}),
      ...(o.replacement !== undefined ? { replacement: o.replacement } : {}),
      publish: o.publish !== false,
    });
    if (o.json) ctx.json(r);
    else
      ctx.out(
        `${sanitizeField(id)}: ${r.change.from} → ${r.change.to}${r.publish ? `; generation ${r.publish.seq} ${r.publish.changed ? 'published' : 'unchanged'}` : ' (not published)'}`,
      );
    return 0;
  };
}
