/**
 * Content-derived generation ids (docs/integration.md §1, src/catalog/write/generation.ts): the id depends on the
 * published content and the policy only — not on the member order, the catalog file, the folder
 * the tree lives in, or the clock.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeGeneration, type Member } from '../../src/catalog/write/generation.js';
import { POLICY_ID, indexCatalog } from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { ON_PG, indexTree, newCatalogPath } from './support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
const HEX_ID = /^sha256:[0-9a-f]{64}$/;

const memberArb: fc.Arbitrary<Member> = fc.record({
  skill_id: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/),
  revision_id: fc.stringMatching(/^sha256:[0-9a-f]{64}$/),
  state: fc.constantFrom('active', 'deprecated', 'archived'),
});
const membersArb = fc.uniqueArray(memberArb, { selector: (m) => m.skill_id, maxLength: 30 });

describe('computeGeneration', () => {
  it('is sha256:<64 hex> and ignores member order (property)', () => {
    fc.assert(
      fc.property(
        membersArb.chain((ms) =>
          fc.tuple(
            fc.constant(ms),
            fc.shuffledSubarray(ms, { minLength: ms.length, maxLength: ms.length }),
          ),
        ),
        ([members, shuffled]) => {
          const g = computeGeneration(members, POLICY_ID);
          expect(g).toMatch(HEX_ID);
          expect(computeGeneration(shuffled, POLICY_ID)).toBe(g);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('changes with a member revision, a member state, the member set and the policy', () => {
    const base: Member[] = [
      { skill_id: 'a', revision_id: `sha256:${'1'.repeat(64)}`, state: 'active' },
      { skill_id: 'b', revision_id: `sha256:${'2'.repeat(64)}`, state: 'active' },
    ];
    const g = computeGeneration(base, POLICY_ID);
    expect(
      computeGeneration(
        [base[0]!, { ...base[1]!, revision_id: `sha256:${'3'.repeat(64)}` }],
        POLICY_ID,
      ),
    ).not.toBe(g);
    expect(computeGeneration([base[0]!, { ...base[1]!, state: 'deprecated' }], POLICY_ID)).not.toBe(
      g,
    );
    expect(computeGeneration([base[0]!], POLICY_ID)).not.toBe(g);
    expect(computeGeneration(base, 'another.policy')).not.toBe(g);
  });
});

describe('catalog_generation of an indexed tree', () => {
  it.skipIf(ON_PG)(
    'is the same for the same tree indexed into two catalogs, from two folders, at two times',
    () => {
      const copy = path.join(tmpDir(), 'skills');
      cpSync(EXAMPLES, copy, { recursive: true });
      const a = indexTree(newCatalogPath(), EXAMPLES);
      const b = indexCatalog({
        catalog: newCatalogPath(),
        scopes: [copy],
        home: copy,
        project: copy,
        now: () => new Date('2031-05-06T00:00:00Z'),
        policy: POLICY_ID,
      });
      expect(a.publish?.catalog_generation).toMatch(HEX_ID);
      expect(b.publish?.catalog_generation).toBe(a.publish?.catalog_generation);
      expect(a.publish?.counts).toEqual({ total: 36, active: 36, deprecated: 0, archived: 0 });
    },
  );
});
