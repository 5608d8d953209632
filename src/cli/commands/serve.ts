/**
 * `skilldex serve`: the catalog explorer, a read-only local web page over the published catalog
 * (issue 15, docs/explorer.md). Prints the URL, then serves until SIGINT or SIGTERM. The explorer
 * face is loaded only when this command runs, so other commands start fast.
 */
import type * as ChildProcess from 'node:child_process';
import type * as Fs from 'node:fs';
import type * as Os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command } from 'commander';
import { action, collect, parseIntOption, telemetryEnabled, type CliContext } from '../context.js';
import { CATALOG_HELP, catalogOf } from '../options.js';
import { defaultSubstrateRoot, existingFolder, httpToken, untilStopped } from '../serving.js';

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
    .option('--catalog <file>', CATALOG_HELP)
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
      'require the token in FILE (first line; mode 0600) as a bearer token on API requests; the printed URL carries it as #token= (default: $SKILLDEX_SERVE_TOKEN)',
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
    .action(action(ctx, (o: ServeFlags) => runServe(ctx, o)));
}

// The serve action: check the folders and token, open the catalog, serve until a signal.
async function runServe(ctx: CliContext, o: ServeFlags): Promise<0> {
  const { CatalogExplorer, Router, TelemetryReader, telemetryPathFor } =
    await import('../../internal.js');
  const catalog = catalogOf(ctx, o);
  const cascadeRoots = (o.cascadeRoot ?? []).map((d) =>
    existingFolder(path.resolve(ctx.io.cwd, d), '--cascade-root', 'FILE_NOT_FOUND'),
  );
  const substrateRoot =
    o.substrate !== undefined
      ? path.resolve(ctx.io.cwd, o.substrate)
      : await defaultSubstrateRoot(ctx);
  if (o.substrate !== undefined)
    existingFolder(substrateRoot!, '--substrate', 'SUBSTRATE_NOT_FOUND');
  const token = await httpToken(ctx, o.tokenFile, 'SKILLDEX_SERVE_TOKEN');
  const telemetry = telemetryEnabled(o.telemetry, ctx.io.env);
  const router = new Router({ catalog, telemetry, record: false });
  const explorer = new CatalogExplorer(catalog);
  try {
    // The catalog must answer before the URL is printed: a missing or empty one fails here.
    const generation = router.currentGeneration();
    const { startExplorer } = await import('../../explorer/index.js');
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
    const stopped = untilStopped();
    if (o.json) ctx.json({ url: handle.url, catalog, catalog_generation: generation });
    else ctx.out(`skilldex serve: ${handle.url}`);
    const opened = o.open ? openBrowser(handle.url, token !== undefined, ctx) : undefined;
    await stopped;
    opened?.();
    await handle.close();
  } finally {
    explorer.close();
    router.close();
  }
  return 0;
}

// Best effort: a missing opener only means the user opens the printed URL by hand. child_process
// loads here, not with the CLI: it costs every other command's start-up some 6 ms.
// A URL that carries the token never goes on the opener's command line, where every local user
// sees it in `ps`: the opener gets a page of ours, private to this user (mode 0600 in a 0700
// folder), that sends the browser on to the URL — the way Jupyter opens its token URLs. Returns
// the clean-up that removes that page.
function openBrowser(url: string, secret: boolean, ctx: CliContext): () => void {
  const require = createRequire(import.meta.url);
  // Required, not import()ed: the bundled CLI runs as a vm script, which has no loader for import().
  const { spawn } = require('node:child_process') as typeof ChildProcess;
  const { mkdtempSync, rmSync, writeFileSync } = require('node:fs') as typeof Fs;
  const { tmpdir } = require('node:os') as typeof Os;
  let target = url;
  let cleanUp = (): void => undefined;
  if (secret) {
    const dir = mkdtempSync(path.join(tmpdir(), 'skilldex-serve-'));
    const page = path.join(dir, 'open.html');
    const href = url.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    writeFileSync(
      page,
      `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=${href}">\n<title>skilldex serve</title>\n<p><a href="${href}">Open the skilldex explorer</a></p>\n`,
      { mode: 0o600, flag: 'wx' },
    );
    target = page;
    cleanUp = () => rmSync(dir, { recursive: true, force: true });
  }
  const cmd =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const byHand = `skilldex serve: could not run ${cmd}; open the printed URL by hand`;
  try {
    const child = spawn(cmd, [target], { stdio: 'ignore', detached: true });
    child.on('error', () => ctx.err(byHand));
    child.unref();
  } catch {
    ctx.err(byHand);
  }
  return cleanUp;
}
