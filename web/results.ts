/**
 * The ranked results of one search as the agent gets them: rank, id, version, state, confidence
 * (muted below the answer's floor; a note when the answer abstains), score, the explanation as a
 * stacked bar of its components (scaled to the best base in the list; those that take points off,
 * v4's boundary and exclusion, striped over its end) with its multipliers, and the name and
 * description with matched words highlighted through text nodes, and the skill's own examples
 * that matched the request (`explanation.author`: each with its source and polarity, as text).
 * A component's colour comes from its name (palette.ts); the page shows one legend for every
 * result on it (`componentLegend`), each card lists its components' points as text.
 */
import { fmt, h, link } from './dom.js';
import { componentColour, legendOrder } from './palette.js';
import {
  authorEvidence,
  droppedTokens,
  explanationMultipliers,
  explanationPenalties,
  explanationSegments,
  highlightRuns,
  matchedTokens,
  queryTokensOf,
} from './explain.js';
import type { Segment } from './explain.js';
import type { Candidate, SearchResult } from './types.js';

/**
 * The page's one legend: a swatch and the name of every component the candidates of `results`
 * score with (the components of every policy shown, for the compare view), in legend order.
 */
export function componentLegend(results: readonly SearchResult[]): HTMLElement {
  const candidates = results.flatMap((r) => r.candidates);
  const penalties = new Set(
    candidates.flatMap((c) => explanationPenalties(c.explanation).map((s) => s.name)),
  );
  const names = legendOrder(
    candidates.flatMap((c) =>
      [...explanationSegments(c.explanation), ...explanationPenalties(c.explanation)].map(
        (s) => s.name,
      ),
    ),
  );
  return h(
    'div',
    { class: 'legend page-legend', attrs: { id: 'legend', 'aria-label': 'score components' } },
    names.map((n) =>
      penalties.has(n)
        ? h('span', { attrs: { 'data-component': n } }, swatch(n, true), `− ${n}`)
        : h('span', { attrs: { 'data-component': n } }, swatch(n), n),
    ),
  );
}

// A legend swatch; a striped one for a component that takes points off.
function swatch(name: string, penalty = false): HTMLElement {
  const el = h('i', { class: penalty ? 'swatch penalty' : 'swatch' });
  // Set through the CSSOM: the page's Content-Security-Policy allows no inline style attribute.
  el.style.backgroundColor = componentColour(name);
  return el;
}

/** Renders `result` (one search) as a list of result cards, with the dropped tokens above. */
export function renderResults(result: SearchResult): HTMLElement {
  const meta = resultMeta(result);
  if (result.candidates.length === 0)
    return h(
      'div',
      {},
      meta,
      h('p', { class: 'empty' }, 'No candidate: the agent would get an empty list for this query.'),
    );
  const maxBase = Math.max(
    1e-9,
    ...result.candidates.map((c) =>
      explanationSegments(c.explanation).reduce((s, x) => s + x.points, 0),
    ),
  );
  return h(
    'div',
    {},
    meta,
    result.abstain === true ? abstainNote(result) : null,
    h(
      'ol',
      { class: 'results' },
      result.candidates.map((c, i) => resultCard(c, i, maxBase, result.min_confidence)),
    ),
  );
}

// The answer abstains: no candidate reaches the floor, so an agent (or the prompt hook) says nothing.
function abstainNote(result: SearchResult): HTMLElement {
  const floor = result.min_confidence;
  return h(
    'p',
    { class: 'abstain', attrs: { role: 'status' } },
    h('strong', {}, 'Abstains: '),
    `no candidate reaches the confidence floor${floor === undefined ? '' : ` ${fmtConfidence(floor)}`}, `,
    'so an agent that respects it suggests nothing for this query. The ranking is shown anyway.',
  );
}

// A confidence with two decimals ("0.96"): a probability, so three would claim too much.
function fmtConfidence(x: number): string {
  return x.toFixed(2);
}

// "confidence 0.96" beside the score; below the floor it is drawn muted.
function confidenceBadge(c: Candidate, floor: number | undefined): HTMLElement | null {
  if (typeof c.confidence !== 'number') return null;
  const below = floor !== undefined && c.confidence < floor;
  return h(
    'span',
    {
      class: below ? 'confidence below' : 'confidence',
      title:
        'estimated probability that this is the skill a person would pick' +
        (floor === undefined ? '' : ` (floor ${fmtConfidence(floor)})`),
    },
    `confidence ${fmtConfidence(c.confidence)}`,
  );
}

// The line above the cards: policy, generation, the tokens scored, dropped and matched by none.
function resultMeta(result: SearchResult): HTMLElement {
  const first = result.candidates[0]?.explanation;
  const dropped = first === undefined ? [] : droppedTokens(first);
  const used = first === undefined ? [] : queryTokensOf(first);
  const matchedAnywhere = new Set(result.candidates.flatMap((c) => matchedTokens(c.explanation)));
  const unmatched = used.filter((t) => !matchedAnywhere.has(t));
  const toks = (ts: readonly string[]): HTMLElement[] =>
    ts.map((t) => h('code', { class: 'tok' }, t));
  return h(
    'div',
    { class: 'meta' },
    h('span', {}, 'policy ', h('code', {}, result.policy)),
    h(
      'span',
      {},
      'generation ',
      h('code', { title: result.catalog_generation }, short(result.catalog_generation)),
    ),
    used.length > 0 ? h('span', {}, 'scoring tokens: ', ...toks(used)) : null,
    dropped.length > 0
      ? h(
          'span',
          { class: 'dropped' },
          'dropped: ',
          ...dropped.map((d) =>
            h('code', { class: 'tok', title: d.reason }, `${d.token} (${d.reason})`),
          ),
        )
      : null,
    unmatched.length > 0
      ? h('span', { class: 'dropped' }, 'matched by no result: ', ...toks(unmatched))
      : null,
  );
}

// One candidate: its row, description, score bar (coloured by component name) and breakdown.
function resultCard(
  c: Candidate,
  i: number,
  maxBase: number,
  floor: number | undefined,
): HTMLElement {
  const words = matchedTokens(c.explanation);
  const segments = explanationSegments(c.explanation);
  const penalties = explanationPenalties(c.explanation);
  const m = explanationMultipliers(c.explanation);
  return h(
    'li',
    { class: 'card result', attrs: { 'data-skill-id': c.skill_id } },
    h(
      'div',
      { class: 'row' },
      h('span', { class: 'rank' }, `#${i + 1}`),
      link(`/skills/${encodeURIComponent(c.skill_id)}`, highlighted(c.name, words)),
      h('code', { class: 'id' }, c.skill_id),
      h('span', { class: 'version' }, c.skill_version),
      h('span', { class: `state ${c.state}` }, c.state),
      confidenceBadge(c, floor),
      h('span', { class: 'score', title: 'final score' }, fmt(c.score)),
    ),
    h('p', { class: 'desc' }, highlighted(c.description, words)),
    scoreBar(segments, penalties, maxBase),
    h(
      'div',
      { class: 'breakdown' },
      h('span', {}, breakdownText(segments, penalties)),
      h(
        'span',
        { class: 'mult' },
        `× telemetry ${fmt(m.telemetry)} × lifecycle ${fmt(m.lifecycle)} = ${fmt(c.score)}`,
      ),
    ),
    authorLine(c),
  );
}

/**
 * The skill's own examples that matched the request (issue 34), or nothing: the effect (a lift
 * through the usage field, or a penalty factor), then each example's polarity, text (a text node),
 * source and similarity. Exported for test/explorer.
 */
export function authorLine(c: Candidate): HTMLElement | null {
  const a = authorEvidence(c.explanation);
  if (!a || a.matched.length === 0) return null;
  const effect =
    a.effect === 'penalty'
      ? `penalty ×${a.factor.toFixed(3)}`
      : a.effect === 'lift'
        ? 'lift (usage field, trust bound)'
        : 'no effect';
  return h(
    'div',
    { class: 'author-examples' },
    `examples of this skill: ${effect}: `,
    a.matched.map((e, i) =>
      h(
        'span',
        {
          class: e.polarity === 'negative' ? 'example negative' : 'example',
          attrs: { 'data-polarity': e.polarity, 'data-source': e.source },
        },
        i > 0 ? '; ' : '',
        e.polarity === 'negative' ? '− should not ' : '+ should ',
        h('q', {}, e.query),
        ` (${e.source}, ${e.similarity.toFixed(2)})`,
      ),
    ),
  );
}

// The stacked bar: a segment per component that adds points, widths scaled to `maxBase`; each
// component that takes points off (v4's boundary, exclusion) is drawn striped over the end of the
// bar, so the solid part left of the stripes is the base the multipliers apply to.
function scoreBar(
  segments: readonly Segment[],
  penalties: readonly Segment[],
  maxBase: number,
): HTMLElement {
  const pct = (points: number): number => (100 * points) / maxBase;
  const label = [
    ...segments.map((s) => `${s.name} ${fmt(s.points)}`),
    ...penalties.map((s) => `${s.name} −${fmt(-s.points)}`),
  ].join(', ');
  let end = segments.reduce((sum, s) => sum + s.points, 0);
  const off = penalties.map((s) => {
    end += s.points;
    const seg = h('span', {
      class: 'seg penalty',
      title: `${s.name}: −${fmt(-s.points)}`,
      attrs: { 'data-component': s.name },
    });
    seg.style.left = `${pct(Math.max(0, end))}%`;
    seg.style.width = `${pct(-s.points)}%`;
    seg.style.backgroundColor = componentColour(s.name);
    return seg;
  });
  const on = segments.map((s) => {
    const seg = h('span', {
      class: 'seg',
      title: `${s.name}: ${fmt(s.points)}`,
      attrs: { 'data-component': s.name },
    });
    seg.style.width = `${pct(s.points)}%`;
    seg.style.backgroundColor = componentColour(s.name);
    return seg;
  });
  return h('div', { class: 'bar', attrs: { role: 'img', 'aria-label': label } }, on, off);
}

// "name 0.4 + body 1.2 − boundary 0.3": the components in order, those that take points off last.
function breakdownText(segments: readonly Segment[], penalties: readonly Segment[]): string {
  return [
    segments.map((s) => `${s.name} ${fmt(s.points)}`).join(' + '),
    ...penalties.map((s) => `− ${s.name} ${fmt(-s.points)}`),
  ].join(' ');
}

/** `text` as a fragment of text nodes, matched words wrapped in <mark>. */
export function highlighted(text: string, words: readonly string[]): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const r of highlightRuns(text, words))
    frag.append(r.hit ? h('mark', {}, r.text) : document.createTextNode(r.text));
  return frag;
}

/** A generation or revision id shortened for display (the full id stays in the title). */
export function short(id: string): string {
  const i = id.indexOf(':');
  return i >= 0 ? id.slice(0, i + 1) + id.slice(i + 1, i + 13) : id.slice(0, 12);
}
