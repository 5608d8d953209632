/**
 * The MCP Skills extension (`io.modelcontextprotocol/skills`, ext-skills specification/stable/
 * skills.mdx): `skills/list` (paginated) and `skills/get` from the published generation, and each
 * skill's SKILL.md as the resource `skill://<skill-path>/SKILL.md` with `sha256:<hex>` digest and
 * size. `<skill-path>` is the skill's name, or `<plugin>/<name>` for a plugin's skill, so the final
 * segment is always the frontmatter name. Reads verify the digest: drift is an error, never stale
 * bytes. skilldex serves a skill as its SKILL.md alone (supporting files are not catalogued).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { codedFromForeign, type ServedSkill } from '../index.js';
import type { ServerContext } from './context.js';

/** The extension identifier. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** How long hosts may cache a listing or entry: the generation can change at any publish. */
const TTL_MS = 60_000;

const ListSkillsRequest = z.object({
  method: z.literal('skills/list'),
  params: z.object({ cursor: z.string().optional() }).passthrough().optional(),
});
const GetSkillRequest = z.object({
  method: z.literal('skills/get'),
  params: z.object({ uri: z.string() }).passthrough(),
});
const ListResourcesRequest = z.object({
  method: z.literal('resources/list'),
  params: z.object({ cursor: z.string().optional() }).passthrough().optional(),
});
const ReadResourceRequest = z.object({
  method: z.literal('resources/read'),
  params: z.object({ uri: z.string() }).passthrough(),
});

/** The resource URI of a skill's SKILL.md. */
export function skillUri(s: Pick<ServedSkill, 'skill_id' | 'name'>): string {
  const colon = s.skill_id.indexOf(':');
  const skillPath = colon > 0 ? `${s.skill_id.slice(0, colon)}/${s.skill_id.slice(colon + 1)}` : s.skill_id;
  return `skill://${skillPath.split('/').map(encodeURIComponent).join('/')}/SKILL.md`;
}

/** The skill_id a `skill://…/SKILL.md` URI names, or undefined when it names no skill. */
export function skillIdOf(uri: string): string | undefined {
  const m = /^skill:\/\/(.+)\/SKILL\.md$/.exec(uri);
  if (!m) return undefined;
  const segments = m[1]!.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return undefined;
    }
  });
  if (segments.some((s) => s === undefined || s === '')) return undefined;
  if (segments.length === 1) return segments[0];
  if (segments.length === 2) return `${segments[0]}:${segments[1]}`;
  return undefined;
}

/** Registers the extension's methods and the SKILL.md resources on `server`. */
export function registerSkillsExtension(server: McpServer, ctx: ServerContext): void {
  const low = server.server;
  low.registerCapabilities({ resources: {}, extensions: { [SKILLS_EXTENSION]: {} } });
  low.setRequestHandler(ListSkillsRequest, (req) => {
    const page = call(() => ctx.router.listSkills(req.params?.cursor !== undefined ? { cursor: req.params.cursor } : {}));
    return {
      resultType: 'complete',
      skills: page.skills.map(entry),
      ...(page.next_cursor !== undefined ? { nextCursor: page.next_cursor } : {}),
      ttlMs: TTL_MS,
      cacheScope: 'public',
    };
  });
  low.setRequestHandler(GetSkillRequest, (req) => {
    const id = skillIdOf(req.params.uri);
    if (id === undefined) throw new McpError(ErrorCode.InvalidParams, `${req.params.uri} is not the URI of a served SKILL.md`);
    const skill = call(() => ctx.router.getSkill(id));
    return { resultType: 'complete', skill: entry(skill), ttlMs: TTL_MS, cacheScope: 'public' };
  });
  low.setRequestHandler(ListResourcesRequest, (req) => {
    const page = call(() => ctx.router.listSkills(req.params?.cursor !== undefined ? { cursor: req.params.cursor } : {}));
    return {
      resources: page.skills.map((s) => ({ uri: skillUri(s), name: s.name, description: s.description, mimeType: 'text/markdown', size: s.size })),
      ...(page.next_cursor !== undefined ? { nextCursor: page.next_cursor } : {}),
    };
  });
  low.setRequestHandler(ReadResourceRequest, (req) => {
    const id = skillIdOf(req.params.uri);
    if (id === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${req.params.uri}`);
    const r = call(() => ctx.router.readSkill(id));
    return {
      contents: [
        {
          uri: req.params.uri,
          mimeType: 'text/markdown',
          text: r.text,
          _meta: { [`${SKILLS_EXTENSION}/digest`]: r.skill.revision_id, [`${SKILLS_EXTENSION}/size`]: r.skill.size },
        },
      ],
    };
  });
}

function entry(s: ServedSkill): { uri: string; frontmatter: Record<string, unknown>; resources: { uri: string; digest: string; size: number }[] } {
  const uri = skillUri(s);
  return {
    uri,
    frontmatter: { ...s.frontmatter, name: s.name, description: s.description },
    resources: [{ uri, digest: s.revision_id, size: s.size }],
  };
}

// Library failures become JSON-RPC errors: unknown or archived skills are invalid params (the
// spec's code for unknown resources); drift and everything else are internal errors with the code.
function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (caught) {
    const err = codedFromForeign(caught);
    if (err === undefined) throw caught;
    const code = err.code === 'SKILL_NOT_FOUND' || err.code === 'SKILL_ARCHIVED' || err.code === 'INVALID_ARGUMENT' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new McpError(code, `${err.code}: ${err.message}`, { code: err.code, details: err.details });
  }
}
