/**
 * The colour of each score component on the explorer page (issue 27): taken from the component's
 * name, never from its position, so `body` is the same colour on every card, in both columns of the
 * compare view and in the page's one legend. Known components of every policy (v1 and the BM25F parameter sets,
 * whose `boundary` and `exclusion` take points off) have fixed colours, no two alike; a component
 * a new policy adds gets one from a fallback palette (none of the fixed colours) chosen by a hash
 * of its name: deterministic, the same on every page. Pure, so unit tests run it.
 */

/** Fixed colours of the components the shipped policies name. */
export const COMPONENT_COLOURS: Readonly<Record<string, string>> = {
  keywords: '#4c78a8',
  name: '#f58518',
  description: '#54a24b',
  fts: '#b279a2',
  fuzzy: '#e45756',
  body: '#72b7b2',
  usage: '#eeca3b',
  name_bonus: '#9d755d',
  name_phrase: '#ff9da6',
  boundary: '#79706e',
  exclusion: '#499894',
};

/** Colours for components not in COMPONENT_COLOURS, picked by a hash of the name. */
export const FALLBACK_COLOURS: readonly string[] = [
  '#d67195',
  '#8cd17d',
  '#f1ce63',
  '#a0cbe8',
  '#ffbe7d',
  '#bab0ac',
  '#86bcb6',
];

/** The colour of component `name` (a CSS colour). */
export function componentColour(name: string): string {
  return COMPONENT_COLOURS[name] ?? FALLBACK_COLOURS[fnv1a(name) % FALLBACK_COLOURS.length]!;
}

/** `names` without repeats, in legend order: the known components in their fixed order, then the others by name. */
export function legendOrder(names: Iterable<string>): string[] {
  const known = Object.keys(COMPONENT_COLOURS);
  const rank = (n: string): number => (known.includes(n) ? known.indexOf(n) : known.length);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

// 32-bit FNV-1a over the UTF-16 code units: small, fast, and the same in every browser.
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
