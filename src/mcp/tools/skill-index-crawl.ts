/**
 * MCP tool `skill_index_crawl` (issue #5): crawls a skill.index cascade for a need. The root is
 * confined to the directories the server was started with (`--cascade-root`): a root outside them
 * is PATH_OUTSIDE_ROOT, never read.
 */
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  MAX_NEED_CHARS,
  SkilldexError,
  crawlCascade,
  isInside,
  realpathOrUndefined,
  resolveInside,
  sanitizeField,
  type CrawlReport,
} from '../../internal.js';
import { guarded, ok, type ServerContext } from '../context.js';

/** Registers skill_index_crawl (only when the server has cascade roots). */
export function registerSkillIndexCrawl(server: McpServer, ctx: ServerContext): void {
  const roots = ctx.cascadeRoots;
  if (roots.length === 0) return;
  server.registerTool(
    'skill_index_crawl',
    {
      title: 'Crawl a skill.index cascade',
      description:
        'Walk skill.index files from a root toward the one skill entry matching a need (a word or phrase). ' +
        `Outcome "hit" gives the skill's key and path; "ambiguous" lists candidates: retry with a more specific need.`,
      inputSchema: {
        // The need's length is checked by the library (INVALID_QUERY, coded), advertised here.
        need: z
          .string()
          .meta({ minLength: 1, maxLength: MAX_NEED_CHARS })
          .describe('What is needed, e.g. "pdf" or "kubernetes".'),
        root: z
          .string()
          .optional()
          .describe(
            `Cascade root: one of the server's roots or a folder inside one (default ${roots[0]}).`,
          ),
      },
      outputSchema: z.object({ outcome: z.string(), visited: z.array(z.string()) }).passthrough(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(() => {
        const root = confine(roots, args.root);
        const report: CrawlReport = crawlCascade(root, args.need);
        const text =
          report.outcome === 'hit' && report.hit
            ? `hit: ${sanitizeField(report.hit.key)} at ${sanitizeField(report.hit.path)}`
            : `${report.outcome}`;
        return ok(report, text);
      }),
  );
}

function confine(roots: readonly string[], requested: string | undefined): string {
  if (requested === undefined) return roots[0]!;
  if (path.isAbsolute(requested)) {
    // The roots are real paths: compare the request's real path too, so a root named through a
    // symbolic link (macOS /tmp, a linked home) is recognised, and a link out of a root is not.
    const real = realpathOrUndefined(requested) ?? path.resolve(requested);
    const inside = roots.find((r) => isInside(r, real));
    if (!inside) {
      throw new SkilldexError(
        'PATH_OUTSIDE_ROOT',
        `root ${requested} is not inside the server's cascade roots`,
        { root: requested },
      );
    }
    return resolveInside(inside, path.relative(inside, real) || '.');
  }
  return resolveInside(roots[0]!, requested);
}
