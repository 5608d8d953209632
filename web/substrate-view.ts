/**
 * The explorer's substrate view (issue 15; issue 27): before anything is typed it shows what the
 * substrate holds (/api/substrate/contents: each type's index rows, in type order); a read shows its
 * hits and the stop depth of every file opened, and clearing the box shows the contents again.
 * Text nodes only.
 */
import { api, errorBox, h } from './dom.js';
import { plural } from './overview-view.js';

interface Contents {
  /** null: the server was started without a substrate. */
  root: string | null;
  types: {
    type: string;
    entries: { id: string; description: string; path: string | null; category: string }[];
  }[];
  problems: { code: string; path: string; message: string }[];
}

interface ReadReport {
  query_kind: string;
  root: string;
  hits: {
    type: string;
    id: string;
    description: string;
    stop_depth: string;
    match: string;
  }[];
  opened?: { path: string; depth: string; why: string }[];
  problems: { code: string; path: string; message: string }[];
}

/** Substrate: its contents at first, a read with its hits and files opened once a query is given. */
export async function substrateView(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const input = h('input', {
    attrs: {
      type: 'search',
      id: 'sq',
      placeholder: 'a topic, an id or a path glob',
      'aria-label': 'substrate query',
    },
  });
  input.value = params.get('q') ?? '';
  const out = h('div', { attrs: { id: 'substrate-out' } });
  const form = h(
    'form',
    { class: 'searchbar' },
    input,
    h('button', { attrs: { type: 'submit' } }, 'Read'),
  );
  let contents: HTMLElement | undefined;
  const run = async (): Promise<void> => {
    const q = input.value.trim();
    history.replaceState(
      null,
      '',
      q === '' ? '/substrate' : `/substrate?q=${encodeURIComponent(q)}`,
    );
    try {
      if (q === '')
        out.replaceChildren(
          (contents ??= renderContents(await api<Contents>('/api/substrate/contents'))),
        );
      else
        out.replaceChildren(
          renderRead(await api<ReadReport>(`/api/substrate?q=${encodeURIComponent(q)}`)),
        );
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  // Emptying the box (its clear button, or deleting the text) goes back to the contents.
  input.addEventListener('input', () => {
    if (input.value.trim() === '') void run();
  });
  main.append(h('h1', {}, 'Substrate'), form, out);
  await run();
}

function renderContents(c: Contents): HTMLElement {
  if (c.root === null)
    return h(
      'p',
      { class: 'empty', attrs: { id: 'substrate-contents' } },
      'No substrate: start skilldex serve with --substrate DIR.',
    );
  const total = c.types.reduce((n, t) => n + t.entries.length, 0);
  return h(
    'div',
    { attrs: { id: 'substrate-contents' } },
    h(
      'p',
      { class: 'meta' },
      `${plural(total, 'entry', 'entries')} in ${plural(c.types.filter((t) => t.entries.length > 0).length, 'type')} · `,
      h('code', {}, c.root),
      ' · type a topic, an id, a path glob or tag:NAME to read it',
    ),
    c.types.map((t) =>
      h(
        'section',
        { class: 'card', attrs: { 'data-type': t.type } },
        h('h2', {}, `${t.type} (${t.entries.length})`),
        t.entries.length === 0
          ? h('p', { class: 'empty' }, 'No entries.')
          : h(
              'table',
              {},
              h('tr', {}, h('th', {}, 'id'), h('th', {}, 'description')),
              t.entries.map((e) =>
                h('tr', {}, h('td', {}, h('code', {}, e.id)), h('td', {}, e.description)),
              ),
            ),
      ),
    ),
    problemList(c.problems),
  );
}

function renderRead(r: ReadReport): HTMLElement {
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'meta' },
      `${r.query_kind} query · ${plural(r.hits.length, 'hit')} · `,
      h('code', {}, r.root),
    ),
    h(
      'table',
      {},
      h(
        'tr',
        {},
        ['type', 'id', 'match', 'stop depth', 'description'].map((t) => h('th', {}, t)),
      ),
      r.hits.map((x) =>
        h(
          'tr',
          {},
          h('td', {}, x.type),
          h('td', {}, h('code', {}, x.id)),
          h('td', {}, x.match),
          h('td', {}, x.stop_depth),
          h('td', {}, x.description),
        ),
      ),
    ),
    h('h2', {}, 'Files opened'),
    h(
      'ol',
      { class: 'visited' },
      (r.opened ?? []).map((f) => h('li', {}, h('code', {}, f.path), ` — ${f.depth}: ${f.why}`)),
    ),
    problemList(r.problems),
  );
}

function problemList(problems: ReadReport['problems']): HTMLElement | null {
  return problems.length > 0
    ? h(
        'ul',
        { class: 'problems' },
        problems.map((p) => h('li', {}, h('b', {}, p.code), ` ${p.path}: ${p.message}`)),
      )
    : null;
}
