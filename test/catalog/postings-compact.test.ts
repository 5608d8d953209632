/**
 * The compact postings form (issue 33, "integer-packed postings"; src/catalog/write/postings.ts):
 * a 0 byte, then per posting a rowid delta and one code byte holding the four counts (or an escape
 * and four varints). It decodes to what was packed, takes about 2.3 bytes a posting where the
 * varint form took 5.3, is what a publish writes, and a catalog whose lists are still in the varint
 * form (every catalog before) answers as it did; a re-index that touches some of its lists rewrites
 * those compactly and answers as a fresh index of the same library. Since serving rows keep no body
 * counts (issue 33), a publish that removes rows finds their lists from the revision's body lines:
 * when a template line stops being one (and rows are served again with it), no list keeps a stale
 * entry.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodePostings,
  encodePostings,
  encodePostingsVarint,
  forEachPosting,
  type FieldCounts,
  type Posting,
} from '../../src/catalog/write/postings.js';
import { Router, indexCatalog } from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { NOW, ON_PG, codeOf, propertyRuns, skillText } from './support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');

// Lists in rowid order with counts mostly small (as a library's are) and sometimes up to 2^32 - 1.
const small = fc.integer({ min: 0, max: 9 });
const any = fc.oneof(small, small, fc.integer({ min: 0, max: 2 ** 32 - 1 }));
const listArb: fc.Arbitrary<Posting[]> = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 70_000 }), any, any, any, any), { maxLength: 60 })
  .map((xs) => {
    let rowid = 0;
    return xs.map(([step, n, k, d, b]) => ({
      rowid: (rowid += step),
      tf: [n, k, d, b] as FieldCounts,
    }));
  });

// Each term's list as its postings' counts, sorted: what two catalogs share when their rowids differ.
function counts(xs: { term: string; data: Buffer }[]): unknown[] {
  return xs.map((r) => [
    r.term,
    decodePostings(r.data)
      .map((p) => p.tf.join(','))
      .sort(),
  ]);
}

describe('postings forms', () => {
  it('the compact form and the varint form both decode to the list packed', () => {
    fc.assert(
      fc.property(listArb, (list) => {
        const compact = encodePostings(list);
        expect(compact[0]).toBe(0);
        expect(decodePostings(compact)).toEqual(list);
        expect(decodePostings(encodePostingsVarint(list))).toEqual(list);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('a posting whose counts fit a code takes its delta and one byte', () => {
    // Every count combination a code holds: name ≤ 1, keywords ≤ 2, description ≤ 3, body ≤ 7.
    const list: Posting[] = [];
    for (let n = 0; n <= 1; n++)
      for (let k = 0; k <= 2; k++)
        for (let d = 0; d <= 3; d++)
          for (let b = 0; b <= 7; b++) list.push({ rowid: list.length + 1, tf: [n, k, d, b] });
    expect(list).toHaveLength(192);
    expect(encodePostings(list).length).toBe(1 + 2 * 192);
    expect(encodePostingsVarint(list).length).toBe(5 * 192);
    expect(decodePostings(encodePostings(list))).toEqual(list);
    // One count past a code's range: the escape and four varints.
    const big = [{ rowid: 1, tf: [2, 0, 0, 1] as FieldCounts }];
    expect([...encodePostings(big)]).toEqual([0, 1, 0xff, 2, 0, 0, 1]);
  });

  it('a code skilldex never writes is CATALOG_CORRUPT, not an internal fault', () => {
    for (const code of [192, 200, 254])
      expect(codeOf(() => forEachPosting(Buffer.from([0, 1, code]), () => undefined))).toBe(
        'CATALOG_CORRUPT',
      );
  });
});

const QUERIES = [
  'extract tables from a pdf',
  'count words in a file',
  'kuberntes deploy',
  'clean a csv, no pdf',
  'review code for security',
  'plot a chart of data',
];

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function answers(catalog: string): string[] {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(r);
  return QUERIES.flatMap((query) => [
    JSON.stringify(r.search({ query, limit: 10 })),
    JSON.stringify(r.search({ query, limit: 3, include_deprecated: true })),
  ]);
}

function blobs(catalog: string): { term: string; data: Buffer }[] {
  const db = new Database(catalog, { readonly: true });
  try {
    return db.prepare(`SELECT term, data FROM postings ORDER BY term`).all() as {
      term: string;
      data: Buffer;
    }[];
  } finally {
    db.close();
  }
}

// Rewrites every postings list of `catalog` in the varint form, as a catalog before issue 33 held it.
function toVarintForm(catalog: string): void {
  const db = new Database(catalog);
  try {
    const put = db.prepare(`UPDATE postings SET data = ? WHERE term = ?`);
    db.transaction(() => {
      for (const r of db.prepare(`SELECT term, data FROM postings`).all() as {
        term: string;
        data: Buffer;
      }[])
        put.run(encodePostingsVarint(decodePostings(r.data)), r.term);
    })();
  } finally {
    db.close();
  }
}

describe.skipIf(ON_PG)('a catalog of the compact form', () => {
  it('a publish writes compact lists; varint lists answer the same and are rewritten when touched', () => {
    const dir = tmpDir('skilldex-postings-');
    const skills = path.join(dir, 'skills');
    cpSync(EXAMPLES, skills, { recursive: true });
    const catalog = path.join(dir, 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [skills], now: NOW });
    const compact = blobs(catalog);
    expect(compact.length).toBeGreaterThan(100);
    expect(compact.every((r) => r.data[0] === 0)).toBe(true);
    const before = answers(catalog);

    // The same catalog with its lists as catalogs before held them: larger, same answers.
    toVarintForm(catalog);
    const varint = blobs(catalog);
    expect(varint.every((r) => r.data[0] !== 0)).toBe(true);
    const sum = (xs: { data: Buffer }[]): number => xs.reduce((a, r) => a + r.data.length, 0);
    expect(sum(compact)).toBeLessThan(0.6 * sum(varint));
    expect(answers(catalog)).toEqual(before);

    // Edit one skill and remove another: the lists touched are merged into the compact form.
    const md = path.join(skills, 'csv-cleaner', 'SKILL.md');
    writeFileSync(md, readFileSync(md, 'utf8') + '\nAlso dedupe spreadsheet rows quickly.\n');
    rmSync(path.join(skills, 'code-review-checklist'), { recursive: true });
    indexCatalog({ catalog, scopes: [skills], now: NOW });
    const mixed = blobs(catalog);
    expect(mixed.some((r) => r.data[0] === 0)).toBe(true);
    expect(mixed.some((r) => r.data[0] !== 0)).toBe(true);
    const fresh = path.join(dir, 'fresh.sqlite');
    indexCatalog({ catalog: fresh, scopes: [skills], now: NOW });
    // Rowids differ (a re-index numbers new rows upwards); each term's counts do not.
    expect(counts(mixed)).toEqual(counts(blobs(fresh)));
    expect(answers(catalog)).toEqual(answers(fresh));
  });
});

describe.skipIf(ON_PG)('removals without stored body counts', () => {
  it('a template line that stops being one leaves every list as a fresh index writes it', () => {
    const dir = tmpDir('skilldex-postings-template-');
    const skills = path.join(dir, 'skills');
    const shared = 'Always run the quarterly zebrafish calibration checklist before starting.';
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    // Twelve skills share a line (a template line at 10 or more), four others do not.
    for (let i = 0; i < 16; i++) {
      const name = `skill-${words[i % 8]}-${i}`;
      const body = `# ${name}\n\nHandle ${words[i % 8]} reports and ${words[(i + 3) % 8]} exports.\n${i < 12 ? `\n${shared}\n` : ''}`;
      const folder = path.join(skills, name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        path.join(folder, 'SKILL.md'),
        skillText(name, { description: `Work with ${words[i % 8]} data`, body }),
      );
    }
    const catalog = path.join(dir, 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [skills], now: NOW });
    const db = new Database(catalog, { readonly: true });
    const templated = db.prepare(`SELECT term FROM postings WHERE term = 'zebrafish'`).get();
    db.close();
    // The shared line is a template line: its words have no postings.
    expect(templated).toBeUndefined();
    // Three of the twelve go: the line is shared by nine, no longer a template line.
    for (const i of [0, 1, 2])
      rmSync(path.join(skills, `skill-${words[i]}-${i}`), { recursive: true });
    indexCatalog({ catalog, scopes: [skills], now: NOW });
    const fresh = path.join(dir, 'fresh.sqlite');
    indexCatalog({ catalog: fresh, scopes: [skills], now: NOW });
    expect(counts(blobs(catalog))).toEqual(counts(blobs(fresh)));
    expect(blobs(catalog).find((r) => r.term === 'zebrafish')).toBeDefined();
    // Rows served before (one per remaining skill) are all gone from the lists: each list's rowids exist.
    const db2 = new Database(catalog, { readonly: true });
    const rowids = new Set(
      (db2.prepare(`SELECT rowid FROM serving`).all() as { rowid: number }[]).map((r) => r.rowid),
    );
    db2.close();
    for (const r of blobs(catalog))
      for (const p of decodePostings(r.data)) expect(rowids.has(p.rowid)).toBe(true);
    const ask = (c: string): string[] => {
      const r = new Router({ catalog: c, telemetry: false, now: NOW });
      routers.push(r);
      return ['zebrafish calibration', 'alpha reports', 'quarterly checklist, no bravo'].map((q) =>
        JSON.stringify(r.search({ query: q, limit: 10 })),
      );
    };
    expect(ask(catalog)).toEqual(ask(fresh));
  });
});
