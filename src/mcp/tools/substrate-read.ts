/**
 * MCP tool `substrate_read` (issue #6): a progressive-disclosure read of the substrate the server
 * was started with (the root is fixed at start; the tool takes no path to read elsewhere).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  SUBSTRATE_TYPES,
  readSubstrate,
  sanitizeField,
  type SubstrateType,
} from '../../internal.js';
import { guarded, ok, type ServerContext } from '../context.js';

/** Registers substrate_read (only when the server has a substrate root). */
export function registerSubstrateRead(server: McpServer, ctx: ServerContext): void {
  const root = ctx.substrateRoot;
  if (root === undefined) return;
  server.registerTool(
    'substrate_read',
    {
      title: 'Read the knowledge substrate',
      description:
        'Find the team knowledge entries (vocabulary, ADRs, anti-patterns, solutions, reviewers) relevant to a topic, ' +
        'a path glob (contains / or *) or a tag (tag:name). Returns ranked hits with the depth read to decide.',
      inputSchema: {
        query: z
          .string()
          .min(1)
          .max(2_000)
          .describe('A topic, a path glob like src/api/**, or tag:NAME.'),
        type_filter: z
          .enum(SUBSTRATE_TYPES as unknown as [SubstrateType, ...SubstrateType[]])
          .optional()
          .describe('Limit every step to one entry type.'),
      },
      outputSchema: z
        .object({
          hits: z.array(
            z
              .object({
                type: z.string(),
                id: z.string(),
                description: z.string(),
                stop_depth: z.string(),
              })
              .passthrough(),
          ),
        })
        .passthrough(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(() => {
        const report = readSubstrate(args.query, {
          root,
          ...(args.type_filter !== undefined ? { type: args.type_filter } : {}),
        });
        const text =
          report.hits.length === 0
            ? 'no entry matches'
            : report.hits
                .map(
                  (h) =>
                    `${h.type}/${sanitizeField(h.id, 128)} (${h.stop_depth}): ${sanitizeField(h.description)}`,
                )
                .join('\n');
        return ok(report, text);
      }),
  );
}
