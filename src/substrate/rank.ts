/**
 * Ranks substrate hits (docs/substrate.md), pure: by tier (decided at the index, then at the summary,
 * then at the body), then full matches before partial, then type order (anti-pattern, adr,
 * solution, vocabulary, reviewer), then ID by code point. The order is total, so the input order
 * never shows in the output.
 */
import { compareStrings } from '../text/index.js';
import { SUBSTRATE_TYPES, type MatchStrength, type StopDepth, type SubstrateHit } from './types.js';

const TIER: Readonly<Record<StopDepth, number>> = { index: 0, summary: 1, body: 2 };
const STRENGTH: Readonly<Record<MatchStrength, number>> = { full: 0, partial: 1 };

/** The comparator of the ranking; ties end on ID, then path. */
export function compareHits(a: SubstrateHit, b: SubstrateHit): number {
  return (
    TIER[a.stop_depth] - TIER[b.stop_depth] ||
    STRENGTH[a.match] - STRENGTH[b.match] ||
    SUBSTRATE_TYPES.indexOf(a.type) - SUBSTRATE_TYPES.indexOf(b.type) ||
    compareStrings(a.id, b.id) ||
    compareStrings(a.path ?? '', b.path ?? '')
  );
}

/** A new array of `hits` in rank order. */
export function rankHits(hits: readonly SubstrateHit[]): SubstrateHit[] {
  return [...hits].sort(compareHits);
}
