/**
 * The CLI side of watch mode (`index --watch`, `mcp --watch`): starts `watchCatalog`, reports each
 * re-index and each failure; the caller stops it (index on SIGINT/SIGTERM, mcp when it stops serving).
 */
import { SkilldexError, codedFromForeign } from '../errors.js';
import type { CatalogWatch, IndexReport, WatchOptions } from '../internal.js';
import { jsonText, sanitizeField } from '../text/index.js';
import type { CliContext } from './context.js';

/** How a watching command prints what happens: `report` for each re-index. */
export interface WatchOutput {
  readonly report: (r: IndexReport) => void;
  /** Failures as one JSON line (`{ "error": … }`) instead of `error CODE: …` (both on stderr). */
  readonly json: boolean;
}

/** Starts watching; a failed re-index prints on stderr and the watch goes on. */
export async function startWatch(
  ctx: CliContext,
  options: Omit<WatchOptions, 'onIndex' | 'onError'>,
  out: WatchOutput,
): Promise<CatalogWatch> {
  const { watchCatalog } = await import('../router/index.js');
  const w = await watchCatalog({
    ...options,
    onIndex: out.report,
    onError: (err) => reportIndexError(ctx, err, options.catalog, out.json),
  });
  ctx.note(
    w.paths.length === 0
      ? 'watching no folder: none of the scopes exists'
      : `watching ${w.paths.map((p) => sanitizeField(p)).join(', ')} (Ctrl-C to stop)`,
  );
  return w;
}

/** Prints a failed re-index of `catalog`, or a watcher error, on stderr (one JSON line with `json`). */
export function reportIndexError(
  ctx: CliContext,
  err: unknown,
  catalog: string,
  json: boolean,
): void {
  const coded = err instanceof SkilldexError ? err : codedFromForeign(err, catalog);
  if (coded === undefined)
    ctx.err(
      `error while watching (re-index or watcher): ${sanitizeField(err instanceof Error ? err.message : String(err), 2000)}`,
    );
  else if (json) ctx.err(jsonText({ error: coded.toJSON() }));
  else
    ctx.err(
      `error ${coded.code} while watching (re-index or watcher): ${sanitizeField(coded.message, 2000)}\nhint: ${coded.hint}`,
    );
}

/** One stderr line summing up a re-index. */
export function summarizeIndex(r: IndexReport): string {
  const gen =
    r.publish === null
      ? 'not published'
      : r.publish.changed
        ? `published generation ${r.publish.seq}`
        : `generation ${r.publish.seq} unchanged`;
  return `re-indexed: added ${r.added.length}, changed ${r.changed.length}, removed ${r.removed.length}; ${gen}`;
}
