/**
 * `skilldex index`: discover skills, ingest them incrementally into the catalog and publish a
 * generation, or keep watching the scopes and re-index on every change (`--watch`). Also the
 * options it takes from the supply chain (`--locked`, `--keep-revisions`). The file is not named
 * index.ts, which reads as a folder's barrel. The router loads inside the action, never at start-up.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { DiscoverOptions, IndexReport, RememberedScopes } from '../../internal.js';
import { DEFAULT_POLICY_ID, POLICIES, checkPolicyId } from '../../router/search/policies/index.js';
import { jsonText } from '../../text/index.js';
import { action, parseIntOption, type CliContext } from '../context.js';
import {
  addCatalogOption,
  addPreferOption,
  addScopeOptions,
  catalogOf,
  discoverOptions,
  type CatalogFlag,
  type ScopeFlags,
} from '../options.js';
import { progressLine } from '../progress.js';
import { renderIndex } from '../render/index-report.js';
import { untilStopped } from '../serving.js';
import { startWatch } from '../watch.js';

/** The options `index` takes from the supply chain: `--locked FILE`, `--keep-revisions N`. */
export interface IndexSupplyFlags {
  locked?: string;
  keepRevisions?: number;
  watch?: boolean;
}

/** Every flag of `index`. */
type IndexFlags = ScopeFlags &
  CatalogFlag &
  IndexSupplyFlags & {
    publish?: boolean;
    policy?: string;
    dryRun?: boolean;
    allowShrink?: boolean;
  };

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
  'finds no skill publishes nothing: NO_SKILLS_FOUND (exit 2) names the scopes it read (and, when\n' +
  'it found SKILL.md files but skipped every one, how many and why, by skip code). A run that\n' +
  'would retire more than half of the active skills is refused with CATALOG_SHRINK (exit 2) unless\n' +
  '--allow-shrink. If another index publishes while this one reads the files, it reads them\n' +
  'again (3 attempts, then CATALOG_BUSY) rather than publish an older view over a newer one.\n' +
  'With --watch, a failed re-index (e.g. CATALOG_SHRINK) is printed on stderr and watching goes on;\n' +
  'scope folders that do not exist when the watch starts are not watched.';

/** Registers `index`. */
export function registerIndex(program: Command, ctx: CliContext): void {
  const otherPolicies = [...POLICIES.keys()].filter((id) => id !== DEFAULT_POLICY_ID).join(', ');
  const cmd = addPreferOption(
    addScopeOptions(
      addCatalogOption(
        program
          .command('index')
          .summary('discover skills and ingest them into the catalog, then publish a generation')
          .description(INDEX_DESCRIPTION),
      ),
    ),
  )
    .option('--no-publish', 'stage the changes in the working set without publishing them')
    .option('--dry-run', 'report what would be added, changed and retired, and write nothing')
    .option('--allow-shrink', 'allow retiring more than half of the active skills in one run')
    .option(
      '--policy <id>',
      `ranking policy to publish under, remembered by the catalog (default ${DEFAULT_POLICY_ID}; also ${otherPolicies})`,
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
    .action(action(ctx, (o: IndexFlags) => runIndex(ctx, o)));
  addIndexSupplyOptions(cmd);
}

// The index action: one index and its report, then with --watch a watch until Ctrl-C.
async function runIndex(ctx: CliContext, o: IndexFlags): Promise<ExitCode> {
  if (o.watch === true && o.dryRun === true)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      '--watch and --dry-run cannot be combined: a watch writes the catalog',
      { option: '--watch' },
    );
  const { indexCatalog } = await import('../../router/index.js');
  const catalog = catalogOf(ctx, o);
  const { rememberScopes, ...discover } = await indexScopes(ctx, o);
  const supply = await indexSupplyOptions(ctx, o, discover);
  const policy = ctx.settings({ policy: o.policy, catalog: o.catalog }).policy.value;
  // A retired or unknown policy is refused before the catalog is created (POLICY_RETIRED).
  if (policy !== undefined) checkPolicyId(policy);
  // What the first index and every re-index of a watch share.
  const options = {
    catalog,
    ...discover,
    publish: o.publish !== false,
    ...(policy !== undefined ? { policy } : {}),
    ...(rememberScopes === false ? { rememberScopes } : {}),
    allowShrink: o.allowShrink === true,
    ...supply,
  };
  const progress = progressLine(ctx.io, 'indexing', { enabled: o.json !== true && !ctx.quiet });
  let report: IndexReport;
  try {
    report = indexCatalog({ ...options, onProgress: progress.update, dryRun: o.dryRun === true });
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
    const w = await startWatch(ctx, options, { report: print, json: o.json === true });
    await stopped;
    await w.close();
  }
  return 0;
}

/**
 * The scopes `index` reads: the scope flags when given; else `library.scopes` of the config; else
 * the scopes (or home and project) the catalog remembers from its last index, so a bare `index`
 * from another folder does not retire the first project's skills; else the default scopes.
 */
async function indexScopes(
  ctx: CliContext,
  o: ScopeFlags & CatalogFlag,
): Promise<DiscoverOptions & { rememberScopes?: false }> {
  const explicit = o.scope !== undefined || o.home !== undefined || o.project !== undefined;
  const settings = ctx.settings({ catalog: o.catalog });
  const layers = ctx.configLayers();
  const untrusted = (s: { source: string }): boolean =>
    layers.projectTrusted !== true && s.source.startsWith('project ');
  const { rememberedScopesOf } = await import('../settings.js');
  let remembered: RememberedScopes | undefined;
  if (!explicit) {
    const r = rememberedScopesOf(layers, settings.catalog, ctx.io.env, ctx.io.cwd);
    if (r.ignored !== undefined) ctx.warnIgnored(r.ignored);
    remembered = r.remembered;
  }
  // A project's library.prefer orders only the project's own library.scopes: not scope flags.
  let configuredPrefer = settings['library.prefer'];
  if (explicit && o.prefer === undefined && untrusted(configuredPrefer)) {
    ctx.warnIgnored({
      code: 'PROJECT_CONFIG_IGNORED',
      file: layers.projectPath ?? '',
      key: 'library.prefer',
      reason:
        "the scopes read are the command line's, not the project config's library.scopes; a project may not order them",
    });
    configuredPrefer = { value: undefined, source: 'default' };
  }
  // Which file wins an id collision: --prefer, else library.prefer, else what the catalog remembers.
  const prefer =
    o.prefer !== undefined
      ? o.prefer.map((p) => path.resolve(ctx.io.cwd, p))
      : (configuredPrefer.value ?? remembered?.prefer);
  const withPrefer = (d: DiscoverOptions): DiscoverOptions =>
    prefer !== undefined && prefer.length > 0 ? { ...d, prefer } : d;
  if (explicit) return withPrefer(discoverOptions(o, ctx));
  const configured = settings['library.scopes'];
  if (configured.value !== undefined) {
    const d = withPrefer({ ...discoverOptions(o, ctx), scopes: configured.value });
    // An untrusted project's scopes are not remembered by a catalog that is not the project's.
    return untrusted(configured) && !untrusted(settings.catalog)
      ? { ...d, rememberScopes: false }
      : d;
  }
  if (remembered !== undefined) return withPrefer({ ...discoverOptions(o, ctx), ...remembered });
  return withPrefer(discoverOptions(o, ctx));
}

/** Adds `--locked` and `--keep-revisions` to `index`. */
export function addIndexSupplyOptions(cmd: Command): Command {
  return cmd
    .option(
      '--locked <file>',
      'publish only if the skills match this lock file (skilldex lock, skills-lock.json or apm.lock.yaml); else LOCK_MISMATCH, nothing published',
    )
    .option(
      '--keep-revisions <n>',
      'revisions per skill whose SKILL.md text the catalog keeps for skilldex diff (0-1000; default 10; remembered)',
      parseIntOption('--keep-revisions', 0, 1000),
    );
}

/**
 * What `index` passes on from `--keep-revisions` and `--locked FILE`. With a lock, the files are
 * checked against it first (LOCK_MISMATCH, nothing written, when they differ); the folder digests
 * seen then hold the publish (operator.ts), so a file changed between this check and the ingest is
 * refused too.
 */
export async function indexSupplyOptions(
  ctx: CliContext,
  o: IndexSupplyFlags,
  discover: DiscoverOptions,
): Promise<{ keepRevisions?: number; locked?: ReadonlyMap<string, string> }> {
  const keep = o.keepRevisions !== undefined ? { keepRevisions: o.keepRevisions } : {};
  if (o.locked === undefined) return keep;
  if (o.watch === true)
    throw new SkilldexError('INVALID_ARGUMENT', '--locked and --watch cannot be combined', {
      option: '--locked',
    });
  const { checkLock } = await import('../../supply/index.js');
  const lockFile = path.resolve(ctx.io.cwd, o.locked);
  const { report, digests } = checkLock({ ...discover, lockFile });
  if (!report.ok)
    throw new SkilldexError(
      'LOCK_MISMATCH',
      `${report.summary}; nothing was written (see skilldex verify --lock ${o.locked})`,
      {
        lock_file: lockFile,
        counts: report.counts,
        findings: report.findings.slice(0, 50).map((f) => ({ code: f.code, skill_id: f.skill_id })),
      },
    );
  return { ...keep, locked: digests };
}
