/**
 * Ranking policy `tf.skillrouter.bm25f.v3` (docs/ranking.md §8, docs/integration.md): true BM25F over five
 * fields — name, keywords (+ tags), description (+ when_to_use), body (its first 8,192 characters)
 * and usage (the requests that led to fetches of the skill, learned or imported) — each with its
 * own weight and length normalisation against that field's average length, one k1, one IDF per
 * term over the published generation. Around it, explained and bounded: an exact-name bonus,
 * fuzzy credit for query words the generation lacks, and v1's telemetry and lifecycle multipliers.
 * Pure constants and functions; the search engine (../bm25f.ts) accumulates scores with
 * `termContribution` and explains the final candidates with `scoreV3`, so the formula exists once.
 */
import type { Bm25fPolicy } from './policy.js';
import type { FuzzyMatch, SkillState } from './types.js';
import { fuzzySimilarity, lifecycleMultiplierOf, round, telemetryMultiplier } from './shared.js';

/** The policy id. */
export const POLICY_V3_ID = 'tf.skillrouter.bm25f.v3';

/** The five BM25F fields, in the order of every per-field array. */
export const V3_FIELDS = ['name', 'keywords', 'description', 'body', 'usage'] as const;
/** One number per field, in V3_FIELDS order. */
export type PerField = readonly [number, number, number, number, number];

/**
 * Every constant of v3, each chosen on the dev split (docs/ranking.md §8 gives the measurements).
 */
export const V3 = Object.freeze({
  /** Term-frequency saturation (0.9–2.0 measured within ±0.001 macro nDCG@10). */
  K1: 1.2,
  /** Field weights: a name or keyword hit is worth more than a description hit, a body hit less. */
  WEIGHTS: [3, 2, 1, 0.5, 0.5] as PerField,
  /**
   * Length normalisation per field: names and keywords barely (they are short lists), descriptions
   * as classic BM25, bodies strongly (long real SKILL.md bodies otherwise win on sheer length:
   * 0.9 beats 0.75 by +0.011 macro nDCG@10 with corpus-real distractors), usage midway.
   */
  B: [0.3, 0.3, 0.75, 0.9, 0.5] as PerField,
  /** Added when the query's terms are exactly the skill's name terms (the user typed the name). */
  NAME_BONUS: 5.0,
  /** Weight of the fuzzy relevance in [0, 1] (per unknown query word, its best near term). */
  FUZZY_WEIGHT: 2.0,
  /** Multiplier of a deprecated skill (shown only with include_deprecated). */
  DEPRECATED_MULTIPLIER: 0.5,
});

/** Why a query word takes no part in the score. */
export type DropReason = 'stop-word' | 'filler' | 'number' | 'single-character' | 'over-limit';

/** A query word left out of the score, with the reason (shown in every explanation). */
export interface DroppedToken {
  readonly token: string;
  readonly reason: DropReason;
}

/** The inverse document frequency of a term in `df` of `docs` documents (BM25's, always > 0). */
export function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** The length-normalised, weighted frequency of one term over the fields (BM25F's tf~). */
export function weightedFrequency(tf: PerField, lens: PerField, avgLens: PerField): number {
  let x = 0;
  for (let f = 0; f < 5; f++) {
    const t = tf[f]!;
    if (t === 0) continue;
    const avg = avgLens[f]! > 0 ? avgLens[f]! : 1;
    x += (V3.WEIGHTS[f]! * t) / (1 - V3.B[f]! + (V3.B[f]! * lens[f]!) / avg);
  }
  return x;
}

/** One term's BM25F contribution: idf × tf~ / (k1 + tf~). */
export function termContribution(tfTilde: number, termIdf: number): number {
  return tfTilde > 0 ? (termIdf * tfTilde) / (V3.K1 + tfTilde) : 0;
}

/** True when the query's distinct terms are exactly the skill's distinct name terms. */
export function nameBonusApplies(
  queryTerms: readonly string[],
  nameTerms: ReadonlySet<string>,
): boolean {
  if (nameTerms.size === 0 || nameTerms.size !== new Set(queryTerms).size) return false;
  return queryTerms.every((t) => nameTerms.has(t));
}

/** What `scoreV3` needs to know about one skill for one query. */
export interface V3Features {
  /** Distinct query words that score, in query order, and their terms (stems), aligned. */
  readonly queryTokens: readonly string[];
  readonly queryTerms: readonly string[];
  readonly droppedTokens: readonly DroppedToken[];
  /** Documents in the generation and the average length of each field. */
  readonly docs: number;
  readonly avgLens: PerField;
  /** This skill's field lengths. */
  readonly lens: PerField;
  /** Per query term: its document frequency and its frequency in each of this skill's fields. */
  readonly df: readonly number[];
  readonly tf: readonly PerField[];
  /** The skill's distinct name terms. */
  readonly nameTerms: ReadonlySet<string>;
  readonly fuzzy: readonly FuzzyMatch[];
  /** Usage examples of this skill (count) and those that share a term with the query (at most 3). */
  readonly usageExamples: number;
  readonly usageMatched: readonly string[];
  readonly suggestions: number;
  readonly fetches: number;
  readonly state: SkillState;
}

/** One query term's part of the score. */
export interface TermExplanation {
  readonly token: string;
  readonly term: string;
  readonly df: number;
  readonly idf: number;
  readonly tf: {
    readonly name: number;
    readonly keywords: number;
    readonly description: number;
    readonly body: number;
    readonly usage: number;
  };
  readonly points: number;
}

/** Every component of a v3 score. */
export interface Bm25fExplanation {
  readonly policy: string;
  readonly query_tokens: readonly string[];
  readonly dropped_tokens: readonly DroppedToken[];
  readonly terms: readonly TermExplanation[];
  /** Each field's share of the BM25F sum (a term's points split by its fields' weighted frequencies). */
  readonly fields: {
    readonly name: number;
    readonly keywords: number;
    readonly description: number;
    readonly body: number;
    readonly usage: number;
  };
  readonly bm25f: number;
  readonly name_bonus: { readonly applies: boolean; readonly points: number };
  readonly fuzzy: {
    readonly matches: readonly FuzzyMatch[];
    readonly relevance: number;
    readonly weight: number;
    readonly weighted: number;
  };
  readonly usage: { readonly examples: number; readonly matched: readonly string[] };
  /** The additive parts of `base`, for drawing: the five fields, the name bonus and fuzzy. */
  readonly components: readonly { readonly name: string; readonly points: number }[];
  readonly base: number;
  readonly telemetry: {
    readonly suggestions: number;
    readonly fetches: number;
    readonly multiplier: number;
  };
  readonly lifecycle: { readonly state: SkillState; readonly multiplier: number };
  readonly final: number;
}

/** The unrounded base score (BM25F + name bonus + fuzzy): what the search engine bounds and sorts by. */
export function baseV3(f: V3Features): number {
  let sum = 0;
  f.queryTerms.forEach((_, i) => {
    sum += termContribution(weightedFrequency(f.tf[i]!, f.lens, f.avgLens), idf(f.df[i]!, f.docs));
  });
  return (
    sum +
    (nameBonusApplies(f.queryTerms, f.nameTerms) ? V3.NAME_BONUS : 0) +
    fuzzyPart(f.fuzzy, f.queryTerms.length)
  );
}

/** The fuzzy part of the base: FUZZY_WEIGHT × mean similarity of the best near term per unknown word. */
export function fuzzyPart(matches: readonly FuzzyMatch[], queryTerms: number): number {
  if (queryTerms === 0 || matches.length === 0) return 0;
  return (V3.FUZZY_WEIGHT * matches.reduce((s, m) => s + fuzzySimilarity(m), 0)) / queryTerms;
}

/** The v3 multiplier of a lifecycle state: 1 active, DEPRECATED_MULTIPLIER deprecated, 0 archived. */
export function lifecycleMultiplierV3(state: SkillState): number {
  return lifecycleMultiplierOf(state, V3.DEPRECATED_MULTIPLIER);
}

/** Scores one skill for one query under v3, with every component explained. */
export function scoreV3(f: V3Features): Bm25fExplanation {
  const fields = [0, 0, 0, 0, 0];
  const terms: TermExplanation[] = f.queryTerms.map((term, i) => {
    const tf = f.tf[i]!;
    const termIdf = idf(f.df[i]!, f.docs);
    const tfTilde = weightedFrequency(tf, f.lens, f.avgLens);
    const points = termContribution(tfTilde, termIdf);
    if (tfTilde > 0) {
      for (let k = 0; k < 5; k++) {
        if (tf[k] === 0) continue;
        const avg = f.avgLens[k]! > 0 ? f.avgLens[k]! : 1;
        const part = (V3.WEIGHTS[k]! * tf[k]!) / (1 - V3.B[k]! + (V3.B[k]! * f.lens[k]!) / avg);
        fields[k]! += (points * part) / tfTilde;
      }
    }
    return {
      token: f.queryTokens[i]!,
      term,
      df: f.df[i]!,
      idf: round(termIdf),
      tf: { name: tf[0], keywords: tf[1], description: tf[2], body: tf[3], usage: tf[4] },
      points: round(points),
    };
  });
  const base = baseV3(f);
  const bm25f = fields.reduce((a, b) => a + b, 0);
  const bonus = nameBonusApplies(f.queryTerms, f.nameTerms);
  const fuzzy = fuzzyPart(f.fuzzy, f.queryTerms.length);
  const tm = telemetryMultiplier(f.suggestions, f.fetches);
  const lm = lifecycleMultiplierV3(f.state);
  const named = {
    name: round(fields[0]!),
    keywords: round(fields[1]!),
    description: round(fields[2]!),
    body: round(fields[3]!),
    usage: round(fields[4]!),
  };
  return {
    policy: POLICY_V3_ID,
    query_tokens: f.queryTokens,
    dropped_tokens: f.droppedTokens,
    terms,
    fields: named,
    bm25f: round(bm25f),
    name_bonus: { applies: bonus, points: bonus ? V3.NAME_BONUS : 0 },
    fuzzy: {
      matches: f.fuzzy,
      relevance: round(fuzzy / V3.FUZZY_WEIGHT),
      weight: V3.FUZZY_WEIGHT,
      weighted: round(fuzzy),
    },
    usage: { examples: f.usageExamples, matched: f.usageMatched },
    components: [
      ...V3_FIELDS.map((name, k) => ({ name, points: round(fields[k]!) })),
      { name: 'name_bonus', points: bonus ? V3.NAME_BONUS : 0 },
      { name: 'fuzzy', points: round(fuzzy) },
    ],
    base: round(base),
    telemetry: { suggestions: f.suggestions, fetches: f.fetches, multiplier: round(tm) },
    lifecycle: { state: f.state, multiplier: lm },
    final: round(base * tm * lm),
  };
}

/** v3 as a policy. */
export const BM25F_V3: Bm25fPolicy = Object.freeze({
  kind: 'bm25f',
  id: POLICY_V3_ID,
  index: 'v3',
});
