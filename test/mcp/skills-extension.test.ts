/**
 * The MCP Skills extension (`io.modelcontextprotocol/skills`, ext-skills specification/stable/
 * skills.mdx) served by the server built in process (in-memory transport): skills/list pages through a 130-skill catalog, every
 * entry carries its URI, verbatim frontmatter and `{ uri, digest, size }` of SKILL.md matching the
 * file's bytes; skills/get answers known URIs and -32602 for others; resources/read returns the
 * exact bytes, and an error (never stale bytes) once the file drifts.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skillIdOf, skillUri } from '../../src/mcp/skills-extension.js';
import { skillMd, tmpTree } from '../support/cli.js';
import {
  closeAll,
  connectInProcess,
  makeCatalog,
  operator,
  type Connection,
  type TestCatalog,
} from './support.js';

const COUNT = 130;
const PAGE = 100;

const ResourceSchema = z.object({ uri: z.string(), digest: z.string(), size: z.number() });
const SkillSchema = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(ResourceSchema),
});
const ListSchema = z.object({
  resultType: z.literal('complete'),
  skills: z.array(SkillSchema),
  nextCursor: z.string().optional(),
  ttlMs: z.number(),
  cacheScope: z.string(),
});
const GetSchema = z.object({
  resultType: z.literal('complete'),
  skill: SkillSchema,
  ttlMs: z.number(),
  cacheScope: z.string(),
});
type Entry = z.infer<typeof SkillSchema>;

const name = (i: number): string => `gen-skill-${String(i).padStart(3, '0')}`;

/** 130 skills; one with extra frontmatter fields, one with a BOM and CRLF line endings. */
function library(): string {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < COUNT; i++)
    files[`${name(i)}/SKILL.md`] = skillMd(
      name(i),
      `Generated skill number ${i} for listing tests.`,
    );
  files[`${name(7)}/SKILL.md`] = skillMd(
    name(7),
    'A skill with more frontmatter.',
    'license: Apache-2.0\nmetadata:\n  version: "2.1.0"\n  owner: team-a\nkeywords: [alpha, beta]\n',
  );
  files[`${name(8)}/SKILL.md`] = Buffer.from(
    '\ufeff' + skillMd(name(8), 'A skill saved with a BOM and CRLF.').replace(/\n/g, '\r\n'),
    'utf8',
  );
  return tmpTree(files, 'skilldex-mcp-lib-');
}

function frontmatterOf(bytes: Buffer): unknown {
  const m = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(bytes.toString('utf8'));
  return parse(m![1]!);
}

const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

let cat: TestCatalog;

beforeAll(async () => {
  cat = await makeCatalog({ from: library() });
});

afterAll(closeAll);

async function listAll(
  conn: Connection,
): Promise<{ pages: z.infer<typeof ListSchema>[]; entries: Entry[] }> {
  const pages: z.infer<typeof ListSchema>[] = [];
  let cursor: string | undefined;
  do {
    const page = await conn.client.request(
      { method: 'skills/list', params: cursor === undefined ? {} : { cursor } },
      ListSchema,
    );
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return { pages, entries: pages.flatMap((p) => p.skills) };
}

async function rejection(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

const transports: [string, () => Promise<Connection>][] = [
  ['an in-memory transport', () => connectInProcess({ catalog: cat.catalog, telemetry: true })],
];

describe.each(transports)('skills/list, skills/get and resources over %s', (_name, connect) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connect();
  });

  it('skills/list pages through every skill: 100, then the rest', async () => {
    const { pages, entries } = await listAll(conn);
    expect(pages.map((p) => p.skills.length)).toEqual([PAGE, COUNT - PAGE]);
    expect(pages[0]!.nextCursor).toEqual(expect.any(String));
    expect(pages[1]!.nextCursor).toBeUndefined();
    for (const p of pages) expect(p.ttlMs).toBeGreaterThan(0);
    expect(entries.map((e) => e.frontmatter['name'])).toEqual(
      Array.from({ length: COUNT }, (_, i) => name(i)),
    );
  });

  it('every entry names its SKILL.md, carries the verbatim frontmatter, and a digest and size of the exact bytes', async () => {
    const { entries } = await listAll(conn);
    for (const e of entries) {
      const id = e.frontmatter['name'] as string;
      const bytes = readFileSync(path.join(cat.skills, id, 'SKILL.md'));
      expect(e.uri).toBe(`skill://${id}/SKILL.md`);
      expect(e.frontmatter).toEqual(frontmatterOf(bytes));
      expect(e.frontmatter['description']).toEqual(expect.any(String));
      expect(e.resources).toEqual([{ uri: e.uri, digest: sha256(bytes), size: bytes.length }]);
      expect(e.resources[0]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    expect(entries[7]!.frontmatter).toEqual({
      name: name(7),
      description: 'A skill with more frontmatter.',
      license: 'Apache-2.0',
      metadata: { version: '2.1.0', owner: 'team-a' },
      keywords: ['alpha', 'beta'],
    });
  });

  it('resources/list pages the same SKILL.md resources', async () => {
    const first = await conn.client.listResources();
    expect(first.resources).toHaveLength(PAGE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const rest = await conn.client.listResources({ cursor: first.nextCursor! });
    expect(rest.resources).toHaveLength(COUNT - PAGE);
    expect(rest.nextCursor).toBeUndefined();
    const r = first.resources[3]!;
    expect(r).toMatchObject({
      uri: `skill://${name(3)}/SKILL.md`,
      name: name(3),
      mimeType: 'text/markdown',
    });
  });

  it('an invalid cursor is refused as invalid params', async () => {
    const err = await rejection(
      conn.client.request(
        { method: 'skills/list', params: { cursor: 'not-a-cursor' } },
        ListSchema,
      ),
    );
    expect(err.code).toBe(-32602);
  });

  it('skills/get returns the listed entry for a known URI and -32602 for any other', async () => {
    const { entries } = await listAll(conn);
    const got = await conn.client.request(
      { method: 'skills/get', params: { uri: `skill://${name(42)}/SKILL.md` } },
      GetSchema,
    );
    expect(got.skill).toEqual(entries[42]);
    for (const uri of [
      'skill://no-such-skill/SKILL.md',
      `skill://${name(42)}/README.md`,
      'file:///etc/passwd',
      'skill://a/b/c/SKILL.md',
      'skill://%E0%A4%A/SKILL.md',
    ]) {
      const err = await rejection(
        conn.client.request({ method: 'skills/get', params: { uri } }, GetSchema),
      );
      expect(err.code, uri).toBe(-32602);
    }
  });

  it('resources/read returns the exact bytes (a BOM and CRLF included), with digest and size in _meta', async () => {
    for (const i of [0, 7, 8, 129]) {
      const bytes = readFileSync(path.join(cat.skills, name(i), 'SKILL.md'));
      const r = await conn.client.readResource({ uri: `skill://${name(i)}/SKILL.md` });
      expect(r.contents).toHaveLength(1);
      const c = r.contents[0]! as {
        uri: string;
        mimeType?: string;
        text?: string;
        _meta?: Record<string, unknown>;
      };
      expect(c.uri).toBe(`skill://${name(i)}/SKILL.md`);
      expect(c.mimeType).toBe('text/markdown');
      expect(Buffer.from(c.text!, 'utf8').equals(bytes)).toBe(true);
      expect(c._meta).toEqual({
        'io.modelcontextprotocol/skills/digest': sha256(bytes),
        'io.modelcontextprotocol/skills/size': bytes.length,
      });
    }
    const err = await rejection(
      conn.client.readResource({ uri: 'skill://no-such-skill/SKILL.md' }),
    );
    expect(err.code).toBe(-32602);
  });
});

describe('drift and lifecycle through the extension', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connectInProcess({ catalog: cat.catalog, telemetry: true });
  });

  it('after an edit, resources/read is an INDEX_DRIFT error, never the stale or the new bytes', async () => {
    const file = path.join(cat.skills, name(20), 'SKILL.md');
    appendFileSync(file, '\nchanged after indexing\n');
    const err = await rejection(conn.client.readResource({ uri: `skill://${name(20)}/SKILL.md` }));
    expect(err.code).toBe(-32603);
    expect(err.data).toMatchObject({ code: 'INDEX_DRIFT' });
    // Same size, different bytes: still drift.
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('changed', 'CHANGED'));
    expect(
      (await rejection(conn.client.readResource({ uri: `skill://${name(20)}/SKILL.md` }))).data,
    ).toMatchObject({ code: 'INDEX_DRIFT' });
  });

  it('an archived skill is neither listed nor got nor read', async () => {
    await operator(cat, 'archive', name(21));
    const uri = `skill://${name(21)}/SKILL.md`;
    const { entries } = await listAll(conn);
    expect(entries).toHaveLength(COUNT - 1);
    expect(entries.map((e) => e.uri)).not.toContain(uri);
    expect(
      (await rejection(conn.client.request({ method: 'skills/get', params: { uri } }, GetSchema)))
        .code,
    ).toBe(-32602);
    expect((await rejection(conn.client.readResource({ uri }))).code).toBe(-32602);
  });
});

describe('skill URIs', () => {
  const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);

  it('skillIdOf inverts skillUri for plain and plugin skills', () => {
    fc.assert(
      fc.property(segment, fc.option(segment, { nil: undefined }), (skill, plugin) => {
        const id = plugin === undefined ? skill : `${plugin}:${skill}`;
        const uri = skillUri({ skill_id: id, name: skill });
        expect(uri.endsWith(`/${skill}/SKILL.md`)).toBe(true);
        expect(skillIdOf(uri)).toBe(id);
      }),
    );
  });

  it('skillIdOf rejects URIs that name no served SKILL.md', () => {
    for (const uri of [
      'skill://x/README.md',
      'skill:///SKILL.md',
      'skill://a//SKILL.md',
      'skill://a/b/c/SKILL.md',
      'http://x/SKILL.md',
      'skill://%zz/SKILL.md',
    ]) {
      expect(skillIdOf(uri), uri).toBeUndefined();
    }
  });
});
