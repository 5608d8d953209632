/**
 * The BM25F policies as data (docs/ranking.md "Policies are parameter sets"): a BM25F policy is one
 * frozen `Bm25fParams` object — its analyzer options, field weights, `B`, `K1`, bonuses,
 * penalties, fuzzy weight, deprecated multiplier, confidence model and default floor, with the
 * provenance of every number — and this file is everything that reads one: the features of a skill
 * for a query, the pure `score(features, params)` with every component explained, and the pure
 * `bound(partial, params)` the search engine (../bm25f.ts) prunes its scan with. The engine never
 * names a policy: it receives the params. Adding a policy is one parameter object (beside
 * bm25f-v4.ts), one calibration (bench/calibrate.ts) and one golden (test/router/golden).
 */
import type { IndexKind } from '../../../catalog/index.js';
import type { NearmissHookRule, RerankParams } from './stage-nearmiss.js';
import type {
  ConfidenceModel,
  FuzzyExplanation,
  FuzzyMatch,
  PolicyExplanation,
  SkillState,
} from './types.js';
import {
  bm25Idf,
  bm25fFrequency,
  explainMultipliers,
  fuzzySimilarity,
  lifecycleMultiplierOf,
  round,
  type PerField,
} from './shared.js';

/** The five BM25F fields, in the order of every per-field array. */
export const BM25F_FIELDS = ['name', 'keywords', 'description', 'body', 'usage'] as const;

/** How a policy reads a request (query-analysis.ts); the stored document is read alike at index time. */
export interface AnalyzerOptions {
  /** CJK runs as character bigrams (text/cjk.ts), so Chinese and Japanese requests match at all. */
  readonly cjkBigrams: boolean;
  /** A request's excluded words ("no video", "不需要 …") set apart to count against skills. */
  readonly excludedWords: boolean;
}

/**
 * The stored document a policy scores over, as the catalog builds it at index time
 * (src/catalog/write/documents-v4.ts): the catalog's index kind, and what that document leaves out.
 * Descriptive for the two flags: the catalog decides them when it builds the document.
 */
export interface DocumentOptions {
  /** The catalog's index kind of the document (passed through to the catalog, never switched on). */
  readonly kind: IndexKind;
  /** Descriptions without their boundary clauses ("Do NOT use for …"), kept in their own field. */
  readonly boundaryClausesStripped: boolean;
  /** Bodies without the template lines a library's templated families repeat. */
  readonly templateLinesRemoved: boolean;
}

/** One frozen BM25F policy: every number it ranks with, and where each was chosen. */
export interface Bm25fParams {
  readonly kind: 'bm25f';
  /** The policy id, as every search result and generation names it. */
  readonly id: string;
  readonly analyzer: AnalyzerOptions;
  readonly document: DocumentOptions;
  /** Term-frequency saturation. */
  readonly K1: number;
  /** Field weights and length normalisation, in BM25F_FIELDS order. */
  readonly WEIGHTS: PerField;
  readonly B: PerField;
  /** Added when the query's terms are exactly the skill's name terms. */
  readonly NAME_BONUS: number;
  /** Added when the skill's name terms (two or more) appear in the request as a contiguous run. */
  readonly NAME_PHRASE_BONUS: number;
  /** Share of a request's BM25 over a skill's boundary clauses taken off its score, and its `b`. */
  readonly BOUNDARY_WEIGHT: number;
  readonly BOUNDARY_B: number;
  /** Share of the BM25F of a request's excluded words taken off each skill that has them. */
  readonly EXCLUSION_WEIGHT: number;
  /** Weight of the fuzzy relevance in [0, 1]. */
  readonly FUZZY_WEIGHT: number;
  /** Multiplier of a deprecated skill. */
  readonly DEPRECATED_MULTIPLIER: number;
  /** The fitted confidence model (confidence.ts); its `floor` is the policy's default floor. */
  readonly confidence: ConfidenceModel;
  /**
   * Stages applied in order to the engine's ranking (stages/index.ts): each re-orders the top
   * `depth` candidates, so the engine ranks at least that many whatever the limit. None in v4.
   */
  readonly stages?: readonly RerankParams[];
  /**
   * Which candidates the prompt hook names (src/hook/suggest.ts): rank 1 at or above `f1`, ranks
   * 2..k at or above `f2`, stopping at the first that is not. None in v4: the hook names every
   * candidate at or above the confidence floor, at most 3.
   */
  readonly hook?: NearmissHookRule;
  /**
   * Whether the policy ranks with author examples and negative examples (docs/ranking.md §9a,
   * stages/author-evidence.ts). Off when absent (v4 is frozen).
   */
  readonly authorEvidence?: boolean;
  /** For every number above: where it was chosen, and on what figure. */
  readonly provenance: Readonly<Record<Bm25fNumber, string>> &
    Readonly<Partial<Record<'stages' | 'hook' | 'authorEvidence', string>>>;
}

/** One stage's part of a candidate's explanation (stages/index.ts). */
export interface StageExplanation {
  /** The stage's id (its parameter set, e.g. rerank-nearmiss.v1). */
  readonly stage: string;
  /** The candidate's rank (0-based) in the list the stage received. */
  readonly before: number;
  /** The stage's score, by which it ordered its top `depth`. */
  readonly score: number;
  /** The stage's features (stages/rerank-nearmiss.ts RERANK_FEATURES), by name. */
  readonly features: Readonly<Record<string, number>>;
}

/** The names of a policy's numbers (each has a provenance line). */
export type Bm25fNumber =
  | 'analyzer'
  | 'document'
  | 'K1'
  | 'WEIGHTS'
  | 'B'
  | 'NAME_BONUS'
  | 'NAME_PHRASE_BONUS'
  | 'BOUNDARY_WEIGHT'
  | 'BOUNDARY_B'
  | 'EXCLUSION_WEIGHT'
  | 'FUZZY_WEIGHT'
  | 'DEPRECATED_MULTIPLIER'
  | 'confidence';

/** Why a query word takes no part in the score. */
export type DropReason = 'stop-word' | 'filler' | 'number' | 'single-character' | 'over-limit';

/** A query word left out of the score, with the reason (shown in every explanation). */
export interface DroppedToken {
  readonly token: string;
  readonly reason: DropReason;
}

/** One number per field, by name (an explanation's view of a PerField). */
export type FieldNumbers = { readonly [F in (typeof BM25F_FIELDS)[number]]: number };

/** What a BM25F policy needs to know about one skill for one query. */
export interface Bm25fFeatures {
  /** Distinct query words that score, in query order, and their terms, aligned. */
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

/** One query term's part of the score: its frequency per field and in the boundary clauses. */
export interface TermExplanation {
  readonly token: string;
  readonly term: string;
  readonly df: number;
  readonly idf: number;
  readonly tf: FieldNumbers & { readonly boundary: number };
  readonly points: number;
}

/** A named additive part of `base`, for drawing. */
export interface Component {
  readonly name: string;
  readonly points: number;
}

/**
 * Every component of a BM25F score: the one explanation shape the CLI, MCP, the explorer and the
 * confidence code read, whatever the parameter set.
 */
export interface Bm25fExplanation extends PolicyExplanation {
  readonly dropped_tokens: readonly DroppedToken[];
  readonly terms: readonly TermExplanation[];
  /** Each field's share of the BM25F sum (a term's points split by its fields' weighted frequencies). */
  readonly fields: FieldNumbers;
  readonly bm25f: number;
  readonly name_bonus: { readonly applies: boolean; readonly points: number };
  readonly name_phrase: { readonly applies: boolean; readonly points: number };
  readonly fuzzy: FuzzyExplanation;
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
  /** The parts of `base`, for drawing: the five fields, the bonuses, fuzzy, and what lowers it. */
  readonly components: readonly Component[];
  /** What each of the policy's stages did to this candidate (absent past a stage's depth, and in v4). */
  readonly stages?: readonly StageExplanation[];
}

/** One term's BM25F contribution: idf × tf~ / (k1 + tf~). */
export function bm25fContribution(tfTilde: number, termIdf: number, k1: number): number {
  return tfTilde > 0 ? (termIdf * tfTilde) / (k1 + tfTilde) : 0;
}

// Each parameter set's field weights and b as plain arrays, made once per set. A parameter set is
// deeply frozen, and V8 keeps a frozen array's numbers boxed: the per-posting loop reading them
// made a 10,000-skill search ~12 % slower in CPU than when the arrays were plain
// (bench/search-ab.ts). Only the scoring arithmetic reads these copies, never changes them.
const plainFields = new WeakMap<
  Bm25fParams,
  { readonly weights: PerField; readonly b: PerField }
>();

/** `p.WEIGHTS` and `p.B` as plain (unfrozen) arrays for the scoring loops; the same per set. */
export function fieldArrays(p: Bm25fParams): { readonly weights: PerField; readonly b: PerField } {
  let f = plainFields.get(p);
  if (!f) {
    f = { weights: [...p.WEIGHTS] as PerField, b: [...p.B] as PerField };
    plainFields.set(p, f);
  }
  return f;
}

/** The BM25F sum of the query terms over one skill's fields, unrounded. */
export function bm25fSum(f: Bm25fFeatures, p: Bm25fParams): number {
  let sum = 0;
  const { weights, b } = fieldArrays(p);
  for (let i = 0; i < f.queryTerms.length; i++) {
    const x = bm25fFrequency(f.tf[i]!, f.lens, f.avgLens, weights, b);
    sum += bm25fContribution(x, bm25Idf(f.df[i]!, f.docs), p.K1);
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

/** True when `name` (two terms or more) occurs in `sequence` as a contiguous run, in order. */
export function namePhraseApplies(name: readonly string[], sequence: readonly string[]): boolean {
  if (name.length < 2) return false;
  outer: for (let i = 0; i + name.length <= sequence.length; i++) {
    for (let j = 0; j < name.length; j++) if (sequence[i + j] !== name[j]) continue outer;
    return true;
  }
  return false;
}

/** The fuzzy part of the base: FUZZY_WEIGHT × mean similarity of the best near term per unknown word. */
export function bm25fFuzzyPart(
  matches: readonly FuzzyMatch[],
  queryTerms: number,
  p: Bm25fParams,
): number {
  if (queryTerms === 0 || matches.length === 0) return 0;
  return (p.FUZZY_WEIGHT * matches.reduce((s, m) => s + fuzzySimilarity(m), 0)) / queryTerms;
}

/**
 * What the engine knows of a row before it reads it: its accumulated BM25F sum, how many query
 * terms its name holds, how many distinct terms its name has, its fuzzy matches and its state.
 */
export interface PartialRow {
  readonly sum: number;
  readonly nameHits: number;
  readonly nameTerms: number;
  readonly queryTerms: number;
  readonly fuzzy: readonly FuzzyMatch[] | undefined;
  readonly state: SkillState;
}

/**
 * The upper bound of a row's base times its lifecycle multiplier (`score`'s `final` before the
 * telemetry multiplier, which the engine bounds itself): the BM25F sum, each bonus where it can
 * still apply — the exact-name bonus when every query term is in the name and the name has no other
 * term; the name phrase when the name has two terms or more, all of them in the query — and the
 * exact fuzzy part. Boundary and exclusion points only lower a score, so they are left out.
 */
export function bound(r: PartialRow, p: Bm25fParams): number {
  let b = r.sum;
  if (r.nameHits === r.queryTerms && r.nameTerms === r.queryTerms) b += p.NAME_BONUS;
  if (r.nameTerms >= 2 && r.nameHits === r.nameTerms) b += p.NAME_PHRASE_BONUS;
  if (r.fuzzy) b += bm25fFuzzyPart(r.fuzzy, r.queryTerms, p);
  return b * lifecycleMultiplierOf(r.state, p.DEPRECATED_MULTIPLIER);
}

// The BM25 of the boundary clauses for the query terms (BOUNDARY_WEIGHT not applied).
function boundaryBm25(f: Bm25fFeatures, p: Bm25fParams): number {
  const avg = f.boundary.avgLen > 0 ? f.boundary.avgLen : 1;
  const norm = 1 - p.BOUNDARY_B + (p.BOUNDARY_B * f.boundary.len) / avg;
  let sum = 0;
  f.boundary.tf.forEach((tf, i) => {
    if (tf > 0) sum += bm25fContribution(tf / norm, bm25Idf(f.df[i]!, f.docs), p.K1);
  });
  return sum;
}

// The BM25F of the excluded words over the skill's fields (EXCLUSION_WEIGHT not applied).
function exclusionBm25f(f: Bm25fFeatures, p: Bm25fParams): number {
  let sum = 0;
  const { weights, b } = fieldArrays(p);
  f.exclusion.terms.forEach((_, i) => {
    const x = bm25fFrequency(f.exclusion.tf[i]!, f.lens, f.avgLens, weights, b);
    sum += bm25fContribution(x, bm25Idf(f.exclusion.df[i]!, f.docs), p.K1);
  });
  return sum;
}

/** Scores one skill for one query under the parameter set `p`, with every component explained. */
export function score(f: Bm25fFeatures, p: Bm25fParams): Bm25fExplanation {
  const { terms, fields } = explainTerms(f, p);
  const bonus = nameBonusApplies(f.queryTerms, f.nameTerms);
  const bonusPoints = bonus ? p.NAME_BONUS : 0;
  const fuzzy = bm25fFuzzyPart(f.fuzzy, f.queryTerms.length, p);
  const fuzzyShown = {
    matches: f.fuzzy,
    relevance: round(fuzzy / p.FUZZY_WEIGHT),
    weight: p.FUZZY_WEIGHT,
    weighted: round(fuzzy),
  };
  const phrase = namePhraseApplies(f.nameSequence, f.querySequence);
  const phrasePoints = phrase ? p.NAME_PHRASE_BONUS : 0;
  const boundary = p.BOUNDARY_WEIGHT * boundaryBm25(f, p);
  const exclusion = p.EXCLUSION_WEIGHT * exclusionBm25f(f, p);
  // The positive part (BM25F + bonuses + fuzzy) is what `bound` bounds: boundary and exclusion
  // points only ever lower a score.
  const positive = bm25fSum(f, p) + bonusPoints + phrasePoints + fuzzy;
  const base = Math.max(0, positive - boundary - exclusion);
  // Object.assign, not spreads: the keys in explanation order without copying (spreads cost more).
  return Object.assign(
    {
      policy: p.id,
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
      bm25f: round(fields.reduce((a, b) => a + b, 0)),
      name_bonus: { applies: bonus, points: bonusPoints },
    },
    {
      name_phrase: { applies: phrase, points: phrasePoints },
      fuzzy: fuzzyShown,
      usage: { examples: f.usageExamples, matched: f.usageMatched },
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
        ...BM25F_FIELDS.map((name, k) => ({ name, points: round(fields[k]!) })),
        { name: 'name_bonus', points: bonusPoints },
        { name: 'name_phrase', points: phrasePoints },
        { name: 'fuzzy', points: fuzzyShown.weighted },
        // Points taken off, as negative numbers (0 when none: never -0, which JSON cannot tell apart).
        { name: 'boundary', points: boundary > 0 ? round(-boundary) : 0 },
        { name: 'exclusion', points: exclusion > 0 ? round(-exclusion) : 0 },
      ],
    },
    explainMultipliers(f, p.DEPRECATED_MULTIPLIER, base),
  );
}

// Each query term's explained part of the score and each field's share of the BM25F sum (unrounded,
// BM25F_FIELDS order).
function explainTerms(
  f: Bm25fFeatures,
  p: Bm25fParams,
): { terms: TermExplanation[]; fields: number[] } {
  const fields = [0, 0, 0, 0, 0];
  const { weights, b } = fieldArrays(p);
  const terms = f.queryTerms.map((term, i): TermExplanation => {
    const tf = f.tf[i]!;
    const termIdf = bm25Idf(f.df[i]!, f.docs);
    const tfTilde = bm25fFrequency(tf, f.lens, f.avgLens, weights, b);
    const points = bm25fContribution(tfTilde, termIdf, p.K1);
    if (tfTilde > 0) {
      for (let k = 0; k < 5; k++) {
        if (tf[k] === 0) continue;
        const avg = f.avgLens[k]! > 0 ? f.avgLens[k]! : 1;
        const part = (weights[k]! * tf[k]!) / (1 - b[k]! + (b[k]! * f.lens[k]!) / avg);
        fields[k]! += (points * part) / tfTilde;
      }
    }
    return {
      token: f.queryTokens[i]!,
      term,
      df: f.df[i]!,
      idf: round(termIdf),
      // The counts and the boundary's, built at once (this runs per term of every candidate).
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
  return { terms, fields };
}
