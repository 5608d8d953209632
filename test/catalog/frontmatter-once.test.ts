/**
 * A revision's frontmatter stores its description, name and keywords once (issue 33, "store each
 * thing once"; src/catalog/store/stored.ts): where the frontmatter's value equals the revision's
 * column, the JSON keeps the key in its place with 0, after `~` and the letters of the keys left
 * out. Reading gives back the frontmatter JSON byte for byte; rows written before (`~{` with the
 * description alone, or plain JSON) read as they did. Likewise a revision's normalized hash is
 * stored empty when it equals its revision id (a file with LF line endings and no BOM), and a
 * re-index reads it back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeStoredFrontmatter,
  encodeStoredFrontmatter,
  parseStoredFrontmatter,
} from '../../src/catalog/store/stored.js';
import { indexCatalog } from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { NOW, ON_PG, codeOf, propertyRuns, skillText } from './support.js';

const word = fc.string({ minLength: 0, maxLength: 6 });
const value = fc.oneof(word, fc.integer(), fc.array(word, { maxLength: 3 }), fc.constant(0));

describe('stored frontmatter', () => {
  it('reads back the JSON it was given, whatever equals its columns', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('name', 'description', 'keywords', 'tags', 'x', 'y'), value),
        fc.record({ description: word, name: word, keywords: fc.array(word, { maxLength: 3 }) }),
        fc.boolean(),
        (fm, cols, adopt) => {
          // Often the columns hold the frontmatter's own values (as an ingest writes them).
          const columns = {
            description:
              adopt && typeof fm['description'] === 'string' ? fm['description'] : cols.description,
            name: adopt && typeof fm['name'] === 'string' ? fm['name'] : cols.name,
            keywords: JSON.stringify(
              adopt && Array.isArray(fm['keywords']) ? fm['keywords'] : cols.keywords,
            ),
          };
          const stored = encodeStoredFrontmatter(fm, columns);
          expect(decodeStoredFrontmatter(stored, columns)).toBe(JSON.stringify(fm));
          expect(JSON.stringify(parseStoredFrontmatter(stored, columns))).toBe(JSON.stringify(fm));
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('leaves out each value equal to its column, and reads the forms written before', () => {
    const fm = { name: 'pdf-tools', description: 'Work with PDFs', keywords: ['pdf', 'tables'] };
    const columns = {
      name: 'pdf-tools',
      description: 'Work with PDFs',
      keywords: '["pdf","tables"]',
    };
    const stored = encodeStoredFrontmatter(fm, columns);
    expect(stored).toBe('~dnk{"name":0,"description":0,"keywords":0}');
    // A value of another type than its column's is kept (name: 0 is not the name "0").
    expect(encodeStoredFrontmatter({ name: 0 }, { ...columns, name: '0' })).toBe('{"name":0}');
    // Before: the description alone after `~`, or plain JSON.
    expect(
      decodeStoredFrontmatter('~{"name":"pdf-tools","description":0,"keywords":["pdf","tables"]}', {
        ...columns,
        name: 'other',
        keywords: '[]',
      }),
    ).toBe(JSON.stringify(fm));
    expect(decodeStoredFrontmatter(JSON.stringify(fm), columns)).toBe(JSON.stringify(fm));
    for (const bad of ['~x{"name":0}', '~dn[1]', '~dn{'])
      expect(codeOf(() => parseStoredFrontmatter(bad, columns))).toBe('CATALOG_CORRUPT');
  });
});

describe.skipIf(ON_PG)('a catalog', () => {
  it("stores no revision's name, description or keywords twice", () => {
    const catalog = path.join(tmpDir('skilldex-frontmatter-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [path.join(REPO, 'examples', 'skills')], now: NOW });
    const db = new Database(catalog, { readonly: true });
    try {
      const rows = db
        .prepare(`SELECT name, description, keywords, frontmatter FROM revisions`)
        .all() as {
        name: string;
        description: string;
        keywords: string;
        frontmatter: string;
      }[];
      expect(rows.length).toBeGreaterThan(20);
      for (const r of rows) {
        const fm = JSON.parse(r.frontmatter.replace(/^~[dnk]*/, '')) as Record<string, unknown>;
        if (r.keywords !== '[]') expect(fm['keywords']).not.toEqual(JSON.parse(r.keywords));
        expect(fm['name']).not.toBe(r.name);
        expect(fm['description']).not.toBe(r.description);
      }
    } finally {
      db.close();
    }
  });
});

describe.skipIf(ON_PG)('the normalized hash', () => {
  it('is stored empty where it equals the revision id, and a re-index reads it back', () => {
    const dir = tmpDir('skilldex-normalized-');
    const lib = path.join(dir, 'skills');
    const write = (name: string, text: string): void => {
      mkdirSync(path.join(lib, name), { recursive: true });
      writeFileSync(path.join(lib, name, 'SKILL.md'), text);
    };
    write('lf-skill', skillText('lf-skill', { description: 'Plain LF file' }));
    write(
      'crlf-skill',
      skillText('crlf-skill', { description: 'CRLF file' }).replace(/\n/g, '\r\n'),
    );
    const catalog = path.join(dir, 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [lib], now: NOW });
    const stored = (): Record<string, string> => {
      const db = new Database(catalog, { readonly: true });
      try {
        return Object.fromEntries(
          (
            db.prepare(`SELECT skill_id, revision_id, normalized_sha256 FROM revisions`).all() as {
              skill_id: string;
              revision_id: string;
              normalized_sha256: string;
            }[]
          ).map((r) => [
            r.skill_id,
            r.normalized_sha256 === r.revision_id ? 'same' : r.normalized_sha256,
          ]),
        );
      } finally {
        db.close();
      }
    };
    const first = stored();
    expect(first['lf-skill']).toBe('');
    expect(first['crlf-skill']).toMatch(/^sha256:[0-9a-f]{64}$/);
    // A re-index that reads the remembered rows (a third skill added) keeps both as they were.
    write('new-skill', skillText('new-skill', { description: 'Added later' }));
    indexCatalog({ catalog, scopes: [lib], now: NOW });
    expect(stored()).toEqual({ ...first, 'new-skill': '' });
  });
});
