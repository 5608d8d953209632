/** MCP tool `skill_fetch` (docs/integration.md): one call to Router.fetch, every pin required. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  MAX_FETCH_CONTEXT_CHARS,
  MAX_PIN_CHARS,
  checkFetchRequest,
  sanitizeBlock,
} from '../../internal.js';
import { guarded, ok, type ServerContext } from '../context.js';
import { requestOrigin } from '../origin.js';

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
      // Every field is required and bounded in the advertised JSON schema (meta), but presence and
      // lengths are checked by the library: a missing pin is INVALID_ARGUMENT with the field named.
      inputSchema: z
        .object({
          skill_id: z
            .string()
            .optional()
            .meta({ minLength: 1, maxLength: MAX_PIN_CHARS })
            .describe('skill_id from skill_search.'),
          expected_revision: z
            .string()
            .optional()
            .meta({ minLength: 1, maxLength: MAX_PIN_CHARS })
            .describe('revision_id from the same skill_search candidate (sha256:…).'),
          catalog_generation: z
            .string()
            .optional()
            .meta({ minLength: 1, maxLength: MAX_PIN_CHARS })
            .describe('catalog_generation from the same skill_search result (sha256:…).'),
          context: z
            .string()
            .optional()
            .meta({ maxLength: MAX_FETCH_CONTEXT_CHARS })
            .describe(
              'One line on the task the skill is fetched for (recorded for ranking; may be empty).',
            ),
        })
        .meta({ required: ['skill_id', 'expected_revision', 'catalog_generation', 'context'] }),
      outputSchema: FetchOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(() => {
        // The context becomes a usage example of this client and session (origin.ts).
        const r = ctx.router.fetch(
          checkFetchRequest(args),
          requestOrigin(server, extra, ctx.session ?? ''),
        );
        // The text part is the body with terminal controls and invisible characters escaped; the
        // exact body is in structuredContent.
        return ok(r, sanitizeBlock(r.body));
      }),
  );
}
