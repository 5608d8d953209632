/**
 * The cached inputs of bench/nearmiss.ts (issue 34 items 2–4): the trigger dev set's requests
 * ranked once by policy v4 (the stage is fitted on v4's lists) among ../shared/bench/trigger + corpus-real (top N with
 * each candidate's explanation, reduced to what the re-rank stage reads), and the plain BM25
 * baselines of the same run. Computing them takes minutes on the shared machine; the file under
 * /tmp lets every fit and evaluation run offline in seconds.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { POLICY_V4_ID, Router, indexCatalog } from '../src/internal.js';
import type { Bm25fExplanation } from '../src/router/search/policies/bm25f-core.js';
import type { RerankCandidate } from '../src/router/search/stages/rerank-nearmiss.js';
import { baselineRankings, loadBaselineSkills } from './bm25-baseline.js';
import { REPO, WORK } from './lib.js';
import { TRIGGER_BASELINES, triggerQueries, type TriggerQuery } from './trigger-quality.js';

export const SHARED = path.resolve(REPO, '..', 'shared', 'bench');
export const TRIGGER = path.join(SHARED, 'trigger');
export const CORPUS = path.join(SHARED, 'corpus-real');
/** How deep the cache keeps v4's answer (the stage re-ranks the top RERANK_DEPTH of it). */
export const CACHE_DEPTH = 20;
export const CACHE_FILE = process.env['NEARMISS_CACHE'] ?? '/tmp/skilldex-nearmiss-v4.json';

/** One request, v4's top CACHE_DEPTH, v4's confidence of each. */
export interface CachedRequest {
  readonly q: TriggerQuery;
  readonly candidates: readonly RerankCandidate[];
  readonly confidence: readonly number[];
}

export interface NearmissCache {
  readonly policy: string;
  readonly skills: number;
  readonly requests: readonly CachedRequest[];
  /** Each baseline's rankings (label → request id → skill ids, 100 deep). */
  readonly baselines: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

/** Reduces a v4 explanation to the parts the stage reads (the cache stays a few MB). */
export function reduceExplanation(e: Bm25fExplanation): RerankCandidate['explanation'] {
  return {
    terms: e.terms.map((t) => ({ term: t.term, idf: t.idf, tf: t.tf, points: t.points })),
    fields: e.fields,
    name_bonus: { applies: e.name_bonus.applies },
    name_phrase: { applies: e.name_phrase.applies },
    boundary: {
      clauses: e.boundary.clauses,
      matched: e.boundary.matched,
      points: e.boundary.points,
    },
    dropped_tokens: e.dropped_tokens.map((d) => ({ token: d.token })),
  };
}

/** The cache: read from CACHE_FILE, or computed (index + every request) and written there. */
export function loadCache(): NearmissCache {
  if (existsSync(CACHE_FILE)) return JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as NearmissCache;
  const qs = triggerQueries(TRIGGER);
  const requests = rankedByV4([path.join(TRIGGER, 'skills'), CORPUS], qs, 'nearmiss');
  const skills = [
    ...loadBaselineSkills(path.join(TRIGGER, 'skills')).skills,
    ...loadBaselineSkills(CORPUS, true).skills,
  ];
  const baselines: Record<string, Record<string, readonly string[]>> = {};
  for (const [label, method] of TRIGGER_BASELINES)
    baselines[label] = Object.fromEntries(baselineRankings(skills, qs, method));
  const cache: NearmissCache = {
    policy: POLICY_V4_ID,
    skills: skills.length,
    requests,
    baselines,
  };
  writeFileSync(CACHE_FILE, JSON.stringify(cache));
  return cache;
}

/**
 * `qs` ranked by v4 over `scopes` (a throwaway catalog under bench/.work/`dirName`), top
 * CACHE_DEPTH of each with its explanation reduced; a request the router refuses has no candidates.
 */
export function rankedByV4(
  scopes: readonly string[],
  qs: readonly TriggerQuery[],
  dirName: string,
): CachedRequest[] {
  const dir = path.join(WORK, dirName);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({ catalog, scopes: [...scopes], now: () => new Date(0), policy: POLICY_V4_ID });
  const router = new Router({ catalog, telemetry: false });
  const requests: CachedRequest[] = [];
  try {
    for (const q of qs) {
      try {
        const r = router.search({ query: q.query, limit: CACHE_DEPTH });
        requests.push({
          q,
          candidates: r.candidates.map((c) => ({
            skill_id: c.skill_id,
            name: c.name,
            description: c.description,
            score: c.score,
            explanation: reduceExplanation(c.explanation as Bm25fExplanation),
          })),
          confidence: r.candidates.map((c) => c.confidence),
        });
      } catch {
        requests.push({ q, candidates: [], confidence: [] });
      }
    }
  } finally {
    router.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return requests;
}
