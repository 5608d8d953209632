/**
 * The MCP Skills extension (`io.modelcontextprotocol/skills`, ext-skills specification/stable/
 * skills.mdx): `skills/list` (paginated) and `skills/get` from the published generation, and each
 * skill's SKILL.md as the resource `skill://<skill-path>/SKILL.md` with `sha256:<hex>` digest and
 * size. `<skill-path>` is the skill's name, or `<plugin>/<name>` for a plugin's skill, so the final
 * segment is always the frontmatter name. Reads verify the digest: drift is an error, never stale
 * bytes. The skill's supporting files (scripts, references, assets) are listed too, as the index
 * recorded them (what is listed, bounds and confinement: src/catalog/write/skill-files.ts; nothing is
 * walked at list time), as `skill://<skill-path>/<file path>` with the recorded digest and size,
 * and read verified against that digest (src/router/served/skill-files.ts): a file changed or removed
 * since indexing is INDEX_DRIFT.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { codedFromForeign, type ServedSkill, type SkillFiles } from '../internal.js';
import type { ServerContext } from './context.js';

/** The extension identifier. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** How long hosts may cache a listing or entry: the generation can change at any publish. */
const TTL_MS = 60_000;

// The two request shapes the extension answers: a paginated list (an optional cursor) and a read
// of one URI. Other params pass through.
function listRequest<M extends string>(method: M) {
  return z.object({
    method: z.literal(method),
    params: z.object({ cursor: z.string().optional() }).passthrough().optional(),
  });
}
function uriRequest<M extends string>(method: M) {
  return z.object({
    method: z.literal(method),
    params: z.object({ uri: z.string() }).passthrough(),
  });
}

const ListSkillsRequest = listRequest('skills/list');
const GetSkillRequest = uriRequest('skills/get');
const ListResourcesRequest = listRequest('resources/list');
const ReadResourceRequest = uriRequest('resources/read');

/** The resource URI of a skill's SKILL.md. */
export function skillUri(s: Pick<ServedSkill, 'skill_id' | 'name'>): string {
  const colon = s.skill_id.indexOf(':');
  const skillPath =
    colon > 0 ? `${s.skill_id.slice(0, colon)}/${s.skill_id.slice(colon + 1)}` : s.skill_id;
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

/** The resource URI of the supporting file `rel` (POSIX, relative to the skill folder) of skill `s`. */
export function skillFileUri(s: Pick<ServedSkill, 'skill_id' | 'name'>, rel: string): string {
  return (
    skillUri(s).slice(0, -'SKILL.md'.length) + rel.split('/').map(encodeURIComponent).join('/')
  );
}

/**
 * The (skill_id, file) pairs a `skill://…` URI of a supporting file may name, most specific first:
 * `skill://a/b/f` is file `f` of plugin skill `a:b`, else file `b/f` of skill `a`.
 */
export function skillFileCandidates(uri: string): { skill_id: string; file: string }[] {
  const m = /^skill:\/\/(.+)$/.exec(uri);
  if (!m) return [];
  const segments = m[1]!.split('/').map((x) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return undefined;
    }
  });
  if (
    segments.some(
      (x) =>
        x === undefined ||
        x === '' ||
        x === '.' ||
        x === '..' ||
        x.includes('/') ||
        x.includes('\\'),
    )
  )
    return [];
  const seg = segments as string[];
  const out: { skill_id: string; file: string }[] = [];
  if (seg.length >= 3) out.push({ skill_id: `${seg[0]}:${seg[1]}`, file: seg.slice(2).join('/') });
  if (seg.length >= 2) out.push({ skill_id: seg[0]!, file: seg.slice(1).join('/') });
  return out;
}

/** Registers the extension's methods and the SKILL.md resources on `server`. */
export function registerSkillsExtension(server: McpServer, ctx: ServerContext): void {
  const low = server.server;
  low.registerCapabilities({ resources: {}, extensions: { [SKILLS_EXTENSION]: {} } });
  low.setRequestHandler(ListSkillsRequest, (req) => {
    const page = call(() =>
      ctx.router.listSkillsWithFiles(
        req.params?.cursor !== undefined ? { cursor: req.params.cursor } : {},
      ),
    );
    return {
      resultType: 'complete',
      skills: page.skills.map((sk) => entry(sk, sk.supporting)),
      ...(page.next_cursor !== undefined ? { nextCursor: page.next_cursor } : {}),
      ttlMs: TTL_MS,
      cacheScope: 'public',
    };
  });
  low.setRequestHandler(GetSkillRequest, (req) => {
    const id = skillIdOf(req.params.uri);
    if (id === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${req.params.uri} is not the URI of a served SKILL.md`,
      );
    const listed = call(() => ctx.router.listSkillFiles(id));
    return {
      resultType: 'complete',
      skill: entry(listed.skill, listed),
      ttlMs: TTL_MS,
      cacheScope: 'public',
    };
  });
  low.setRequestHandler(ListResourcesRequest, (req) => {
    const page = call(() =>
      ctx.router.listSkillsWithFiles(
        req.params?.cursor !== undefined ? { cursor: req.params.cursor } : {},
      ),
    );
    return {
      resources: page.skills.flatMap((s) => [
        {
          uri: skillUri(s),
          name: s.name,
          description: s.description,
          mimeType: 'text/markdown',
          size: s.size,
        },
        ...s.supporting.files.map((f) => ({
          uri: skillFileUri(s, f.path),
          name: `${s.name}/${f.path}`,
          mimeType: mimeTypeOf(f.path),
          size: f.size,
        })),
      ]),
      ...(page.next_cursor !== undefined ? { nextCursor: page.next_cursor } : {}),
    };
  });
  low.setRequestHandler(ReadResourceRequest, (req) => {
    const id = skillIdOf(req.params.uri);
    if (id === undefined) return readFile(ctx, req.params.uri);
    const r = call(() => ctx.router.readSkill(id));
    return {
      contents: [
        {
          uri: req.params.uri,
          mimeType: 'text/markdown',
          text: r.text,
          _meta: {
            [`${SKILLS_EXTENSION}/digest`]: r.skill.revision_id,
            [`${SKILLS_EXTENSION}/size`]: r.skill.size,
          },
        },
      ],
    };
  });
}

// A supporting file: the first candidate skill that lists it; its bytes as text when they are
// UTF-8 without NUL bytes, else base64.
function readFile(ctx: ServerContext, uri: string): { contents: Record<string, unknown>[] } {
  const candidates = skillFileCandidates(uri);
  let last: unknown = new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
  for (const c of candidates) {
    try {
      const r = call(() => ctx.router.readSkillFile(c.skill_id, c.file));
      const meta = {
        [`${SKILLS_EXTENSION}/digest`]: r.file.digest,
        [`${SKILLS_EXTENSION}/size`]: r.file.size,
      };
      const text = asText(r.bytes);
      const mimeType = mimeTypeOf(c.file);
      return {
        contents: [
          text === undefined
            ? { uri, mimeType, blob: r.bytes.toString('base64'), _meta: meta }
            : { uri, mimeType, text, _meta: meta },
        ],
      };
    } catch (err) {
      last = err;
      const code =
        err instanceof McpError ? (err.data as { code?: string } | undefined)?.code : undefined;
      if (code !== 'SKILL_NOT_FOUND' && code !== 'FILE_NOT_FOUND') throw err;
    }
  }
  throw last;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Media types by file extension; anything else is application/octet-stream. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.py': 'text/x-python',
  '.sh': 'application/x-sh',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

function mimeTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return (
    (dot > file.lastIndexOf('/') ? MIME_TYPES[file.slice(dot).toLowerCase()] : undefined) ??
    'application/octet-stream'
  );
}

function entry(
  s: ServedSkill,
  supporting: SkillFiles,
): {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
  _meta?: Record<string, unknown>;
} {
  const uri = skillUri(s);
  return {
    uri,
    frontmatter: { ...s.frontmatter, name: s.name, description: s.description },
    resources: [
      { uri, digest: s.revision_id, size: s.size },
      ...supporting.files.map((f) => ({
        uri: skillFileUri(s, f.path),
        digest: f.digest,
        size: f.size,
      })),
    ],
    ...(supporting.truncated ? { _meta: { 'dev.skilldex/files_truncated': true } } : {}),
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
    const code =
      err.code === 'SKILL_NOT_FOUND' ||
      err.code === 'SKILL_ARCHIVED' ||
      err.code === 'INVALID_ARGUMENT' ||
      err.code === 'FILE_NOT_FOUND'
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
    throw new McpError(code, `${err.code}: ${err.message}`, {
      code: err.code,
      details: err.details,
    });
  }
}
