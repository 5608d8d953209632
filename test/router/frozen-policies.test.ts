/**
 * Frozen policies stay frozen (issue #26 item 2, docs/ranking.md): the live policies v1, v4 and v5 rank
 * the bundled examples exactly as the goldens in golden/ say, explanations included, byte for byte.
 * v1's golden was written by the code before the policies' shared parts moved to policies/shared.ts,
 * v4's when it became the default (before the index encodings of issue #26, and before v4 became a
 * parameter set, issue 33), v5's when it became the default (issue 34); a change to a policy's parameters, to the shared module or to an engine
 * that moves any number fails here. The goldens are plain files read and compared here, never
 * snapshots, so `vitest -u` cannot rewrite them. A new policy gets a new id and its own golden,
 * never an edit to these (the retired v2 and v3 took theirs with them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POLICY_ID, POLICY_V4_ID, POLICY_V5_ID, Router, indexCatalog } from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { NOW, ON_PG } from '../catalog/support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');

// Queries of every shape the engines treat differently: plain requests, names as typed, typos
// (fuzzy), identifiers, filler-only, stop-words with one word, FTS5 syntax as text, long requests.
const QUERIES = [
  'extract tables from a pdf',
  'deploy to kubernetes',
  'write a commit message for my git changes',
  'summarize meeting notes',
  'validate a json schema',
  'docker compose services',
  'kuberntes',
  'pdf-toolkit',
  'getWeather resnet50 HTMLParser',
  'please help me find something',
  'the review of a',
  'NOT pdf OR "docx" NEAR( col:text * ^',
  'I need to turn a csv export from our billing system into a chart for the quarterly report and email it',
  'builder files data',
  'test',
];

const routers: Router[] = [];
afterAll(() => routers.forEach((r) => r.close()));

describe.skipIf(ON_PG)('frozen policies rank the examples exactly as their goldens', () => {
  it.each([
    ['v1', POLICY_ID],
    ['v4', POLICY_V4_ID],
    ['v5', POLICY_V5_ID],
  ])('%s', (name, policy) => {
    const catalog = path.join(tmpDir('skilldex-frozen-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy, now: NOW });
    const router = new Router({ catalog, telemetry: false, now: NOW });
    routers.push(router);
    // The ranking only: confidence and abstention came later and are no part of a frozen policy.
    const answers = QUERIES.map((query) => {
      const r = router.search({ query, limit: 5 });
      return {
        catalog_generation: r.catalog_generation,
        policy: r.policy,
        query: r.query,
        candidates: r.candidates.map(({ confidence: _c, ...rest }) => rest),
      };
    });
    // The generation id covers the examples' supporting files too, which are not the policy's.
    const text = JSON.stringify(answers, null, 1).replace(/"sha256:[0-9a-f]{64}"/g, (h) =>
      answers.some((a) => `"${a.catalog_generation}"` === h) ? '"<generation>"' : h,
    );
    const golden = readFileSync(
      path.join(REPO, 'test', 'router', 'golden', `frozen-${name}.json`),
      'utf8',
    );
    expect(text + '\n').toBe(golden);
  });
});
