/**
 * `skilldex fetch SKILL_ID --revision R --generation G`: skill_fetch of a pinned skill, its body
 * verified against the revision; a fetch is never unpinned. The router loads inside the action.
 */
import type { Command } from 'commander';
import { SkilldexError } from '../../errors.js';
import { sanitizeBlock } from '../../text/index.js';
import { action, type CliContext } from '../context.js';
import {
  addCatalogOption,
  catalogOf,
  checkOneId,
  namingCatalog,
  telemetryOf,
  type CatalogFlag,
} from '../options.js';

/** Every flag of `fetch`. */
type FetchFlags = CatalogFlag & {
  revision?: string;
  generation?: string;
  context: string;
  telemetry?: boolean;
};

/** Registers `fetch`. */
export function registerFetch(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('fetch <skill_id>')
      .summary('fetch a pinned skill body (skill_fetch), verified against its revision')
      .description(
        'Return the body of SKILL_ID only if GENERATION is the published one, the skill is at REVISION,\n' +
          'and the file still hashes to it. Errors (exit 3): CATALOG_GENERATION_MISMATCH, REVISION_MISMATCH,\n' +
          'INDEX_DRIFT, SKILL_NOT_FOUND, SKILL_ARCHIVED — search again, or re-index on drift.',
      )
      // Checked in the action (pinsOf), so a missing pin says where pins come from.
      .option('--revision <revision_id>', 'the revision_id from search (sha256:…); required')
      .option(
        '--generation <catalog_generation>',
        'the catalog_generation from search (sha256:…); required',
      )
      .option('--context <text>', 'what the skill is fetched for (recorded in telemetry)', ''),
  )
    .option('--no-telemetry', 'do not record the fetch')
    .option('--json', 'print the skill_fetch result object')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex fetch pdf-toolkit --revision sha256:… --generation sha256:…\n  skilldex fetch pdf-toolkit --revision sha256:… --generation sha256:… --context "invoice tables" --json',
    )
    .action(
      action(ctx, async (id: string, o: FetchFlags, cmd: Command) => {
        const { Router } = await import('../../router/index.js');
        const pins = pinsOf(id, o);
        return namingCatalog(catalogOf(ctx, o), () => {
          checkOneId(cmd);
          // One `skilldex fetch` is one session of the `cli` client (docs/ranking.md §9).
          const router = new Router({
            catalog: catalogOf(ctx, o),
            telemetry: telemetryOf(ctx, o),
            usageRetentionDays: ctx.settings().usage_retention_days.value,
            origin: { client: 'cli' },
          });
          try {
            const r = router.fetch({
              skill_id: id,
              expected_revision: pins.revision,
              catalog_generation: pins.generation,
              context: o.context,
            });
            if (o.json) ctx.json(r);
            else ctx.out(sanitizeBlock(r.body));
            return 0;
          } finally {
            router.close();
          }
        });
      }),
    );
}

/** A sha256 pin as search prints it. */
const PIN = /^sha256:[0-9a-f]{64}$/;

/**
 * The two pins of `fetch`, each present and of the form search prints (sha256:<64 hex>), else
 * INVALID_ARGUMENT naming the option, with a hint saying where pins come from: a fetch is never
 * unpinned, so `--generation latest` is refused rather than compared.
 */
function pinsOf(
  id: string,
  o: { revision?: string; generation?: string },
): { revision: string; generation: string } {
  const where = `run skilldex search "<what the task needs>" (or skilldex show ${id}) and copy the candidate's revision_id and catalog_generation: fetch takes pins, never "latest"`;
  for (const [option, value] of [
    ['--revision', o.revision],
    ['--generation', o.generation],
  ] as const) {
    if (value === undefined)
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `fetch ${id} needs ${option}: the pins of a search result`,
        { option },
        { hint: where },
      );
    if (!PIN.test(value))
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${option} ${JSON.stringify(value.slice(0, 80))} is not a pin (sha256: and 64 hex digits, as search prints it)`,
        { option, value: value.slice(0, 200) },
        { hint: where },
      );
  }
  return { revision: o.revision!, generation: o.generation! };
}
