/**
 * Re-rank stage for near-misses (issue 34 items 1 and 3, docs/ranking.md §12): takes the policy's
 * top N candidates of one request (v4's, with their explanations) and orders them again by a small
 * linear model over evidence the BM25F sum does not weigh — how specific the matched terms are
 * (does the skill's name carry the request's rarest matched term), how much of the request's IDF
 * mass the candidate covers and where (routing fields or body only), whether the request hits the
 * skill's boundary clauses or another candidate's clause sends it here ("use Y instead" lifts Y).
 * Then a confidence model over the re-ranked list gives each candidate the estimated probability
 * that it is the skill the request needs.
 *
 * Pure: the same request and candidates give the same order, scores and confidences; no I/O. The
 * parameters are frozen objects (RERANK_NEARMISS_V1, NEARMISS_CONFIDENCE_V1) whose every constant
 * was chosen by leave-one-repository-out cross-validation on the trigger dev set by
 * bench/nearmiss.ts (figures in bench/results/nearmiss.md). Skill text is data here: it is only
 * tokenised and compared, never interpreted.
 */
import { analyzeTermsV4 } from '../../../text/index.js';
import { CONFIDENCE_FEATURES, listFeatures, termCoverage } from '../confidence.js';
import {
  RERANK_NEARMISS_V1,
  type NearmissConfidenceModel,
  type RerankParams,
} from '../policies/stage-nearmiss.js';

/** The per-field term frequencies an explanation shows (name, keywords, description, body, usage). */
export interface RerankFieldNumbers {
  readonly name: number;
  readonly keywords: number;
  readonly description: number;
  readonly body: number;
  readonly usage: number;
}

/** The parts of a v4 explanation the stage reads (a Bm25fV4Explanation has all of them). */
export interface RerankExplanation {
  readonly terms: readonly {
    readonly term: string;
    readonly idf: number;
    readonly tf: RerankFieldNumbers;
    readonly points: number;
  }[];
  readonly fields: RerankFieldNumbers;
  readonly name_bonus: { readonly applies: boolean };
  readonly name_phrase: { readonly applies: boolean };
  readonly boundary: {
    readonly clauses: readonly string[];
    readonly matched: readonly string[];
    readonly points: number;
  };
  readonly dropped_tokens: readonly { readonly token: string }[];
}

/** One candidate as the stage reads it (a RankedCandidate under v4 is one). */
export interface RerankCandidate {
  readonly skill_id: string;
  readonly name: string;
  readonly description: string;
  readonly score: number;
  readonly explanation: RerankExplanation;
}

/** The names of the re-rank features, in the order of every feature vector. */
export const RERANK_FEATURES = [
  /** The candidate's score over the top score (v4's own evidence, the anchor). */
  'share_of_top',
  /** 1 when the candidate's name holds the request's rarest term that any candidate matched. */
  'rarest_in_name',
  /** Share of the request's IDF mass the candidate matches in any field. */
  'idf_coverage',
  /** Share of the request's IDF mass the candidate matches in name, keywords or description. */
  'idf_routing_coverage',
  /** Share of the candidate's BM25F points that come from body and usage only. */
  'body_share',
  /** Share of the candidate's name terms the request holds (a specific name fully asked for). */
  'name_covered',
  /** 1 when the request matches words of the candidate's boundary clauses ("not for …"). */
  'boundary_hit',
  /** 1 when another candidate's matched boundary clause names this candidate ("use Y instead"). */
  'redirect_target',
  /** 1 when the candidate's name appears in the request (whole name or as a phrase). */
  'name_in_request',
  /** 1 when the candidate's name, keywords or description hold the request's rarest matched term. */
  'rarest_in_routing',
  /** 1 when the candidate matches the request's rarest matched term in any field. */
  'rarest_anywhere',
  /** The highest IDF the candidate matches in its routing fields over the request's highest. */
  'max_idf_routing',
  /** 1 / (1 + the candidate's rank in the policy's list). */
  'rank_prior',
  /** The request asks to explain (explainForm) × the candidate's body share. */
  'explain_body',
] as const;

export type RerankFeature = (typeof RERANK_FEATURES)[number];

/**
 * The confidence features of a re-ranked candidate, in order: confidence.ts's eight (read off the
 * re-ranked list), then the stage's own evidence; a model's zero weight leaves a feature out.
 */
export const NEARMISS_CONFIDENCE_FEATURES = [
  ...CONFIDENCE_FEATURES,
  'rerank_lead',
  'idf_coverage',
  'idf_routing_coverage',
  'rarest_in_name',
  'body_share',
  'boundary_hit',
  'explain_form',
  'redirect_target',
] as const;

// Words that make a request ask for an explanation rather than a task (English and Chinese).
const EXPLAIN_START =
  /^\s*(?:explain|what|why|how\s+(?:does|do|is|are|did|come)|whats|what's|difference|describe|tell\s+me\s+(?:about|what|why|how)|is\s+it|is\s+there|are\s+there|can\s+you\s+explain|could\s+you\s+explain|when\s+should)\b/i;
// A string, not a regex literal: the CLI bundle is ASCII only (scripts/build-cli.mjs), and esbuild
// escapes a string's characters but not a regex literal's.
const EXPLAIN_ZH = new RegExp('(?:什么是|为什么|是什么|区别|解释一下|有什么不同|怎么理解)');

/**
 * 1 when the request asks to explain or compare rather than to do something ("explain the
 * difference between let and const", "what is a worktree?", "为什么…"), else 0.
 */
export function explainForm(query: string): number {
  return EXPLAIN_START.test(query) || EXPLAIN_ZH.test(query) ? 1 : 0;
}

// The forms a skill's name takes in a clause or a request: "using-git-worktrees", "using git worktrees".
function nameForms(name: string): string[] {
  const lower = name.toLowerCase();
  const spaced = lower.replace(/[-_]+/g, ' ');
  return spaced === lower ? [lower] : [lower, spaced];
}

/** The re-rank feature vectors of `list` (RERANK_FEATURES order), one per candidate. */
export function rerankFeatures(list: readonly RerankCandidate[], query = ''): number[][] {
  const explain = explainForm(query);
  if (list.length === 0) return [];
  const top = list[0]!.score;
  // The request's terms and their IDF (the same for every candidate: read them off all of them).
  const idf = new Map<string, number>();
  for (const c of list) for (const t of c.explanation.terms) idf.set(t.term, t.idf);
  const mass = [...idf.values()].reduce((a, b) => a + Math.max(0, b), 0);
  const maxIdf = Math.max(0, ...idf.values());
  // The rarest term any candidate matched.
  let rarest: string | undefined;
  let rarestIdf = -Infinity;
  for (const c of list)
    for (const t of c.explanation.terms) {
      const f = t.tf;
      if (f.name + f.keywords + f.description + f.body + f.usage > 0 && t.idf > rarestIdf) {
        rarest = t.term;
        rarestIdf = t.idf;
      }
    }
  const queryTerms = new Set(idf.keys());
  // Boundary clauses the request matched, per candidate, to find the skills they send it to.
  const matchedClauses = list.map((c) =>
    c.explanation.boundary.matched.length > 0
      ? c.explanation.boundary.clauses.map((s) => s.toLowerCase())
      : [],
  );
  return list.map((c, i) => {
    const e = c.explanation;
    let any = 0;
    let routing = 0;
    let rarestInName = 0;
    let rarestInRouting = 0;
    let rarestAnywhere = 0;
    let maxRouting = 0;
    for (const t of e.terms) {
      const f = t.tf;
      const w = Math.max(0, t.idf);
      const inRouting = f.name + f.keywords + f.description > 0;
      const inAny = inRouting || f.body + f.usage > 0;
      if (inAny) any += w;
      if (inRouting) {
        routing += w;
        maxRouting = Math.max(maxRouting, w);
      }
      if (t.term === rarest) {
        if (f.name > 0) rarestInName = 1;
        if (inRouting) rarestInRouting = 1;
        if (inAny) rarestAnywhere = 1;
      }
    }
    const fl = e.fields;
    const total = fl.name + fl.keywords + fl.description + fl.body + fl.usage;
    const bodyShare = total > 0 ? (fl.body + fl.usage) / total : 0;
    const nameTerms = [...new Set(analyzeTermsV4(c.name))];
    const covered = nameTerms.filter((t) => queryTerms.has(t) && matchedIn(e, t)).length;
    const forms = nameForms(c.name);
    let redirect = 0;
    matchedClauses.forEach((clauses, j) => {
      if (j === i || redirect === 1) return;
      if (clauses.some((s) => forms.some((n) => n.length >= 3 && s.includes(n)))) redirect = 1;
    });
    return [
      top > 0 ? c.score / top : 0,
      rarestInName,
      mass > 0 ? any / mass : 0,
      mass > 0 ? routing / mass : 0,
      bodyShare,
      nameTerms.length > 0 ? covered / nameTerms.length : 0,
      e.boundary.matched.length > 0 ? 1 : 0,
      redirect,
      e.name_bonus.applies || e.name_phrase.applies ? 1 : 0,
      rarestInRouting,
      rarestAnywhere,
      maxIdf > 0 ? maxRouting / maxIdf : 0,
      1 / (1 + i),
      explain * bodyShare,
    ];
  });
}

function matchedIn(e: RerankExplanation, term: string): boolean {
  const t = e.terms.find((x) => x.term === term);
  return t !== undefined && t.tf.name > 0;
}

/** The linear re-rank score of one feature vector. */
export function rerankScore(params: RerankParams, x: readonly number[]): number {
  let s = 0;
  for (let j = 0; j < x.length; j++) s += (params.weights[j] ?? 0) * x[j]!;
  return s;
}

/** One candidate after the stage: its place in the policy's list, its features and stage score. */
export interface Reranked<C extends RerankCandidate> {
  readonly candidate: C;
  /** Its rank (0-based) in the policy's list. */
  readonly before: number;
  /** The re-rank score (the stage's order); null past the stage's depth. */
  readonly rerank: number | null;
  /** The feature vector (RERANK_FEATURES order); empty past the stage's depth. */
  readonly features: readonly number[];
}

/**
 * Re-orders the first `params.depth` candidates of `list` by their re-rank score (ties keep the
 * policy's order); candidates past the depth follow in the policy's order, untouched.
 */
export function rerankNearMiss<C extends RerankCandidate>(
  query: string,
  list: readonly C[],
  params: RerankParams = RERANK_NEARMISS_V1,
): Reranked<C>[] {
  const head = list.slice(0, params.depth);
  const xs = rerankFeatures(head, query);
  const scored = head.map((candidate, before) => ({
    candidate,
    before,
    rerank: rerankScore(params, xs[before]!),
    features: xs[before]!,
  }));
  scored.sort((a, b) => b.rerank - a.rerank || a.before - b.before);
  const round = (v: number): number => Math.round(v * 1e4) / 1e4;
  return [
    ...scored.map((r) => ({ ...r, rerank: round(r.rerank) })),
    ...list
      .slice(params.depth)
      .map((candidate, k) => ({ candidate, before: params.depth + k, rerank: null, features: [] })),
  ];
}

/** The confidence feature vector of `ranked[i]` (NEARMISS_CONFIDENCE_FEATURES order). */
export function nearmissConfidenceFeatures<C extends RerankCandidate>(
  query: string,
  ranked: readonly Reranked<C>[],
  i: number,
): number[] {
  const r = ranked[i]!;
  const c = r.candidate;
  const x = r.features;
  let best = -Infinity;
  ranked.forEach((o, j) => {
    if (j !== i && o.rerank !== null && o.rerank > best) best = o.rerank;
  });
  const top = ranked[0]?.candidate.score ?? 0;
  const next = ranked[i + 1]?.candidate.score ?? 0;
  const feature = (name: RerankFeature): number => x[RERANK_FEATURES.indexOf(name)] ?? 0;
  return [
    ...listFeatures(c.score, top, next, i, termCoverage(c.explanation.terms)),
    best === -Infinity ? 0 : (r.rerank ?? 0) - best,
    feature('idf_coverage'),
    feature('idf_routing_coverage'),
    feature('rarest_in_name'),
    feature('body_share'),
    feature('boundary_hit'),
    explainForm(query),
    feature('redirect_target'),
  ];
}

/** The model's probability for one feature vector, rounded to 4 decimals. */
export function nearmissConfidenceOf(model: NearmissConfidenceModel, x: readonly number[]): number {
  let s = model.bias;
  x.forEach((v, j) => {
    s += (model.weights[j] ?? 0) * ((v - (model.means[j] ?? 0)) / (model.scales[j] || 1));
  });
  return Math.round(1e4 / (1 + Math.exp(-s))) / 1e4;
}

// The frozen parameter objects live with the policies (policies/stage-nearmiss.ts: data a policy
// holds, loaded with the policy table at start-up); re-exported here for the bench and tests.
export {
  NEARMISS_CONFIDENCE_V1,
  NEARMISS_HOOK_RULE,
  RERANK_NEARMISS_V1,
  type NearmissConfidenceModel,
  type NearmissHookRule,
  type RerankParams,
} from '../policies/stage-nearmiss.js';
