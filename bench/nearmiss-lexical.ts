/**
 * The lexical candidate features of bench/nearmiss-v6.ts (issue 34 round 2), computed from v4's
 * explanations, names and descriptions: RERANK_FEATURES (the stage's fourteen), then twelve more.
 * Shared with bench/nearmiss-sem.ts, which adds semantic ones after them.
 */
import { analyzeTermsV4 } from '../src/text/index.js';
import {
  RERANK_FEATURES,
  rerankFeatures,
  type RerankCandidate,
} from '../src/router/search/stages/rerank-nearmiss.js';

const NEW_FEATURES = [
  /** IDF-weighted share of the request the name matches (specificity of the name). */
  'name_idf_cov',
  /** IDF-weighted share of the request the description matches. */
  'desc_idf_cov',
  /** IDF-weighted share of the request matched only in body / usage (not in a routing field). */
  'body_only_idf',
  /** Share of the name's terms the request does not hold ("bulk" in opsx-bulk-archive). */
  'name_extra',
  /** Share of the request's adjacent term pairs found adjacent in name + description. */
  'desc_bigram',
  /** Share of the request's distinct terms matched in a routing field (not IDF-weighted). */
  'routing_term_cov',
  /** rarest_in_name, only between near-ties: × max(0, (share_of_top − 0.8) / 0.2). */
  'rarest_in_name_close',
  /** name_idf_cov between near-ties. */
  'name_idf_cov_close',
  /** name_extra between near-ties. */
  'name_extra_close',
  /** 1 when a name term and a request term share a stem prefix of ≥ 4 letters but differ (builder/build). */
  'morph_name',
  /** Σ idf² matched in routing fields over the request's Σ idf² (the rarest terms weigh most). */
  'idf2_routing_cov',
  /** The request's rarest term (over the whole catalog's IDF) is in the name. */
  'query_rarest_in_name',
] as const;

export const ALL_FEATURES: readonly string[] = [...RERANK_FEATURES, ...NEW_FEATURES];
export const fi = (name: string): number => ALL_FEATURES.indexOf(name);

function pairs(terms: readonly string[]): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) s.add(`${terms[i]} ${terms[i + 1]}`);
  return s;
}

export function extendedFeatures(list: readonly RerankCandidate[], query: string): number[][] {
  const base = rerankFeatures(list, query);
  const qTerms = analyzeTermsV4(query);
  const qSet = new Set(qTerms);
  const qPairs = pairs(qTerms);
  const idf = new Map<string, number>();
  for (const c of list) for (const t of c.explanation.terms) idf.set(t.term, Math.max(0, t.idf));
  const mass = [...idf.values()].reduce((a, b) => a + b, 0);
  const mass2 = [...idf.values()].reduce((a, b) => a + b * b, 0);
  let qRarest: string | undefined;
  for (const [t, v] of idf) if (qRarest === undefined || v > idf.get(qRarest)!) qRarest = t;
  return list.map((c, i) => {
    const x = base[i]!;
    const e = c.explanation;
    let nameIdf = 0;
    let descIdf = 0;
    let bodyOnly = 0;
    let routingCount = 0;
    let idf2 = 0;
    let rarestName = 0;
    for (const t of e.terms) {
      const w = Math.max(0, t.idf);
      const f = t.tf;
      const routing = f.name + f.keywords + f.description > 0;
      if (f.name > 0) nameIdf += w;
      if (f.description > 0) descIdf += w;
      if (!routing && f.body + f.usage > 0) bodyOnly += w;
      if (routing) {
        routingCount++;
        idf2 += w * w;
      }
      if (t.term === qRarest && f.name > 0) rarestName = 1;
    }
    const nameTerms = [...new Set(analyzeTermsV4(c.name))];
    const extra =
      nameTerms.length > 0 ? nameTerms.filter((t) => !qSet.has(t)).length / nameTerms.length : 0;
    const dPairs = pairs(analyzeTermsV4(`${c.name.replace(/[-_]+/g, ' ')} ${c.description}`));
    const bigram =
      qPairs.size > 0 ? [...qPairs].filter((p) => dPairs.has(p)).length / qPairs.size : 0;
    let morph = 0;
    for (const n of nameTerms) {
      if (qSet.has(n)) continue;
      for (const q of qSet)
        if (q !== n && Math.min(q.length, n.length) >= 4 && (q.startsWith(n) || n.startsWith(q)))
          morph = 1;
    }
    const close = Math.max(0, (x[0]! - 0.8) / 0.2);
    const nameCov = mass > 0 ? nameIdf / mass : 0;
    return [
      ...x,
      nameCov,
      mass > 0 ? descIdf / mass : 0,
      mass > 0 ? bodyOnly / mass : 0,
      extra,
      bigram,
      qSet.size > 0 ? routingCount / qSet.size : 0,
      x[1]! * close,
      nameCov * close,
      extra * close,
      morph,
      mass2 > 0 ? idf2 / mass2 : 0,
      rarestName,
    ];
  });
}
