/** MCP tool `skill_search` (docs/integration.md): one call to Router.search. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY_CHARS,
  sanitizeField,
  type SearchResult,
} from '../../index.js';
import { guarded, ok, type ServerContext } from '../context.js';
import { requestOrigin } from '../origin.js';

const CandidateSchema = z.object({
  skill_id: z.string(),
  skill_version: z.string(),
  revision_id: z.string(),
  catalog_generation: z.string(),
  name: z.string(),
  description: z.string(),
  state: z.enum(['active', 'deprecated', 'archived']),
  score: z.number(),
  explanation: z.record(z.string(), z.unknown()),
});

/** The skill_search result schema. */
export const SearchOutputSchema = z.object({
  catalog_generation: z.string(),
  policy: z.string(),
  query: z.string(),
  candidates: z.array(CandidateSchema),
});

/** Registers skill_search. */
export function registerSkillSearch(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'skill_search',
    {
      title: 'Search skills',
      description:
        'Find the skills that fit a task. Call this first. Each candidate carries skill_id, revision_id and ' +
        'catalog_generation: pass all of them to skill_fetch to load the skill. Scores are explained.',
      inputSchema: {
        // Ranges are advertised in the JSON schema (meta) but checked by the library, so a query
        // out of range is INVALID_QUERY and a limit out of range INVALID_ARGUMENT, with a code.
        query: z
          .string()
          .meta({ minLength: 1, maxLength: MAX_QUERY_CHARS })
          .describe('What you need a skill for, in plain words (not a query language).'),
        limit: z
          .number()
          .optional()
          .meta({ type: 'integer', minimum: 1, maximum: MAX_LIMIT })
          .describe(`How many candidates, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
        include_deprecated: z
          .boolean()
          .optional()
          .describe('Also rank deprecated skills (penalised). Archived skills never appear.'),
      },
      outputSchema: SearchOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(() => {
        const r = ctx.router.search(
          {
            query: args.query,
            ...(args.limit !== undefined ? { limit: args.limit } : {}),
            include_deprecated: args.include_deprecated === true,
          },
          undefined,
          { source: 'search', ...requestOrigin(server, extra, ctx.session ?? '') },
        );
        return ok(r, renderSearchText(r));
      }),
  );
}

/**
 * Short text rendering of a search result for models that read text content. Every field a skill
 * author controls goes through sanitizeField (one line, controls and invisible characters escaped,
 * capped), so no description or version can forge a candidate line or a "system" line; the exact
 * values stay in structuredContent.
 */
export function renderSearchText(r: SearchResult): string {
  if (r.candidates.length === 0)
    return `No skill matches. catalog_generation ${r.catalog_generation}`;
  const lines = r.candidates.map(
    (c, i) =>
      `${i + 1}. ${sanitizeField(c.skill_id, 128)} (${sanitizeField(c.skill_version, 64)}, score ${c.score.toFixed(3)}${c.state === 'active' ? '' : `, ${c.state}`}): ${sanitizeField(c.description, 200)}\n   revision_id ${c.revision_id}`,
  );
  return [...lines, `catalog_generation ${r.catalog_generation}`].join('\n');
}
