/** MCP tool `skill_fetch` (DESIGN.md §3): one call to Router.fetch, every pin required. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sanitizeBlock } from '../../index.js';
import { guarded, ok, type ServerContext } from '../context.js';

/** The skill_fetch result schema. */
export const FetchOutputSchema = z.object({
  skill_id: z.string(),
  skill_version: z.string(),
  revision_id: z.string(),
  catalog_generation: z.string(),
  path: z.string(),
  body: z.string(),
});

/** Registers skill_fetch. */
export function registerSkillFetch(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'skill_fetch',
    {
      title: 'Fetch a skill',
      description:
        'Load the body of a skill found by skill_search, pinned to the revision and generation it returned. ' +
        'On CATALOG_GENERATION_MISMATCH or REVISION_MISMATCH, search again; on INDEX_DRIFT, the library changed: ask the operator to re-index.',
      inputSchema: {
        skill_id: z.string().min(1).describe('skill_id from skill_search.'),
        expected_revision: z.string().min(1).describe('revision_id from the same skill_search candidate (sha256:…).'),
        catalog_generation: z.string().min(1).describe('catalog_generation from the same skill_search result (sha256:…).'),
        context: z.string().max(2_000).describe('One line on the task the skill is fetched for (recorded for ranking; may be empty).'),
      },
      outputSchema: FetchOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(() => {
        const r = ctx.router.fetch(args);
        // The text part is the body with terminal controls and invisible characters escaped; the
        // exact body is in structuredContent.
        return ok(r, sanitizeBlock(r.body));
      }),
  );
}
