/**
 * Router commands (issue #3): operator commands `index`, `publish`, `deprecate`, `archive`,
 * `restore`, `generations`, `status`, and consumer commands `search`, `fetch`, `eval`. Each parses
 * its options, makes one library call, renders the report; `--json` prints the contract object.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import {
  Router,
  SkilldexError,
  changeLifecycle,
  escapeInvisible,
  getCatalogStatus,
  getGenerations,
  indexCatalog,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  publishCatalog,
  readCatalogScopes,
  scoreRanking,
  MRR_DEPTH,
  DEFAULT_POLICY_ID,
  POLICY_ID,
  type Candidate,
  type DiscoverOptions,
  type ExitCode,
  type IndexReport,
  type LifecycleState,
  type Metrics,
  type SearchResult,
} from '../index.js';
import { action, parseIntOption, type CliContext } from './context.js';
import { progressLine } from './progress.js';
import { addScopeOptions, discoverOptions, type ScopeFlags } from './scan.js';

interface CatalogFlag {
  catalog?: string;
  json?: boolean;
}

/** Registers the router commands. */
export function registerRouter(program: Command, ctx: CliContext): void {
  const catalogOf = (o: CatalogFlag): string => ctx.settings({ catalog: o.catalog }).catalog.value;
  const catalogHelp = 'catalog file (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)';
  const telemetryOn = (o: { telemetry?: boolean }): boolean => ctx.settings({ telemetry: o.telemetry }).telemetry.value;

  addScopeOptions(
    program
      .command('index')
      .summary('discover skills and ingest them into the catalog, then publish a generation')
      .description(
        'Discover SKILL.md files (same scopes as scan), ingest them incrementally into the SQLite\n' +
          'catalog (files unchanged by size and mtime are not re-read; changed bytes make a new\n' +
          'revision), retire skills whose files are gone, and publish the result as a new generation.',
      )
      .option('--catalog <file>', catalogHelp),
  )
    .option('--no-publish', 'stage the changes in the working set without publishing them')
    .option('--policy <id>', `ranking policy to publish under, remembered by the catalog (default ${DEFAULT_POLICY_ID}; also ${POLICY_ID})`)
    .option('--json', 'print the index report as JSON')
    .addHelpText('after', '\nExamples:\n  skilldex index --catalog .skilldex/catalog.sqlite --scope examples/skills\n  skilldex index --no-publish && skilldex publish')
    .action(
      action(ctx, (o: ScopeFlags & CatalogFlag & { publish?: boolean; policy?: string }) => {
        const catalog = catalogOf(o);
        const discover = indexScopes(ctx, o, catalog);
        const policy = ctx.settings({ policy: o.policy }).policy.value;
        const progress = progressLine(ctx.io, 'indexing');
        let report: IndexReport;
        try {
          report = indexCatalog({
            catalog,
            ...discover,
            publish: o.publish !== false,
            onProgress: progress.update,
            ...(policy !== undefined ? { policy } : {}),
          });
        } finally {
          progress.done();
        }
        if (o.json) ctx.json(report);
        else ctx.out(renderIndex(report, ctx.io.cwd));
        return 0;
      }),
    );

  program
    .command('publish')
    .summary('publish the working set as a new generation')
    .description('Freeze the working set (after index --no-publish or lifecycle changes with --no-publish) into a generation consumers see.')
    .option('--catalog <file>', catalogHelp)
    .option('--policy <id>', 'ranking policy to publish under (remembered by the catalog)')
    .option('--json', 'print the result as JSON')
    .action(
      action(ctx, (o: CatalogFlag & { policy?: string }) => {
        const r = publishCatalog({ catalog: catalogOf(o), ...(o.policy !== undefined ? { policy: o.policy } : {}) });
        if (o.json) ctx.json(r);
        else ctx.out(r.changed ? `published generation ${r.seq}: ${r.catalog_generation} (${r.counts.total} skills)` : `nothing to publish: generation ${r.seq} (${r.catalog_generation}) is current`);
        return 0;
      }),
    );

  const lifecycle = (name: string, to: LifecycleState, summary: string): Command =>
    program
      .command(`${name} <skill_id>`)
      .summary(summary)
      .option('--catalog <file>', catalogHelp)
      .option('--no-publish', 'change the working set only; publish later')
      .option('--json', 'print the result as JSON');
  const runLifecycle =
    (to: LifecycleState) =>
    (id: string, o: CatalogFlag & { publish?: boolean; reason?: string; replacement?: string }): ExitCode => {
      const r = changeLifecycle({
        catalog: catalogOf(o),
        skill_id: id,
        to,
        ...(o.reason !== undefined ? { reason: o.reason } : {}),
        ...(o.replacement !== undefined ? { replacement: o.replacement } : {}),
        publish: o.publish !== false,
      });
      if (o.json) ctx.json(r);
      else ctx.out(`${id}: ${r.change.from} → ${r.change.to}${r.publish ? `; generation ${r.publish.seq} ${r.publish.changed ? 'published' : 'unchanged'}` : ' (not published)'}`);
      return 0;
    };
  lifecycle('deprecate', 'deprecated', 'mark a skill deprecated (penalised, hidden unless --include-deprecated)')
    .option('--reason <text>', 'why it is deprecated')
    .option('--replacement <skill_id>', 'the skill to use instead')
    .action(action(ctx, runLifecycle('deprecated')));
  lifecycle('archive', 'archived', 'archive a skill (never a candidate; fetch answers SKILL_ARCHIVED)')
    .option('--reason <text>', 'why it is archived')
    .action(action(ctx, runLifecycle('archived')));
  lifecycle('restore', 'active', 'make a deprecated or archived skill active again').action(action(ctx, runLifecycle('active')));

  program
    .command('generations')
    .summary('list published generations, newest first')
    .option('--catalog <file>', catalogHelp)
    .option('--json', 'print the list as JSON')
    .action(
      action(ctx, (o: CatalogFlag) => {
        const gens = getGenerations({ catalog: catalogOf(o) });
        if (o.json) ctx.json({ generations: gens });
        else
          ctx.out(
            gens.length === 0
              ? 'no generation published yet'
              : gens.map((g) => `${g.published ? '*' : ' '} ${String(g.seq).padStart(4)}  ${g.created_at}  ${g.catalog_generation}  ${g.counts.total} skills (${g.counts.active} active, ${g.counts.deprecated} deprecated, ${g.counts.archived} archived)`).join('\n'),
          );
        return 0;
      }),
    );

  program
    .command('status')
    .summary('catalog, published generation, counts, unpublished changes and drifted files')
    .option('--catalog <file>', catalogHelp)
    .option('--json', 'print the status as JSON')
    .action(
      action(ctx, (o: CatalogFlag) => {
        const s = getCatalogStatus({ catalog: catalogOf(o) });
        if (o.json) ctx.json(s);
        else {
          const lines = [`catalog: ${s.catalog}`];
          lines.push(s.published ? `published: generation ${s.published.seq} ${s.published.catalog_generation} (${s.published.created_at})` : 'published: none');
          lines.push(`working set: ${s.working.active} active, ${s.working.deprecated} deprecated, ${s.working.archived} archived, ${s.working.retired} retired`);
          lines.push(`unpublished changes: ${s.unpublished_changes}`);
          lines.push(`revisions seen: ${s.revisions_seen}`);
          lines.push(`drifted files: ${s.drifted.length}`);
          for (const d of s.drifted) lines.push(`  ${d.reason.padEnd(8)} ${d.skill_id}  ${d.path}`);
          ctx.out(lines.join('\n'));
        }
        return s.drifted.length > 0 ? 1 : 0;
      }),
    );

  program
    .command('search [query]')
    .summary('rank skills for a query (skill_search)')
    .description(
      'Rank the published generation for QUERY under policy tf.skillrouter.hybrid-lexical.v1 and explain\n' +
        'every score. Pin what you use: fetch with skill_id, revision_id and catalog_generation.\n' +
        'With --batch FILE.jsonl, run one query per line ({"id","query"}) and print one JSON line each.',
    )
    .option('--catalog <file>', catalogHelp)
    .option('--limit <n>', 'how many candidates (1-50, default 8; batch default 10)', parseIntOption('--limit', 1, 50))
    .option('--include-deprecated', 'also rank deprecated skills (penalised)')
    .option('--batch <file>', 'JSONL file of {"id","query"} lines ("-" for stdin)')
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .option('--json', 'print the skill_search result object')
    .addHelpText('after', '\nExamples:\n  skilldex search "extract tables from a pdf"\n  skilldex search "kubernetes deploy" --limit 3 --json\n  skilldex search --batch queries.jsonl > rankings.jsonl')
    .action(
      action(ctx, async (query: string | undefined, o: CatalogFlag & { limit?: number; includeDeprecated?: boolean; batch?: string; telemetry?: boolean }) => {
        const router = new Router({ catalog: catalogOf(o), telemetry: telemetryOn(o) });
        try {
          if (o.batch !== undefined) {
            if (query !== undefined) throw new SkilldexError('INVALID_ARGUMENT', 'give either a QUERY or --batch FILE, not both');
            const file = o.batch;
            const text = await readInput(ctx, file);
            for (const q of parseQueryLines(text, file, false)) {
              try {
                const r = router.search({ query: q.query, limit: o.limit ?? 10, include_deprecated: o.includeDeprecated === true });
                ctx.io.stdout(JSON.stringify({ id: q.id, ranking: r.candidates.map((c) => c.skill_id), candidates: r.candidates }) + '\n');
              } catch (err) {
                if (!(err instanceof SkilldexError)) throw err;
                ctx.io.stdout(JSON.stringify({ id: q.id, ranking: [], candidates: [], error: err.toJSON() }) + '\n');
              }
            }
            return 0;
          }
          if (query === undefined) throw new SkilldexError('INVALID_ARGUMENT', 'search needs a QUERY (or --batch FILE)');
          const r = router.search({ query, ...(o.limit !== undefined ? { limit: o.limit } : {}), include_deprecated: o.includeDeprecated === true });
          if (o.json) ctx.json(r);
          else ctx.out(renderSearch(r));
          return r.candidates.length > 0 ? 0 : 1;
        } finally {
          router.close();
        }
      }),
    );

  program
    .command('fetch <skill_id>')
    .summary('fetch a pinned skill body (skill_fetch), verified against its revision')
    .description(
      'Return the body of SKILL_ID only if GENERATION is the published one, the skill is at REVISION,\n' +
        'and the file still hashes to it. Errors (exit 3): CATALOG_GENERATION_MISMATCH, REVISION_MISMATCH,\n' +
        'INDEX_DRIFT, SKILL_NOT_FOUND, SKILL_ARCHIVED — search again, or re-index on drift.',
    )
    .requiredOption('--revision <revision_id>', 'the revision_id from search (sha256:…)')
    .requiredOption('--generation <catalog_generation>', 'the catalog_generation from search (sha256:…)')
    .option('--context <text>', 'what the skill is fetched for (recorded in telemetry)', '')
    .option('--catalog <file>', catalogHelp)
    .option('--no-telemetry', 'do not record the fetch')
    .option('--json', 'print the skill_fetch result object')
    .action(
      action(ctx, (id: string, o: CatalogFlag & { revision: string; generation: string; context: string; telemetry?: boolean }) => {
        const router = new Router({ catalog: catalogOf(o), telemetry: telemetryOn(o) });
        try {
          const r = router.fetch({ skill_id: id, expected_revision: o.revision, catalog_generation: o.generation, context: o.context });
          if (o.json) ctx.json(r);
          else ctx.out(r.body);
          return 0;
        } finally {
          router.close();
        }
      }),
    );

  program
    .command('eval <files...>')
    .summary('measure routing quality on labelled queries (top-1, recall@5, MRR, nDCG@10)')
    .description(
      'Run every query of each JSONL file ({"id","query","relevant":[skill_id,…]}, the format of the\n' +
        'skilldex bench data) against the catalog and report top-1, recall@5, MRR and nDCG@10 per file\n' +
        'and their macro average. Telemetry is neither used nor written.',
    )
    .option('--catalog <file>', catalogHelp)
    .option('--json', 'print the metrics as JSON')
    .action(
      action(ctx, async (files: string[], o: CatalogFlag): Promise<ExitCode> => {
        const router = new Router({ catalog: catalogOf(o), telemetry: false });
        try {
          const rows: (Metrics & { file: string })[] = [];
          for (const file of files) {
            const queries = parseQueryLines(await readInput(ctx, file), file, true);
            const scores = queries.map((q) => {
              let ranking: string[] = [];
              try {
                ranking = router.search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH).candidates.map((c) => c.skill_id);
              } catch (err) {
                if (!(err instanceof SkilldexError) || err.code !== 'INVALID_QUERY') throw err;
              }
              return scoreRanking(ranking, q);
            });
            rows.push({ file, ...meanMetrics(scores) });
          }
          const overall = macroAverage(rows);
          if (o.json) ctx.json({ files: rows, macro_average: overall });
          else {
            const f = (x: number): string => x.toFixed(3);
            const lines = ['| file | queries | top1 | R@5 | MRR | nDCG@10 |', '|---|---|---|---|---|---|'];
            for (const r of [...rows, { file: 'macro average', ...overall }]) {
              lines.push(`| ${r.file} | ${r.queries} | ${f(r.top1)} | ${f(r.recall_at_5)} | ${f(r.mrr)} | ${f(r.ndcg_at_10)} |`);
            }
            ctx.out(lines.join('\n'));
          }
          return 0;
        } finally {
          router.close();
        }
      }),
    );
}

/**
 * The scopes `index` reads: the scope flags when given; else `library.scopes` of the config; else
 * the scopes (or home and project) the catalog remembers from its last index, so a bare `index`
 * from another folder does not retire the first project's skills; else the default scopes.
 */
function indexScopes(ctx: CliContext, o: ScopeFlags, catalog: string): DiscoverOptions {
  const explicit = o.scope !== undefined || o.home !== undefined || o.project !== undefined;
  if (explicit) return discoverOptions(o, ctx);
  const configured = ctx.settings({})['library.scopes'];
  if (configured.value !== undefined) return { ...discoverOptions(o, ctx), scopes: configured.value };
  const remembered = readCatalogScopes(catalog);
  if (remembered !== undefined) return { ...discoverOptions(o, ctx), ...remembered };
  return discoverOptions(o, ctx);
}

async function readInput(ctx: CliContext, file: string): Promise<string> {
  if (file === '-') {
    if (!ctx.io.readStdin) throw new SkilldexError('INVALID_ARGUMENT', 'standard input is not available here');
    return ctx.io.readStdin();
  }
  const p = path.resolve(ctx.io.cwd, file);
  try {
    return readFileSync(p, 'utf8');
  } catch (err) {
    throw new SkilldexError('FILE_NOT_FOUND', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file }, { cause: err });
  }
}

/** Human rendering of an index report. */
export function renderIndex(r: IndexReport, cwd: string): string {
  const rel = (p: string): string => (path.relative(cwd, p).startsWith('..') ? p : path.relative(cwd, p));
  const lines = [
    `indexed ${r.enumerated} SKILL.md files into ${rel(r.catalog)} (${r.read} read, the rest unchanged by size and mtime)`,
    `  added ${r.added.length}, changed ${r.changed.length}, removed ${r.removed.length}, unchanged ${r.unchanged}, skipped ${r.skipped.length}, duplicates ${r.duplicates.length}, shadowed ${r.shadowed.length}`,
  ];
  if (r.publish) {
    lines.push(
      r.publish.changed
        ? `  published generation ${r.publish.seq}: ${r.publish.catalog_generation}`
        : `  generation ${r.publish.seq} unchanged: ${r.publish.catalog_generation}`,
    );
  } else lines.push('  not published (--no-publish): run skilldex publish');
  for (const k of r.skipped) lines.push(`  skipped ${k.code}: ${escapeInvisible(k.reason)}`);
  return lines.join('\n');
}

/** Human rendering of a search result. */
export function renderSearch(r: SearchResult): string {
  const lines = [`generation ${r.catalog_generation}  policy ${r.policy}`];
  if (r.candidates.length === 0) lines.push('no candidates');
  r.candidates.forEach((c, i) => {
    lines.push(`${String(i + 1).padStart(2)}. ${escapeInvisible(c.skill_id)}  ${c.skill_version}  score ${c.score.toFixed(3)}${c.state !== 'active' ? `  [${c.state}]` : ''}`);
    lines.push(`    ${escapeInvisible(oneLine(c.description, 100))}`);
    lines.push(`    why: ${why(c)}`);
    lines.push(`    pin: --revision ${c.revision_id}`);
  });
  if (r.candidates.length > 0) lines.push(`fetch: skilldex fetch <skill_id> --revision <revision_id> --generation ${r.catalog_generation}`);
  return lines.join('\n');
}

function why(c: Candidate): string {
  const e = c.explanation;
  const parts: string[] = [];
  if (e.exact.keywords.points > 0) parts.push(`keywords[${e.exact.keywords.matched.join(',')}] +${e.exact.keywords.points}`);
  if (e.exact.name.points > 0) parts.push(`name[${e.exact.name.matched.join(',')}] +${e.exact.name.points}`);
  if (e.exact.description.points > 0) parts.push(`description[${e.exact.description.matched.join(',')}] +${e.exact.description.points}`);
  if (e.fts.weighted > 0) parts.push(`fts +${e.fts.weighted.toFixed(3)}`);
  if (e.fuzzy.weighted > 0) parts.push(`fuzzy[${e.fuzzy.matches.map((m) => `${m.query_token}~${m.term}`).join(',')}] +${e.fuzzy.weighted.toFixed(3)}`);
  if (e.telemetry.multiplier !== 1) parts.push(`telemetry ×${e.telemetry.multiplier.toFixed(3)}`);
  if (e.lifecycle.multiplier !== 1) parts.push(`${e.lifecycle.state} ×${e.lifecycle.multiplier}`);
  return parts.join(', ');
}

function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : t.slice(0, n - 1) + '…';
}
