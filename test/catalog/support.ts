/**
 * Test support for the catalog and router tests: a fixed clock, a fresh catalog path in a temporary
 * folder, SKILL.md texts with keywords, tags and versions, indexing a tree through the library, and
 * assertions on thrown SkilldexError codes. Real files only: no module mocking.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { POLICY_ID, POLICY_V4_ID, indexCatalog, type IndexReport } from '../../src/internal.js';
import { tmpDir } from '../support/cli.js';
import { freshPgDatabase } from '../support/pg.js';

/**
 * True in the `postgres` test project: catalogs are PostgreSQL schemas, and tests of SQLite-only
 * behaviour (policies v1/v2 on FTS5, catalog and telemetry files) are skipped there.
 */
export const ON_PG = process.env['SKILLDEX_TEST_BACKEND'] === 'pg';

/**
 * Runs of a catalog-building property: all of them on SQLite, a quarter on PostgreSQL (every run
 * builds catalogs over connections, some 50× the cost of a file; the same properties, fewer cases).
 */
export function propertyRuns(n: number): number {
  return ON_PG ? Math.max(3, Math.ceil(n / 4)) : n;
}

/** The clock every test passes in, so revision and generation timestamps never vary. */
export const NOW = (): Date => new Date('2025-01-02T03:04:05.000Z');

/**
 * A catalog path inside a fresh temporary folder (the file does not exist yet), or, in the
 * `postgres` test project ($SKILLDEX_TEST_BACKEND=pg), the URL of a fresh empty PostgreSQL database:
 * the tests that take their catalog from here run against both backends.
 */
export function newCatalogPath(prefix = 'skilldex-catalog-'): string {
  if (process.env['SKILLDEX_TEST_BACKEND'] === 'pg') return freshPgDatabase();
  return path.join(tmpDir(prefix), 'catalog.sqlite');
}

/** Frontmatter extras of a test skill. */
export interface SkillSpec {
  readonly description: string;
  readonly keywords?: readonly string[];
  readonly tags?: readonly string[];
  readonly version?: string;
  readonly body?: string;
}

/** The text of a SKILL.md for `name` with the given fields (lists as YAML flow sequences). */
export function skillText(name: string, spec: SkillSpec): string {
  const lines = ['---', `name: ${name}`, `description: ${JSON.stringify(spec.description)}`];
  if (spec.keywords && spec.keywords.length > 0)
    lines.push(`keywords: [${spec.keywords.map((k) => JSON.stringify(k)).join(', ')}]`);
  if (spec.tags && spec.tags.length > 0)
    lines.push(`tags: [${spec.tags.map((k) => JSON.stringify(k)).join(', ')}]`);
  if (spec.version !== undefined) lines.push(`version: ${JSON.stringify(spec.version)}`);
  lines.push('---', '', spec.body ?? `# ${name}\n\nBody of ${name}.\n`);
  return lines.join('\n');
}

/**
 * Indexes `root` (one custom scope) into `catalog` with the fixed clock, under policy v1 unless
 * `policy` says otherwise (the catalog and router tests pin v1's constants; v2 has its own tests).
 */
export function indexTree(
  catalog: string,
  root: string,
  options: { publish?: boolean; policy?: string } = {},
): IndexReport {
  return indexCatalog({
    catalog,
    scopes: [root],
    home: root,
    project: root,
    now: NOW,
    // A PostgreSQL catalog serves the BM25F policies only (no FTS5).
    policy: process.env['SKILLDEX_TEST_BACKEND'] === 'pg' ? POLICY_V4_ID : POLICY_ID,
    ...options,
  });
}

/** Runs `fn` and returns the SkilldexError code it throws (fails the test when it does not throw). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toHaveProperty('code');
    return (err as { code: string }).code;
  }
  throw new Error('expected a SkilldexError, but the call returned');
}

/** Parses the JSON printed by a `--json` command. */
export function parseJson<T>(stdout: string): T {
  return JSON.parse(stdout) as T;
}

/** The bytes of a file, to check that an operation left it untouched. */
export function bytesOf(file: string): Buffer {
  return readFileSync(file);
}
