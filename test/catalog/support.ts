/**
 * Test support for the catalog and router tests: a fixed clock, a fresh catalog path in a temporary
 * folder, SKILL.md texts with keywords, tags and versions, indexing a tree through the library, and
 * assertions on thrown SkilldexError codes. Real files only: no module mocking.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { POLICY_ID, indexCatalog, type IndexReport } from '../../src/index.js';
import { tmpDir } from '../support/cli.js';

/** The clock every test passes in, so revision and generation timestamps never vary. */
export const NOW = (): Date => new Date('2025-01-02T03:04:05.000Z');

/** A catalog path inside a fresh temporary folder (the file does not exist yet). */
export function newCatalogPath(prefix = 'skilldex-catalog-'): string {
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
    policy: POLICY_ID,
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
