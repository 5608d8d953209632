/**
 * RankedCandidate order and the bounded top-k list both search engines (lexical and BM25F) keep: score
 * descending, ties by skill_id ascending (docs/integration.md §2).
 */
import type { RankedCandidate } from './types.js';

/** Orders candidates: score descending, then skill_id ascending. */
export function compareCandidates(a: RankedCandidate, b: RankedCandidate): number {
  return b.score - a.score || (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0);
}

/** The k best candidates offered so far, in compareCandidates order; a score of 0 never enters. */
export class TopK {
  private items: RankedCandidate[] = [];
  constructor(private readonly k: number) {}
  /** True once k candidates are held. */
  full(): boolean {
    return this.items.length >= this.k;
  }
  /** The k-th (lowest) score held, 0 when empty. */
  worst(): number {
    return this.items[this.items.length - 1]?.score ?? 0;
  }
  /** The skill_id of the k-th candidate held ('' when empty). */
  worstId(): string {
    return this.items[this.items.length - 1]?.skill_id ?? '';
  }
  /** Offers one candidate. */
  offer(c: RankedCandidate): void {
    if (c.score <= 0) return;
    if (this.full() && compareCandidates(c, this.items[this.items.length - 1]!) >= 0) return;
    let i = this.items.length;
    while (i > 0 && compareCandidates(c, this.items[i - 1]!) < 0) i--;
    this.items.splice(i, 0, c);
    if (this.items.length > this.k) this.items.pop();
  }
  /** The candidates held, best first. */
  sorted(): RankedCandidate[] {
    return [...this.items];
  }
}
