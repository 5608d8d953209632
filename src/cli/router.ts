/**
 * Router commands: operator commands `index`, `publish`, `rollback`, `deprecate`, `archive`,
 * `restore`, `generations`, `status`, `show`, and consumer commands `search`, `fetch`, `eval`, one
 * registration function per command. Each parses its options, makes one library call and renders
 * the report (the renderers are in render/router.ts); `--json` prints the contract object. The
 * router and catalog load inside each action (`import('../router/index.js')`), so registering
 * these commands, `--help` and `--version` load neither.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { SkilldexError, codedFromForeign, type ExitCode } from '../errors.js';
import type { DiscoverOptions, IndexReport, LifecycleState, Metrics, Router } from '../index.js';
import { DEFAULT_POLICY_ID, POLICIES } from '../router/search/policies/index.js';
import {
  escapeInvisible,
  jsonText,
  markdownInline,
  sanitizeBlock,
  sanitizeField,
} from '../text/index.js';
import {
  action,
  parseIntOption,
  readInput,
  usageEnabled,
  type CliContext,
  type CommandEntry,
} from './context.js';
import { progressLine } from './progress.js';
import { renderIndex, renderSearch, renderShow } from './render/router.js';
import { startWatch, untilStopped } from './watch.js';
import { addPreferOption, addScopeOptions, discoverOptions, type ScopeFlags } from './scan.js';
import { addIndexSupplyOptions, indexSupplyOptions, type IndexSupplyFlags } from './supply.js';
import { addTriggerOptions, type TriggerFlags } from './trigger-eval.js';

interface CatalogFlag {
  catalog?: string;
  json?: boolean;
}

/** The router commands by name, one registration function per command (lifecycle: three names). */
export const ROUTER_COMMANDS: readonly CommandEntry[] = [
  { names: ['index'], register: registerIndex },
  { names: ['publish'], register: registerPublish },
  { names: ['rollback'], register: registerRollback },
  { names: ['catalog'], register: registerCatalogCopy },
  { names: ['deprecate', 'archive', 'restore'], register: registerLifecycle },
  { names: ['generations'], register: registerGenerations },
  { names: ['status'], register: registerStatus },
  { names: ['search'], register: registerSearch },
  { names: ['fetch'], register: registerFetch },
  { names: ['show'], register: registerShow },
  { names: ['eval'], register: registerEval },
];

/** Help text of every --catalog option of the router commands. */
const CATALOG_HELP =
  'catalog file or postgres:// URL (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)';

// The catalog a command uses: --catalog, else the environment, the config files, the default.
function catalogPath(ctx: CliContext, o: CatalogFlag): string {
  return ctx.settings({ catalog: o.catalog }).catalog.value;
}

// Whether telemetry is on for a command: --no-telemetry, the environment and the config files.
function telemetryOf(ctx: CliContext, o: { telemetry?: boolean }): boolean {
  return ctx.settings({ telemetry: o.telemetry }).telemetry.value;
}

/** What `index --help` says the command does. */
const INDEX_DESCRIPTION =
  'Discover SKILL.md files (same scopes as scan), ingest them incrementally into the SQLite\n' +
  'catalog (files unchanged by size and mtime are not re-read; changed bytes make a new\n' +
  'revision), retire skills whose files are gone, and publish the result as a new generation.\n' +
  'When two files define one skill id, the earlier scope wins, then path order; --prefer DIR\n' +
  '(or library.prefer in the config) keeps the one inside DIR instead. The catalog remembers\n' +
  'the scopes and preferences of its last index for a bare skilldex index.';

/** The examples and refusals `index --help` ends with. */
const INDEX_HELP_AFTER =
  '\nExamples:\n  skilldex index --catalog .skilldex/catalog.sqlite --scope examples/skills\n  skilldex index --no-publish && skilldex publish\n' +
  '  skilldex index --scope ~/skills --dry-run      # what would change; nothing written\n' +
  '  skilldex index --scope ~/skills --allow-shrink # the skills really are gone\n' +
  '  skilldex index --scope ~/skills --prefer ~/skills/team-b  # team-b wins an id both define\n' +
  '  skilldex index --scope ~/skills --watch        # re-index and publish on every change; a\n' +
  '                                                 # running skilldex mcp sees it without a restart\n\n' +
  'A --scope folder that does not exist is refused (exit 2, nothing written). A first index that\n' +
  'finds no skill publishes nothing: NO_SKILLS_FOUND (exit 2) names the scopes it read. A run that\n' +
  'would retire more than half of the active skills is refused with CATALOG_SHRINK (exit 2) unless\n' +
  '--allow-shrink. If another index publishes while this one reads the files, it reads them\n' +
  'again (3 attempts, then CATALOG_BUSY) rather than publish an older view over a newer one.\n' +
  'With --watch, a failed re-index (e.g. CATALOG_SHRINK) is printed on stderr and watching goes on;\n' +
  'scope folders that do not exist when the watch starts are not watched.';

/** `index`: discover, ingest incrementally and publish (or watch and re-index). */
function registerIndex(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  addPreferOption(
    addScopeOptions(
      program
        .command('index')
        .summary('discover skills and ingest them into the catalog, then publish a generation')
        .description(INDEX_DESCRIPTION)
        .option('--catalog <file>', CATALOG_HELP),
    ),
  )
    .option('--no-publish', 'stage the changes in the working set without publishing them')
    .option('--dry-run', 'report what would be added, changed and retired, and write nothing')
    .option('--allow-shrink', 'allow retiring more than half of the active skills in one run')
    .option(
      '--policy <id>',
      `ranking policy to publish under, remembered by the catalog (default ${DEFAULT_POLICY_ID}; also ${[...POLICIES.keys()].filter((id) => id !== DEFAULT_POLICY_ID).join(', ')})`,
    )
    .option(
      '--watch',
      'after indexing, keep watching the scopes and re-index and publish after each change (300 ms debounce) until Ctrl-C',
    )
    .option(
      '--json',
      'print the index report as JSON (with --watch: one compact JSON report per line)',
    )
    .addHelpText('after', INDEX_HELP_AFTER)
    .action(
      action(
        ctx,
        async (
          o: ScopeFlags &
            CatalogFlag & {
              publish?: boolean;
              policy?: string;
              dryRun?: boolean;
              allowShrink?: boolean;
              watch?: boolean;
            } & IndexSupplyFlags,
        ): Promise<ExitCode> => {
          if (o.watch === true && o.dryRun === true)
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              '--watch and --dry-run cannot be combined: a watch writes the catalog',
              { option: '--watch' },
            );
          const { indexCatalog } = await import('../router/index.js');
          const catalog = catalogOf(o);
          const discover = await indexScopes(ctx, o, catalog);
          const supply = await indexSupplyOptions(ctx, o, discover);
          const policy = ctx.settings({ policy: o.policy }).policy.value;
          const progress = progressLine(ctx.io, 'indexing', {
            enabled: o.json !== true && !ctx.quiet,
          });
          let report: IndexReport;
          try {
            report = indexCatalog({
              catalog,
              ...discover,
              publish: o.publish !== false,
              onProgress: progress.update,
              ...(policy !== undefined ? { policy } : {}),
              dryRun: o.dryRun === true,
              allowShrink: o.allowShrink === true,
              ...supply,
            });
          } finally {
            progress.done();
          }
          const print = (r: IndexReport): void => {
            if (o.json && o.watch === true) ctx.out(jsonText(r));
            else if (o.json) ctx.json(r);
            else ctx.out(renderIndex(r, ctx.io.cwd));
          };
          print(report);
          if (o.watch === true) {
            const stopped = untilStopped();
            const w = await startWatch(
              ctx,
              {
                catalog,
                ...discover,
                publish: o.publish !== false,
                ...(policy !== undefined ? { policy } : {}),
                allowShrink: o.allowShrink === true,
                ...supply,
              },
              { report: print, json: o.json === true },
            );
            await stopped;
            await w.close();
          }
          return 0;
        },
      ),
    );
  addIndexSupplyOptions(program.commands.find((c) => c.name() === 'index')!);
}

/** `publish`: publish a staged working set. */
function registerPublish(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  program
    .command('publish')
    .summary('publish the working set as a new generation')
    .description(
      'Freeze the working set (after index --no-publish or lifecycle changes with --no-publish) into a generation consumers see.',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--policy <id>', 'ranking policy to publish under (remembered by the catalog)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex index --no-publish && skilldex publish\n  skilldex publish --policy tf.skillrouter.hybrid-lexical.v2 --json',
    )
    .action(
      action(ctx, async (o: CatalogFlag & { policy?: string }): Promise<ExitCode> => {
        const { publishCatalog } = await import('../router/index.js');
        const r = publishCatalog({
          catalog: catalogOf(o),
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

/** `rollback`: republish an earlier generation. */
function registerRollback(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  program
    .command('rollback [generation]')
    .summary('republish an earlier generation (default: the one before the current)')
    .description(
      'Set the working set to the members of an earlier generation (GENERATION: its sequence number\n' +
        'from skilldex generations, or its id sha256:… or an 8+ hex-digit prefix) and publish it as a\n' +
        'new generation with the old content. Revisions are kept in the catalog, so no file is read.\n' +
        'The next skilldex index works from the files again.',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex rollback                 # back to the generation before the current one\n  skilldex rollback 3 --json\n  skilldex rollback sha256:956dbfad',
    )
    .action(
      action(ctx, async (generation: string | undefined, o: CatalogFlag): Promise<ExitCode> => {
        const { rollbackCatalog } = await import('../router/index.js');
        const r = rollbackCatalog({
          catalog: catalogOf(o),
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

/** `catalog copy FROM TO`: a whole catalog into another backend (or another file or database). */
function registerCatalogCopy(program: Command, ctx: CliContext): void {
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
        const { copyCatalog, resolveCatalogLocation } = await import('../catalog/index.js');
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

/** `deprecate`, `archive` and `restore`: lifecycle changes, published unless --no-publish. */
function registerLifecycle(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  const lifecycle = (name: string, to: LifecycleState, summary: string): Command =>
    program
      .command(`${name} <skill_id>`)
      .summary(summary)
      .description(
        `${summary[0]!.toUpperCase()}${summary.slice(1)}, then publish a new generation (unless --no-publish).\nAn operator command: never served over MCP.`,
      )
      .addHelpText(
        'after',
        `\nExamples:\n  skilldex ${name} ${name === 'deprecate' ? 'csv-cleaner --reason "merged" --replacement spreadsheet-analyst' : name === 'archive' ? 'old-skill --reason "superseded"' : 'old-skill'}\n  skilldex ${name} old-skill --no-publish && skilldex publish`,
      )
      .option('--catalog <file>', CATALOG_HELP)
      .option('--no-publish', 'change the working set only; publish later')
      .option('--json', 'print the result as JSON');
  const runLifecycle =
    (to: LifecycleState) =>
    async (
      id: string,
      o: CatalogFlag & { publish?: boolean; reason?: string; replacement?: string },
    ): Promise<ExitCode> => {
      const { changeLifecycle } = await import('../router/index.js');
      const r = changeLifecycle({
        catalog: catalogOf(o),
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
  lifecycle(
    'deprecate',
    'deprecated',
    'mark a skill deprecated (penalised, hidden unless --include-deprecated)',
  )
    .option('--reason <text>', 'why it is deprecated')
    .option('--replacement <skill_id>', 'the skill to use instead')
    .action(action(ctx, runLifecycle('deprecated')));
  lifecycle(
    'archive',
    'archived',
    'archive a skill (never a candidate; fetch answers SKILL_ARCHIVED)',
  )
    .option('--reason <text>', 'why it is archived')
    .action(action(ctx, runLifecycle('archived')));
  lifecycle('restore', 'active', 'make a deprecated or archived skill active again').action(
    action(ctx, runLifecycle('active')),
  );
}

/** `generations`: the publish history, newest first. */
function registerGenerations(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  program
    .command('generations')
    .summary('list published generations, newest first')
    .description(
      'List every published generation, newest first: sequence, time, catalog_generation and counts.\nThe current one is marked *.',
    )
    .addHelpText('after', '\nExamples:\n  skilldex generations\n  skilldex generations --json')
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the list as JSON')
    .action(
      action(ctx, async (o: CatalogFlag): Promise<ExitCode> => {
        const { getGenerations } = await import('../router/index.js');
        const gens = getGenerations({ catalog: catalogOf(o) });
        if (o.json) ctx.json({ generations: gens });
        else
          ctx.out(
            gens.length === 0
              ? 'no generation published yet'
              : gens
                  .map(
                    (g) =>
                      `${g.published ? '*' : ' '} ${String(g.seq).padStart(4)}  ${g.created_at}  ${g.catalog_generation}  ${g.counts.total} skills (${g.counts.active} active, ${g.counts.deprecated} deprecated, ${g.counts.archived} archived)`,
                  )
                  .join('\n'),
          );
        return 0;
      }),
    );
}

/** `status`: the catalog's generation, counts, staged changes and drifted files. */
function registerStatus(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  program
    .command('status')
    .summary('catalog, published generation, counts, unpublished changes and drifted files')
    .description(
      'Print the catalog file, its published generation, working-set counts, unpublished changes and\nthe files that changed or vanished since indexing. Exit 1 when any file drifted.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex status\n  skilldex status --json || skilldex index',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the status as JSON')
    .action(
      action(ctx, async (o: CatalogFlag): Promise<ExitCode> => {
        const { getCatalogStatus } = await import('../router/index.js');
        const s = getCatalogStatus({ catalog: catalogOf(o) });
        if (o.json) ctx.json(s);
        else {
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
            lines.push(
              `  ${d.reason.padEnd(8)} ${sanitizeField(d.skill_id)}  ${sanitizeField(d.path)}`,
            );
          ctx.out(lines.join('\n'));
        }
        return s.drifted.length > 0 ? 1 : 0;
      }),
    );
}

/** `search`: skill_search for one query, or a batch of them. */
function registerSearch(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  const telemetryOn = (o: { telemetry?: boolean }): boolean => telemetryOf(ctx, o);
  program
    .command('search [query]')
    .summary('rank skills for a query (skill_search)')
    .description(
      "Rank the published generation for QUERY under the catalog's policy (tf.skillrouter.bm25f.v3 for new\n" +
        'catalogs) and explain every score, learned usage examples included (--no-usage leaves them out).\n' +
        'Pin what you use: fetch with skill_id, revision_id and catalog_generation.\n' +
        'With --batch FILE.jsonl, run one query per line ({"id","query"}) and print one JSON line each.',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option(
      '--limit <n>',
      'how many candidates (1-50, default 8; batch default 10)',
      parseIntOption('--limit', 1, 50),
    )
    .option('--include-deprecated', 'also rank deprecated skills (penalised)')
    .option('--batch <file>', 'JSONL file of {"id","query"} lines ("-" for stdin)')
    .option(
      '--fields <form>',
      'batch line form: "full" (id, ranking, candidates with explanations) or "ranking" (id and skill ids only)',
      parseFields,
      'full',
    )
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .option('--no-usage', 'rank without learned usage examples (also SKILLDEX_USAGE=off)')
    .option(
      '--record',
      "record the candidates shown as suggestions, as an agent's search does (default: a person's search records nothing)",
    )
    .option('--json', 'print the skill_search result object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex search "extract tables from a pdf"\n  skilldex search "kubernetes deploy" --limit 3 --json\n  skilldex search --batch queries.jsonl > rankings.jsonl\n  skilldex search --batch queries.jsonl --fields ranking --limit 50 > rankings.jsonl\n\n' +
        'Batch lines: {"id","ranking":[…],"candidates":[…]} (or {"id","ranking":[…]} with --fields ranking);\n' +
        'a line that cannot be used gives {"id","ranking":[],"error":{code,message,hint,details}} (id null\n' +
        'when none could be read) and the batch goes on. Output waits for a slow reader; a reader that\n' +
        'goes away ends the run with OUTPUT_CLOSED on stderr (exit 2).',
    )
    .action(
      action(
        ctx,
        async (
          query: string | undefined,
          o: CatalogFlag & {
            limit?: number;
            includeDeprecated?: boolean;
            batch?: string;
            fields: BatchFields;
            telemetry?: boolean;
            usage?: boolean;
            record?: boolean;
          },
        ) => {
          const { Router } = await import('../router/index.js');
          const file = catalogOf(o);
          return namingCatalog(file, async () => {
            if (o.batch !== undefined && query !== undefined)
              throw new SkilldexError(
                'INVALID_ARGUMENT',
                'give either a QUERY or --batch FILE, not both',
              );
            if (o.batch === undefined && query === undefined)
              throw new SkilldexError('INVALID_ARGUMENT', 'search needs a QUERY (or --batch FILE)');
            // Suggestions shown to a person are not an agent's: repeating a search must not demote what it shows.
            const router = new Router({
              catalog: file,
              telemetry: telemetryOn(o),
              usage: usageEnabled(o.usage, ctx.io.env),
              recordSuggestions: o.record === true,
              origin: { client: 'cli' },
            });
            try {
              if (o.batch !== undefined) {
                await runBatch(ctx, router, await readInput(ctx, o.batch, '--batch'), o.batch, {
                  limit: o.limit ?? 10,
                  includeDeprecated: o.includeDeprecated === true,
                  fields: o.fields,
                });
                return 0;
              }
              const r = router.search({
                query: query!,
                ...(o.limit !== undefined ? { limit: o.limit } : {}),
                include_deprecated: o.includeDeprecated === true,
              });
              if (o.json) ctx.json(r);
              else
                ctx.out(
                  renderSearch(
                    r,
                    r.candidates.length > 0
                      ? router.locate(r.candidates.map((c) => c.skill_id))
                      : new Map(),
                    ctx.io.cwd,
                  ),
                );
              return r.candidates.length > 0 ? 0 : 1;
            } finally {
              router.close();
            }
          });
        },
      ),
    );
}

/** `fetch`: skill_fetch of a pinned skill. */
function registerFetch(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  const telemetryOn = (o: { telemetry?: boolean }): boolean => telemetryOf(ctx, o);
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
    .option('--context <text>', 'what the skill is fetched for (recorded in telemetry)', '')
    .option('--catalog <file>', CATALOG_HELP)
    .option('--no-telemetry', 'do not record the fetch')
    .option('--json', 'print the skill_fetch result object')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex fetch pdf-toolkit --revision sha256:… --generation sha256:…\n  skilldex fetch pdf-toolkit --revision sha256:… --generation sha256:… --context "invoice tables" --json',
    )
    .action(
      action(
        ctx,
        async (
          id: string,
          o: CatalogFlag & {
            revision?: string;
            generation?: string;
            context: string;
            telemetry?: boolean;
          },
          cmd: Command,
        ) => {
          const { Router } = await import('../router/index.js');
          const pins = pinsOf(id, o);
          return namingCatalog(catalogOf(o), () => {
            checkOneId(cmd);
            // One `skilldex fetch` is one session of the `cli` client (docs/ranking.md §9).
            const router = new Router({
              catalog: catalogOf(o),
              telemetry: telemetryOn(o),
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
        },
      ),
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

/** `show`: a skill's identity, location, state and revisions, for a person. */
function registerShow(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  program
    .command('show <skill_id>')
    .summary(
      'describe one skill for a person: identity, path, scope, state, revisions (operator-side)',
    )
    .description(
      "Print SKILL_ID's published identity (version, revision, generation), its file and scope, its\n" +
        'state (with the reason and replacement of a deprecation), its most recent revisions, and how many usage\n' +
        'examples it has of each source (import, host, fetch).\n' +
        '--body also prints the body, verified against the published revision as fetch does.\n' +
        'An unknown id suggests the closest ids. For people and operators; never served over MCP.',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--body', 'also print the body (verified against the published revision)')
    .option(
      '--revisions <n>',
      'how many recent revisions to list (1-100, default 5)',
      parseIntOption('--revisions', 1, 100),
    )
    .option('--json', 'print the record as JSON (with the body under --body)')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex show pdf-toolkit\n  skilldex show pdf-toolkit --body\n  skilldex show pdf-tolkit          # did you mean pdf-toolkit?\n  skilldex show -odd-id --json',
    )
    .action(
      action(
        ctx,
        async (
          id: string,
          o: CatalogFlag & { body?: boolean; revisions?: number },
          cmd: Command,
        ): Promise<ExitCode> => {
          checkOneId(cmd);
          const { Router, describeSkill, exampleCountsOf } = await import('../router/index.js');
          const catalog = catalogOf(o);
          const detail = describeSkill(catalog, id, o.revisions);
          const usage = exampleCountsOf(catalog, id);
          let body: string | undefined;
          if (o.body && detail.published) {
            const router = new Router({ catalog, telemetry: false });
            try {
              body = router.fetch({
                skill_id: id,
                expected_revision: detail.published.revision_id,
                catalog_generation: detail.catalog_generation,
                context: '',
              }).body;
            } finally {
              router.close();
            }
          }
          if (o.json)
            ctx.json({ ...detail, usage_examples: usage, ...(body !== undefined ? { body } : {}) });
          else ctx.out(renderShow(detail, body, o.body === true, ctx.io.cwd, usage));
          return 0;
        },
      ),
    );
}

/** `eval`: routing quality on labelled query files; `eval --triggers`: trigger evaluations. */
function registerEval(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => catalogPath(ctx, o);
  const cmd = program
    .command('eval [files...]')
    .summary(
      'measure routing quality on labelled queries (top-1, recall@5, MRR, nDCG@10), or run trigger evaluations (--triggers)',
    )
    .description(
      'Run every query of each JSONL file ({"id","query","relevant":[skill_id,…]}, the format of the\n' +
        'skilldex bench data) against the catalog and report top-1, recall@5, MRR and nDCG@10 per file\n' +
        'and their macro average. Telemetry is neither used nor written; learned usage examples rank\n' +
        '(as they do for agents) unless --no-usage.\n\n' +
        'With --triggers: find the trigger evaluations beside each skill of the scopes (evals/trigger-\n' +
        "evals.json, evals/evals.json, trigger_eval.json…, the project's skilldex-evals.jsonl, and FILES),\n" +
        'route every should / should-not request against the whole library as agents get it, and report\n' +
        'per skill: top-1, top-3, MRR, false triggers, abstentions, and who took its requests on which\n' +
        'words. Gates, baselines, JUnit and SARIF for CI: docs/triggers.md and docs/ci.md.',
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--no-usage', 'rank without learned usage examples (cold)')
    .option('--per-query', 'also list every miss: the query, the skills expected, the top 3 it got')
    .option('--json', 'print the metrics as JSON');
  addTriggerOptions(cmd)
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex eval my-queries.jsonl\n  skilldex eval a.jsonl b.jsonl --per-query\n  skilldex eval my-queries.jsonl --json\n' +
        '  skilldex eval --triggers --scope skills\n  skilldex eval --triggers --scope skills --min-recall 0.8 --max-false 0.1 --format sarif > triggers.sarif\n' +
        '  skilldex eval --triggers --scope skills --json > triggers-baseline.json; skilldex eval --triggers --scope skills --baseline triggers-baseline.json\n' +
        '\nExit 1 when a label names a skill that is not in the published generation (listed as unknown_labels).\n' +
        'With --triggers: 0 every gate passed; 1 a gate failed, a regression against --baseline, or no trigger\n' +
        'case found; 2 refused (bad arguments, a baseline that is not a report, a trigger-eval file that does\n' +
        'not follow its format: each problem named by file and line).',
    )
    .action(
      action(
        ctx,
        async (
          files: string[],
          o: CatalogFlag & TriggerFlags & { usage?: boolean; perQuery?: boolean },
        ): Promise<ExitCode> => {
          if (o.triggers === true)
            return (await import('./trigger-eval.js')).runTriggerEval(
              files,
              o,
              ctx,
              program.version() ?? '0.0.0',
            );
          if (files.length === 0)
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              'eval: give at least one query file, or --triggers for trigger evaluations',
              { option: 'files' },
            );
          return runQueryEval(files, o, ctx, catalogOf(o));
        },
      ),
    );
}

// `eval FILES`: routing quality of labelled query files against the catalog.
async function runQueryEval(
  files: readonly string[],
  o: CatalogFlag & { usage?: boolean; perQuery?: boolean },
  ctx: CliContext,
  catalog: string,
): Promise<ExitCode> {
  const {
    MRR_DEPTH,
    Router,
    locateSkills,
    macroAverage,
    meanMetrics,
    parseQueryLines,
    scoreRanking,
  } = await import('../router/index.js');
  return namingCatalog(catalog, async (): Promise<ExitCode> => {
    const router = new Router({
      catalog,
      telemetry: false,
      usage: usageEnabled(o.usage, ctx.io.env),
    });
    try {
      const rows: (Metrics & { file: string })[] = [];
      const misses: EvalMiss[] = [];
      const labelled = new Map<string, { file: string; id: string }[]>();
      for (const file of files) {
        const queries = parseQueryLines(await readInput(ctx, file), file, true);
        const scores = queries.map((q) => {
          for (const id of new Set([...q.relevant, ...Object.keys(q.graded ?? {})])) {
            labelled.set(id, [...(labelled.get(id) ?? []), { file, id: q.id }]);
          }
          let ranking: string[] = [];
          try {
            ranking = router
              .search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH)
              .candidates.map((c) => c.skill_id);
          } catch (err) {
            if (!(err instanceof SkilldexError) || err.code !== 'INVALID_QUERY') throw err;
          }
          const score = scoreRanking(ranking, q);
          if (score.top1 === 0)
            misses.push({
              file,
              id: q.id,
              query: q.query,
              expected: q.relevant,
              got: ranking.slice(0, 3),
            });
          return score;
        });
        rows.push({ file, ...meanMetrics(scores) });
      }
      const overall = macroAverage(rows);
      const known = locateSkills(catalog, [...labelled.keys()]);
      const unknown = [...labelled.entries()]
        .filter(([id]) => !known.has(id))
        .map(([skill_id, queries]) => ({ skill_id, queries }))
        .sort((a, b) => (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0));
      if (o.json)
        ctx.json({
          files: rows,
          macro_average: overall,
          ...(o.perQuery ? { misses } : {}),
          unknown_labels: unknown,
        });
      else {
        ctx.out(
          renderEvalRows(
            [...rows, { file: 'macro average', ...overall }],
            o.perQuery ? misses : undefined,
          ),
        );
        for (const u of unknown) {
          ctx.note(
            `unknown label ${escapeInvisible(u.skill_id)}: not in the published generation (${u.queries.map((q) => `${escapeInvisible(q.file)} ${escapeInvisible(q.id)}`).join(', ')})`,
          );
        }
      }
      return unknown.length > 0 ? 1 : 0;
    } finally {
      router.close();
    }
  });
}

// The `eval` table (one row per file, then the macro average) and, with --per-query, the misses.
function renderEvalRows(
  rows: readonly (Metrics & { file: string })[],
  misses?: readonly EvalMiss[],
): string {
  const f = (x: number): string => x.toFixed(3);
  const lines = ['| file | queries | top1 | R@5 | MRR | nDCG@10 |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| ${sanitizeField(markdownInline(r.file), 1000)} | ${r.queries} | ${f(r.top1)} | ${f(r.recall_at_5)} | ${f(r.mrr)} | ${f(r.ndcg_at_10)} |`,
    );
  }
  if (misses !== undefined) {
    lines.push(
      '',
      misses.length === 0
        ? 'misses: none (every top-1 is relevant)'
        : `misses (top-1 not relevant): ${misses.length}`,
    );
    for (const m of misses) {
      lines.push(
        `  ${escapeInvisible(m.file)} ${escapeInvisible(m.id)}: ${escapeInvisible(JSON.stringify(m.query))}`,
      );
      lines.push(
        `    expected ${escapeInvisible(m.expected.join(', ') || '(none)')}; got ${escapeInvisible(m.got.join(', ') || '(nothing)')}`,
      );
    }
  }
  return lines.join('\n');
}

/** Form of a `search --batch` line. */
type BatchFields = 'full' | 'ranking';

function parseFields(v: string): BatchFields {
  if (v === 'full' || v === 'ranking') return v;
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `--fields must be "full" or "ranking", got ${JSON.stringify(v)}`,
    { option: '--fields', value: v },
  );
}

/**
 * Runs one search per query line and writes one JSON line each, in input order, awaiting the
 * stream between lines (backpressure). A bad line or a refused query is an error line for its id.
 */
async function runBatch(
  ctx: CliContext,
  router: Router,
  text: string,
  file: string,
  o: { limit: number; includeDeprecated: boolean; fields: BatchFields },
): Promise<void> {
  const { parseQueryLinesTolerant } = await import('../router/index.js');
  const empty = o.fields === 'full' ? { ranking: [], candidates: [] } : { ranking: [] };
  for (const q of parseQueryLinesTolerant(text, file, false)) {
    let line: object;
    if ('error' in q) {
      line = { id: q.id, ...empty, error: q.error.toJSON() };
    } else {
      try {
        const r = router.search({
          query: q.query,
          limit: o.limit,
          include_deprecated: o.includeDeprecated,
        });
        const ranking = r.candidates.map((c) => c.skill_id);
        line =
          o.fields === 'full'
            ? { id: q.id, ranking, candidates: r.candidates }
            : { id: q.id, ranking };
      } catch (err) {
        // Only a refusal of this one query is a line; a catalog failure ends the batch.
        if (
          !(err instanceof SkilldexError) ||
          (err.code !== 'INVALID_QUERY' && err.code !== 'INVALID_ARGUMENT')
        )
          throw err;
        line = { id: q.id, ...empty, error: err.toJSON() };
      }
    }
    await ctx.write(jsonText(line) + '\n');
  }
}

/** One query whose top result is not relevant (`eval --per-query`). */
interface EvalMiss {
  readonly file: string;
  readonly id: string;
  readonly query: string;
  readonly expected: readonly string[];
  readonly got: readonly string[];
}

// With allowUnknownOption an id may start with '-'; anything else unknown is still a mistake.
function checkOneId(cmd: Command): void {
  const extra = cmd.args.slice(1);
  const first = cmd.args[0] ?? '';
  if (extra.length > 0 || first.startsWith('--')) {
    const bad = first.startsWith('--') ? first : extra[0]!;
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unexpected argument or unknown option ${JSON.stringify(bad)} (see --help)`,
      { argument: bad },
    );
  }
}

/**
 * The scopes `index` reads: the scope flags when given; else `library.scopes` of the config; else
 * the scopes (or home and project) the catalog remembers from its last index, so a bare `index`
 * from another folder does not retire the first project's skills; else the default scopes.
 */
async function indexScopes(
  ctx: CliContext,
  o: ScopeFlags,
  catalog: string,
): Promise<DiscoverOptions> {
  const explicit = o.scope !== undefined || o.home !== undefined || o.project !== undefined;
  const settings = ctx.settings({});
  const { readCatalogScopes } = await import('../router/index.js');
  const remembered = explicit ? undefined : readCatalogScopes(catalog);
  // Which file wins an id collision: --prefer, else library.prefer, else what the catalog remembers.
  const prefer =
    o.prefer !== undefined
      ? o.prefer.map((p) => path.resolve(ctx.io.cwd, p))
      : (settings['library.prefer'].value ?? remembered?.prefer);
  const withPrefer = (d: DiscoverOptions): DiscoverOptions =>
    prefer !== undefined && prefer.length > 0 ? { ...d, prefer } : d;
  if (explicit) return withPrefer(discoverOptions(o, ctx));
  const configured = settings['library.scopes'];
  if (configured.value !== undefined)
    return withPrefer({ ...discoverOptions(o, ctx), scopes: configured.value });
  if (remembered !== undefined) return withPrefer({ ...discoverOptions(o, ctx), ...remembered });
  return withPrefer(discoverOptions(o, ctx));
}

/** Runs `fn`; a foreign failure it throws (SQLite corruption, a lock) becomes coded, naming `file`. */
async function namingCatalog<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw codedFromForeign(err, file) ?? err;
  }
}
