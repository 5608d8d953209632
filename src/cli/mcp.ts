/**
 * `skilldex mcp`: serve the catalog to agents over the Model Context Protocol (issue #4). The MCP
 * face is loaded only when this command runs, so other commands start fast.
 */
import type { Command } from 'commander';
import { Router, SkilldexError, findSubstrateRoot, realpathOrUndefined } from '../index.js';
import { action, collect, parseIntOption, type CliContext } from './context.js';

interface McpFlags {
  catalog?: string;
  http?: number;
  host?: string;
  cascadeRoot?: string[];
  substrate?: string;
  telemetry?: boolean;
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
    .option('--catalog <file>', 'catalog file (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)')
    .option('--http <port>', 'serve Streamable HTTP on PORT instead of stdio (0: any free port)', parseIntOption('--http', 0, 65535))
    .option('--host <addr>', 'address to bind with --http (default: mcp.host of the config, else 127.0.0.1)')
    .option('--cascade-root <dir>', 'a skill.index cascade skill_index_crawl may read (repeatable)', collect)
    .option('--substrate <dir>', 'substrate root for substrate_read (default: a substrate/ folder at or above the cwd)')
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .addHelpText(
      'after',
      '\nExamples:\n  claude mcp add skilldex -- skilldex mcp --catalog ~/.local/share/skilldex/catalog.sqlite\n  skilldex mcp --http 8765 --cascade-root ./examples/cascade --substrate ./examples/substrate',
    )
    .action(
      action(ctx, async (o: McpFlags): Promise<0> => {
        const settings = ctx.settings({ catalog: o.catalog, telemetry: o.telemetry, cascadeRoots: o.cascadeRoot, substrate: o.substrate, host: o.host });
        const catalog = settings.catalog.value;
        const cascadeRoots = settings['mcp.cascade_roots'].value.map((d) => {
          const real = realpathOrUndefined(d);
          if (real === undefined) throw new SkilldexError('FILE_NOT_FOUND', `--cascade-root ${d} does not exist (from ${settings['mcp.cascade_roots'].source})`, { option: '--cascade-root', value: d });
          return real;
        });
        const named = settings['mcp.substrate'].value;
        const substrateRoot = named ?? findSubstrateRoot(ctx.io.cwd);
        // A named substrate that is not there is refused at start, as a missing --cascade-root is,
        // rather than offering a tool whose every call fails.
        if (named !== undefined && realpathOrUndefined(named) === undefined) {
          throw new SkilldexError('SUBSTRATE_NOT_FOUND', `--substrate ${named} does not exist (from ${settings['mcp.substrate'].source})`, { option: '--substrate', value: named });
        }
        const router = new Router({ catalog, telemetry: settings.telemetry.value });
        // The catalog must answer before we announce ourselves: a missing or empty one fails here, clearly.
        router.currentGeneration();
        const mcp = await import('../mcp/index.js');
        const serverCtx = { router, cascadeRoots, ...(substrateRoot !== undefined ? { substrateRoot } : {}), log: (l: string) => ctx.err(l) };
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
            const handle = await mcp.serveHttp(serverCtx, o.http, settings['mcp.host'].value);
            await stopped;
            await handle.close();
          }
        } finally {
          router.close();
        }
        return 0;
      }),
    );
}
