/**
 * The skill page's "Usage examples" card (docs/explorer.md, docs/ranking.md §9): the requests the
 * ranking learned for this skill, each with its source (import, host, fetch), the sessions and
 * clients that recorded it and the weight it counts for, read from `/api/examples`. Text only:
 * every query and client name is a text node, never markup.
 */
import { api, errorBox, h } from './dom.js';

/** One example as `/api/examples` returns it. */
interface ExampleRow {
  id: number;
  query: string;
  source: 'import' | 'host' | 'fetch';
  sessions: number;
  clients: number;
  weight: number;
  rows: number;
  first_at: string;
  last_at: string;
  client_names: string[];
}

/** A card that fills itself with the usage examples of `skillId`. */
export function examplesSection(skillId: string): HTMLElement {
  const body = h('div', {}, h('p', { class: 'empty' }, 'Loading…'));
  const card = h(
    'section',
    { class: 'card', attrs: { id: 'skill-examples' } },
    h('h2', {}, 'Usage examples'),
    body,
  );
  api<{ total: number; examples: ExampleRow[] }>(
    `/api/examples?skill=${encodeURIComponent(skillId)}`,
  )
    .then((r) => body.replaceChildren(examplesTable(r.total, r.examples)))
    .catch((err: unknown) => body.replaceChildren(errorBox(err)));
  return card;
}

function examplesTable(total: number, examples: readonly ExampleRow[]): HTMLElement {
  if (examples.length === 0)
    return h('p', { class: 'empty' }, 'No usage examples: this skill ranks on its own text.');
  const counts = { import: 0, host: 0, fetch: 0 };
  for (const e of examples) counts[e.source]++;
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `${total} example(s): ${counts.import} import, ${counts.host} host, ${counts.fetch} fetch` +
        (total > examples.length ? ` (the ${examples.length} most recent shown)` : ''),
    ),
    h(
      'table',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'id'),
        h('th', {}, 'source'),
        h('th', {}, 'request'),
        h('th', {}, 'sessions'),
        h('th', {}, 'weight'),
        h('th', {}, 'clients'),
        h('th', {}, 'last'),
      ),
      examples.map((e) =>
        h(
          'tr',
          { attrs: { 'data-source': e.source } },
          h('td', {}, String(e.id)),
          h('td', {}, e.source),
          h('td', {}, e.query),
          h('td', {}, String(e.sessions)),
          h('td', {}, e.weight.toFixed(2)),
          h('td', {}, e.client_names.join(', ') + (e.clients > e.client_names.length ? ', …' : '')),
          h('td', {}, e.last_at.slice(0, 10)),
        ),
      ),
    ),
  );
}
