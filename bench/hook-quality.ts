/**
 * The prompt hook's suggestion quality per policy (docs/ranking.md §13; the latency half of the
 * hook's benchmark is bench/hook.ts). What the hook would add on every request of the trigger dev
 * set (../shared/bench/trigger, real skills and their authors' should / should-not requests), alone
 * and with corpus-real as distractors, through the hook's own `suggest()` (the catalog policy's
 * rule, no session state): for should-trigger requests, how often the labelled skill is among the
 * suggestions and how often the hook says nothing; for should-not requests, how often it suggests
 * the skill that must not trigger, and how often it says nothing. Beside it, the router's plain
 * top-3 (what an unconditional "top 3 on every prompt" hook would add). Each policy that rules the
 * hook differently (v5: its own rule; v4: the floor, at most 3) gets its rows. No build needed.
 *
 *   npm run bench:hook-quality
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_POLICY_ID, POLICY_V4_ID, Router, indexCatalog } from '../src/internal.js';
import { suggest } from '../src/hook/index.js';
import { triggerQueries } from './trigger-quality.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';

const SHARED = path.resolve(REPO, '..', 'shared', 'bench');
const TRIGGER = path.join(SHARED, 'trigger');
const CORPUS = path.join(SHARED, 'corpus-real');
const dir = path.join(WORK, 'hook-quality');
mkdirSync(dir, { recursive: true });
const home = path.join(dir, 'home');
mkdirSync(home, { recursive: true });

// The default first, then v4 (the rule v5 replaces).
const HOOK_POLICIES = [...new Set([DEFAULT_POLICY_ID, POLICY_V4_ID])];

function build(name: string, scopes: string[], policy = DEFAULT_POLICY_ID): string {
  const catalog = path.join(dir, `${name}-${Date.now()}.sqlite`);
  indexCatalog({ catalog, scopes, now: () => new Date(0), policy });
  return catalog;
}

const queries = triggerQueries(TRIGGER);

// Quality on the trigger set, alone and with the real distractors.
interface Quality {
  pos: number;
  hit: number;
  posSilent: number;
  neg: number;
  falseSuggest: number;
  negSilent: number;
  top3Hit: number;
  top3False: number;
  shown: number;
}
function quality(scopes: string[], policy: string): Quality {
  const catalog = build(`trigger-${scopes.length}`, scopes, policy);
  const router = new Router({ catalog, telemetry: false });
  const q: Quality = {
    pos: 0,
    hit: 0,
    posSilent: 0,
    neg: 0,
    falseSuggest: 0,
    negSilent: 0,
    top3Hit: 0,
    top3False: 0,
    shown: 0,
  };
  try {
    for (const t of queries) {
      let ids: string[] = [];
      let top3: string[] = [];
      try {
        const a = suggest(router, t.query, { host: 'generic', home, env: {} });
        ids = a.suggestions.map((s) => s.skill_id);
        top3 = router.search({ query: t.query, limit: 3 }).candidates.map((c) => c.skill_id);
      } catch {
        // A request with no searchable word: nothing suggested, nothing in the top 3.
      }
      q.shown += ids.length;
      if (t.should_trigger) {
        q.pos++;
        if (ids.includes(t.skill)) q.hit++;
        if (ids.length === 0) q.posSilent++;
        if (top3.includes(t.skill)) q.top3Hit++;
      } else {
        q.neg++;
        if (ids.includes(t.skill)) q.falseSuggest++;
        if (ids.length === 0) q.negSilent++;
        if (top3.includes(t.skill)) q.top3False++;
      }
    }
  } finally {
    router.close();
  }
  return q;
}
const short = (policy: string): string => policy.split('.').slice(-2).join('.');
const runs = HOOK_POLICIES.map((policy) => ({
  policy,
  alone: quality([path.join(TRIGGER, 'skills')], policy),
  mixed: quality([path.join(TRIGGER, 'skills'), CORPUS], policy),
}));
const alone = runs[0]!.alone;

const rate = (a: number, b: number): string => fmt(b === 0 ? 0 : a / b, 3);
const row = (name: string, q: Quality): string[] => [
  `| ${name}: hook (its rule) | ${rate(q.hit, q.pos)} | ${rate(q.posSilent, q.pos)} | ${rate(q.falseSuggest, q.neg)} | ${rate(q.negSilent, q.neg)} | ${fmt(q.shown / queries.length, 2)} |`,
  `| ${name}: router top-3, always | ${rate(q.top3Hit, q.pos)} | 0 | ${rate(q.top3False, q.neg)} | 0 | 3 |`,
];
const md = [
  '# Prompt hook: suggestion quality per policy',
  '',
  machineLine(),
  '',
  '## Suggestion quality on the trigger dev set',
  '',
  `${alone.pos} should-trigger and ${alone.neg} should-not requests; "hit" is the labelled skill among what is shown, "false" the skill that must not trigger among it, "silent" the share of requests that get nothing. The hook's rule is its policy's (router hookRuleOf): v4 every candidate at or above its floor 0.60, at most 3; v5 rank 1 at 0.45 and ranks 2–3 at 0.25, stopping at the first below, nothing for small talk.`,
  '',
  '| setting | should: hit | should: silent | should-not: false | should-not: silent | shown per request |',
  '|---|---|---|---|---|---|',
  ...runs.flatMap((r) => [
    ...row(`${short(r.policy)}, 112 skills`, r.alone),
    ...row(`${short(r.policy)}, + corpus-real`, r.mixed),
  ]),
  '',
].join('\n');
console.log(md);
writeResult('hook-quality', md);
