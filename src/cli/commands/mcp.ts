/**
 * `skilldex mcp`: serve the catalog to agents over the Model Context Protocol (issue #4), on stdio
 * or Streamable HTTP, optionally re-indexing on every change (`--watch`). The MCP face, the router
 * and the substrate reader are loaded only when this command runs, so other commands start fast.
 */
import type { Command } from 'commander';
import { SkilldexError } from '../../errors.js';
import type { RememberedScopes } from '../../internal.js';
import {
  action,
  collect,
  parseIntOption,
  parseProbability,
  usageEnabled,
  type CliContext,
} from '../context.js';
import { addCatalogOption } from '../options.js';
import { defaultSubstrateRoot, existingFolder, httpToken, untilStopped } from '../serving.js';
import type { Settings } from '../settings.js';
import { reportIndexError, startWatch, summarizeIndex } from '../watch.js';

interface McpFlags {
  catalog?: string;
  http?: number;
  host?: string;
  cascadeRoot?: string[];
  substrate?: string;
  telemetry?: boolean;
  usage?: boolean;
  tokenFile?: string;
  watch?: boolean;
  json?: boolean;
  minConfidence?: number;
}

/** The examples and the HTTP and --watch rules `mcp --help` ends with. */
const MCP_HELP_AFTER =
  '\nExamples:\n  claude mcp add skilldex -- skilldex mcp --catalog ~/.local/share/skilldex/catalog.sqlite\n  skilldex mcp --http 8765 --cascade-root ./examples/cascade --substrate ./examples/substrate\n  skilldex mcp --watch   # re-index the scopes the catalog was built from on every change\n  skilldex mcp --http 8765 --host 0.0.0.0 --token-file ~/.config/skilldex/token   # clients send Authorization: Bearer <token>\n\n' +
  'HTTP requests are refused with 403 when Host is not a loopback name on a loopback bind, or when\n' +
  'Origin is a foreign page; with a token, 401 without the right bearer token (16 characters at least).\n' +
  'With --watch the server first re-indexes the scopes (library.scopes of the config, else the ones\n' +
  'the catalog remembers), then watches them; a fetch pinned to an older generation gets\n' +
  'CATALOG_GENERATION_MISMATCH. Re-index reports and failures go to stderr; the server keeps serving.';

/** Registers `mcp`. */
export function registerMcp(program: Command, ctx: CliContext): void {
  addCatalogOption(
    program
      .command('mcp')
      .summary('serve skill_search and skill_fetch to agents over MCP (stdio or Streamable HTTP)')
      .description(
        'Start an MCP server over the published catalog. stdio by default (stdout carries only JSON-RPC;\n' +
          'logs go to stderr); --http PORT serves Streamable HTTP at http://HOST:PORT/mcp.\n' +
          'Tools: skill_search, skill_fetch; skill_index_crawl with --cascade-root; substrate_read when a\n' +
          'substrate is given or found. Also serves the MCP Skills extension (skills/list, skills/get).',
      ),
  )
    .option(
      '--http <port>',
      'serve Streamable HTTP on PORT instead of stdio (0: any free port)',
      parseIntOption('--http', 0, 65535),
    )
    .option(
      '--host <addr>',
      'address to bind with --http (default: mcp.host of the config, else 127.0.0.1; outside loopback only with a token)',
    )
    .option(
      '--token-file <file>',
      'with --http: require "Authorization: Bearer <token>", the token being the first line of FILE (default: $SKILLDEX_MCP_TOKEN)',
    )
    .option(
      '--cascade-root <dir>',
      'a skill.index cascade skill_index_crawl may read (repeatable)',
      collect,
    )
    .option(
      '--substrate <dir>',
      'substrate root for substrate_read (default: a substrate/ folder at or above the cwd)',
    )
    .option(
      '--min-confidence <p>',
      "default confidence floor of skill_search, 0-1 (default: min_confidence of the config, else the policy's); a request's own min_confidence wins",
      parseProbability('--min-confidence'),
    )
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .option('--no-usage', 'rank without learned usage examples (also SKILLDEX_USAGE=off)')
    .option(
      '--watch',
      "re-index the catalog's scopes and publish after each change (300 ms debounce); served answers follow",
    )
    .option('--json', 'print a refusal to start as the JSON error object on stdout')
    .addHelpText('after', MCP_HELP_AFTER)
    .action(action(ctx, (o: McpFlags) => runMcp(ctx, o)));
}

/** What `mcp` serves, resolved from its flags and settings before anything starts. */
interface McpSetup {
  readonly settings: Settings;
  readonly catalog: string;
  readonly cascadeRoots: string[];
  readonly substrateRoot: string | undefined;
  readonly token: string | undefined;
  readonly minConfidence: number | undefined;
}

// The mcp action: check everything, catch up with --watch, then serve until stdin closes or a signal.
async function runMcp(ctx: CliContext, o: McpFlags): Promise<0> {
  const setup = await mcpSetup(ctx, o);
  const { Router } = await import('../../router/index.js');
  const mcp = await import('../../mcp/index.js');
  const watchScopes = o.watch === true ? await catchUp(ctx, o, setup) : undefined;
  const router = new Router({
    catalog: setup.catalog,
    telemetry: setup.settings.telemetry.value,
    usage: usageEnabled(o.usage, ctx.io.env),
    usageRetentionDays: setup.settings.usage_retention_days.value,
  });
  // The catalog must answer before we announce ourselves: a missing or empty one fails here, clearly.
  router.currentGeneration();
  const serverCtx = {
    router,
    cascadeRoots: setup.cascadeRoots,
    ...(setup.substrateRoot !== undefined ? { substrateRoot: setup.substrateRoot } : {}),
    log: (l: string) => ctx.err(l),
    ...(setup.minConfidence !== undefined ? { minConfidence: setup.minConfidence } : {}),
  };
  const watch =
    watchScopes === undefined
      ? undefined
      : await startWatch(
          ctx,
          { catalog: setup.catalog, ...watchScopes },
          { report: (r) => ctx.note(summarizeIndex(r)), json: o.json === true },
        );
  try {
    if (o.http === undefined) {
      await mcp.serveStdio(serverCtx);
    } else {
      const stopped = untilStopped();
      const host = setup.settings['mcp.host'].value;
      const token = setup.token !== undefined ? { token: setup.token } : {};
      const handle = await mcp.serveHttp(serverCtx, o.http, host, token);
      await stopped;
      await handle.close();
    }
  } finally {
    await watch?.close();
    router.close();
  }
  return 0;
}

// The settings, folders and token `mcp` serves with; each bad one is refused before the catalog opens.
async function mcpSetup(ctx: CliContext, o: McpFlags): Promise<McpSetup> {
  const settings = ctx.settings({
    catalog: o.catalog,
    telemetry: o.telemetry,
    cascadeRoots: o.cascadeRoot,
    substrate: o.substrate,
    host: o.host,
    minConfidence: o.minConfidence,
  });
  const roots = settings['mcp.cascade_roots'];
  const cascadeRoots = roots.value.map((d) =>
    existingFolder(d, '--cascade-root', 'FILE_NOT_FOUND', roots.source),
  );
  const named = settings['mcp.substrate'];
  if (named.value !== undefined)
    existingFolder(named.value, '--substrate', 'SUBSTRATE_NOT_FOUND', named.source);
  if (o.tokenFile !== undefined && o.http === undefined)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      '--token-file is for --http only (stdio has no network peer)',
      { option: '--token-file' },
    );
  const token =
    o.http === undefined ? undefined : await httpToken(ctx, o.tokenFile, 'SKILLDEX_MCP_TOKEN');
  const host = settings['mcp.host'].value;
  // Refuse an open bind before touching the catalog: the refusal is about the command line.
  const { isLoopback } = await import('../../http/index.js');
  if (o.http !== undefined && token === undefined && !isLoopback(host)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--host ${host} is not a loopback address: anyone who can reach it could read every skill; set a token (--token-file FILE or SKILLDEX_MCP_TOKEN)`,
      { option: '--host', value: host },
    );
  }
  return {
    settings,
    catalog: settings.catalog.value,
    cascadeRoots,
    substrateRoot: named.value ?? (await defaultSubstrateRoot(ctx)),
    token,
    minConfidence: settings.min_confidence.value,
  };
}

/**
 * `mcp --watch`: the scopes to watch (library.scopes of the config, else the catalog's), after one
 * re-index that catches up with what changed while no one watched. A failed re-index is reported
 * and the last generation served.
 */
async function catchUp(
  ctx: CliContext,
  o: McpFlags,
  { settings, catalog }: McpSetup,
): Promise<RememberedScopes & { rememberScopes?: false }> {
  const { indexCatalog } = await import('../../router/index.js');
  const configured = settings['library.scopes'].value;
  // A project catalog's remembered scopes outside the project are not re-read (issue 36 L3).
  const { rememberedScopesOf } = await import('../settings.js');
  const remembered = (): RememberedScopes | undefined => {
    const r = rememberedScopesOf(ctx.configLayers(), settings.catalog, ctx.io.env, ctx.io.cwd);
    if (r.ignored !== undefined) ctx.warnIgnored(r.ignored);
    return r.remembered;
  };
  // An untrusted project's library.scopes are not remembered by a catalog that is not the
  // project's (issue 36 M3), as with index.
  const layers = ctx.configLayers();
  const untrusted = (s: { source: string }): boolean =>
    layers.projectTrusted !== true && s.source.startsWith('project ');
  const forget =
    untrusted(settings['library.scopes']) && !untrusted(settings.catalog)
      ? { rememberScopes: false as const }
      : {};
  const watchScopes = configured !== undefined ? { scopes: configured, ...forget } : remembered();
  if (watchScopes === undefined) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--watch: ${catalog} remembers no scopes and the config names none; run skilldex index --scope DIR first`,
      { option: '--watch', catalog },
    );
  }
  try {
    ctx.note(summarizeIndex(indexCatalog({ catalog, ...watchScopes })));
  } catch (err) {
    reportIndexError(ctx, err, catalog, o.json === true);
  }
  return watchScopes;
}
