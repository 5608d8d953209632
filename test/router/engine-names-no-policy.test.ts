/**
 * The search engine never names a policy (issue 33 item 1, docs/ranking.md "Policies are parameter
 * sets"): outside src/router/search/policies/, no file of src/router/search switches on a version
 * string, reads a policy's constants by name or imports a policy's own file; a BM25F search
 * receives its parameter set. And every number of every live BM25F parameter set has its
 * provenance, and the set is frozen; a comparison parameter set ranks only over the stored document
 * it was made for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_SETS,
  POLICIES,
  POLICY_ID,
  POLICY_V4_ID,
  Router,
  indexCatalog,
  type Bm25fParams,
} from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { NOW, ON_PG, codeOf } from '../catalog/support.js';

const ENGINE = path.join(REPO, 'src', 'router', 'search');

// Every .ts file under src/router/search except the policies' own folder.
function engineFiles(dir = ENGINE): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== path.join(ENGINE, 'policies')) out.push(...engineFiles(p));
    } else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

// What naming a policy looks like in code: a version literal ('v3', "v4"), a policy's constant
// table read by name (V4.K1), a policy's own file imported, or a per-version function.
const NAMING = [
  { what: 'a version literal', re: /(['"`])v\d+\1/ },
  { what: "a policy's constants by name", re: /\bV\d+\./ },
  { what: "a policy's own file", re: /policies\/(bm25f|hybrid-lexical)-v\d+\.js/ },
  { what: 'a per-version function', re: /\b(score|explain|analyzeQuery)V\d+\b/ },
  { what: "a policy's id or object", re: /\b(POLICY_V\d+_ID|BM25F_V\d+|HYBRID_LEXICAL_V\d+)\b/ },
];

describe('the search engine never names a policy', () => {
  const files = engineFiles();

  it('finds the engine files', () => {
    expect(files.map((f) => path.basename(f))).toEqual(
      expect.arrayContaining(['bm25f.ts', 'bm25f-explain.ts', 'bm25f-cache.ts', 'dispatch.ts']),
    );
  });

  it.each(NAMING)('no engine file holds $what', ({ re }) => {
    const hits = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(REPO, f)}:${i + 1}` }))
        // Comments may name a policy; code may not.
        .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && re.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(hits).toEqual([]);
  });

  it('the pattern does catch what it looks for', () => {
    const probe = [
      "const RULES = { v3: 1, v4: 2 }; if (policy.index === 'v4') {}",
      'acc += V4.NAME_BONUS;',
      "import { V3 } from './policies/bm25f-v3.js';",
      'const e = scoreV4(f);',
      'if (p === BM25F_V4) {}',
    ];
    for (const [i, { re }] of NAMING.entries()) expect(re.test(probe[i]!)).toBe(true);
  });
});

describe('every live BM25F parameter set is data with its provenance', () => {
  const sets = [...POLICIES.values()].filter((p): p is Bm25fParams => p.kind === 'bm25f');

  it('there is at least one (v4)', () => {
    expect(sets.map((p) => p.id)).toContain('tf.skillrouter.bm25f.v4');
  });

  it.each(sets.map((p) => [p.id, p] as const))(
    '%s: frozen, with a provenance line for every number',
    (_id, p) => {
      expect(Object.isFrozen(p)).toBe(true);
      expect(Object.isFrozen(p.WEIGHTS)).toBe(true);
      expect(Object.isFrozen(p.confidence)).toBe(true);
      const numbers = Object.keys(p).filter((k) => !['kind', 'id', 'provenance'].includes(k));
      expect(Object.keys(p.provenance).sort()).toEqual(numbers.sort());
      for (const line of Object.values(p.provenance)) expect(line.length).toBeGreaterThan(20);
      expect(p.confidence.floor).toBeGreaterThan(0);
      expect(p.confidence.floor).toBeLessThan(1);
    },
  );
});

describe.skipIf(ON_PG)('a comparison parameter set', () => {
  const [plain] = [...COMPARISON_SETS.keys()];
  const catalogOf = (policy: string): string => {
    const catalog = path.join(tmpDir('skilldex-sets-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [path.join(REPO, 'examples', 'skills')], now: NOW, policy });
    return catalog;
  };

  it('ranks over the stored document of a v4 catalog, under its own id', () => {
    const router = new Router({ catalog: catalogOf(POLICY_V4_ID), telemetry: false, now: NOW });
    const r = router.search({ query: 'extract tables from a pdf', policy: plain! });
    router.close();
    expect(r.policy).toBe(plain);
    expect(r.candidates.length).toBeGreaterThan(0);
    expect(r.candidates[0]!.explanation.policy).toBe(plain);
  });

  it('is INVALID_ARGUMENT over a catalog whose stored document is another (v1), and no policy id', () => {
    const router = new Router({ catalog: catalogOf(POLICY_ID), telemetry: false, now: NOW });
    expect(codeOf(() => router.search({ query: 'extract tables', policy: plain! }))).toBe(
      'INVALID_ARGUMENT',
    );
    router.close();
    expect(POLICIES.has(plain!)).toBe(false);
    // Not a policy a catalog can be published under: the message says it is unknown as one.
    const scopes = [path.join(REPO, 'examples', 'skills')];
    let message = '';
    try {
      indexCatalog({ catalog: catalogOf(POLICY_ID), scopes, now: NOW, policy: plain! });
    } catch (err) {
      message = (err as Error).message;
      expect((err as { code: string }).code).toBe('INVALID_ARGUMENT');
    }
    expect(message).toContain(`unknown policy "${plain!}"`);
  });
});
