/**
 * `skilldex serve`: the catalog explorer, a read-only local web page over the published catalog
 * (issue 15, docs/explorer.md). Prints the URL, then serves until SIGINT or SIGTERM. The explorer
 * face is loaded only when this command runs, so other commands start fast.
 */
import type * as ChildProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError } from '../errors.js';
import { action, collect, parseIntOption, telemetryEnabled, type CliContext } from './context.js';

interface ServeFlags {
  catalog?: string;
  port: number;
  host: string;
  cascadeRoot?: string[];
  substrate?: string;
  open?: boolean;
  tokenFile?: string;
  telemetry?: boolean;
  json?: boolean;
}

/** Default port of `skilldex serve`. */
export const DEFAULT_SERVE_PORT = 8787;

/** Registers `serve`. */
export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .summary(
      'browse the catalog in a local web page: search explained, skills, generations, cascades',
    )
    .description(
      'Start the catalog explorer, a read-only web page and JSON API over the published catalog\n' +
        '(docs/explorer.md). Binds 127.0.0.1 by default and answers only requests that name this\n' +
        'server (Host, Origin). A non-loopback --host needs a token (--token-file or SKILLDEX_SERVE_TOKEN).\n' +
        'Searches made here record no telemetry. Prints the URL, serves until Ctrl-C.',
    )
    .option(
      '--catalog <file>',
      'catalog file or postgres:// URL (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)',
    )
    .option(
      '--port <n>',
      `port to listen on (0: any free port)`,
      parseIntOption('--port', 0, 65535),
      DEFAULT_SERVE_PORT,
    )
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option(
      '--cascade-root <dir>',
      'a skill.index cascade the page may browse and crawl (repeatable)',
      collect,
    )
    .option(
      '--substrate <dir>',
      'substrate root the page may read (default: a substrate/ folder at or above the cwd)',
    )
    .option(
      '--token-file <file>',
      'require the token in FILE (first line) as a bearer token or ?token= (default: $SKILLDEX_SERVE_TOKEN)',
    )
    .option('--open', 'open the page in the default browser')
    .option(
      '--no-telemetry',
      'do not read suggestion/fetch history (ranking and usage views without it)',
    )
    .option(
      '--json',
      'print { url, catalog, catalog_generation } as JSON instead of a line of text',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex serve --catalog .skilldex/catalog.sqlite --open\n' +
        '  skilldex serve --port 0 --cascade-root examples/cascade --substrate examples/substrate --json\n' +
        '  SKILLDEX_SERVE_TOKEN=$(openssl rand -hex 16) skilldex serve --host 0.0.0.0',
    )
    .action(
      action(ctx, async (o: ServeFlags): Promise<0> => {
        const {
          CatalogExplorer,
          Router,
          TelemetryReader,
          findSubstrateRoot,
          realpathOrUndefined,
          telemetryPathFor,
        } = await import('../index.js');
        const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
        const cascadeRoots = (o.cascadeRoot ?? []).map((d) => {
          const real = realpathOrUndefined(path.resolve(ctx.io.cwd, d));
          if (real === undefined)
            throw new SkilldexError('FILE_NOT_FOUND', `--cascade-root ${d} does not exist`, {
              option: '--cascade-root',
              value: d,
            });
          return real;
        });
        if (
          o.substrate !== undefined &&
          realpathOrUndefined(path.resolve(ctx.io.cwd, o.substrate)) === undefined
        ) {
          throw new SkilldexError(
            'SUBSTRATE_NOT_FOUND',
            `--substrate ${o.substrate} does not exist`,
            { option: '--substrate', value: o.substrate },
          );
        }
        const substrateRoot =
          o.substrate !== undefined
            ? path.resolve(ctx.io.cwd, o.substrate)
            : findSubstrateRoot(ctx.io.cwd);
        const token = readToken(o.tokenFile, ctx);
        const telemetry = telemetryEnabled(o.telemetry, ctx.io.env);
        const router = new Router({ catalog, telemetry, record: false });
        const explorer = new CatalogExplorer(catalog);
        try {
          // The catalog must answer before the URL is printed: a missing or empty one fails here.
          const generation = router.currentGeneration();
          const { startExplorer } = await import('../explorer/index.js');
          const handle = await startExplorer(
            {
              router,
              catalog: explorer,
              telemetry: new TelemetryReader(telemetry ? telemetryPathFor(catalog) : undefined),
              examplesFile: telemetryPathFor(catalog),
              cascadeRoots,
              ...(substrateRoot !== undefined ? { substrateRoot } : {}),
            },
            {
              host: o.host,
              port: o.port,
              ...(token !== undefined ? { token } : {}),
              log: (l) => ctx.err(l),
            },
          );
          // Listen for the stop signal before announcing the URL: a supervisor may stop the server
          // the moment it reads the URL, and an unhandled SIGTERM would skip the close.
          const stopped = new Promise<void>((resolve) => {
            process.once('SIGINT', resolve);
            process.once('SIGTERM', resolve);
          });
          if (o.json) ctx.json({ url: handle.url, catalog, catalog_generation: generation });
          else ctx.out(`skilldex serve: ${handle.url}`);
          if (o.open) openBrowser(handle.url, ctx);
          await stopped;
          await handle.close();
        } finally {
          explorer.close();
          router.close();
        }
        return 0;
      }),
    );
}

// The token: the first line of --token-file, else SKILLDEX_SERVE_TOKEN, else none.
function readToken(file: string | undefined, ctx: CliContext): string | undefined {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(path.resolve(ctx.io.cwd, file), 'utf8');
    } catch (err) {
      throw new SkilldexError(
        'FILE_NOT_FOUND',
        `--token-file ${file} cannot be read`,
        { option: '--token-file', value: file },
        { cause: err },
      );
    }
    const token = text.split(/\r?\n/)[0]!.trim();
    if (token === '')
      throw new SkilldexError('INVALID_ARGUMENT', `--token-file ${file} is empty`, {
        option: '--token-file',
        value: file,
      });
    return token;
  }
  const env = ctx.io.env['SKILLDEX_SERVE_TOKEN']?.trim();
  return env === undefined || env === '' ? undefined : env;
}

// Best effort: a missing opener only means the user opens the printed URL by hand. child_process
// loads here, not with the CLI: it costs every other command's start-up some 6 ms.
function openBrowser(url: string, ctx: CliContext): void {
  // Required, not import()ed: the bundled CLI runs as a vm script, which has no loader for import().
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
  const cmd =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => ctx.err(`skilldex serve: could not run ${cmd}; open ${url} by hand`));
    child.unref();
  } catch {
    ctx.err(`skilldex serve: could not run ${cmd}; open ${url} by hand`);
  }
}
