/**
 * `skilldex mcp`: serve the catalog to agents over the Model Context Protocol (issue #4). The MCP
 * face is loaded only when this command runs, so other commands start fast.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { Router, SkilldexError, findSubstrateRoot, realpathOrUndefined, resolveCatalogPath } from '../index.js';
import { action, collect, parseIntOption, telemetryEnabled, type CliContext } from './context.js';

interface McpFlags {
  catalog?: string;
  http?: number;
  host: string;
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
    .option('--catalog <file>', 'catalog file (default: $SKILLDEX_CATALOG, else ~/.local/share/skilldex/catalog.sqlite)')
    .option('--http <port>', 'serve Streamable HTTP on PORT instead of stdio (0: any free port)', parseIntOption('--http', 0, 65535))
    .option('--host <addr>', 'address to bind with --http', '127.0.0.1')
    .option('--cascade-root <dir>', 'a skill.index cascade skill_index_crawl may read (repeatable)', collect)
    .option('--substrate <dir>', 'substrate root for substrate_read (default: a substrate/ folder at or above the cwd)')
    .option('--no-telemetry', 'do not record or use suggestion/fetch history')
    .addHelpText(
      'after',
      '\nExamples:\n  claude mcp add skilldex -- skilldex mcp --catalog ~/.local/share/skilldex/catalog.sqlite\n  skilldex mcp --http 8765 --cascade-root ./examples/cascade --substrate ./examples/substrate',
    )
    .action(
      action(ctx, async (o: McpFlags): Promise<0> => {
        const catalog = resolveCatalogPath(o.catalog, ctx.io.env, ctx.io.cwd);
        const cascadeRoots = (o.cascadeRoot ?? []).map((d) => {
          const real = realpathOrUndefined(path.resolve(ctx.io.cwd, d));
          if (real === undefined) throw new SkilldexError('FILE_NOT_FOUND', `--cascade-root ${d} does not exist`, { option: '--cascade-root', value: d });
          return real;
        });
        const substrateRoot = o.substrate !== undefined ? path.resolve(ctx.io.cwd, o.substrate) : findSubstrateRoot(ctx.io.cwd);
        // A named substrate that is not there is refused at start, as a missing --cascade-root is,
        // rather than offering a tool whose every call fails.
        if (o.substrate !== undefined && realpathOrUndefined(path.resolve(ctx.io.cwd, o.substrate)) === undefined) {
          throw new SkilldexError('SUBSTRATE_NOT_FOUND', `--substrate ${o.substrate} does not exist`, { option: '--substrate', value: o.substrate });
        }
        const router = new Router({ catalog, telemetry: telemetryEnabled(o.telemetry, ctx.io.env) });
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
            const handle = await mcp.serveHttp(serverCtx, o.http, o.host);
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
