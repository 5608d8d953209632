/**
 * The semantic candidate features of bench/nearmiss-sem.ts (issue 34): word-vector similarity of
 * the request and each candidate's name + description in v4's top 10. Vectors are the IDF-weighted
 * (ln(2 + frequency rank)) mean of unit word vectors, stop-words dropped; a request word without
 * a vector counts in the soft match only by its exact presence. Then WordNet's lemma, derivation
 * and synonym coverage (bench/nearmiss-wordnet.ts).
 */
import type { RerankCandidate } from '../src/router/search/stages/rerank-nearmiss.js';
import { DIMS, lookup, semWords, variants, type WordVec } from './nearmiss-embed.js';
import { lemmasOf, type WordNet } from './nearmiss-wordnet.js';

export const SEM_FEATURES = [
  /** cos(request, name + description), IDF-weighted means. */
  'sem_cos_nd',
  /** The same with plain means (no IDF). */
  'sem_cos_nd_plain',
  /** cos(request, name). */
  'sem_cos_name',
  /** cos(request, description). */
  'sem_cos_desc',
  /** sem_cos_nd minus the best other candidate's in the top 10. */
  'sem_cos_nd_margin',
  /** sem_cos_nd standardised within the top 10. */
  'sem_cos_nd_z',
  /** Soft term match: per request word the best cosine to a name + description word, IDF-averaged. */
  'sem_soft_nd',
  /** Soft term match against the name's words only. */
  'sem_soft_name',
  /** sem_soft_nd minus the best other candidate's. */
  'sem_soft_nd_margin',
  /** sem_soft_name minus the best other candidate's. */
  'sem_soft_name_margin',
  /** sem_cos_nd between near-ties: × max(0, (share_of_top − 0.8) / 0.2). */
  'sem_cos_nd_close',
  /** sem_soft_nd between near-ties. */
  'sem_soft_nd_close',
  /** WordNet: IDF-weighted share of request words whose lemma is a lemma of a name + description word. */
  'wn_lemma_nd',
  /** … or a derivationally related form of it (fails → fail ↔ failure). */
  'wn_deriv_nd',
  /** The share matched through a derivation only (not by lemma). */
  'wn_deriv_only_nd',
  /** … or a synonym (a member of one of its synsets). */
  'wn_syn_nd',
  /** wn_deriv_nd against the name's words only. */
  'wn_deriv_name',
] as const;

export interface Bag {
  readonly words: readonly string[];
  readonly vecs: readonly WordVec[];
}

export function bag(table: ReadonlyMap<string, WordVec>, text: string): Bag {
  const words = [...new Set(semWords(text))];
  const vecs: WordVec[] = [];
  for (const w of words) {
    const v = lookup(table, w);
    if (v !== undefined) vecs.push(v);
  }
  return { words, vecs };
}

export function meanVec(b: Bag, weighted: boolean): Float32Array {
  const m = new Float32Array(DIMS);
  for (const { v, w } of b.vecs) {
    const k = weighted ? w : 1;
    for (let d = 0; d < DIMS; d++) m[d]! += k * v[d]!;
  }
  let n = 0;
  for (let d = 0; d < DIMS; d++) n += m[d]! * m[d]!;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < DIMS; d++) m[d]! /= n;
  return m;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) s += a[d]! * b[d]!;
  return s;
}

/** IDF-weighted mean over request words of the best cosine to any word of `b`. */
export function soft(table: ReadonlyMap<string, WordVec>, q: Bag, b: Bag): number {
  // Exact presence, up to an inflection (worktree / worktrees, which the table lacks).
  const have = new Set(b.words.flatMap((t) => [t, ...variants(t)]));
  let num = 0;
  let den = 0;
  for (const w of q.words) {
    const qv = lookup(table, w);
    const weight = qv?.w ?? Math.log(2 + 341479);
    let best = have.has(w) || variants(w).some((v) => have.has(v)) ? 1 : 0;
    if (qv !== undefined) for (const t of b.vecs) best = Math.max(best, dot(qv.v, t.v));
    num += weight * best;
    den += weight;
  }
  return den > 0 ? num / den : 0;
}

/** WordNet coverage of the request by `b`: by lemma, lemma or derivation, derivation only, or synonym. */
function wnShares(
  table: ReadonlyMap<string, WordVec>,
  wn: WordNet,
  q: Bag,
  b: Bag,
): { lemma: number; deriv: number; derivOnly: number; syn: number } {
  const c = new Set(b.words.flatMap((t) => lemmasOf(wn, t)));
  const any = (m: ReadonlyMap<string, ReadonlySet<string>>, ls: readonly string[]): boolean =>
    ls.some((l) => [...(m.get(l) ?? [])].some((x) => c.has(x)));
  const sum = { lemma: 0, deriv: 0, derivOnly: 0, syn: 0 };
  let den = 0;
  for (const w of q.words) {
    const weight = lookup(table, w)?.w ?? Math.log(2 + 341479);
    const ls = lemmasOf(wn, w);
    const lemma = ls.some((l) => c.has(l));
    const deriv = lemma || any(wn.deriv, ls);
    const syn = deriv || any(wn.syn, ls);
    den += weight;
    if (lemma) sum.lemma += weight;
    if (deriv) sum.deriv += weight;
    if (deriv && !lemma) sum.derivOnly += weight;
    if (syn) sum.syn += weight;
  }
  const d = den || 1;
  return {
    lemma: sum.lemma / d,
    deriv: sum.deriv / d,
    derivOnly: sum.derivOnly / d,
    syn: sum.syn / d,
  };
}

const margins = (xs: readonly number[]): number[] =>
  xs.map((x, i) => x - Math.max(...xs.filter((_, j) => j !== i), x));

/** The SEM_FEATURES of each candidate of `list` (v4's top 10) for `query`; `share` = share_of_top. */
export function semFeatures(
  table: ReadonlyMap<string, WordVec>,
  wn: WordNet | undefined,
  list: readonly RerankCandidate[],
  query: string,
  share: readonly number[],
): number[][] {
  const q = bag(table, query);
  const qw = meanVec(q, true);
  const qp = meanVec(q, false);
  const rows = list.map((c) => {
    const name = bag(table, c.name.replace(/[-_:]+/g, ' '));
    const desc = bag(table, c.description);
    const nd: Bag = {
      words: [...new Set([...name.words, ...desc.words])],
      vecs: [...name.vecs, ...desc.vecs],
    };
    return {
      nd: dot(qw, meanVec(nd, true)),
      plain: dot(qp, meanVec(nd, false)),
      name: dot(qw, meanVec(name, true)),
      desc: dot(qw, meanVec(desc, true)),
      softNd: soft(table, q, nd),
      softName: soft(table, q, name),
      wn: wn ? wnShares(table, wn, q, nd) : { lemma: 0, deriv: 0, derivOnly: 0, syn: 0 },
      wnName: wn ? wnShares(table, wn, q, name).deriv : 0,
    };
  });
  const nd = rows.map((r) => r.nd);
  const mean = nd.reduce((a, b) => a + b, 0) / (nd.length || 1);
  const sd = Math.sqrt(nd.reduce((a, b) => a + (b - mean) ** 2, 0) / (nd.length || 1)) || 1;
  const mNd = margins(nd);
  const mSoft = margins(rows.map((r) => r.softNd));
  const mSoftName = margins(rows.map((r) => r.softName));
  return rows.map((r, i) => {
    const close = Math.max(0, (share[i]! - 0.8) / 0.2);
    return [
      r.nd,
      r.plain,
      r.name,
      r.desc,
      mNd[i]!,
      (r.nd - mean) / sd,
      r.softNd,
      r.softName,
      mSoft[i]!,
      mSoftName[i]!,
      r.nd * close,
      r.softNd * close,
      r.wn.lemma,
      r.wn.deriv,
      r.wn.derivOnly,
      r.wn.syn,
      r.wnName,
    ];
  });
}
