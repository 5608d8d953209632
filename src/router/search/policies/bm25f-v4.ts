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
 * Pure constants and functions over the BM25F core v3 and v4 share (bm25f-core.ts): the search
 * engine (../bm25f.ts) accumulates the positive part with the core's term contribution under these
 * constants and explains candidates with `scoreV4`, so the formula exists once.
 */
import type { Bm25fPolicy } from './policy.js';
import {
  BM25F_FIELDS,
  bm25fContribution,
  scoreBm25f,
  type Bm25fExplanationParts,
  type Bm25fFeatures,
  type FieldNumbers,
  type TermExplanation,
} from './bm25f-core.js';
import { bm25Idf, bm25fFrequency, explainMultipliers, round, type PerField } from './shared.js';

/** The policy id. */
export const POLICY_V4_ID = 'tf.skillrouter.bm25f.v4';

/** The five BM25F fields, in the order of every per-field array (as v3). */
export const V4_FIELDS = BM25F_FIELDS;

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

/** True when `name` (two terms or more) occurs in `sequence` as a contiguous run, in order. */
export function namePhraseApplies(name: readonly string[], sequence: readonly string[]): boolean {
  if (name.length < 2) return false;
  outer: for (let i = 0; i + name.length <= sequence.length; i++) {
    for (let j = 0; j < name.length; j++) if (sequence[i + j] !== name[j]) continue outer;
    return true;
  }
  return false;
}

/** What `scoreV4` needs to know about one skill for one query: v3's features and v4's own. */
export interface V4Features extends Bm25fFeatures {
  /** The request's terms in order, repeats kept (for the name phrase). */
  readonly querySequence: readonly string[];
  /** The skill's name terms in order. */
  readonly nameSequence: readonly string[];
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
export type V4TermExplanation = TermExplanation<FieldNumbers & { readonly boundary: number }>;

/** Every component of a v4 score: v3's, the name phrase, and the points boundary and exclusion take off. */
export interface Bm25fV4Explanation extends Bm25fExplanationParts {
  readonly terms: readonly V4TermExplanation[];
  readonly name_phrase: { readonly applies: boolean; readonly points: number };
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
}

// The BM25 of the boundary clauses for the query terms (BOUNDARY_WEIGHT not applied).
function boundaryBm25(f: V4Features): number {
  const avg = f.boundary.avgLen > 0 ? f.boundary.avgLen : 1;
  const norm = 1 - V4.BOUNDARY_B + (V4.BOUNDARY_B * f.boundary.len) / avg;
  let sum = 0;
  f.boundary.tf.forEach((tf, i) => {
    if (tf > 0) sum += bm25fContribution(tf / norm, bm25Idf(f.df[i]!, f.docs), V4.K1);
  });
  return sum;
}

// The BM25F of the excluded words over the skill's fields (EXCLUSION_WEIGHT not applied).
function exclusionBm25f(f: V4Features): number {
  let sum = 0;
  f.exclusion.terms.forEach((_, i) => {
    const x = bm25fFrequency(f.exclusion.tf[i]!, f.lens, f.avgLens, V4.WEIGHTS, V4.B);
    sum += bm25fContribution(x, bm25Idf(f.exclusion.df[i]!, f.docs), V4.K1);
  });
  return sum;
}

/** Scores one skill for one query under v4, with every component explained. */
export function scoreV4(f: V4Features): Bm25fV4Explanation {
  const s = scoreBm25f(f, V4, {
    policy: POLICY_V4_ID,
    // v3's counts and the boundary's, built at once (this runs per term of every candidate).
    tfOf: (tf, i) => ({
      name: tf[0],
      keywords: tf[1],
      description: tf[2],
      body: tf[3],
      usage: tf[4],
      boundary: f.boundary.tf[i] ?? 0,
    }),
  });
  const phrase = namePhraseApplies(f.nameSequence, f.querySequence);
  const phrasePoints = phrase ? V4.NAME_PHRASE_BONUS : 0;
  const boundary = V4.BOUNDARY_WEIGHT * boundaryBm25(f);
  const exclusion = V4.EXCLUSION_WEIGHT * exclusionBm25f(f);
  // The positive part (BM25F + bonuses + fuzzy) bounds the engine's scan: boundary and exclusion
  // points only ever lower a score.
  const positive = s.sum + s.head.name_bonus.points + phrasePoints + s.fuzzy;
  const base = Math.max(0, positive - boundary - exclusion);
  // Object.assign, not spreads: the keys in explanation order without copying (spreads cost more).
  return Object.assign(
    s.head,
    {
      name_phrase: { applies: phrase, points: phrasePoints },
      fuzzy: s.shown.fuzzy,
      usage: s.shown.usage,
    },
    {
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
        ...s.components,
        { name: 'name_phrase', points: phrasePoints },
        { name: 'fuzzy', points: s.shown.fuzzy.weighted },
        // Points taken off, as negative numbers (0 when none: never -0, which JSON cannot tell apart).
        { name: 'boundary', points: boundary > 0 ? round(-boundary) : 0 },
        { name: 'exclusion', points: exclusion > 0 ? round(-exclusion) : 0 },
      ],
    },
    explainMultipliers(f, V4.DEPRECATED_MULTIPLIER, base),
  );
}

/** v4 as a policy. */
export const BM25F_V4: Bm25fPolicy = Object.freeze({
  kind: 'bm25f',
  id: POLICY_V4_ID,
  index: 'v4',
});
