/**
 * What the MCP tools share: the library objects the server was started with, and the helpers that
 * turn a report into a tool result and a SkilldexError into an `isError` result carrying
 * `{ code, message, hint, details }`.
 *
 * The error object travels as the JSON text of the result (and in `_meta`), not as
 * `structuredContent`: the SDK's own Client validates any structuredContent against the tool's
 * output schema even on error results, so a structured error would make real clients throw.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SkilldexError, codedFromForeign, jsonText, type Router } from '../internal.js';

/** The server's fixed configuration: one catalog router, and the roots non-catalog tools may read. */
export interface ServerContext {
  readonly router: Router;
  /** Directories `skill_index_crawl` may crawl (real paths); empty: the tool is not offered. */
  readonly cascadeRoots: readonly string[];
  /** The substrate root `substrate_read` reads; undefined: the tool is not offered. */
  readonly substrateRoot?: string;
  /** Diagnostics sink (stderr); never stdout, which belongs to JSON-RPC on stdio. */
  readonly log: (line: string) => void;
  /**
   * This server's session id for stdio requests (origin.ts `newSessionId`); createServer sets one
   * when it is absent. HTTP requests are recorded per bearer token instead.
   */
  readonly session?: string;
  /**
   * The floor a `skill_search` without its own `min_confidence` is judged against: the operator's
   * (`mcp --min-confidence`, else `min_confidence` of the config); undefined: the policy's.
   */
  readonly minConfidence?: number;
}

/** A successful tool result: the report as structured content plus a short text rendering. */
export function ok(report: object, text: string): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: report as Record<string, unknown>,
  };
}

/** The `_meta` key of a tool error's `{ code, message, hint, details }`. */
export const ERROR_META_KEY = 'dev.skilldex/error';

/**
 * Runs a tool body; a SkilldexError becomes an isError result with its code, message and details.
 * A foreign failure is coded too: SQLite corruption is CATALOG_CORRUPT, a lock CATALOG_BUSY, and
 * anything unrecognised INTERNAL, so a client always finds a code in the result's JSON.
 */
export async function guarded(
  fn: () => CallToolResult | Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    return errorResult(
      codedFromForeign(err) ??
        new SkilldexError(
          'INTERNAL',
          err instanceof Error ? err.message : String(err),
          {},
          { cause: err },
        ),
    );
  }
}

/** The isError result of a coded failure: its `{ code, message, hint, details }` as JSON text and in `_meta`. */
export function errorResult(err: SkilldexError): CallToolResult {
  const error = err.toJSON();
  return {
    isError: true,
    content: [{ type: 'text', text: jsonText(error) }],
    _meta: { [ERROR_META_KEY]: error },
  };
}
