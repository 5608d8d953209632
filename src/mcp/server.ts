/**
 * The skilldex MCP server (issue #4): `createServer(ctx)` builds an McpServer whose tools are each
 * one library call — skill_search, skill_fetch, and, when configured, skill_index_crawl and
 * substrate_read — plus the Skills extension. Read-only by construction: no operator function
 * (index, publish, lifecycle) is reachable from here.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VERSION } from '../internal.js';
import type { ServerContext } from './context.js';
import { newSessionId } from './origin.js';
import { registerSkillsExtension } from './skills-extension.js';
import { registerSkillFetch } from './tools/skill-fetch.js';
import { registerSkillIndexCrawl } from './tools/skill-index-crawl.js';
import { registerSkillSearch } from './tools/skill-search.js';
import { registerSubstrateRead } from './tools/substrate-read.js';

/** Instructions sent to clients at initialisation: the protocol in three lines. */
export const INSTRUCTIONS =
  'skilldex finds the right skill in a local skill library. Call skill_search with what you need; ' +
  'then skill_fetch the chosen candidate with its skill_id, revision_id (as expected_revision) and catalog_generation. ' +
  'If skill_fetch answers CATALOG_GENERATION_MISMATCH or REVISION_MISMATCH, search again.';

/**
 * Builds the server: one for a stdio connection, and one for the whole life of an HTTP process
 * (start.ts connects it once to http-transport.ts, which keeps concurrent requests apart).
 */
export function createServer(context: ServerContext): McpServer {
  // One stdio connection is one session (origin.ts): each server built gets its own id.
  const ctx: ServerContext = { ...context, session: context.session ?? newSessionId() };
  const server = new McpServer(
    { name: 'skilldex', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  // Protocol faults (a stdin line that is not JSON-RPC, a transport error) are answered by the SDK
  // or dropped; say so on the log, never on stdout.
  server.server.onerror = (err) => ctx.log(`skilldex mcp: protocol error: ${err.message}`);
  registerSkillSearch(server, ctx);
  registerSkillFetch(server, ctx);
  registerSkillIndexCrawl(server, ctx);
  registerSubstrateRead(server, ctx);
  registerSkillsExtension(server, ctx);
  return server;
}
