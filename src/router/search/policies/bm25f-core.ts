/**
 * The scoring core the BM25F policies (v3, v4) share (docs/ranking.md §8, §10): their features and
 * explanation types, one term's BM25F contribution, the exact-name bonus, the fuzzy part, and the
 * pieces of an explanation that both policies show alike. Every function takes the policy's own
 * frozen constants (`Bm25fConstants`), so each policy file states only its numbers and what it adds;
 * the search engine (../bm25f.ts) accumulates its scan with the same functions. Pure.
 */
import type { FuzzyExplanation, FuzzyMatch, PolicyExplanation, SkillState } from './types.js';
import { bm25Idf, bm25fFrequency, fuzzySimilarity, round, type PerField } from './shared.js';

/** The five BM25F fields, in the order of every per-field array. */
export const BM25F_FIELDS = ['name', 'keywords', 'description', 'body', 'usage'] as const;

/** A term's counts per field, by name. */
export function fieldNumbers(tf: PerField): FieldNumbers {
  return { name: tf[0], keywords: tf[1], description: tf[2], body: tf[3], usage: tf[4] };
}

/** The constants every BM25F policy scores with (each policy's frozen object holds its own). */
export interface Bm25fConstants {
  /** Term-frequency saturation. */
  readonly K1: number;
  /** Field weights and length normalisation, in BM25F_FIELDS order. */
  readonly WEIGHTS: PerField;
  readonly B: PerField;
  /** Added when the query's terms are exactly the skill's name terms. */
  readonly NAME_BONUS: number;
  /** Weight of the fuzzy relevance in [0, 1]. */
  readonly FUZZY_WEIGHT: number;
  /** Multiplier of a deprecated skill. */
  readonly DEPRECATED_MULTIPLIER: number;
}

/** Why a query word takes no part in the score. */
export type DropReason = 'stop-word' | 'filler' | 'number' | 'single-character' | 'over-limit';

/** A query word left out of the score, with the reason (shown in every explanation). */
export interface DroppedToken {
  readonly token: string;
  readonly reason: DropReason;
}

/** One number per field, by name (an explanation's view of a PerField). */
export type FieldNumbers = { readonly [F in (typeof BM25F_FIELDS)[number]]: number };

/** What a BM25F policy needs to know about one skill for one query (v4 adds its own parts). */
export interface Bm25fFeatures {
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

/** One query term's part of the score; `TF` is its frequency per field (v4 adds the boundary). */
export interface TermExplanation<TF extends FieldNumbers = FieldNumbers> {
  readonly token: string;
  readonly term: string;
  readonly df: number;
  readonly idf: number;
  readonly tf: TF;
  readonly points: number;
}

/** A named additive part of `base`, for drawing. */
export interface Component {
  readonly name: string;
  readonly points: number;
}

/** What every BM25F explanation shows (each policy's explanation adds its own parts). */
export interface Bm25fExplanationParts extends PolicyExplanation {
  readonly dropped_tokens: readonly DroppedToken[];
  /** Each field's share of the BM25F sum (a term's points split by its fields' weighted frequencies). */
  readonly fields: FieldNumbers;
  readonly bm25f: number;
  readonly name_bonus: { readonly applies: boolean; readonly points: number };
  readonly fuzzy: FuzzyExplanation;
  readonly usage: { readonly examples: number; readonly matched: readonly string[] };
  /** The parts of `base`, for drawing: the five fields, the bonuses, fuzzy (and what lowers it). */
  readonly components: readonly Component[];
}

/** One term's BM25F contribution: idf × tf~ / (k1 + tf~). */
export function bm25fContribution(tfTilde: number, termIdf: number, k1: number): number {
  return tfTilde > 0 ? (termIdf * tfTilde) / (k1 + tfTilde) : 0;
}

/** The BM25F sum of the query terms over one skill's fields, unrounded. */
export function bm25fSum(f: Bm25fFeatures, c: Bm25fConstants): number {
  let sum = 0;
  for (let i = 0; i < f.queryTerms.length; i++) {
    const x = bm25fFrequency(f.tf[i]!, f.lens, f.avgLens, c.WEIGHTS, c.B);
    sum += bm25fContribution(x, bm25Idf(f.df[i]!, f.docs), c.K1);
  }
  return sum;
}

/** True when the query's distinct terms are exactly the skill's distinct name terms. */
export function nameBonusApplies(
  queryTerms: readonly string[],
  nameTerms: ReadonlySet<string>,
): boolean {
  if (nameTerms.size === 0 || nameTerms.size !== new Set(queryTerms).size) return false;
  return queryTerms.every((t) => nameTerms.has(t));
}

/** The fuzzy part of the base: FUZZY_WEIGHT × mean similarity of the best near term per unknown word. */
export function bm25fFuzzyPart(
  matches: readonly FuzzyMatch[],
  queryTerms: number,
  c: Bm25fConstants,
): number {
  if (queryTerms === 0 || matches.length === 0) return 0;
  return (c.FUZZY_WEIGHT * matches.reduce((s, m) => s + fuzzySimilarity(m), 0)) / queryTerms;
}

/** The parts of a BM25F score every policy computes alike (`scoreBm25f`). */
export interface Bm25fScored<TF extends FieldNumbers> {
  /** The explanation's first parts: the query, the terms, the fields' shares, the name bonus. */
  readonly head: Pick<
    Bm25fExplanationParts,
    'policy' | 'query_tokens' | 'dropped_tokens' | 'fields' | 'bm25f' | 'name_bonus'
  > & { readonly terms: readonly TermExplanation<TF>[] };
  /** The fuzzy part and the usage examples, explained. */
  readonly shown: Pick<Bm25fExplanationParts, 'fuzzy' | 'usage'>;
  /** The first components of `base`: the five fields and the name bonus. */
  readonly components: readonly Component[];
  /** The BM25F sum and the fuzzy part, unrounded. */
  readonly sum: number;
  readonly fuzzy: number;
}

/**
 * Scores what every BM25F policy shares for one skill: each term's part, each field's share, the
 * name bonus and the fuzzy part, under the policy's constants `c`. `tfOf` shows term i's counts
 * (fieldNumbers, or the policy's own with more counts: v4's boundary). The policy completes `head`
 * into its explanation.
 */
export function scoreBm25f<TF extends FieldNumbers>(
  f: Bm25fFeatures,
  c: Bm25fConstants,
  options: { readonly policy: string; readonly tfOf: (tf: PerField, i: number) => TF },
): Bm25fScored<TF> {
  const { terms, fields } = explainTerms(f, c, options.tfOf);
  const bonus = nameBonusApplies(f.queryTerms, f.nameTerms);
  const fuzzy = bm25fFuzzyPart(f.fuzzy, f.queryTerms.length, c);
  const named = {
    name: round(fields[0]!),
    keywords: round(fields[1]!),
    description: round(fields[2]!),
    body: round(fields[3]!),
    usage: round(fields[4]!),
  };
  return {
    head: {
      policy: options.policy,
      query_tokens: f.queryTokens,
      dropped_tokens: f.droppedTokens,
      terms,
      fields: named,
      bm25f: round(fields.reduce((a, b) => a + b, 0)),
      name_bonus: { applies: bonus, points: bonus ? c.NAME_BONUS : 0 },
    },
    shown: {
      fuzzy: {
        matches: f.fuzzy,
        relevance: round(fuzzy / c.FUZZY_WEIGHT),
        weight: c.FUZZY_WEIGHT,
        weighted: round(fuzzy),
      },
      usage: { examples: f.usageExamples, matched: f.usageMatched },
    },
    components: [
      ...BM25F_FIELDS.map((name, k) => ({ name, points: round(fields[k]!) })),
      { name: 'name_bonus', points: bonus ? c.NAME_BONUS : 0 },
    ],
    sum: bm25fSum(f, c),
    fuzzy,
  };
}

// Each query term's explained part of the score and each field's share of the BM25F sum (unrounded,
// BM25F_FIELDS order).
function explainTerms<TF extends FieldNumbers>(
  f: Bm25fFeatures,
  c: Bm25fConstants,
  tfOf: (tf: PerField, i: number) => TF,
): { terms: TermExplanation<TF>[]; fields: number[] } {
  const fields = [0, 0, 0, 0, 0];
  const terms = f.queryTerms.map((term, i): TermExplanation<TF> => {
    const tf = f.tf[i]!;
    const termIdf = bm25Idf(f.df[i]!, f.docs);
    const tfTilde = bm25fFrequency(tf, f.lens, f.avgLens, c.WEIGHTS, c.B);
    const points = bm25fContribution(tfTilde, termIdf, c.K1);
    if (tfTilde > 0) {
      for (let k = 0; k < 5; k++) {
        if (tf[k] === 0) continue;
        const avg = f.avgLens[k]! > 0 ? f.avgLens[k]! : 1;
        const part = (c.WEIGHTS[k]! * tf[k]!) / (1 - c.B[k]! + (c.B[k]! * f.lens[k]!) / avg);
        fields[k]! += (points * part) / tfTilde;
      }
    }
    return {
      token: f.queryTokens[i]!,
      term,
      df: f.df[i]!,
      idf: round(termIdf),
      tf: tfOf(tf, i),
      points: round(points),
    };
  });
  return { terms, fields };
}
