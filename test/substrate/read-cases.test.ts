/**
 * Contract cases for substrate reads (docs/substrate.md), one folder per behaviour under
 * fixtures/read/<case>/: the substrate, plus case.json with the query and the expected hits, the
 * exact list of files opened (with the depth each was considered to) and the problem codes. The
 * opened list is the proof that no entry was opened that the decision did not need.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSubstrate, type SubstrateType } from '../../src/substrate/index.js';
import { runCli } from '../support/cli.js';

interface Case {
  description: string;
  query: string;
  type?: SubstrateType;
  expect: {
    hits: { type: string; id: string; stop_depth: string; match: string }[];
    opened: [string, string][];
    problems: string[];
  };
}

const FIXTURES = path.join(__dirname, 'fixtures', 'read');
const CASES = readdirSync(FIXTURES).sort();

describe('substrate read cases', () => {
  it('has the behaviours the issue lists', () => {
    for (const name of [
      'topic-clear-match',
      'topic-clear-non-match',
      'topic-ambiguous-summary',
      'topic-ambiguous-body',
      'topic-excluded-after-body',
      'glob-reviewers',
      'glob-scopes',
      'tags',
      'type-filter',
      'ordering',
      'malformed-tables',
    ]) {
      expect(CASES).toContain(name);
    }
  });

  for (const name of CASES) {
    const c = JSON.parse(readFileSync(path.join(FIXTURES, name, 'case.json'), 'utf8')) as Case;
    const root = path.join(FIXTURES, name, 'substrate');

    it(`${name}: ${c.description}`, () => {
      const report = readSubstrate(c.query, {
        root,
        ...(c.type ? { type: c.type } : {}),
        explain: true,
      });
      expect(
        report.hits.map((h) => ({
          type: h.type,
          id: h.id,
          stop_depth: h.stop_depth,
          match: h.match,
        })),
      ).toEqual(c.expect.hits);
      expect(report.opened?.map((o) => [o.path, o.depth])).toEqual(c.expect.opened);
      expect(report.problems.map((p) => p.code)).toEqual(c.expect.problems);
    });

    it(`${name}: the CLI's --explain lists the same files`, async () => {
      const argv = [
        'substrate',
        'read',
        c.query,
        '--root',
        root,
        '--json',
        '--explain',
        ...(c.type ? ['--type', c.type] : []),
      ];
      const r = await runCli(argv);
      expect(r.code).toBe(c.expect.hits.length > 0 ? 0 : 1);
      const report = JSON.parse(r.stdout) as {
        opened: { path: string; depth: string }[];
        hits: { id: string }[];
      };
      expect(report.opened.map((o) => [o.path, o.depth])).toEqual(c.expect.opened);
      expect(report.hits.map((h) => h.id)).toEqual(c.expect.hits.map((h) => h.id));
    });
  }
});
