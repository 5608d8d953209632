/**
 * The prompt hook's rule of each policy (src/hook/suggest.ts, docs/integration.md "Prompt hook"):
 * how many candidates it names and the confidence each must reach. A BM25F policy with a `hook` in
 * its parameter set (v5: NEARMISS_HOOK_RULE, docs/ranking.md §12–§13) names rank 1 at or above
 * `f1` and ranks 2..k at or above `f2`, stopping at the first that is not, and nothing for small
 * talk (`silent_on_small_talk`); every other policy (v1,
 * v4) keeps the rule the hook had before policies carried one: every candidate at or above the
 * policy's confidence floor, at most 3.
 */
import { identifierTokens, isStopWord } from '../../../text/index.js';
import { POLICIES } from './index.js';
import { CONFIDENCE_MODELS } from './confidence-models.js';

/** Which candidates of an answer the prompt hook names. */
export interface HookRule {
  /** The confidence rank 1 must reach. */
  readonly f1: number;
  /** The confidence ranks 2..k must reach. */
  readonly f2: number;
  /** Most candidates named. */
  readonly k: number;
  /**
   * True: stop at the first candidate below its floor (v5's rule, as bench/nearmiss.ts chose it);
   * false: skip it and look at the next (v1 and v4).
   */
  readonly contiguous: boolean;
  /** Name nothing for a request made only of small talk (isSmallTalk). */
  readonly smallTalk: boolean;
}

/**
 * Words of greetings, thanks, acknowledgements and small talk (English). Not fitted: a request
 * made only of these and stop-words is chit-chat, whatever a skill's body says ("hi there",
 * "thanks!", "what time is it", "good morning", "how are you doing today").
 */
export const SMALL_TALK: ReadonlySet<string> = new Set(
  (
    'hi hello hey hiya howdy yo sup greetings morning afternoon evening night good day ' +
    'thanks thank thx ty cheers appreciate appreciated much lot ok okay k kk cool great nice ' +
    'awesome perfect fine sure yes yeah yep no nope nah lol haha wow welcome sorry bye goodbye ' +
    'later see soon time today date weather hows doing going well how are you thx np'
  ).split(' '),
);

/** True when every word of `query` is a stop-word or small talk (SMALL_TALK), and it has one. */
export function isSmallTalk(query: string): boolean {
  const words = identifierTokens(query.toLowerCase()).filter((w) => !isStopWord(w));
  return words.length > 0 && words.every((w) => SMALL_TALK.has(w));
}

/** How many candidates the hook names under a policy without its own rule. */
export const DEFAULT_HOOK_NAMES = 3;

/** The hook's rule under the policy `id` (an unknown id: floor 0, as a search without a model). */
export function hookRuleOf(id: string): HookRule {
  const p = POLICIES.get(id);
  if (p?.kind === 'bm25f' && p.hook !== undefined)
    return {
      f1: p.hook.f1,
      f2: p.hook.f2,
      k: p.hook.k,
      contiguous: true,
      smallTalk: p.hook.silent_on_small_talk === true,
    };
  const floor = CONFIDENCE_MODELS.get(id)?.floor ?? 0;
  return { f1: floor, f2: floor, k: DEFAULT_HOOK_NAMES, contiguous: false, smallTalk: false };
}
