/**
 * The explorer's catalog overview (issue 15; issue 27): counts by scope and state, the telemetry
 * held (searches, suggestions, fetches), the skills suggested but never fetched, the skills never
 * in a top 5 — listed only once the telemetry holds enough searches for the list to mean something
 * (the API's `never_in_top_five.threshold`, docs/explorer.md), else how much there is and how much
 * it takes — and the generation timeline. Text nodes only.
 */
import { api, h, link } from './dom.js';
import { short } from './results.js';

interface Overview {
  catalog_generation: string;
  policy: string;
  created_at: string;
  counts: { total: number; active: number; deprecated: number; archived: number };
  by_scope: { scope: string; active: number; deprecated: number; archived: number }[];
  /** Counted from the recorded events, as a skill page charts them; `hook_suggestions` is the hook's share. */
  telemetry: { suggestions: number; fetches: number; searches: number; hook_suggestions?: number };
  suggested_never_fetched: { skill_id: string; suggestions: number }[];
  never_in_top_five: {
    shown: boolean;
    searches: number;
    threshold: number;
    count: number;
    skill_ids: string[];
  };
}

interface Generations {
  generations: {
    seq: number;
    parent_seq: number | null;
    catalog_generation: string;
    created_at: string;
    published: boolean;
    counts: { total: number };
    added: number;
    changed: number;
    retired: number;
    examples: { added: string[]; changed: string[]; retired: string[] };
  }[];
}

/** `n` and the noun, singular for one: "1 suggestion", "3 suggestions" (`many`: an irregular plural). */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** The catalog overview: counts by scope and state, generation timeline, unused skills. */
export async function overviewView(main: HTMLElement): Promise<void> {
  const [o, g] = await Promise.all([
    api<Overview>('/api/overview'),
    api<Generations>('/api/generations'),
  ]);
  const stat = (n: number, what: string): HTMLElement =>
    h('div', { class: 'stat card' }, h('b', {}, String(n)), what);
  main.append(
    h('h1', {}, 'Catalog'),
    h(
      'div',
      { class: 'stats' },
      ...(['total', 'active', 'deprecated', 'archived'] as const).map((k) => stat(o.counts[k], k)),
      stat(o.telemetry.searches, 'searches'),
      stat(o.telemetry.suggestions, 'suggestions'),
      stat(o.telemetry.fetches, 'fetches'),
    ),
    h(
      'p',
      { class: 'meta' },
      'generation ',
      h('code', { title: o.catalog_generation }, short(o.catalog_generation)),
      ` published ${o.created_at} under `,
      h('code', {}, o.policy),
      (o.telemetry.hook_suggestions ?? 0) > 0
        ? ` · ${plural(o.telemetry.hook_suggestions ?? 0, 'suggestion')} by the prompt hook (shown, not counted by the ranking)`
        : '',
    ),
    h('div', { class: 'grid' }, scopesCard(o), unfetchedCard(o), neverCard(o)),
    h('h2', {}, 'Generations'),
    generationList(g),
  );
}

function idLinks(xs: readonly string[], more: number): (Node | string)[] {
  const parts: (Node | string)[] = xs.map((id) => link(`/skills/${encodeURIComponent(id)}`, id));
  if (more > xs.length) parts.push(`… ${more - xs.length} more`);
  return parts.flatMap((x, i) => (i === 0 ? [x] : [', ', x]));
}

function scopesCard(o: Overview): HTMLElement {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'By scope'),
    h(
      'table',
      {},
      h(
        'tr',
        {},
        ['scope', 'active', 'deprecated', 'archived'].map((t) => h('th', {}, t)),
      ),
      o.by_scope.map((s) =>
        h(
          'tr',
          {},
          h('td', {}, s.scope),
          h('td', {}, String(s.active)),
          h('td', {}, String(s.deprecated)),
          h('td', {}, String(s.archived)),
        ),
      ),
    ),
  );
}

function unfetchedCard(o: Overview): HTMLElement {
  return h(
    'section',
    { class: 'card', attrs: { id: 'never-fetched' } },
    h('h2', {}, 'Suggested, never fetched'),
    o.suggested_never_fetched.length === 0
      ? h('p', { class: 'empty' }, 'None.')
      : h(
          'ol',
          {},
          o.suggested_never_fetched.map((u) =>
            h(
              'li',
              {},
              link(`/skills/${encodeURIComponent(u.skill_id)}`, u.skill_id),
              ` — ${plural(u.suggestions, 'suggestion')}`,
            ),
          ),
        ),
  );
}

// "Never in a top 5" means something only after enough searches: below the threshold, say so.
function neverCard(o: Overview): HTMLElement {
  const n = o.never_in_top_five;
  return h(
    'section',
    { class: 'card', attrs: { id: 'never-top-five' } },
    h('h2', {}, n.shown ? `Never in a top 5 (${n.count})` : 'Never in a top 5'),
    n.shown
      ? h('p', { class: 'ids' }, ...idLinks(n.skill_ids, n.count))
      : h(
          'p',
          { class: 'empty' },
          `Listed once the telemetry holds ${plural(n.threshold, 'search', 'searches')} (one per skill the catalog serves, at least 100); it holds ${plural(n.searches, 'search', 'searches')}. Until then most skills have simply not come up yet.`,
        ),
  );
}

function generationList(g: Generations): HTMLElement {
  return h(
    'ol',
    { class: 'timeline gens' },
    g.generations.map((x) =>
      h(
        'li',
        { class: x.published ? 'published' : '' },
        h(
          'div',
          {},
          h('b', {}, `#${x.seq}`),
          ` ${x.created_at} · ${plural(x.counts.total, 'skill')} · `,
          h('code', { title: x.catalog_generation }, short(x.catalog_generation)),
          x.published ? h('span', { class: 'state active' }, 'published') : null,
        ),
        h(
          'div',
          { class: 'changes' },
          h('span', { class: 'add' }, `+${x.added} added`),
          ' ',
          h('span', { class: 'chg' }, `~${x.changed} changed`),
          ' ',
          h('span', { class: 'del' }, `−${x.retired} retired`),
          x.parent_seq !== null
            ? [' · ', link(`/generations/diff?from=${x.parent_seq}&to=${x.seq}`, 'diff')]
            : null,
        ),
        x.added + x.changed + x.retired > 0
          ? h(
              'div',
              { class: 'ids' },
              ...(['added', 'changed', 'retired'] as const).flatMap((k) =>
                x.examples[k].length > 0
                  ? [h('span', {}, `${k}: `, ...idLinks(x.examples[k], x[k])), ' ']
                  : [],
              ),
            )
          : null,
      ),
    ),
  );
}
