/** MCP tool `skill_search` (docs/integration.md): one call to Router.search. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY_CHARS,
  sanitizeField,
  type SearchResult,
} from '../../internal.js';
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
  confidence: z
    .number()
    .describe('Estimated probability, 0-1, that this is the skill a person would pick.'),
});

/** The skill_search result schema. */
export const SearchOutputSchema = z.object({
  catalog_generation: z.string(),
  policy: z.string(),
  query: z.string(),
  candidates: z.array(CandidateSchema),
  min_confidence: z.number().describe('The confidence floor this answer was judged against.'),
  abstain: z
    .boolean()
    .describe('True when no candidate reaches min_confidence: nothing fits well enough to use.'),
});

/** Registers skill_search. */
export function registerSkillSearch(server: McpServer, ctx: ServerContext): void {
  server.registerTool(
    'skill_search',
    {
      title: 'Search skills',
      description:
        'Find the skills that fit a task. Call this first. Each candidate carries skill_id, revision_id and ' +
        'catalog_generation: pass all of them to skill_fetch to load the skill. Scores are explained; ' +
        'each candidate has a confidence, and abstain is true when none reaches the floor: then no skill fits, say so.',
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
        min_confidence: z
          .number()
          .optional()
          .meta({ minimum: 0, maximum: 1 })
          .describe(
            "Confidence floor 0-1 (default: the server's, else the policy's). abstain is true when no candidate reaches it.",
          ),
      },
      outputSchema: SearchOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(() => {
        const floor = args.min_confidence ?? ctx.minConfidence;
        const r = ctx.router.search(
          {
            query: args.query,
            ...(args.limit !== undefined ? { limit: args.limit } : {}),
            include_deprecated: args.include_deprecated === true,
            ...(floor !== undefined ? { min_confidence: floor } : {}),
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
      `${i + 1}. ${sanitizeField(c.skill_id, 128)} (${sanitizeField(c.skill_version, 64)}, score ${c.score.toFixed(3)}, confidence ${c.confidence.toFixed(2)}${c.state === 'active' ? '' : `, ${c.state}`}): ${sanitizeField(c.description, 200)}\n   revision_id ${c.revision_id}`,
  );
  const head = r.abstain
    ? [
        `No candidate reaches confidence ${r.min_confidence}: no skill fits this request well; do not load one unless a candidate clearly fits.`,
      ]
    : [];
  return [...head, ...lines, `catalog_generation ${r.catalog_generation}`].join('\n');
}
