/**
 * The MCP Skills extension lists every file of a skill (issue #12): skills/get, skills/list and
 * resources/list name each regular file of the skill folder with the digest and size recorded at
 * index time; resources/read returns its exact bytes verified against that digest; links, skipped
 * folders and nested skills are not listed; the count and byte bounds hold; a file changed since
 * indexing is INDEX_DRIFT (even before a server first listed it), and after a re-index the new
 * generation serves the new digest and lists added files.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_SKILL_FILES, MAX_SKILL_FILES_BYTES } from '../../src/internal.js';
import { skillFileCandidates, skillFileUri } from '../../src/mcp/skills-extension.js';
import { skillMd, tmpTree } from '../support/cli.js';
import {
  closeAll,
  connectInProcess,
  makeCatalog,
  reindex,
  search,
  type Connection,
  type TestCatalog,
} from './support.js';

const Entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
const GetSchema = z.object({ skill: Entry });
const ListSchema = z.object({ skills: z.array(Entry), nextCursor: z.string().optional() });

const sha256 = (b: Buffer | string): string =>
  `sha256:${createHash('sha256').update(b).digest('hex')}`;
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x00]);

let cat: TestCatalog;
let conn: Connection;
let outside: string;

beforeAll(async () => {
  outside = tmpTree(
    { 'secret.txt': 'outside the skill\n', 'dir/also-secret.txt': 'outside too\n' },
    'skilldex-outside-',
  );
  const many: Record<string, string> = {};
  for (let i = 0; i < MAX_SKILL_FILES + 5; i++)
    many[`many/data/f${String(i).padStart(3, '0')}.txt`] = `file ${i}\n`;
  const lib = tmpTree(
    {
      'tool/SKILL.md': skillMd('tool', 'A skill with scripts, references and assets'),
      'tool/scripts/run.py': 'print("hello")\n',
      'tool/references/guide.md': '# Guide\n\nRead me.\n',
      'tool/assets/logo.png': BINARY,
      'tool/node_modules/dep/index.js': 'module.exports = 1;\n',
      'tool/.git/HEAD': 'ref: refs/heads/main\n',
      'tool/nested/SKILL.md': skillMd('nested', 'A skill inside another skill folder'),
      'tool/nested/inner.txt': 'belongs to nested\n',
      'plain/SKILL.md': skillMd('plain', 'A skill with nothing beside its SKILL.md'),
      'many/SKILL.md': skillMd('many', 'A skill with more files than the bound'),
      'big/SKILL.md': skillMd('big', 'A skill with a file over the byte bound'),
      'big/small.txt': 'small\n',
      ...many,
    },
    'skilldex-files-lib-',
  );
  writeFileSync(path.join(lib, 'big/huge.bin'), Buffer.alloc(MAX_SKILL_FILES_BYTES + 1, 1));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(lib, 'tool/link-out.txt'));
  symlinkSync(path.join(outside, 'dir'), path.join(lib, 'tool/linked-dir'));
  cat = await makeCatalog({ from: lib });
  conn = await connectInProcess({ catalog: cat.catalog });
});

afterAll(closeAll);

const get = (uri: string): Promise<z.infer<typeof GetSchema>> =>
  conn.client.request({ method: 'skills/get', params: { uri } }, GetSchema);

async function rejection(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe('supporting files in the Skills extension', () => {
  it('skills/get lists every regular file of the folder with the digest and size of its bytes, and nothing else', async () => {
    const { skill } = await get('skill://tool/SKILL.md');
    const dir = path.join(cat.skills, 'tool');
    const expected = ['assets/logo.png', 'references/guide.md', 'scripts/run.py'].map((rel) => {
      const bytes = readFileSync(path.join(dir, rel));
      return { uri: `skill://tool/${rel}`, digest: sha256(bytes), size: bytes.length };
    });
    const skillBytes = readFileSync(path.join(dir, 'SKILL.md'));
    expect(skill.resources).toEqual([
      { uri: 'skill://tool/SKILL.md', digest: sha256(skillBytes), size: skillBytes.length },
      ...expected,
    ]);
    expect(skill._meta).toBeUndefined();
    // The nested skill lists its own file.
    expect((await get('skill://nested/SKILL.md')).skill.resources.map((r) => r.uri)).toEqual([
      'skill://nested/SKILL.md',
      'skill://nested/inner.txt',
    ]);
    expect((await get('skill://plain/SKILL.md')).skill.resources).toHaveLength(1);
  });

  it('skills/list and resources/list carry the same files', async () => {
    const page = await conn.client.request({ method: 'skills/list', params: {} }, ListSchema);
    const tool = page.skills.find((s) => s.uri === 'skill://tool/SKILL.md')!;
    expect(tool.resources.map((r) => r.uri)).toContain('skill://tool/scripts/run.py');
    const resources = (await conn.client.listResources()).resources;
    const run = resources.find((r) => r.uri === 'skill://tool/scripts/run.py');
    expect(run).toMatchObject({
      mimeType: 'text/x-python',
      size: Buffer.byteLength('print("hello")\n'),
    });
    expect(
      resources.some(
        (r) =>
          r.uri.includes('link-out') ||
          r.uri.includes('linked-dir') ||
          r.uri.includes('node_modules') ||
          r.uri.includes('.git'),
      ),
    ).toBe(false);
  });

  it('resources/read returns text or base64 bytes with the listed digest', async () => {
    const py = (await conn.client.readResource({ uri: 'skill://tool/scripts/run.py' }))
      .contents[0] as { text?: string; _meta?: Record<string, unknown> };
    expect(py.text).toBe('print("hello")\n');
    expect(py._meta).toEqual({
      'io.modelcontextprotocol/skills/digest': sha256('print("hello")\n'),
      'io.modelcontextprotocol/skills/size': 15,
    });
    const png = (await conn.client.readResource({ uri: 'skill://tool/assets/logo.png' }))
      .contents[0] as { blob?: string; text?: string; mimeType?: string };
    expect(png.text).toBeUndefined();
    expect(png.mimeType).toBe('image/png');
    expect(Buffer.from(png.blob!, 'base64').equals(BINARY)).toBe(true);
  });

  it('files not listed are unknown resources (-32602): links, skipped folders, traversal, missing files', async () => {
    for (const uri of [
      'skill://tool/link-out.txt',
      'skill://tool/linked-dir/also-secret.txt',
      'skill://tool/node_modules/dep/index.js',
      'skill://tool/nested/inner.txt',
      'skill://tool/../plain/SKILL.md',
      'skill://tool/%2E%2E/%2E%2E/secret.txt',
      'skill://tool/scripts/none.py',
      'skill://no-such-skill/file.txt',
    ]) {
      expect((await rejection(conn.client.readResource({ uri }))).code, uri).toBe(-32602);
    }
  });

  it('bounds: at most MAX_SKILL_FILES files and MAX_SKILL_FILES_BYTES bytes per skill, marked truncated', async () => {
    const many = (await get('skill://many/SKILL.md')).skill;
    expect(many.resources).toHaveLength(1 + MAX_SKILL_FILES);
    expect(many._meta).toEqual({ 'dev.skilldex/files_truncated': true });
    const big = (await get('skill://big/SKILL.md')).skill;
    expect(big.resources.map((r) => r.uri)).toEqual([
      'skill://big/SKILL.md',
      'skill://big/small.txt',
    ]);
    expect(big._meta).toEqual({ 'dev.skilldex/files_truncated': true });
  });

  it('a file changed, or replaced by a link, after indexing is INDEX_DRIFT', async () => {
    const file = path.join(cat.skills, 'tool/references/guide.md');
    await get('skill://tool/SKILL.md');
    writeFileSync(file, '# Guide\n\nRead ME.\n'); // same size, other bytes
    const err = await rejection(
      conn.client.readResource({ uri: 'skill://tool/references/guide.md' }),
    );
    expect(err.code).toBe(-32603);
    expect(err.data).toMatchObject({ code: 'INDEX_DRIFT' });
    const script = path.join(cat.skills, 'tool/scripts/run.py');
    rmSync(script);
    symlinkSync(path.join(outside, 'secret.txt'), script);
    expect(
      (await rejection(conn.client.readResource({ uri: 'skill://tool/scripts/run.py' }))).data,
    ).toMatchObject({ code: 'INDEX_DRIFT' });
  });
});

describe('digests recorded at index time', () => {
  const read = async (c: Connection, uri: string): Promise<string | undefined> =>
    ((await c.client.readResource({ uri })).contents[0] as { text?: string }).text;

  it('a file changed before a server first lists it is INDEX_DRIFT, and every server agrees', async () => {
    const lib = tmpTree(
      {
        'tool/SKILL.md': skillMd('tool', 'A skill with a script'),
        'tool/run.sh': 'echo one\n',
      },
      'skilldex-files-lib-',
    );
    const c = await makeCatalog({ from: lib });
    writeFileSync(path.join(c.skills, 'tool/run.sh'), 'echo two\n');
    const a = await connectInProcess({ catalog: c.catalog });
    const b = await connectInProcess({ catalog: c.catalog });
    for (const conn of [a, b]) {
      const { skill } = await conn.client.request(
        { method: 'skills/get', params: { uri: 'skill://tool/SKILL.md' } },
        GetSchema,
      );
      expect(skill.resources[1]).toEqual({
        uri: 'skill://tool/run.sh',
        digest: sha256('echo one\n'),
        size: 9,
      });
      const err = await rejection(conn.client.readResource({ uri: 'skill://tool/run.sh' }));
      expect(err.data).toMatchObject({ code: 'INDEX_DRIFT' });
    }
  });

  it('a re-index publishes a new generation serving the new digest and the files added', async () => {
    const lib = tmpTree(
      {
        'tool/SKILL.md': skillMd('tool', 'A skill with a script'),
        'tool/run.sh': 'echo one\n',
      },
      'skilldex-files-lib-',
    );
    const c = await makeCatalog({ from: lib });
    const conn = await connectInProcess({ catalog: c.catalog });
    const genBefore = (await search(conn.client, 'script')).catalog_generation;
    const before = await conn.client.request(
      { method: 'skills/get', params: { uri: 'skill://tool/SKILL.md' } },
      GetSchema,
    );
    writeFileSync(path.join(c.skills, 'tool/run.sh'), 'echo two, longer\n');
    writeFileSync(path.join(c.skills, 'tool/notes.md'), '# Notes\n');
    // Not indexed yet: the new file is unknown, the changed one drifted.
    expect((await rejection(conn.client.readResource({ uri: 'skill://tool/notes.md' }))).code).toBe(
      -32602,
    );
    await reindex(c);
    const after = await conn.client.request(
      { method: 'skills/get', params: { uri: 'skill://tool/SKILL.md' } },
      GetSchema,
    );
    // The SKILL.md revision is the same; the listing and the generation are new.
    expect((await search(conn.client, 'script')).catalog_generation).not.toBe(genBefore);
    expect(after.skill.resources[0]).toEqual(before.skill.resources[0]);
    expect(after.skill.resources.slice(1)).toEqual([
      { uri: 'skill://tool/notes.md', digest: sha256('# Notes\n'), size: 8 },
      { uri: 'skill://tool/run.sh', digest: sha256('echo two, longer\n'), size: 17 },
    ]);
    expect(await read(conn, 'skill://tool/run.sh')).toBe('echo two, longer\n');
    expect(await read(conn, 'skill://tool/notes.md')).toBe('# Notes\n');
    rmSync(path.join(c.skills, 'tool/notes.md'));
    await reindex(c);
    expect((await rejection(conn.client.readResource({ uri: 'skill://tool/notes.md' }))).code).toBe(
      -32602,
    );
  });
});

describe('skill file URIs', () => {
  it('a plugin skill a:b names its files under skill://a/b/, preferred over file b/… of skill a', () => {
    expect(skillFileUri({ skill_id: 'plug:tool', name: 'tool' }, 'scripts/run me.py')).toBe(
      'skill://plug/tool/scripts/run%20me.py',
    );
    expect(skillFileCandidates('skill://plug/tool/scripts/run%20me.py')).toEqual([
      { skill_id: 'plug:tool', file: 'scripts/run me.py' },
      { skill_id: 'plug', file: 'tool/scripts/run me.py' },
    ]);
    expect(skillFileCandidates('skill://a/%2E%2E/x')).toEqual([]);
    expect(skillFileCandidates('https://a/b')).toEqual([]);
  });
});
