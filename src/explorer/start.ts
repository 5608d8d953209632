/**
 * Starting the explorer (issue 15): binds the app to `host:port` (127.0.0.1 unless told otherwise;
 * port 0: any free port) with @hono/node-server through the shared binder of src/http (a busy port
 * is PORT_IN_USE, `[::1]` binds ::1), and refuses a non-loopback address without a token, since
 * the page then answers whoever can reach the machine. The URL it returns carries the token in its
 * fragment (`#token=`), which browsers never send to a server.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import {
  assertTokenLength,
  baseUrlOf,
  isLoopback,
  listen,
  type GuardConfig,
} from '../http/index.js';
import { SkilldexError } from '../internal.js';
import type { ExplorerContext } from './api.js';
import { createExplorerApp } from './app.js';

/**
 * Where the built page lives: `dist/explorer/assets` of this package. The same relative path works
 * from `src/explorer/` (tests) and from `dist/explorer/` (the installed package).
 */
export const DEFAULT_ASSETS_DIR = fileURLToPath(
  new URL('../../dist/explorer/assets/', import.meta.url),
);

/** Options of `startExplorer`. */
export interface StartOptions {
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Bearer token every API request must carry; required when `host` is not a loopback address. */
  readonly token?: string;
  /** Folder of the built page (default DEFAULT_ASSETS_DIR). */
  readonly assetsDir?: string;
  /** Diagnostics sink (default: nothing). */
  readonly log?: (line: string) => void;
}

/** A running explorer: its URL (with `#token=` when one is set) and a way to stop it. */
export interface ExplorerHandle {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the explorer over `ctx` until `close()`. */
export async function startExplorer(
  ctx: ExplorerContext,
  options: StartOptions = {},
): Promise<ExplorerHandle> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  if (!isLoopback(host) && options.token === undefined) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--host ${host} is not a loopback address: give --token-file FILE (or SKILLDEX_SERVE_TOKEN) too`,
      {
        option: '--host',
        value: host,
      },
    );
  }
  assertTokenLength(options.token, '--token-file');
  const assetsDir = options.assetsDir ?? DEFAULT_ASSETS_DIR;
  if (!existsSync(path.join(assetsDir, 'index.html'))) {
    throw new SkilldexError(
      'FILE_NOT_FOUND',
      `the explorer page is not built at ${assetsDir}: run npm run build`,
      { path: assetsDir },
    );
  }
  let port = options.port ?? 0;
  const guard = (): GuardConfig => ({
    bindHost: host,
    port,
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
  const app = createExplorerApp(ctx, guard, { assetsDir, log });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await listen(server, port, host);
  const bound = baseUrlOf(server);
  port = bound.port;
  const url = `${bound.base}/${options.token !== undefined ? `#token=${encodeURIComponent(options.token)}` : ''}`;
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
