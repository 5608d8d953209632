/**
 * Watch mode (issue #12): watch the folders of a catalog's scopes with chokidar, and after a quiet
 * spell (the debounce) re-index incrementally through `indexCatalog` and publish. Used by
 * `skilldex index --watch` and `skilldex mcp --watch`; a Router on the same catalog answers from
 * the newest published generation, so a watching server sees new and edited skills without a restart.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Chokidar from 'chokidar';
import type { FSWatcher } from 'chokidar';
import { assertKnownOptions, optionKeys } from '../../errors.js';
import { realpathOrUndefined } from '../../fsx/index.js';
import { DISCOVER_OPTION_KEYS, resolveScopes, scopeOptionsOf } from '../../skills/index.js';
import {
  OPERATOR_OPTION_KEYS,
  indexCatalog,
  type IndexOptions,
  type IndexReport,
} from './operator.js';

/** Default quiet spell before a re-index: 300 ms, long enough to gather an editor's save burst. */
export const DEFAULT_DEBOUNCE_MS = 300;

/** Folders never watched (nor indexed: discovery skips them too). */
const IGNORED_DIRS = new Set(['node_modules', '.git']);

/** Options of `watchCatalog`: those of `indexCatalog` (minus the one-shot ones), and the callbacks. */
export interface WatchOptions extends Omit<IndexOptions, 'dryRun' | 'onProgress' | 'locked'> {
  /** Quiet spell in milliseconds after the last file event before re-indexing (default 300). */
  readonly debounceMs?: number;
  /** Called after each re-index with its report. */
  readonly onIndex?: (report: IndexReport) => void;
  /** Called when a re-index (or the watcher) fails; the watcher goes on. */
  readonly onError?: (err: unknown) => void;
}

/** A running watch. */
export interface CatalogWatch {
  /** The folders watched: the real paths of the scopes that existed when the watch started. */
  readonly paths: readonly string[];
  /** Stops watching; a pending re-index is dropped. */
  close(): Promise<void>;
}

const WATCH_OPTION_KEYS = optionKeys<WatchOptions>()(
  ...OPERATOR_OPTION_KEYS,
  ...DISCOVER_OPTION_KEYS,
  'publish',
  'allowShrink',
  'keepRevisions',
  'rememberScopes',
  'debounceMs',
  'onIndex',
  'onError',
);

/**
 * Watches the scope folders of `options` (as `indexCatalog` resolves them, by real path) and
 * re-indexes the catalog after each burst of changes. No symbolic link is followed: what a link
 * inside a scope leads to is watched only where it lies inside a scope, as the walk indexes it
 * only then. A scope folder that does not exist when the watch starts is not watched. Errors of a re-index go to `onError` (default: ignored) and never stop the watcher.
 * Settles once the watcher has read the folders: file events after that are seen. chokidar is
 * loaded here, on first use, so commands that do not watch never load it. INVALID_ARGUMENT for an
 * unknown option.
 */
export async function watchCatalog(options: WatchOptions): Promise<CatalogWatch> {
  assertKnownOptions(options, WATCH_OPTION_KEYS, 'watchCatalog');
  const { debounceMs = DEFAULT_DEBOUNCE_MS, onIndex, onError, ...indexOptions } = options;
  // The scopes by real path, and no link followed: a link whose target lies in a scope is seen
  // there, and one that leads out of every scope (which the walk skips with PATH_OUTSIDE_ROOT) is
  // never watched — the same rule as the walk's, without a watch per folder of a foreign tree.
  const paths = [
    ...new Set(
      resolveScopes(scopeOptionsOf(indexOptions))
        .scopes.filter((s) => s.exists)
        .map((s) => realpathOrUndefined(s.path) ?? s.path),
    ),
  ];
  const report = (err: unknown): void => {
    try {
      onError?.(err);
    } catch {
      // A failing error handler must not stop the watch either.
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const reindex = (): void => {
    timer = undefined;
    if (closed) return;
    try {
      const r = indexCatalog(indexOptions);
      onIndex?.(r);
    } catch (err) {
      report(err);
    }
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(reindex, debounceMs);
  };
  // Required, not import()ed: the bundled CLI (scripts/build-cli.mjs) runs as a vm script, which has
  // no loader for import() of what it does not contain. chokidar ships CommonJS.
  const { watch } = createRequire(import.meta.url)('chokidar') as typeof Chokidar;
  const watcher: FSWatcher = watch([...paths], {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (p: string) => IGNORED_DIRS.has(path.basename(p)),
    ...(options.maxDepth !== undefined ? { depth: options.maxDepth } : {}),
  });
  // chokidar reports a link it does not follow as added while it scans, ignoreInitial or not:
  // only events after the scan count.
  let scanned = false;
  watcher.on('all', () => {
    if (scanned) schedule();
  });
  watcher.on('error', report);
  if (paths.length > 0)
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  scanned = true;
  return {
    paths,
    async close(): Promise<void> {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await watcher.close();
    },
  };
}
