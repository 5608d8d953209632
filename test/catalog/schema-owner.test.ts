/**
 * One owner for the catalog schema (issue #13): no module outside src/catalog prepares SQL or names
 * a catalog table in a query string; the router, the faces and every other capability ask
 * src/catalog for named, typed rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/cli.js';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

const TABLES = [
  'serving',
  'serving_fts',
  'vocab',
  'postings',
  'serving_docs',
  'revisions',
  'generations',
  'generation_members',
  'published',
  'skills',
  'files',
  'meta',
];

describe('src/catalog owns the schema', () => {
  it('no file outside src/catalog prepares or runs SQL over catalog tables', () => {
    const offenders: string[] = [];
    for (const f of files(path.join(REPO, 'src'))) {
      const rel = path.relative(path.join(REPO, 'src'), f);
      if (rel.startsWith('catalog' + path.sep)) continue;
      const text = readFileSync(f, 'utf8');
      if (/\.prepare\(|\.exec\(`/.test(text)) {
        for (const t of TABLES) {
          if (new RegExp(`\\b(FROM|JOIN|INTO|UPDATE)\\s+${t}\\b`).test(text))
            offenders.push(`${rel}: ${t}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
