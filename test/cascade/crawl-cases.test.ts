/**
 * The crawl contract as case folders: each folder under fixtures/ is a cascade root
 * plus case.json `{ need, expect }`. One test per folder crawls it and compares the outcome, the
 * hit or the candidates, the visited nodes and the inconsistency codes (never message text).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CRAWL_EXIT_CODES,
  crawlCascade,
  type CrawlReport,
  type EntryRef,
} from '../../src/cascade/index.js';

const FIXTURES = path.join(__dirname, 'fixtures');

interface CaseFile {
  need: string;
  expect: {
    outcome: CrawlReport['outcome'];
    hit?: EntryRef;
    candidates?: EntryRef[];
    suggestions?: (EntryRef & { closest: string })[];
    visited: string[];
    inconsistencies: string[];
    inconsistency_lines?: number[];
  };
}

const cases = readdirSync(FIXTURES)
  .filter((n) => statSync(path.join(FIXTURES, n)).isDirectory())
  .sort();

describe('crawl cases', () => {
  it('has a case folder for every crawl outcome', () => {
    const outcomes = new Set(cases.map((c) => readCase(c).expect.outcome));
    for (const o of Object.keys(CRAWL_EXIT_CODES)) {
      if (o === 'reference loop') continue; // needs a symbolic link: made at test time in crawl-links.test.ts
      expect(outcomes, `no fixture ends ${o}`).toContain(o);
    }
  });

  for (const name of cases) {
    it(name, () => {
      const c = readCase(name);
      const report = crawlCascade(path.join(FIXTURES, name), c.need);
      expect(report.outcome).toBe(c.expect.outcome);
      expect(report.hit).toEqual(c.expect.hit);
      expect(report.candidates).toEqual(c.expect.candidates);
      expect(report.suggestions).toEqual(c.expect.suggestions);
      expect(report.visited).toEqual(c.expect.visited);
      expect(report.inconsistencies.map((p) => p.code)).toEqual(c.expect.inconsistencies);
      if (c.expect.inconsistency_lines) {
        expect(report.inconsistencies.map((p) => p.line)).toEqual(c.expect.inconsistency_lines);
      }
      // Reported paths are relative POSIX paths that never climb out of the root.
      for (const p of [...report.visited, report.hit?.path ?? '.']) {
        expect(path.posix.isAbsolute(p)).toBe(false);
        expect(p.split('/')).not.toContain('..');
      }
    });
  }
});

function readCase(name: string): CaseFile {
  return JSON.parse(readFileSync(path.join(FIXTURES, name, 'case.json'), 'utf8')) as CaseFile;
}
