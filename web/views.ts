/**
 * The explorer's search views: search (with a debounced box and `/?q=` deep links) and compare
 * policies, each with one legend of score components for the whole page. The other views have a
 * file each (skill-view.ts, overview-view.ts, cascade-view.ts, substrate-view.ts). Each reads the
 * JSON API and builds DOM with `h` (text nodes only).
 */
import { api, errorBox, h, link } from './dom.js';
import { componentLegend, renderResults } from './results.js';
import type { Policies, SearchResult, SkillsPage } from './types.js';

/** Delay between the last keystroke and the search it triggers, in milliseconds. */
const DEBOUNCE_MS = 200;

/** The search view: a box, results as the agent gets them, the query kept in the URL; resolves once the first results are drawn. */
export function searchView(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const input = h('input', {
    attrs: {
      type: 'search',
      id: 'q',
      name: 'q',
      placeholder: 'What does the agent need? e.g. extract tables from pdf',
      autocomplete: 'off',
      'aria-label': 'query',
    },
  });
  input.value = params.get('q') ?? '';
  const limit = h(
    'select',
    { attrs: { id: 'limit', 'aria-label': 'results' } },
    ...[5, 8, 10, 20, 50].map((n) => h('option', { attrs: { value: String(n) } }, `top ${n}`)),
  );
  limit.value = params.get('limit') ?? '8';
  const out = h('div', { attrs: { id: 'results', 'aria-live': 'polite' } });
  main.append(h('form', { class: 'searchbar', attrs: { role: 'search' } }, input, limit), out);
  let controller: AbortController | undefined;
  let timer: number | undefined;
  const run = async (): Promise<void> => {
    const q = input.value;
    const url = new URL(location.href);
    if (q.trim() === '') url.searchParams.delete('q');
    else url.searchParams.set('q', q);
    url.searchParams.set('limit', limit.value);
    history.replaceState(null, '', url.pathname + url.search);
    controller?.abort();
    if (q.trim() === '') {
      out.replaceChildren(h('p', { class: 'empty' }, 'Type a query: results update as you type.'));
      await landing(out, () => input.value.trim() === '');
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    try {
      const r = await api<SearchResult>(
        `/api/search?q=${encodeURIComponent(q)}&limit=${encodeURIComponent(limit.value)}`,
        signal,
      );
      if (!signal.aborted) out.replaceChildren(componentLegend([r]), renderResults(r));
    } catch (err) {
      if (!signal.aborted) out.replaceChildren(errorBox(err));
    }
    out.dataset['state'] = 'done';
  };
  const schedule = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), DEBOUNCE_MS);
  };
  input.addEventListener('input', schedule);
  limit.addEventListener('change', () => void run());
  input.form?.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  input.focus();
  return run();
}

/** Skills shown on the landing page before anything is typed. */
const LANDING_SKILLS = 24;

/** Characters of a description shown on the landing page (the skill page has the whole text). */
const LANDING_DESCRIPTION = 160;

/**
 * The landing page under an empty box: what the catalog holds (policy, generation) and the first
 * skills of the library, each linked to its page, so a first visit shows the library, not a blank.
 */
async function landing(out: HTMLElement, stillEmpty: () => boolean): Promise<void> {
  try {
    const page = await api<SkillsPage>(`/api/skills?limit=${LANDING_SKILLS}`);
    const policies = await api<Policies>('/api/policies');
    // The person started typing meanwhile: the results own the area now.
    if (!stillEmpty()) return;
    if (page.skills.length === 0) {
      out.append(h('p', { class: 'empty' }, 'The catalog holds no skill yet: run skilldex index.'));
      return;
    }
    const more = page.next_cursor !== undefined;
    out.append(
      h(
        'section',
        { class: 'landing', attrs: { 'aria-label': 'browse the library' } },
        h(
          'p',
          { class: 'meta' },
          `Policy ${policies.catalog_policy} · generation ${policies.catalog_generation.slice(0, 19)}`,
        ),
        h('h2', {}, more ? `Skills (the first ${page.skills.length})` : 'Skills'),
        h(
          'ul',
          { class: 'landing-skills' },
          page.skills.map((s) =>
            h(
              'li',
              {},
              link(`/skills/${encodeURIComponent(s.skill_id)}`, s.skill_id),
              ` — ${clip(s.description, LANDING_DESCRIPTION)}`,
            ),
          ),
        ),
        more
          ? h('p', {}, link('/overview', 'Every skill by scope and state: the Catalog page'))
          : [],
      ),
    );
  } catch (err) {
    if (stillEmpty()) out.append(errorBox(err));
  }
}

/** `text` cut at `max` characters on a word boundary, with an ellipsis when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Compare policies: one query ranked under two policies, side by side. */
export async function compareView(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const policies = await api<Policies>('/api/policies');
  const input = h('input', {
    attrs: { type: 'search', id: 'q', placeholder: 'query', 'aria-label': 'query' },
  });
  input.value = params.get('q') ?? '';
  // The live policies, then the parameter sets over this catalog's stored document.
  const choices = [...policies.policies, ...policies.parameter_sets];
  const pick = (id: string, chosen: string): HTMLSelectElement => {
    const s = h(
      'select',
      { attrs: { id, 'aria-label': id } },
      choices.map((p) =>
        h('option', { attrs: { value: p } }, p === policies.catalog_policy ? `${p} (catalog)` : p),
      ),
    );
    s.value = choices.includes(chosen) ? chosen : policies.catalog_policy;
    return s;
  };
  // By default the catalog's policy beside a parameter set over the same stored document.
  const other =
    policies.parameter_sets[0] ??
    choices.find((p) => p !== policies.catalog_policy) ??
    policies.catalog_policy;
  const a = pick('policy-a', params.get('a') ?? policies.catalog_policy);
  const b = pick('policy-b', params.get('b') ?? other);
  const colA = h('div', { class: 'col' });
  const colB = h('div', { class: 'col' });
  // One legend for both columns: every component of either policy, each in its one colour.
  const legend = h('div', {});
  const go = h('button', { attrs: { type: 'submit' } }, 'Compare');
  const form = h('form', { class: 'searchbar' }, input, a, b, go);
  main.append(
    h(
      'p',
      { class: 'lead' },
      'One query ranked under two policies or parameter sets over the same stored document. The catalog publishes under ',
      h('code', {}, policies.catalog_policy),
      '.',
    ),
    form,
    legend,
    h('div', { class: 'columns' }, colA, colB),
  );
  const run = async (): Promise<void> => {
    const q = input.value;
    history.replaceState(
      null,
      '',
      `/compare?q=${encodeURIComponent(q)}&a=${encodeURIComponent(a.value)}&b=${encodeURIComponent(b.value)}`,
    );
    if (q.trim() === '') return;
    const shown: SearchResult[] = [];
    for (const [col, policy] of [
      [colA, a.value],
      [colB, b.value],
    ] as const) {
      try {
        const r = await api<SearchResult>(
          `/api/search?q=${encodeURIComponent(q)}&policy=${encodeURIComponent(policy)}`,
        );
        shown.push(r);
        col.replaceChildren(h('h2', {}, policy), renderResults(r));
      } catch (err) {
        col.replaceChildren(errorBox(err));
      }
    }
    legend.replaceChildren(componentLegend(shown));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  await run();
}
