/**
 * The skill page's "Usage examples" card (docs/explorer.md, docs/ranking.md §9): the requests the
 * ranking learned for this skill, each with its source (import, host, fetch, author: the skill's
 * own trigger-eval files), its polarity (+ should trigger; − should not: a negative example, which
 * may only lower this skill), the sessions and clients that recorded it and the weight it counts
 * for, read from `/api/examples`. Text only: every query and client name is a text node (`h`),
 * never markup — an author's example is data like any other skill text.
 */
import { api, errorBox, h } from './dom.js';

/** One example as `/api/examples` returns it. */
interface ExampleRow {
  id: number;
  query: string;
  source: 'import' | 'host' | 'fetch' | 'author';
  /** Should-trigger (`positive`, also when absent: servers before issue 34) or should-not. */
  polarity?: 'positive' | 'negative';
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

/** How a polarity reads in the card: its sign and its words. */
export function polarityLabel(polarity: ExampleRow['polarity']): string {
  return polarity === 'negative' ? '− should not trigger' : '+ should trigger';
}

/** The card's body for `examples` (the most recent of `total`); exported for test/explorer. */
export function examplesTable(total: number, examples: readonly ExampleRow[]): HTMLElement {
  if (examples.length === 0)
    return h('p', { class: 'empty' }, 'No usage examples: this skill ranks on its own text.');
  const counts = { import: 0, host: 0, fetch: 0, author: 0 };
  let negative = 0;
  for (const e of examples) {
    // A source this page does not know yet (a newer server) is counted by no column.
    if (e.source in counts) counts[e.source]++;
    if (e.polarity === 'negative') negative++;
  }
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `${total} example(s): ${counts.import} import, ${counts.host} host, ${counts.fetch} fetch, ${counts.author} author` +
        (negative > 0 ? `; ${negative} should not trigger (they only lower this skill)` : '') +
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
        h('th', {}, 'polarity'),
        h('th', {}, 'request'),
        h('th', {}, 'sessions'),
        h('th', {}, 'weight'),
        h('th', {}, 'clients'),
        h('th', {}, 'last'),
      ),
      examples.map((e) =>
        h(
          'tr',
          {
            ...(e.polarity === 'negative' ? { class: 'negative' } : {}),
            attrs: { 'data-source': e.source, 'data-polarity': e.polarity ?? 'positive' },
          },
          h('td', {}, String(e.id)),
          h('td', {}, e.source),
          h('td', { class: 'polarity' }, polarityLabel(e.polarity)),
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
