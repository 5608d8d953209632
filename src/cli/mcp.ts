/**
 * `skilldex mcp`: serve the catalog to agents over the Model Context Protocol (issue #4). The MCP
 * face, the router and the substrate reader are loaded only when this command runs, so other
 * commands start fast.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError } from '../errors.js';
import { realpathOrUndefined } from '../fsx/index.js';
import type * as HttpModule from '../http/index.js';
import type { RememberedScopes } from '../index.js';
import { action, collect, parseIntOption, usageEnabled, type CliContext } from './context.js';
import { reportIndexError, startWatch, summarizeIndex } from './watch.js';

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
}

/** Registers `mcp`. */
export function registerMcp(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .summary('serve skill_search and skill_fetch to agents over MCP (stdio or Streamable HTTP)')
    .description(
      'Start an MCP server over the published catalog. stdio by default (stdout carries only JSON-RPC;\n' +
        'logs go to stderr); --http PORT serves Streamable HTTP at http://HOST:PORT/mcp.\n' +
        'Tools: skill_search, skill_fetch; skill_index_crawl with --cascade-root; substrate_read when a\n' +
        'substrate is given or found. Also serves the MCP Skills extension (skills/list, skills/get).',
    )
    .option(
      '--catalog <file>',
      'catalog file or postgres:// URL (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)',
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
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .option('--no-usage', 'rank without learned usage examples (also SKILLDEX_USAGE=off)')
    .option(
      '--watch',
      "re-index the catalog's scopes and publish after each change (300 ms debounce); served answers follow",
    )
    .option('--json', 'print a refusal to start as the JSON error object on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  claude mcp add skilldex -- skilldex mcp --catalog ~/.local/share/skilldex/catalog.sqlite\n  skilldex mcp --http 8765 --cascade-root ./examples/cascade --substrate ./examples/substrate\n  skilldex mcp --watch   # re-index the scopes the catalog was built from on every change\n  skilldex mcp --http 8765 --host 0.0.0.0 --token-file ~/.config/skilldex/token   # clients send Authorization: Bearer <token>\n\n' +
        'HTTP requests are refused with 403 when Host is not a loopback name on a loopback bind, or when\n' +
        'Origin is a foreign page; with a token, 401 without the right bearer token (16 characters at least).\n' +
        'With --watch the server first re-indexes the scopes (library.scopes of the config, else the ones\n' +
        'the catalog remembers), then watches them; a fetch pinned to an older generation gets\n' +
        'CATALOG_GENERATION_MISMATCH. Re-index reports and failures go to stderr; the server keeps serving.',
    )
    .action(
      action(ctx, async (o: McpFlags): Promise<0> => {
        const { Router, indexCatalog, readCatalogScopes } = await import('../router/index.js');
        const { findSubstrateRoot } = await import('../substrate/index.js');
        const settings = ctx.settings({
          catalog: o.catalog,
          telemetry: o.telemetry,
          cascadeRoots: o.cascadeRoot,
          substrate: o.substrate,
          host: o.host,
        });
        const catalog = settings.catalog.value;
        const host = settings['mcp.host'].value;
        const cascadeRoots = settings['mcp.cascade_roots'].value.map((d) => {
          const real = realpathOrUndefined(d);
          if (real === undefined)
            throw new SkilldexError(
              'FILE_NOT_FOUND',
              `--cascade-root ${d} does not exist (from ${settings['mcp.cascade_roots'].source})`,
              { option: '--cascade-root', value: d },
            );
          return real;
        });
        const named = settings['mcp.substrate'].value;
        const substrateRoot = named ?? findSubstrateRoot(ctx.io.cwd);
        // A named substrate that is not there is refused at start, as a missing --cascade-root is,
        // rather than offering a tool whose every call fails.
        if (named !== undefined && realpathOrUndefined(named) === undefined) {
          throw new SkilldexError(
            'SUBSTRATE_NOT_FOUND',
            `--substrate ${named} does not exist (from ${settings['mcp.substrate'].source})`,
            { option: '--substrate', value: named },
          );
        }
        const http = await import('../http/index.js');
        const token = httpToken(ctx, o, http.readToken);
        const mcp = await import('../mcp/index.js');
        // Refuse an open bind before touching the catalog: the refusal is about the command line.
        if (o.http !== undefined && token === undefined && !http.isLoopback(host)) {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--host ${host} is not a loopback address: anyone who can reach it could read every skill; set a token (--token-file FILE or SKILLDEX_MCP_TOKEN)`,
            { option: '--host', value: host },
          );
        }
        let watchScopes: RememberedScopes | undefined;
        if (o.watch === true) {
          const configured = settings['library.scopes'].value;
          watchScopes =
            configured !== undefined ? { scopes: configured } : readCatalogScopes(catalog);
          if (watchScopes === undefined) {
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              `--watch: ${catalog} remembers no scopes and the config names none; run skilldex index --scope DIR first`,
              { option: '--watch', catalog },
            );
          }
          // Catch up with what changed while no one watched; a failure is reported and the last generation served.
          try {
            ctx.note(summarizeIndex(indexCatalog({ catalog, ...watchScopes })));
          } catch (err) {
            reportIndexError(ctx, err, catalog, o.json === true);
          }
        }
        const router = new Router({
          catalog,
          telemetry: settings.telemetry.value,
          usage: usageEnabled(o.usage, ctx.io.env),
        });
        // The catalog must answer before we announce ourselves: a missing or empty one fails here, clearly.
        router.currentGeneration();
        const serverCtx = {
          router,
          cascadeRoots,
          ...(substrateRoot !== undefined ? { substrateRoot } : {}),
          log: (l: string) => ctx.err(l),
        };
        const watch =
          watchScopes === undefined
            ? undefined
            : await startWatch(
                ctx,
                { catalog, ...watchScopes },
                { report: (r) => ctx.note(summarizeIndex(r)), json: o.json === true },
              );
        try {
          if (o.http === undefined) {
            await mcp.serveStdio(serverCtx);
          } else {
            // Listen for the stop signal before announcing the URL: a supervisor may stop the
            // server the moment it reads the URL, and an unhandled SIGTERM would skip the close.
            const stopped = new Promise<void>((resolve) => {
              process.once('SIGINT', resolve);
              process.once('SIGTERM', resolve);
            });
            const handle = await mcp.serveHttp(
              serverCtx,
              o.http,
              host,
              token !== undefined ? { token } : {},
            );
            await stopped;
            await handle.close();
          }
        } finally {
          await watch?.close();
          router.close();
        }
        return 0;
      }),
    );
}

// The HTTP bearer token (src/http's rules): the first line of --token-file, else
// $SKILLDEX_MCP_TOKEN, else none; --token-file without --http is refused.
function httpToken(
  ctx: CliContext,
  o: McpFlags,
  readToken: typeof HttpModule.readToken,
): string | undefined {
  if (o.tokenFile !== undefined && o.http === undefined)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      '--token-file is for --http only (stdio has no network peer)',
      { option: '--token-file' },
    );
  if (o.http === undefined) return undefined;
  return readToken({
    file: o.tokenFile === undefined ? undefined : path.resolve(ctx.io.cwd, o.tokenFile),
    option: '--token-file',
    envName: 'SKILLDEX_MCP_TOKEN',
    envValue: ctx.io.env['SKILLDEX_MCP_TOKEN'],
    uid: process.getuid?.(),
  });
}
