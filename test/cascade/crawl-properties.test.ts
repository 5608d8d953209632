/**
 * Properties of the crawl and the build (fast-check), on trees made in temporary folders:
 * on random cascades (descents, shortcuts, escaping keys, links to ancestors, to siblings and out
 * of the root) every crawl terminates with a contract outcome, visits each node at most once and
 * never resolves or reads a path outside the root; and build → crawl finds every skill by its name.
 */
import { mkdirSync, rm, symlinkSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRAWL_OUTCOMES, buildCascade, crawlCascade } from '../../src/cascade/index.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { loggingReader, real, under } from './support.js';

/**
 * Deletes a run's tree in the background: unlinking is slow on this disk (about 20 ms a tree, two
 * thirds of the file's time when done in line) and nothing reads the tree again.
 */
function removeLater(dir: string): void {
  rm(dir, { recursive: true, force: true }, () => {});
}

const NAMES = ['a', 'b', 'c'];
const WORDS = ['pdf', 'csv', 'chart', 'sql', 'x'];

/** A folder below the root: up to three segments from a tiny alphabet, so descents often land. */
const folder = fc
  .array(fc.constantFrom(...NAMES), { minLength: 0, maxLength: 3 })
  .map((s) => s.join('/'));

const key = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => `${n}/`),
  fc.array(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 3 }).map((s) => `${s.join('/')}/`),
  fc.array(fc.constantFrom(...NAMES), { minLength: 2, maxLength: 3 }).map((s) => s.join('/')),
  fc.constantFrom('.', '../', '../a/', '/tmp/', 'a/../b/', '..', 'a\\b/', 'a//b', 'garbage line'),
);

const line = fc
  .tuple(key, fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }))
  .map(([k, kws]) => (k === 'garbage line' ? k : `${k}: ${kws.join(', ')}`));

const cascade = fc.record({
  indexes: fc.array(fc.tuple(folder, fc.array(line, { maxLength: 6 })), { maxLength: 8 }),
  links: fc.array(
    fc.tuple(
      folder,
      fc.constantFrom(...NAMES),
      fc.constantFrom('..', '.', '../..', 'OUTSIDE', 'a', '../b'),
    ),
    { maxLength: 4 },
  ),
  need: fc.constantFrom(...WORDS, 'a', 'b/', 'zzz'),
});

describe('crawl properties', () => {
  it('terminates on random cascades, visits each node once, and never touches a path outside the root', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(cascade, ({ indexes, links, need }) => {
        const base = real(tmpDir('skilldex-cascade-prop-'));
        const root = path.join(base, 'root');
        const outside = path.join(base, 'outside');
        mkdirSync(root);
        writeTree(outside, {
          'skill.index': 'a/: pdf, csv, chart, sql, x\na: pdf, csv\n',
          'a/skill.index': 'b: pdf\n',
        });
        const files: Record<string, string> = {};
        for (const [dir, lines] of indexes)
          files[dir === '' ? 'skill.index' : `${dir}/skill.index`] = lines.join('\n') + '\n';
        writeTree(root, files);
        for (const [dir, name, target] of links) {
          const at = path.join(root, dir, name);
          try {
            mkdirSync(path.dirname(at), { recursive: true });
            symlinkSync(target === 'OUTSIDE' ? outside : target, at);
          } catch {
            // The name is taken, or the way there is a dangling link: the generated tree has no link there.
          }
        }
        const reader = loggingReader();
        const report = crawlCascade(root, need, { reader });
        removeLater(base);
        seen.add(report.outcome);
        expect(CRAWL_OUTCOMES).toContain(report.outcome);
        expect(new Set(report.visited).size).toBe(report.visited.length);
        for (const p of reader.resolved) expect(under(root, p), `resolved ${p}`).toBe(true);
        for (const p of reader.read) expect(under(root, p), `read ${p}`).toBe(true);
        for (const p of reader.read) expect(under(outside, p), `read ${p}`).toBe(false);
        if (report.outcome === 'hit') expect(report.hit).toBeDefined();
        if (report.outcome === 'ambiguous') expect(report.candidates!.length).toBeGreaterThan(1);
      }),
      { numRuns: 150 },
    );
    // The generator is not vacuous: the runs met most of the outcomes, failures included.
    expect(seen.size).toBeGreaterThanOrEqual(5);
  });
});

const TOPICS = [
  'pdf',
  'forms',
  'chart',
  'sql',
  'query',
  'review',
  'email',
  'deploy',
  'tests',
  'notes',
];

/** A random skill tree: skills under category folders, some nested inside another skill (combo nodes). */
const skillTree = fc
  .array(
    fc.record({
      categories: fc.array(fc.constantFrom('docs', 'data', 'ops'), { maxLength: 2 }),
      parent: fc.nat(),
      nest: fc.boolean(),
      words: fc.array(fc.constantFrom(...TOPICS), { minLength: 1, maxLength: 2 }),
      keywords: fc.array(fc.constantFrom(...TOPICS), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((specs) => {
    const folders: string[] = [];
    return specs.map((s, i) => {
      // Names never contain one another: `s<i>-` occurs only at the start of skill i's name.
      const name = `s${i}-${s.words.join('-')}`;
      const under = s.nest && i > 0 ? folders[s.parent % i]! : s.categories.join('/');
      const dir = under === '' ? name : `${under}/${name}`;
      folders.push(dir);
      return { name, dir, keywords: s.keywords };
    });
  });

describe('build → crawl', () => {
  it('reaches every skill of a random tree by its own name', () => {
    fc.assert(
      fc.property(skillTree, (skills) => {
        const root = real(tmpDir('skilldex-cascade-build-'));
        const files: Record<string, string> = {};
        for (const s of skills) {
          const kw =
            s.keywords.length > 0
              ? `keywords:\n${s.keywords.map((k) => `  - ${k}`).join('\n')}\n`
              : '';
          files[`${s.dir}/SKILL.md`] =
            `---\nname: ${s.name}\ndescription: Helps with ${s.keywords.join(' and ') || 'things'}.\n${kw}---\n\nBody.\n`;
        }
        writeTree(root, files);
        const built = buildCascade(root);
        expect(built.skills).toBe(skills.length);
        for (const s of skills) {
          const report = crawlCascade(root, s.name);
          expect(report.outcome, `${s.name}: ${JSON.stringify(report)}`).toBe('hit');
          expect(report.hit!.path).toBe(s.dir);
          expect(report.inconsistencies).toEqual([]);
        }
        expect(buildCascade(root, { check: true }).changes).toEqual([]);
        removeLater(root);
      }),
      { numRuns: 40 },
    );
  });
});
