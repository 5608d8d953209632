/**
 * Ranking policy `tf.skillrouter.bm25f.v4` (docs/ranking.md §10), the default for new catalogs:
 * v3's BM25F over name, keywords (+ tags), description, body and usage, tuned on real skills — the
 * trigger dev set of ../shared/bench/trigger, with a corpus of real SKILL.md files as distractors —
 * and checked on the tool-retrieval sets. What it adds to v3, each measured there:
 *
 * - CJK text as character bigrams (text/cjk.ts), so Chinese and Japanese requests match at all;
 * - descriptions without their boundary clauses ("Do NOT use for …"): those words never count for
 *   the skill, and a request that matches them costs the skill BOUNDARY_WEIGHT × their BM25;
 * - a request's excluded words ("no video", "不需要 …") count against the skills that have them;
 * - bodies without template lines (lines a library's templated families repeat, documents-v4.ts);
 * - a bonus when the skill's name (two words or more) appears in the request as written.
 *
 * Pure constants and functions; the search engine (../bm25f.ts) accumulates the positive part with
 * `termContribution` and explains candidates with `scoreV4`, so the formula exists once.
 */
import type { Bm25fPolicy } from './policy.js';
import type { FuzzyMatch, SkillState } from './types.js';
import {
  bm25Idf,
  bm25fFrequency,
  fuzzySimilarity,
  lifecycleMultiplierOf,
  round,
  telemetryMultiplier,
  type PerField,
} from './shared.js';
import type { DroppedToken } from './bm25f-v3.js';

/** The policy id. */
export const POLICY_V4_ID = 'tf.skillrouter.bm25f.v4';

/** The five BM25F fields, in the order of every per-field array (as v3). */
export const V4_FIELDS = ['name', 'keywords', 'description', 'body', 'usage'] as const;

/**
 * Every constant of v4, each chosen on the trigger dev set (docs/ranking.md §10 gives the figures
 * and the alternatives measured).
 */
export const V4 = Object.freeze({
  /** Term-frequency saturation (as v3). */
  K1: 1.2,
  /**
   * Field weights name, keywords, description, body, usage. A body weight of 0.3 ranked the trigger
   * set 0.5–1 point better but cost bfcl-curated 0.9 points of nDCG@10 (below plain BM25 there);
   * 0.5 keeps both.
   */
  WEIGHTS: [3, 2, 1, 0.5, 0.5] as PerField,
  /** Length normalisation per field (as v3). */
  B: [0.3, 0.3, 0.75, 0.9, 0.5] as PerField,
  /** Length normalisation of the boundary field (its clauses are short). */
  BOUNDARY_B: 0.5,
  /**
   * Share of a request's BM25 over a skill's boundary clauses taken off its score. 0.5 cut false
   * triggers from 0.134 to 0.110 (0.087 to 0.072 with distractors) for 0.4 points of top-1; 1.0
   * cut further (0.108) for 1.0 point; 2.0 for 2.7 (re-run for docs/ranking.md §10).
   */
  BOUNDARY_WEIGHT: 0.5,
  /** Share of the BM25F of a request's excluded words taken off each skill that has them. */
  EXCLUSION_WEIGHT: 0.5,
  /** Added when the request's terms are exactly the skill's name terms (as v3). */
  NAME_BONUS: 5.0,
  /**
   * Added when the skill's name terms (two or more) appear in the request as a contiguous run, in
   * order ("run the deep review loop on this spec"): +0.5 point of top-1; a bonus for the name's
   * terms anywhere in the request cost bfcl-curated 1.5 points of nDCG@10.
   */
  NAME_PHRASE_BONUS: 2.0,
  /** Weight of the fuzzy relevance in [0, 1] (as v3). */
  FUZZY_WEIGHT: 2.0,
  /** Multiplier of a deprecated skill (shown only with include_deprecated). */
  DEPRECATED_MULTIPLIER: 0.5,
});

/** One query term's BM25F contribution: idf × tf~ / (k1 + tf~). */
export function termContributionV4(tfTilde: number, termIdf: number): number {
  return tfTilde > 0 ? (termIdf * tfTilde) / (V4.K1 + tfTilde) : 0;
}

/** v4's tf~ of one term over the five fields. */
export function weightedFrequencyV4(tf: PerField, lens: PerField, avgLens: PerField): number {
  return bm25fFrequency(tf, lens, avgLens, V4.WEIGHTS, V4.B);
}

/** True when `name` (two terms or more) occurs in `sequence` as a contiguous run, in order. */
export function namePhraseApplies(name: readonly string[], sequence: readonly string[]): boolean {
  if (name.length < 2) return false;
  outer: for (let i = 0; i + name.length <= sequence.length; i++) {
    for (let j = 0; j < name.length; j++) if (sequence[i + j] !== name[j]) continue outer;
    return true;
  }
  return false;
}

/** What `scoreV4` needs to know about one skill for one query. */
export interface V4Features {
  /** Distinct query words that score, in query order, and their terms, aligned. */
  readonly queryTokens: readonly string[];
  readonly queryTerms: readonly string[];
  /** The request's terms in order, repeats kept (for the name phrase). */
  readonly querySequence: readonly string[];
  readonly droppedTokens: readonly DroppedToken[];
  readonly docs: number;
  readonly avgLens: PerField;
  readonly lens: PerField;
  /** Per query term: its document frequency and its frequency in each of this skill's fields. */
  readonly df: readonly number[];
  readonly tf: readonly PerField[];
  readonly nameTerms: ReadonlySet<string>;
  /** The skill's name terms in order. */
  readonly nameSequence: readonly string[];
  readonly fuzzy: readonly FuzzyMatch[];
  readonly usageExamples: number;
  readonly usageMatched: readonly string[];
  readonly suggestions: number;
  readonly fetches: number;
  readonly state: SkillState;
  /** The skill's boundary clauses: their text, each query term's frequency in them, their length. */
  readonly boundary: {
    readonly clauses: readonly string[];
    readonly tf: readonly number[];
    readonly len: number;
    readonly avgLen: number;
  };
  /** The request's excluded words: tokens, terms, document frequencies, this skill's frequencies. */
  readonly exclusion: {
    readonly tokens: readonly string[];
    readonly terms: readonly string[];
    readonly df: readonly number[];
    readonly tf: readonly PerField[];
  };
}

/** One query term's part of a v4 score (as v3's, plus its frequency in the boundary clauses). */
export interface V4TermExplanation {
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
    readonly boundary: number;
  };
  readonly points: number;
}

/** Every component of a v4 score. */
export interface Bm25fV4Explanation {
  readonly policy: string;
  readonly query_tokens: readonly string[];
  readonly dropped_tokens: readonly DroppedToken[];
  readonly terms: readonly V4TermExplanation[];
  readonly fields: {
    readonly name: number;
    readonly keywords: number;
    readonly description: number;
    readonly body: number;
    readonly usage: number;
  };
  readonly bm25f: number;
  readonly name_bonus: { readonly applies: boolean; readonly points: number };
  readonly name_phrase: { readonly applies: boolean; readonly points: number };
  readonly fuzzy: {
    readonly matches: readonly FuzzyMatch[];
    readonly relevance: number;
    readonly weight: number;
    readonly weighted: number;
  };
  readonly usage: { readonly examples: number; readonly matched: readonly string[] };
  /** The skill's boundary clauses, the request's words found in them, and the points they cost. */
  readonly boundary: {
    readonly clauses: readonly string[];
    readonly matched: readonly string[];
    readonly points: number;
  };
  /** The request's excluded words, those this skill has, and the points they cost. */
  readonly exclusion: {
    readonly tokens: readonly string[];
    readonly matched: readonly string[];
    readonly points: number;
  };
  /** The parts of `base`, for drawing: five fields, bonuses, fuzzy; boundary and exclusion negative. */
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

/** The fuzzy part of the base: FUZZY_WEIGHT × mean similarity of the best near term per unknown word. */
export function fuzzyPartV4(matches: readonly FuzzyMatch[], queryTerms: number): number {
  if (queryTerms === 0 || matches.length === 0) return 0;
  return (V4.FUZZY_WEIGHT * matches.reduce((s, m) => s + fuzzySimilarity(m), 0)) / queryTerms;
}

/** The v4 multiplier of a lifecycle state: 1 active, DEPRECATED_MULTIPLIER deprecated, 0 archived. */
export function lifecycleMultiplierV4(state: SkillState): number {
  return lifecycleMultiplierOf(state, V4.DEPRECATED_MULTIPLIER);
}

/** True when the query's distinct terms are exactly the skill's distinct name terms (as v3). */
function nameBonusApplies(queryTerms: readonly string[], nameTerms: ReadonlySet<string>): boolean {
  if (nameTerms.size === 0 || nameTerms.size !== new Set(queryTerms).size) return false;
  return queryTerms.every((t) => nameTerms.has(t));
}

// The BM25 of the boundary clauses for the query terms (BOUNDARY_WEIGHT not applied).
function boundaryBm25(f: V4Features): number {
  const avg = f.boundary.avgLen > 0 ? f.boundary.avgLen : 1;
  const norm = 1 - V4.BOUNDARY_B + (V4.BOUNDARY_B * f.boundary.len) / avg;
  let sum = 0;
  f.boundary.tf.forEach((tf, i) => {
    if (tf > 0) sum += termContributionV4(tf / norm, bm25Idf(f.df[i]!, f.docs));
  });
  return sum;
}

// The BM25F of the excluded words over the skill's fields (EXCLUSION_WEIGHT not applied).
function exclusionBm25f(f: V4Features): number {
  let sum = 0;
  f.exclusion.terms.forEach((_, i) => {
    const x = weightedFrequencyV4(f.exclusion.tf[i]!, f.lens, f.avgLens);
    sum += termContributionV4(x, bm25Idf(f.exclusion.df[i]!, f.docs));
  });
  return sum;
}

/**
 * The unrounded positive part of the base (BM25F + bonuses + fuzzy): what the search engine bounds
 * its scan with. Boundary and exclusion points only ever lower a score.
 */
export function positiveV4(f: V4Features): number {
  let sum = 0;
  f.queryTerms.forEach((_, i) => {
    sum += termContributionV4(
      weightedFrequencyV4(f.tf[i]!, f.lens, f.avgLens),
      bm25Idf(f.df[i]!, f.docs),
    );
  });
  return (
    sum +
    (nameBonusApplies(f.queryTerms, f.nameTerms) ? V4.NAME_BONUS : 0) +
    (namePhraseApplies(f.nameSequence, f.querySequence) ? V4.NAME_PHRASE_BONUS : 0) +
    fuzzyPartV4(f.fuzzy, f.queryTerms.length)
  );
}

/** Scores one skill for one query under v4, with every component explained. */
export function scoreV4(f: V4Features): Bm25fV4Explanation {
  const fields = [0, 0, 0, 0, 0];
  const terms = f.queryTerms.map((term, i): V4TermExplanation => {
    const tf = f.tf[i]!;
    const termIdf = bm25Idf(f.df[i]!, f.docs);
    const tfTilde = weightedFrequencyV4(tf, f.lens, f.avgLens);
    const points = termContributionV4(tfTilde, termIdf);
    if (tfTilde > 0) {
      for (let k = 0; k < 5; k++) {
        if (tf[k] === 0) continue;
        const avg = f.avgLens[k]! > 0 ? f.avgLens[k]! : 1;
        const part = (V4.WEIGHTS[k]! * tf[k]!) / (1 - V4.B[k]! + (V4.B[k]! * f.lens[k]!) / avg);
        fields[k]! += (points * part) / tfTilde;
      }
    }
    return {
      token: f.queryTokens[i]!,
      term,
      df: f.df[i]!,
      idf: round(termIdf),
      tf: {
        name: tf[0],
        keywords: tf[1],
        description: tf[2],
        body: tf[3],
        usage: tf[4],
        boundary: f.boundary.tf[i] ?? 0,
      },
      points: round(points),
    };
  });
  const bonus = nameBonusApplies(f.queryTerms, f.nameTerms);
  const phrase = namePhraseApplies(f.nameSequence, f.querySequence);
  const fuzzy = fuzzyPartV4(f.fuzzy, f.queryTerms.length);
  const boundary = V4.BOUNDARY_WEIGHT * boundaryBm25(f);
  const exclusion = V4.EXCLUSION_WEIGHT * exclusionBm25f(f);
  const base = Math.max(0, positiveV4(f) - boundary - exclusion);
  const bm25f = fields.reduce((a, b) => a + b, 0);
  const tm = telemetryMultiplier(f.suggestions, f.fetches);
  const lm = lifecycleMultiplierV4(f.state);
  return {
    policy: POLICY_V4_ID,
    query_tokens: f.queryTokens,
    dropped_tokens: f.droppedTokens,
    terms,
    fields: {
      name: round(fields[0]!),
      keywords: round(fields[1]!),
      description: round(fields[2]!),
      body: round(fields[3]!),
      usage: round(fields[4]!),
    },
    bm25f: round(bm25f),
    name_bonus: { applies: bonus, points: bonus ? V4.NAME_BONUS : 0 },
    name_phrase: { applies: phrase, points: phrase ? V4.NAME_PHRASE_BONUS : 0 },
    fuzzy: {
      matches: f.fuzzy,
      relevance: round(fuzzy / V4.FUZZY_WEIGHT),
      weight: V4.FUZZY_WEIGHT,
      weighted: round(fuzzy),
    },
    usage: { examples: f.usageExamples, matched: f.usageMatched },
    boundary: {
      clauses: f.boundary.clauses,
      matched: f.queryTokens.filter((_, i) => (f.boundary.tf[i] ?? 0) > 0),
      points: round(boundary),
    },
    exclusion: {
      tokens: f.exclusion.tokens,
      matched: f.exclusion.tokens.filter((_, i) => f.exclusion.tf[i]!.some((n) => n > 0)),
      points: round(exclusion),
    },
    components: [
      ...V4_FIELDS.map((name, k) => ({ name, points: round(fields[k]!) })),
      { name: 'name_bonus', points: bonus ? V4.NAME_BONUS : 0 },
      { name: 'name_phrase', points: phrase ? V4.NAME_PHRASE_BONUS : 0 },
      { name: 'fuzzy', points: round(fuzzy) },
      // Points taken off, as negative numbers (0 when none: never -0, which JSON cannot tell apart).
      { name: 'boundary', points: boundary > 0 ? round(-boundary) : 0 },
      { name: 'exclusion', points: exclusion > 0 ? round(-exclusion) : 0 },
    ],
    base: round(base),
    telemetry: { suggestions: f.suggestions, fetches: f.fetches, multiplier: round(tm) },
    lifecycle: { state: f.state, multiplier: lm },
    final: round(base * tm * lm),
  };
}

/** v4 as a policy. */
export const BM25F_V4: Bm25fPolicy = Object.freeze({
  kind: 'bm25f',
  id: POLICY_V4_ID,
  index: 'v4',
});
