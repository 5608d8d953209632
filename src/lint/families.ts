/**
 * Near-duplicate families in near-linear time (pure; issue #25: lint was quadratic in identical
 * descriptions). A family is a group of skills whose word sets are linked by Jaccard ≥ a threshold.
 * Comparing every pair (or even every pair AllPairs keeps) costs n² on a templated library, where
 * every member resembles every other; this module never enumerates pairs:
 *
 * 1. Exact duplicates are hashed: identical word sets join one family at once (Jaccard 1) and only
 *    one representative goes on.
 * 2. Representatives get a MinHash signature (SIGNATURE hash functions, BANDS bands of ROWS rows:
 *    Broder 1997; Leskovec, Rajaraman and Ullman, "Mining of Massive Datasets", ch. 3). Two sets
 *    with Jaccard J share a band with probability 1 − (1 − J^ROWS)^BANDS: 0.9998 at 0.8, 0.64 at
 *    0.5, 0.12 at 0.3.
 * 3. In each band's buckets, a set visits the most recent earlier members (MAX_VISITS; members of
 *    its own family are passed without a check); a verified link (true Jaccard ≥ threshold) joins
 *    the two families (union-find). A member of a big family joins it at its first visit.
 * 4. A straggler (a set left alone or in a pair: its links may lie past the visit cap of a crowded
 *    bucket) is compared with the sets that share one of its rarest words (prefix filtering), within
 *    a per-straggler and a global budget of checks.
 *
 * Every link is verified, so a family never holds two sets that no chain of true near-duplicates
 * joins; identical sets always share a family. A set whose every true link misses the shared
 * buckets and lies past the straggler budgets stays out of its family (none on the 1,206-skill real
 * corpus: the families equal the brute-force ones), and two families of three or more joined only
 * by a link no band shares stay apart. Work is O(n · BANDS · MAX_VISITS) set comparisons plus the
 * bounded straggler pass. Deterministic: fixed hash seeds, input order.
 *
 * Up to EXACT_UP_TO distinct sets (most libraries) every pair of them is compared instead of steps
 * 2–4, so the families are exactly the brute-force ones.
 */
import { fnv1a } from '../text/index.js';

/** Hash functions per signature. */
const SIGNATURE = 64;
/** Rows per band; BANDS × ROWS = SIGNATURE. */
const ROWS = 4;
const BANDS = SIGNATURE / ROWS;
/**
 * Bucket members a set visits per band (from the most recent back), and how many more once it has
 * joined a family: what it could still find further back is a bridge to another family, which
 * other bands and buckets offer too.
 */
const MAX_VISITS = 32;
const VISITS_AFTER_LINK = 4;
/** Candidates a straggler visits in the postings of its rarest words, and the checks it makes. */
const STRAGGLER_VISITS = 4096;
const STRAGGLER_CHECKS = 1024;
/** Checks all stragglers together may make: bounds a crowd of sets that resemble without linking. */
const STRAGGLER_BUDGET = 200_000;
/**
 * Most distinct sets compared pair by pair (exact families): 512 sets are at most 130,816 checks,
 * most of them ended by the size bound, against MinHash's 16 bands × up to 32 visits a set.
 */
export const EXACT_UP_TO = 512;

/** One verified link between two sets (indexes into the input, i < j) and its Jaccard. */
export interface FamilyLink {
  readonly i: number;
  readonly j: number;
  readonly jaccard: number;
}

/** A family: its members (input indexes, ascending) and the links that joined them. */
export interface NearDuplicateFamily {
  readonly members: readonly number[];
  readonly links: readonly FamilyLink[];
}

// The sets as sorted arrays of word ids, each word's hash, and the union-find being built.
interface Work {
  readonly ids: readonly (Int32Array | undefined)[];
  readonly hashes: readonly number[];
  readonly uf: UnionFind;
  readonly threshold: number;
  readonly links: FamilyLink[];
}

/**
 * The families of two or more sets among `sets` whose Jaccard links reach `threshold`
 * (0 < threshold ≤ 1), ordered by their first member. Sets with fewer than `minSize` distinct
 * words are left out. Up to `exactUpTo` distinct sets every pair is compared (the tests pass 0 to
 * hold the MinHash passes to their invariants on small inputs).
 */
export function nearDuplicateFamilies(
  sets: readonly (readonly string[])[],
  threshold: number,
  minSize = 1,
  exactUpTo = EXACT_UP_TO,
): NearDuplicateFamily[] {
  if (!(threshold > 0 && threshold <= 1))
    throw new RangeError(`threshold must be in (0, 1], got ${threshold}`);
  const wordId = new Map<string, number>();
  const hashes: number[] = [];
  const ids = sets.map((s) => {
    const distinct = new Set(s);
    if (distinct.size < Math.max(1, minSize)) return undefined;
    const out = new Int32Array(distinct.size);
    let k = 0;
    for (const w of distinct) {
      let id = wordId.get(w);
      if (id === undefined) {
        wordId.set(w, (id = hashes.length));
        hashes.push(fnv1a(w));
      }
      out[k++] = id;
    }
    return out.sort();
  });
  const work: Work = { ids, hashes, uf: new UnionFind(sets.length), threshold, links: [] };
  const reps = exactPass(work);
  if (reps.length <= exactUpTo) {
    for (let a = 0; a < reps.length; a++)
      for (let b = a + 1; b < reps.length; b++) link(work, reps[a]!, reps[b]!);
  } else {
    bucketPass(work, reps);
    stragglerPass(work, reps);
  }
  return collect(sets.length, work.uf, work.links);
}

// Phase 1: identical sets join the first of them; the first of each distinct set is returned.
function exactPass(w: Work): number[] {
  const reps: number[] = [];
  const byKey = new Map<string, number>();
  w.ids.forEach((set, i) => {
    if (set === undefined) return;
    const key = set.join(',');
    const first = byKey.get(key);
    if (first === undefined) {
      byKey.set(key, i);
      reps.push(i);
    } else {
      w.uf.union(first, i);
      w.links.push({ i: first, j: i, jaccard: 1 });
    }
  });
  return reps;
}

// Links x and y when they are in different families and their Jaccard reaches the threshold; true
// when they are (now or already) in one family.
function link(w: Work, x: number, y: number): boolean {
  if (w.uf.find(x) === w.uf.find(y)) return true;
  const sim = jaccardAtLeast(w.ids[x]!, w.ids[y]!, w.threshold);
  if (sim === undefined) return false;
  w.uf.union(x, y);
  w.links.push({ i: Math.min(x, y), j: Math.max(x, y), jaccard: sim });
  return true;
}

// Phase 2: MinHash bands. In each band, a set is linked to the earlier members of its bucket that
// are not in its family yet, visiting at most MAX_VISITS of them.
function bucketPass(w: Work, reps: readonly number[]): void {
  const signatures = new Map(reps.map((i) => [i, minHashOf(w.ids[i]!, w.hashes)]));
  for (let band = 0; band < BANDS; band++) {
    const buckets = new Map<number, number[]>();
    for (const m of reps) {
      // The band's rows hashed to one number: a collision only adds members to check.
      const sig = signatures.get(m)!;
      let key = band;
      for (let r = band * ROWS; r < band * ROWS + ROWS; r++) key = fmix32(key ^ sig[r]!) + r;
      const bucket = buckets.get(key);
      if (bucket === undefined) {
        buckets.set(key, [m]);
        continue;
      }
      let left = MAX_VISITS;
      for (let k = bucket.length - 1; k >= 0 && left > 0; k--, left--)
        if (link(w, bucket[k]!, m)) left = Math.min(left, VISITS_AFTER_LINK);
      bucket.push(m);
    }
  }
}

// Phase 4: a set left alone or in a pair is compared with the sets that share one of its rarest
// words. Prefix filtering (Bayardo, Ma and Srikant, "Scaling up all pairs similarity search",
// 2007): with words ordered rarest first, two sets with Jaccard ≥ t share a word among the first
// |s| − ⌈t·|s|⌉ + 1 of each.
function stragglerPass(w: Work, reps: readonly number[]): void {
  const size = new Map<number, number>();
  for (const r of reps) size.set(w.uf.find(r), (size.get(w.uf.find(r)) ?? 0) + 1);
  const stragglers = reps.filter((r) => (size.get(w.uf.find(r)) ?? 0) <= 2);
  if (stragglers.length === 0) return;
  const df = new Int32Array(w.hashes.length);
  for (const r of reps) for (const id of w.ids[r]!) df[id]!++;
  const prefixOf = (r: number): number[] => {
    const set = [...w.ids[r]!].sort((a, b) => df[a]! - df[b]! || a - b);
    return set.slice(0, set.length - Math.ceil(w.threshold * set.length - 1e-9) + 1);
  };
  const postings = new Map<number, number[]>();
  for (const r of reps)
    for (const id of prefixOf(r)) {
      const list = postings.get(id);
      if (list) list.push(r);
      else postings.set(id, [r]);
    }
  let budget = STRAGGLER_BUDGET;
  for (const m of stragglers) {
    let visits = 0;
    let checks = 0;
    const seen = new Set<number>([m]);
    scan: for (const id of prefixOf(m)) {
      for (const c of postings.get(id) ?? []) {
        if (++visits > STRAGGLER_VISITS || checks >= STRAGGLER_CHECKS || budget <= 0) break scan;
        if (seen.has(c) || w.uf.find(c) === w.uf.find(m)) continue;
        seen.add(c);
        checks++;
        budget--;
        link(w, c, m);
      }
    }
  }
}

// The families (two or more members) of the union-find, with their links, by first member.
function collect(n: number, uf: UnionFind, links: readonly FamilyLink[]): NearDuplicateFamily[] {
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = uf.find(i);
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [i]);
  }
  const linksOf = new Map<number, FamilyLink[]>();
  for (const l of links) {
    const r = uf.find(l.i);
    const list = linksOf.get(r);
    if (list) list.push(l);
    else linksOf.set(r, [l]);
  }
  return [...members.entries()]
    .filter(([, m]) => m.length >= 2)
    .map(([r, m]) => ({
      members: m,
      links: (linksOf.get(r) ?? []).sort((p, q) => p.i - q.i || p.j - q.j),
    }))
    .sort((a, b) => a.members[0]! - b.members[0]!);
}

/** Jaccard similarity of two sets of words (0 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const w of small) if (large.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

// Jaccard of two sorted id arrays when it reaches `threshold`, else undefined. The size bound
// first (Jaccard ≤ min/max of the sizes), then a merge that stops once the overlap the threshold
// needs, ⌈t/(1+t)·(|a|+|b|)⌉, can no longer be reached.
function jaccardAtLeast(a: Int32Array, b: Int32Array, threshold: number): number | undefined {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  if (small.length < threshold * large.length - 1e-9) return undefined;
  const need = Math.ceil((threshold / (1 + threshold)) * (a.length + b.length) - 1e-9);
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (shared + Math.min(a.length - i, b.length - j) < need) return undefined;
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  const sim = shared / (a.length + b.length - shared);
  return sim >= threshold - 1e-9 ? sim : undefined;
}

/** The MinHash signature of a set (word ids into `hashes`): per hash function, the least hash. */
function minHashOf(set: Int32Array, hashes: readonly number[]): Uint32Array {
  const sig = new Uint32Array(SIGNATURE).fill(0xffffffff);
  for (const id of set) {
    const h = hashes[id]!;
    for (let k = 0; k < SIGNATURE; k++) {
      const v = fmix32(h ^ SEEDS[k]!);
      if (v < sig[k]!) sig[k] = v;
    }
  }
  return sig;
}

// MurmurHash3's 32-bit finaliser: a bijection that spreads every input bit over the output.
function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

// Fixed seeds, one per hash function (a Weyl sequence of the golden ratio), so signatures are the
// same on every run and machine.
const SEEDS = Uint32Array.from({ length: SIGNATURE }, (_, k) => Math.imul(k + 1, 0x9e3779b9));

class UnionFind {
  private readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    let x = i;
    while (this.parent[x] !== x) {
      this.parent[x] = this.parent[this.parent[x]!]!;
      x = this.parent[x]!;
    }
    return x;
  }
  // The smaller root wins, so a family's root is its first member.
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}
