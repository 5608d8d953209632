/**
 * A BM25F policy's stages (docs/ranking.md §13): what runs on the engine's ranking before the
 * answer is cut to the request's limit. Today one kind, the near-miss re-rank
 * (rerank-nearmiss.ts): it re-orders the engine's top `depth` and each candidate it re-ordered
 * carries the stage's part in `explanation.stages`. The engines call `applyStages` on their sorted
 * list (fast path and brute force alike, so the property tests hold them equal) and rank at least
 * `stageDepth` candidates whatever the limit, so a stage always sees the same list. A policy
 * without stages (v4) is unchanged: `applyStages` returns the list itself.
 *
 * Also the confidences of a model over a re-ranked list (`nearmissBoundedConfidences`), under the
 * trust bound as confidence.ts bounds the list-based model.
 *
 * Pure: no I/O; skill text is only tokenised and compared.
 */
import type { Bm25fExplanation, Bm25fParams, StageExplanation } from '../policies/bm25f-core.js';
import type { ConfidenceModel } from '../policies/types.js';
import type { RankedCandidate } from '../types.js';
import {
  RERANK_FEATURES,
  nearmissConfidenceFeatures,
  nearmissConfidenceOf,
  rerankFeatures,
  rerankNearMiss,
  type RerankCandidate,
  type Reranked,
} from './rerank-nearmiss.js';

/** How many candidates the engine must rank for `params`'s stages (0 without stages). */
export function stageDepth(params: Bm25fParams): number {
  return Math.max(0, ...(params.stages ?? []).map((s) => s.depth));
}

/**
 * `sorted` (the engine's ranking, best first) after each of `params.stages` in order; `text` is the
 * request as given. Candidates a stage re-ordered carry its part in `explanation.stages`.
 */
export function applyStages(
  params: Bm25fParams,
  text: string,
  sorted: readonly RankedCandidate[],
): RankedCandidate[] {
  let list = [...sorted];
  for (const stage of params.stages ?? []) {
    const ranked = rerankNearMiss(text, list as unknown as readonly RerankedInput[], stage);
    list = ranked.map((r) => {
      const c = r.candidate as unknown as RankedCandidate;
      if (r.rerank === null) return c;
      const e = c.explanation as Bm25fExplanation;
      const part: StageExplanation = {
        stage: stage.id,
        before: r.before,
        score: r.rerank,
        features: Object.fromEntries(RERANK_FEATURES.map((n, j) => [n, round(r.features[j]!)])),
      };
      return { ...c, explanation: { ...e, stages: [...(e.stages ?? []), part] } };
    });
  }
  return list;
}

// A ranked BM25F candidate is a RerankCandidate (its explanation has every part the stage reads).
type RerankedInput = RerankCandidate & RankedCandidate;

const round = (v: number): number => Math.round(v * 1e4) / 1e4;

// The share of a candidate's BM25F points from body and usage (rerank-nearmiss.ts `body_share`),
// for a candidate past the stage's depth, which has no stage part to read it from.
function bodyShare(e: Bm25fExplanation): number {
  const f = e.fields;
  const total = f.name + f.keywords + f.description + f.body + f.usage;
  return total > 0 ? (f.body + f.usage) / total : 0;
}

// `list` as the stage's output: each candidate the stage re-ordered with its stage score and its
// features recomputed exactly over the list the stage received (its explanation shows them
// rounded), and past the depth no score and only its own body share.
function asReranked(text: string, list: readonly RankedCandidate[]): Reranked<RerankedInput>[] {
  const bodyAt = RERANK_FEATURES.indexOf('body_share');
  const partOf = (c: RankedCandidate): StageExplanation | undefined => {
    const s = (c.explanation as Bm25fExplanation).stages;
    return s?.[s.length - 1];
  };
  const head = list
    .filter((c) => partOf(c) !== undefined)
    .sort((a, b) => partOf(a)!.before - partOf(b)!.before);
  const exact = new Map(
    rerankFeatures(head as unknown as readonly RerankedInput[], text).map((x, j) => [head[j]!, x]),
  );
  return list.map((c, i) => {
    const part = partOf(c);
    const features =
      exact.get(c) ??
      RERANK_FEATURES.map((_, j) =>
        j === bodyAt ? bodyShare(c.explanation as Bm25fExplanation) : 0,
      );
    return {
      candidate: c as RerankedInput,
      before: part?.before ?? i,
      rerank: part?.score ?? null,
      features,
    };
  });
}

/**
 * The confidence of each of `list` (the engine's answer after the stages and the trust bound, same
 * order) under a `nearmiss` model (rerank-nearmiss.ts NEARMISS_CONFIDENCE_FEATURES), never above
 * the confidence of a candidate ranked before it, and bounded as confidence.ts bounds the
 * list-based model: the candidates the trust bound did not hold back are
 * judged as the list without the held-back ones; a held-back one is capped just below `floor`.
 */
export function nearmissBoundedConfidences(
  model: ConfidenceModel,
  text: string,
  list: readonly RankedCandidate[],
  floor: number,
  heldBack: (c: RankedCandidate) => boolean,
): number[] {
  const kept = asReranked(
    text,
    list.filter((c) => !heldBack(c)),
  );
  // Non-increasing down the list: a skill ranked lower is never more likely the one than a skill
  // ranked above it. The model reads the last candidate's lead over nothing as a full lead, which
  // on a short list (a small library) gave the last one more than the first ("fix the text" over
  // 5 skills: rank 1 0.34, rank 2 0.81) and kept the answer from abstaining. Rank 1 and any
  // candidate the hook's rule names are unchanged (its floors only fall down the list).
  let above = 1;
  const own = new Map(
    kept.map((r, i) => {
      const x = nearmissConfidenceFeatures(text, kept, i);
      above = Math.min(above, nearmissConfidenceOf(model, x));
      return [r.candidate as RankedCandidate, above] as const;
    }),
  );
  const all = asReranked(text, list);
  const cap = Math.max(0, Math.round((floor - 1e-4) * 1e4) / 1e4);
  return list.map(
    (c, i) =>
      own.get(c) ??
      Math.min(cap, nearmissConfidenceOf(model, nearmissConfidenceFeatures(text, all, i))),
  );
}
