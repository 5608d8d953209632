/**
 * The encodings a full index writes since issue #26 ("Index cost of v3"): postings packed as they
 * are collected equal `encodePostings` of the same list; body counts written without building an
 * object parse to what JSON.stringify of that object gave; the body-line handoff keeps to its bound;
 * and a v4 catalog stores no body_v4, and since issue 33 no body_tf either (the postings hold the
 * body counts), in 16 KiB pages.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PackedPostings,
  decodePostings,
  encodePostings,
  type FieldCounts,
} from '../../src/catalog/write/postings.js';
import {
  BodyHandoff,
  decodeBodyV4,
  decodeForwardHeadV4,
  decodeForwardV4,
  documentTermsV4,
  effectiveBody,
  encodeBodyV4,
  flatLines,
  encodeForwardV4,
  encodeForwardV4Json,
  type V4Counts,
} from '../../src/catalog/write/documents-v4.js';
import { decodeBodyCounts } from '../../src/catalog/write/body-counts.js';
import { CATALOG_PAGE_SIZE } from '../../src/catalog/db.js';
import { deflateRawFitted } from '../../src/catalog/store/deflate.js';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { indexCatalog } from '../../src/internal.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'skilldex-index-encoding-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const count = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const tf = fc.tuple(count, count, count, count) as fc.Arbitrary<FieldCounts>;

describe('PackedPostings', () => {
  it('packs each term as encodePostings packs the same list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 1, max: 50 }), tf)),
        (adds) => {
          const packed = new PackedPostings();
          const lists = new Map<string, { rowid: number; tf: FieldCounts }[]>();
          // Rowids grow per term, as a publish adds them.
          let rowid = 0;
          for (const [term, step, counts] of adds) {
            rowid += step;
            packed.add(term, rowid, counts);
            lists.set(term, [...(lists.get(term) ?? []), { rowid, tf: counts }]);
          }
          expect([...packed.terms()].sort()).toEqual([...lists.keys()].sort());
          for (const [term, list] of lists) {
            const got = packed.get(term)!;
            expect(got.df).toBe(list.length);
            expect(Buffer.compare(got.data, encodePostings(list))).toBe(0);
            expect(decodePostings(got.data)).toEqual(list);
          }
        },
      ),
    );
  });

  it('refuses a rowid that does not grow', () => {
    const packed = new PackedPostings();
    packed.add('a', 5, [1, 0, 0, 0]);
    expect(() => packed.add('a', 5, [1, 0, 0, 0])).toThrow(RangeError);
  });
});

// Body counts are no longer written (issue 33: a search reads them from the postings); a publish
// still reads them off rows of older catalogs, in both forms those hold.
describe('decodeBodyCounts', () => {
  it('reads the JSON form whatever the terms', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), fc.nat()), { maxLength: 20 }),
        fc.nat(),
        (entries, len) => {
          const tf = new Map(entries);
          const back = decodeBodyCounts(JSON.stringify({ tf: Object.fromEntries(tf), len }));
          expect(back).toEqual({ tf: new Map(Object.entries(Object.fromEntries(tf))), len });
        },
      ),
    );
  });

  it('reads the compact form, grouped by count', () => {
    expect(decodeBodyCounts('~9|1 pdf tabl|3 extract')).toEqual({
      tf: new Map([
        ['pdf', 1],
        ['tabl', 1],
        ['extract', 3],
      ]),
      len: 9,
    });
    expect(decodeBodyCounts('~0')).toEqual({ tf: new Map(), len: 0 });
    expect(decodeBodyCounts(null)).toEqual({ tf: new Map(), len: 0 });
  });
});

// Terms that are prefixes of one another, digits, a non-ASCII one, and the JSON keys' names.
const TERMS = ['pdf', 'pdfs', 'p', 'tf', 'len', '2024', '1', 'résumé', 'x1', 'a b', 'a|b', ''];

describe('encodeForwardV4', () => {
  const small = fc.nat(3);
  const counts = fc.tuple(small, small, small, small, small) as fc.Arbitrary<V4Counts>;
  it('decodes as JSON.parse decodes the JSON form, whatever the terms', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...TERMS), fc.string()), counts), {
          maxLength: 20,
        }),
        (entries) => {
          const terms = new Map(entries);
          const text = encodeForwardV4(terms);
          const json = encodeForwardV4Json(terms);
          expect({ ...decodeForwardHeadV4(text) }).toEqual(JSON.parse(json));
          const body = { tf: new Map([['pdf', 2]]) };
          expect(decodeForwardV4(text, body)).toEqual(decodeForwardV4(json, body));
        },
      ),
    );
  });

  it('groups analysed terms by their counts', () => {
    const terms = new Map<string, V4Counts>([
      ['pdf', [1, 0, 0, 0, 0]],
      ['tabl', [0, 0, 2, 0, 0]],
      ['bodi', [0, 0, 0, 3, 0]],
      ['extract', [0, 0, 2, 1, 0]],
    ]);
    expect(encodeForwardV4(terms)).toBe('~|1,0,0,0 pdf|0,0,2,0 tabl extract');
  });
});

describe('deflateRawFitted', () => {
  // Random bytes up to `max`, or text repeated (what compresses well, as SKILL.md text does).
  const blobs = (max: number) =>
    fc.oneof(
      fc.uint8Array({ maxLength: max }),
      fc.string({ maxLength: 3_000 }).map((t) => Buffer.from(t.repeat(20), 'utf8')),
    );

  it('inflates with the defaults to the same bytes, whatever their size', () => {
    fc.assert(
      fc.property(blobs(2_000), (bytes) => {
        expect(Buffer.compare(inflateRawSync(deflateRawFitted(bytes)), Buffer.from(bytes))).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('writes the bytes of zlib with its default output chunk, in a buffer of about their size', () => {
    fc.assert(
      fc.property(blobs(40_000), (bytes) => {
        const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.length + 1))));
        const fitted = deflateRawFitted(bytes);
        expect(Buffer.compare(fitted, deflateRawSync(bytes, { windowBits }))).toBe(0);
        expect(fitted.buffer.byteLength).toBeLessThan(Math.max(16_384, 2 * bytes.length + 128));
      }),
      { numRuns: 200 },
    );
  });
});

describe('documentTermsV4 from body lines', () => {
  it('counts, orders and measures as from effectiveBody of the same lines', () => {
    const term = fc.constantFrom('pdf', 'tabl', 'extract', 'merg', 'csv', 'report', '3d');
    const line = fc.record({
      key: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
      terms: fc.array(term, { minLength: 1, maxLength: 6 }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
        fc.array(term, { maxLength: 4 }),
        (lines, keys, kw) => {
          const template = new Set(keys);
          const s = {
            name: 'pdf-tools',
            keywords: kw,
            tags: [],
            description: 'Extract pdf tables',
          };
          const a = documentTermsV4(s, { lines: flatLines(lines), template });
          const b = documentTermsV4(s, effectiveBody(lines, template));
          expect([...a.terms]).toEqual([...b.terms]);
          expect(a.lens).toEqual(b.lens);
        },
      ),
    );
  });
});

describe('encodeBodyV4', () => {
  it('hands over the lines it stores: its analysed body is that of its stored lines, flat', () => {
    const body =
      'Use Demo-Tools 3 times\n\nthe and of\nExtract PDF tables\nextract pdf tables again\n';
    const v4 = encodeBodyV4(body, 'demo-tools');
    expect(v4.analysed).toEqual(flatLines(decodeBodyV4(v4.lines)));
    expect(v4.analysed.ends).toHaveLength(3);
  });
});

describe('BodyHandoff', () => {
  it('holds lines up to its bound of terms and no further', () => {
    const handoff = new BodyHandoff(10);
    const six = encodeBodyV4('alpha beta gamma\ndelta epsilon zeta\n', 'demo').analysed;
    handoff.put('r1', six);
    handoff.put('r2', six);
    expect(handoff.get('r1')).toBe(six);
    expect(handoff.get('r2')).toBeUndefined();
  });
});

describe('a v4 catalog', () => {
  it('keeps no body_v4 and no body_tf (the body counts are in the postings), in 16 KiB pages', () => {
    const lib = path.join(tmp, 'lib');
    for (const name of ['pdf-tools', 'csv-tools']) {
      mkdirSync(path.join(lib, name), { recursive: true });
      writeFileSync(
        path.join(lib, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: Work with ${name} files\n---\n\n# ${name}\n\nExtract tables and merge documents.\n`,
      );
    }
    const catalog = path.join(tmp, 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [lib], policy: 'tf.skillrouter.bm25f.v4' });
    const db = new Database(catalog, { readonly: true });
    try {
      expect(db.pragma('page_size', { simple: true })).toBe(CATALOG_PAGE_SIZE);
      const rev = db
        .prepare(
          `SELECT count(*) AS n, count(body_v4) AS v4, count(body_lines) AS lines FROM revisions`,
        )
        .get() as { n: number; v4: number; lines: number };
      expect(rev).toEqual({ n: 2, v4: 0, lines: 2 });
      const rows = db.prepare(`SELECT rowid, body_tf FROM serving`).all() as {
        rowid: number;
        body_tf: string | null;
      }[];
      expect(rows).toHaveLength(2);
      for (const r of rows) expect(r.body_tf).toBeNull();
      // Each row's body count of 'extract' is in that term's postings list.
      const post = db.prepare(`SELECT data FROM postings WHERE term = 'extract'`).get() as {
        data: Buffer;
      };
      expect(decodePostings(post.data).map((p) => [p.rowid, p.tf[3]])).toEqual(
        rows.map((r) => [r.rowid, 1]),
      );
    } finally {
      db.close();
    }
  });
});
