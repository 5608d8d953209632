/**
 * The tools offered only when configured (issue #4 with #5 and #6): skill_index_crawl exists only
 * with cascade roots and never reads outside them (PATH_OUTSIDE_ROOT as an error result),
 * substrate_read exists only with a substrate root and answers as the library does. The tools run
 * in process over an in-memory transport; finding the substrate from the working folder and
 * refusing a missing --substrate at start are run end to end against the built `skilldex mcp`.
 */
import { cpSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlCascade, readSubstrate } from '../../src/internal.js';
import { REPO, runBin, tmpDir } from '../support/cli.js';
import {
  call,
  closeAll,
  connectInProcess,
  connectStdio,
  makeCatalog,
  toolError,
  validationText,
  type Connection,
  type TestCatalog,
} from './support.js';

const EXAMPLE_CASCADE = path.join(REPO, 'examples', 'cascade');
const EXAMPLE_SUBSTRATE = path.join(REPO, 'examples', 'substrate');

let cat: TestCatalog;

beforeAll(async () => {
  cat = await makeCatalog();
});

afterAll(closeAll);

describe('without configuration', () => {
  it('offers only skill_search and skill_fetch', async () => {
    const conn = await connectInProcess({ catalog: cat.catalog });
    expect((await conn.client.listTools()).tools.map((t) => t.name)).toEqual([
      'skill_search',
      'skill_fetch',
    ]);
  });
});

describe('skill_index_crawl with --cascade-root', () => {
  let cascade: string;
  let outside: string;
  let conn: Connection;

  beforeAll(async () => {
    cascade = path.join(tmpDir('skilldex-mcp-cascade-'), 'cascade');
    cpSync(EXAMPLE_CASCADE, cascade, { recursive: true });
    outside = tmpDir('skilldex-mcp-outside-');
    mkdirSync(path.join(outside, 'secret'));
    symlinkSync(outside, path.join(cascade, 'link-out'));
    conn = await connectInProcess({ catalog: cat.catalog, cascadeRoots: [realpathSync(cascade)] });
  });

  it('is listed with a described input and an output schema', async () => {
    const tool = (await conn.client.listTools()).tools.find((t) => t.name === 'skill_index_crawl');
    expect(tool).toBeDefined();
    const props = tool!.inputSchema.properties as Record<string, { description?: string }>;
    expect(Object.keys(props).sort()).toEqual(['need', 'root']);
    for (const p of Object.values(props)) expect(p.description).toMatch(/\w/);
    expect(tool!.outputSchema?.type).toBe('object');
  });

  it('crawls the configured root to the skill, as the library does', async () => {
    const r = await call(conn.client, 'skill_index_crawl', { need: 'pdf' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(JSON.parse(JSON.stringify(crawlCascade(cascade, 'pdf'))));
    expect(r.structuredContent).toMatchObject({ outcome: 'hit', hit: { key: 'pdf-forms' } });
    expect(r.content[0]?.type === 'text' ? r.content[0].text : '').toMatch(/^hit: pdf-forms/);
  });

  it('accepts a folder inside a root, relative or absolute', async () => {
    for (const root of ['documents', path.join(cascade, 'documents')]) {
      const r = await call(conn.client, 'skill_index_crawl', { need: 'pdf', root });
      expect(r.isError, root).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ outcome: 'hit' });
    }
  });

  it('refuses a root outside the configured ones with PATH_OUTSIDE_ROOT', async () => {
    for (const root of [
      outside,
      REPO,
      '/',
      '..',
      '../..',
      'documents/../../x',
      path.join(cascade, '..'),
      'link-out',
      path.join(cascade, 'link-out', 'secret'),
    ]) {
      const r = await call(conn.client, 'skill_index_crawl', { need: 'pdf', root });
      expect(toolError(r).code, root).toBe('PATH_OUTSIDE_ROOT');
    }
  });

  it('refuses an empty need as a validation error', async () => {
    expect(validationText(await call(conn.client, 'skill_index_crawl', { need: '' }))).toContain(
      'need',
    );
  });
});

describe('substrate_read', () => {
  let conn: Connection;

  beforeAll(async () => {
    conn = await connectInProcess({ catalog: cat.catalog, substrateRoot: EXAMPLE_SUBSTRATE });
  });

  it('is listed with described inputs', async () => {
    const tool = (await conn.client.listTools()).tools.find((t) => t.name === 'substrate_read');
    expect(tool).toBeDefined();
    const props = tool!.inputSchema.properties as Record<string, { description?: string }>;
    expect(Object.keys(props).sort()).toEqual(['query', 'type_filter']);
    for (const p of Object.values(props)) expect(p.description).toMatch(/\w/);
  });

  it.each(['payment retries', 'src/payments/**', 'tag:security'])(
    'answers %s as the library does',
    async (query) => {
      const r = await call(conn.client, 'substrate_read', { query });
      expect(r.isError).toBeFalsy();
      const report = r.structuredContent as { hits: { type: string; id: string }[] };
      expect(report).toEqual(
        JSON.parse(JSON.stringify(readSubstrate(query, { root: EXAMPLE_SUBSTRATE }))),
      );
      expect(report.hits.length).toBeGreaterThan(0);
      const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
      expect(text).toContain(`${report.hits[0]!.type}/${report.hits[0]!.id}`);
    },
  );

  it('limits to one type with type_filter, and refuses an unknown type', async () => {
    const r = await call(conn.client, 'substrate_read', {
      query: 'payment retries',
      type_filter: 'adr',
    });
    expect(r.isError).toBeFalsy();
    for (const h of (r.structuredContent as { hits: { type: string }[] }).hits)
      expect(h.type).toBe('adr');
    expect(
      validationText(
        await call(conn.client, 'substrate_read', { query: 'payment', type_filter: 'poem' }),
      ),
    ).toContain('type_filter');
  });

  // End to end: the built `skilldex mcp` finds the substrate from its working folder.
  it('is found without --substrate in a project with a substrate/ folder', async () => {
    const project = tmpDir('skilldex-mcp-project-');
    cpSync(EXAMPLE_SUBSTRATE, path.join(project, 'substrate'), { recursive: true });
    mkdirSync(path.join(project, 'src'));
    // HOME elsewhere: the walk up for substrate/ never reads the home folder (issue 36 M5).
    const found = await connectStdio(['--catalog', cat.catalog], {
      cwd: path.join(project, 'src'),
      home: tmpDir('skilldex-mcp-home-'),
    });
    expect((await found.client.listTools()).tools.map((t) => t.name)).toContain('substrate_read');
    const r = await call(found.client, 'substrate_read', { query: 'payment retries' });
    expect((r.structuredContent as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
  });

  it('a --substrate that does not exist is refused at start', () => {
    const dir = tmpDir();
    const r = runBin(['mcp', '--catalog', cat.catalog, '--substrate', path.join(dir, 'none')], {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('SUBSTRATE_NOT_FOUND');
  });
});
