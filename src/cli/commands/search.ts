/**
 * `skilldex search`: skill_search for one query (rendered by search-render.ts, or the result
 * object with `--json`), or a batch of queries (`--batch FILE.jsonl`), one JSON line each, written
 * with backpressure. A person's search records nothing unless `--record`. The router loads inside
 * the action, never at start-up.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { Router } from '../../internal.js';
import { DEFAULT_POLICY_ID } from '../../router/search/policies/index.js';
import { jsonText } from '../../text/index.js';
import {
  action,
  parseIntOption,
  parseProbability,
  readInput,
  usageEnabled,
  type CliContext,
} from '../context.js';
import {
  addCatalogOption,
  catalogOf,
  namingCatalog,
  oneOf,
  telemetryOf,
  type CatalogFlag,
} from '../options.js';
import { renderSearch } from './search-render.js';

/** Form of a `search --batch` line. */
type BatchFields = 'full' | 'ranking';

/** Every flag of `search`. */
type SearchFlags = CatalogFlag & {
  limit?: number;
  includeDeprecated?: boolean;
  minConfidence?: number;
  batch?: string;
  fields: BatchFields;
  telemetry?: boolean;
  usage?: boolean;
  record?: boolean;
};

/** The examples and the batch line format `search --help` ends with. */
const SEARCH_HELP_AFTER =
  '\nExamples:\n  skilldex search "extract tables from a pdf"\n  skilldex search "kubernetes deploy" --limit 3 --json\n  skilldex search --batch queries.jsonl > rankings.jsonl\n  skilldex search --batch queries.jsonl --fields ranking --limit 50 > rankings.jsonl\n\n' +
  'Batch lines: {"id","ranking":[…],"candidates":[…],"abstain","min_confidence"} (or {"id","ranking":[…],\n' +
  '"abstain","min_confidence"} with --fields ranking), judged against --min-confidence as a single search;\n' +
  'a line that cannot be used gives {"id","ranking":[],"abstain":true,…,"error":{code,message,hint,details}} (id null\n' +
  'when none could be read) and the batch goes on. Output waits for a slow reader; a reader that\n' +
  'goes away (a closed pipe) ends the run silently with exit 0.';

/** Registers `search`. */
export function registerSearch(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('search [query]')
      .summary('rank skills for a query (skill_search)')
      .description(
        `Rank the published generation for QUERY under the catalog's policy (${DEFAULT_POLICY_ID} for new\n` +
          'catalogs) and explain every score, learned usage examples included (--no-usage leaves them out).\n' +
          'Pin what you use: fetch with skill_id, revision_id and catalog_generation.\n' +
          'With --batch FILE.jsonl, run one query per line ({"id","query"}) and print one JSON line each.',
      ),
  )
    .option(
      '--limit <n>',
      'how many candidates (1-50, default 8; batch default 10)',
      parseIntOption('--limit', 1, 50),
    )
    .option('--include-deprecated', 'also rank deprecated skills (penalised)')
    .option(
      '--min-confidence <p>',
      "confidence floor, 0-1: abstain when no candidate reaches it (default: min_confidence of the config, else the policy's, 0.60 for v4 and v5)",
      parseProbability('--min-confidence'),
    )
    .option('--batch <file>', 'JSONL file of {"id","query"} lines ("-" for stdin)')
    .option(
      '--fields <form>',
      'batch line form: "full" (id, ranking, candidates with explanations) or "ranking" (id and skill ids only)',
      (v: string): BatchFields => oneOf('--fields', v, ['full', 'ranking'] as const),
      'full',
    )
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .option('--no-usage', 'rank without learned usage examples (also SKILLDEX_USAGE=off)')
    .option(
      '--record',
      "record the candidates shown as suggestions, as an agent's search does (default: a person's search records nothing)",
    )
    .option('--json', 'print the skill_search result object')
    .addHelpText('after', SEARCH_HELP_AFTER)
    .action(action(ctx, (query: string | undefined, o: SearchFlags) => runSearch(ctx, query, o)));
}

// The search action: one query rendered, or a batch of them.
async function runSearch(
  ctx: CliContext,
  query: string | undefined,
  o: SearchFlags,
): Promise<ExitCode> {
  const { Router } = await import('../../router/index.js');
  const file = catalogOf(ctx, o);
  return namingCatalog(file, async () => {
    if (o.batch !== undefined && query !== undefined)
      throw new SkilldexError('INVALID_ARGUMENT', 'give either a QUERY or --batch FILE, not both');
    if (o.batch === undefined && query === undefined)
      throw new SkilldexError('INVALID_ARGUMENT', 'search needs a QUERY (or --batch FILE)');
    // Suggestions shown to a person are not an agent's: repeating a search must not demote what it shows.
    const router = new Router({
      catalog: file,
      telemetry: telemetryOf(ctx, o),
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
          ...minConfidenceOf(ctx, o),
        });
        return 0;
      }
      const r = router.search({
        query: query!,
        ...(o.limit !== undefined ? { limit: o.limit } : {}),
        include_deprecated: o.includeDeprecated === true,
        ...minConfidenceOf(ctx, o),
      });
      if (o.json) ctx.json(r);
      else {
        const ids = r.candidates.map((c) => c.skill_id);
        ctx.out(renderSearch(r, ids.length > 0 ? router.locate(ids) : new Map(), ctx.io.cwd));
      }
      return r.candidates.length > 0 ? 0 : 1;
    } finally {
      router.close();
    }
  });
}

// The floor of a search: --min-confidence, else the config's min_confidence, else the policy's.
function minConfidenceOf(ctx: CliContext, o: SearchFlags): { min_confidence?: number } {
  const v = ctx.settings({ minConfidence: o.minConfidence }).min_confidence.value;
  return v === undefined ? {} : { min_confidence: v };
}

/**
 * Runs one search per query line and writes one JSON line each, in input order, awaiting the
 * stream between lines (backpressure). A bad line or a refused query is an error line for its id.
 * Every line carries `abstain` and `min_confidence` as a single search does (issue 33 item 8):
 * each query is judged against the same floor (`--min-confidence`, else the config's, else the
 * policy's); an error line abstains.
 */
async function runBatch(
  ctx: CliContext,
  router: Router,
  text: string,
  file: string,
  o: { limit: number; includeDeprecated: boolean; fields: BatchFields; min_confidence?: number },
): Promise<void> {
  const { parseQueryLinesTolerant } = await import('../../router/index.js');
  const floor = o.min_confidence ?? router.defaultConfidenceFloor();
  const empty =
    o.fields === 'full'
      ? { ranking: [], candidates: [], abstain: true, min_confidence: floor }
      : { ranking: [], abstain: true, min_confidence: floor };
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
          min_confidence: floor,
        });
        const ranking = r.candidates.map((c) => c.skill_id);
        const judged = { abstain: r.abstain, min_confidence: r.min_confidence };
        line =
          o.fields === 'full'
            ? { id: q.id, ranking, candidates: r.candidates, ...judged }
            : { id: q.id, ranking, ...judged };
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
