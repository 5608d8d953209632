/**
 * THE property of the router (issue #3, docs/integration.md): on random catalogs and random queries, the
 * fast path's top k equals the brute-force scorer over the whole catalog — same ids, same order,
 * same scores and explanations — for every limit 1..20, with deprecated and archived skills,
 * telemetry histories that grow as searches record suggestions, and typos that need fuzzy matching.
 * Also: the ranking ignores the order files were created and enumerated in, and how the catalog got
 * to its content (one index, or several incremental ones with changes and removals on the way).
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/internal.js';
import { REPO, tmpDir, writeTree } from '../support/cli.js';
import { NOW, propertyRuns, indexTree, newCatalogPath, skillText } from '../catalog/support.js';
import {
  applyLifecycle,
  buildLibrary,
  idOf,
  libraryArb,
  queryArb,
  textOf,
  type GenQuery,
  attempt,
  expectFastEqualsBrute,
} from './support.js';

const LIMITS = Array.from({ length: 20 }, (_, i) => i + 1);

function checkAllLimits(router: Router, q: GenQuery): void {
  expectFastEqualsBrute(router, q, LIMITS, { onlyInvalidQuery: true });
}

describe('fast path = brute force (property)', () => {
  it(
    'on random catalogs with lifecycle states and telemetry, for random queries and limits 1..20',
    { timeout: 300_000 },
    () => {
      fc.assert(
        fc.property(
          libraryArb(5, 60),
          fc.array(queryArb, { minLength: 1, maxLength: 3 }),
          (skills, queries) => {
            const lib = buildLibrary(skills);
            const router = new Router({ catalog: lib.catalog, now: NOW });
            try {
              for (const q of queries) checkAllLimits(router, q);
            } finally {
              router.close();
              lib.cleanup();
            }
          },
        ),
        { numRuns: propertyRuns(40) },
      );
    },
  );

  it('on examples/skills, for random queries (typos included) and limits 1..20', () => {
    const catalog = newCatalogPath();
    indexTree(catalog, path.join(REPO, 'examples', 'skills'));
    const router = new Router({ catalog, now: NOW });
    try {
      const exampleWords = fc.constantFrom(
        'pdf',
        'tables',
        'kubernetes',
        'deploy',
        'docker',
        'compose',
        'spreadsheet',
        'regex',
        'markdown',
        'python',
        'tests',
        'kubernets',
        'dokcer',
        'spredsheet',
        'regx',
        'markdwn',
        'pyhton',
        'summarise',
        'summarize',
        'notes',
        'data',
        'files',
        'chart',
        'charts',
        'sql',
        'query',
        'json',
        'schema',
        'csv',
        'clean',
        'review',
        'code',
        'commit',
        'message',
        'the',
        'with',
      );
      fc.assert(
        fc.property(
          fc.array(exampleWords, { minLength: 1, maxLength: 6 }),
          fc.boolean(),
          (words, includeDeprecated) => {
            checkAllLimits(router, {
              query: words.join(' '),
              include_deprecated: includeDeprecated,
            });
          },
        ),
        { numRuns: propertyRuns(40) },
      );
    } finally {
      router.close();
    }
  });
});

describe('the fuzzy-holder fallback (prescore limit 0 and 1) ranks like brute force (property)', () => {
  for (const limit of [0, 1]) {
    it(`with FUZZY_PRESCORE_LIMIT = ${limit}`, () => {
      fc.assert(
        fc.property(
          libraryArb(5, 40),
          fc.array(queryArb, { minLength: 1, maxLength: 3 }),
          (skills, queries) => {
            const lib = buildLibrary(skills);
            const router = new Router({
              catalog: lib.catalog,
              now: NOW,
              fuzzyPrescoreLimit: limit,
            });
            try {
              for (const q of queries) checkAllLimits(router, q);
            } finally {
              router.close();
              lib.cleanup();
            }
          },
        ),
        { numRuns: propertyRuns(15) },
      );
    }, 300_000);
  }
});

describe('the ranking ignores how the catalog was built (property)', () => {
  it('same results for files created in another order, under other folder names, or indexed incrementally', () => {
    fc.assert(
      fc.property(
        libraryArb(4, 30).chain((skills) =>
          fc.tuple(
            fc.constant(skills),
            fc.shuffledSubarray(
              skills.map((_, i) => i),
              { minLength: skills.length, maxLength: skills.length },
            ),
            fc.array(queryArb, { minLength: 1, maxLength: 3 }),
          ),
        ),
        ([skills, order, queries]) => {
          const a = buildLibrary(skills, { telemetry: false });
          const b = buildLibrary(skills, {
            telemetry: false,
            order,
            folderOf: (id, i) => `f${String(skills.length - i).padStart(3, '0')}`,
          });
          const c = buildIncrementally(skills);
          const routers = [a, b, c].map(
            (l) => new Router({ catalog: l.catalog, telemetry: false }),
          );
          try {
            for (const q of queries) {
              const outs = routers.map((r) =>
                JSON.stringify(
                  attempt(() =>
                    r.search({
                      query: q.query,
                      limit: 20,
                      include_deprecated: q.include_deprecated,
                    }),
                  ),
                ),
              );
              expect(outs[1]).toBe(outs[0]);
              expect(outs[2]).toBe(outs[0]);
            }
          } finally {
            for (const r of routers) r.close();
            for (const l of [a, b, c]) l.cleanup();
          }
        },
      ),
      { numRuns: propertyRuns(20) },
    );
  });
});

// Reaches the same content by three index runs: half the skills plus decoys, then every skill with
// some of the first half edited and a decoy gone, then the final bytes; lifecycle states at the end.
// (An edited skill is seen first with its final bytes, so its version stays r1 as in one run.)
function buildIncrementally(
  skills: Parameters<typeof buildLibrary>[0],
): ReturnType<typeof buildLibrary> {
  const root = tmpDir('skilldex-prop-inc-');
  const catalog = newCatalogPath('skilldex-prop-inc-cat-');
  const half = Math.ceil(skills.length / 2);
  skills
    .slice(0, half)
    .forEach((s, i) => writeTree(root, { [`${idOf(s, i)}/SKILL.md`]: textOf(s, i) }));
  writeTree(root, {
    'decoy-one/SKILL.md': skillText('decoy-one', {
      description: 'data tables charts plots deploy',
      keywords: ['data', 'pdf'],
    }),
    'decoy-two/SKILL.md': skillText('decoy-two', {
      description: 'images parsing kubernetes clusters',
      keywords: ['json'],
    }),
  });
  indexTree(catalog, root);
  skills.forEach((s, i) => {
    const text =
      i < half && i % 3 === 0
        ? textOf(s, i)
            .replace('Body of', 'Edited body of')
            .replace('description: "', 'description: "tables reports ')
        : textOf(s, i);
    writeTree(root, { [`${idOf(s, i)}/SKILL.md`]: text });
  });
  rmSync(path.join(root, 'decoy-one'), { recursive: true });
  indexTree(catalog, root);
  rmSync(path.join(root, 'decoy-two'), { recursive: true });
  skills.forEach((s, i) => writeFileSync(path.join(root, idOf(s, i), 'SKILL.md'), textOf(s, i)));
  indexTree(catalog, root);
  applyLifecycle(catalog, skills);
  return {
    catalog,
    root,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(path.dirname(catalog), { recursive: true, force: true });
    },
  };
}
