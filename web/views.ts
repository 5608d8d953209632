/**
 * The explorer's views, one function each: search (with a debounced box and `/?q=` deep links),
 * compare policies, skill page, catalog overview, cascade, substrate. Each reads the JSON API and
 * builds DOM with `h` (text nodes only); skill bodies go through the token renderer of markdown.ts.
 */
import { api, errorBox, fmt, h, link } from './dom.js';
import { renderResults, short } from './results.js';
import type { Policies, SearchResult } from './types.js';

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
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    try {
      const r = await api<SearchResult>(
        `/api/search?q=${encodeURIComponent(q)}&limit=${encodeURIComponent(limit.value)}`,
        signal,
      );
      if (!signal.aborted) out.replaceChildren(renderResults(r));
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

/** Compare policies: one query ranked under two policies, side by side. */
export async function compareView(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const policies = await api<Policies>('/api/policies');
  const input = h('input', {
    attrs: { type: 'search', id: 'q', placeholder: 'query', 'aria-label': 'query' },
  });
  input.value = params.get('q') ?? '';
  const pick = (id: string, chosen: string): HTMLSelectElement => {
    const s = h(
      'select',
      { attrs: { id, 'aria-label': id } },
      policies.policies.map((p) =>
        h('option', { attrs: { value: p } }, p === policies.catalog_policy ? `${p} (catalog)` : p),
      ),
    );
    s.value = policies.policies.includes(chosen) ? chosen : policies.catalog_policy;
    return s;
  };
  const other =
    policies.policies.find((p) => p !== policies.catalog_policy) ?? policies.catalog_policy;
  const a = pick('policy-a', params.get('a') ?? policies.catalog_policy);
  const b = pick('policy-b', params.get('b') ?? other);
  const colA = h('div', { class: 'col' });
  const colB = h('div', { class: 'col' });
  const go = h('button', { attrs: { type: 'submit' } }, 'Compare');
  const form = h('form', { class: 'searchbar' }, input, a, b, go);
  main.append(
    h(
      'p',
      { class: 'lead' },
      'One query ranked under two policies. The catalog publishes under ',
      h('code', {}, policies.catalog_policy),
      '.',
    ),
    form,
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
    for (const [col, policy] of [
      [colA, a.value],
      [colB, b.value],
    ] as const) {
      try {
        const r = await api<SearchResult>(
          `/api/search?q=${encodeURIComponent(q)}&policy=${encodeURIComponent(policy)}`,
        );
        col.replaceChildren(h('h2', {}, policy), renderResults(r));
      } catch (err) {
        col.replaceChildren(errorBox(err));
      }
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  await run();
}

interface SkillPage {
  skill: {
    skill_id: string;
    skill_version: string;
    revision_id: string;
    name: string;
    description: string;
    state: string;
    size: number;
    frontmatter: Record<string, unknown>;
    catalog_generation: string;
  };
  record: {
    path: string;
    scope: string;
    scope_path: string;
    plugin: string | null;
    state: string;
    reason: string | null;
    replacement: string | null;
    revisions: {
      revision_id: string;
      version: string | null;
      size: number;
      path: string;
      first_seen: string;
      last_served: string | null;
    }[];
    lifecycle: {
      seq: number;
      catalog_generation: string;
      created_at: string;
      state: string;
      revision_id: string | null;
    }[];
  };
  text: string | null;
  text_error: { code: string; message: string } | null;
  usage: { day: string; suggestions: number; fetches: number }[];
}

/** The skill page: identity, frontmatter, revisions, lifecycle, usage, and the body. */
export async function skillView(main: HTMLElement, skillId: string): Promise<void> {
  // markdown-it and uPlot load only here, so the search and overview views start with a small script.
  const [p, { renderMarkdown }, { usageChart }] = await Promise.all([
    api<SkillPage>(`/api/skills/${encodeURIComponent(skillId)}`),
    import('./markdown.js'),
    import('./chart.js'),
  ]);
  const s = p.skill;
  const r = p.record;
  document.title = `${s.name} · skilldex`;
  const body = h('article', { class: 'markdown', attrs: { id: 'skill-body' } });
  if (p.text !== null) renderMarkdown(p.text, body);
  else
    body.append(
      h(
        'div',
        { class: 'error' },
        `${p.text_error?.code ?? 'ERROR'}: ${p.text_error?.message ?? ''}`,
      ),
    );
  main.append(
    h('h1', {}, s.name, ' ', h('span', { class: `state ${s.state}` }, s.state)),
    h('p', { class: 'desc', attrs: { id: 'skill-description' } }, s.description),
    h(
      'div',
      { class: 'grid' },
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Identity'),
        table([
          ['id', h('code', {}, s.skill_id)],
          ['version', s.skill_version],
          ['revision', h('code', { title: s.revision_id }, short(s.revision_id))],
          ['size', `${s.size} bytes`],
          ['path', h('code', {}, r.path)],
          ['scope', `${r.scope} (${r.scope_path})`],
          ['plugin', r.plugin ?? '—'],
          ['generation', h('code', { title: s.catalog_generation }, short(s.catalog_generation))],
          ...(r.reason !== null ? [['reason', r.reason] as [string, string]] : []),
          ...(r.replacement !== null
            ? [
                [
                  'replacement',
                  link(`/skills/${encodeURIComponent(r.replacement)}`, r.replacement),
                ] as [string, Node],
              ]
            : []),
        ]),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Frontmatter'),
        table(
          Object.entries(s.frontmatter).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ]),
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Revisions seen'),
        h(
          'table',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'revision'),
            h('th', {}, 'version'),
            h('th', {}, 'size'),
            h('th', {}, 'first seen'),
            h('th', {}, 'last served'),
          ),
          r.revisions.map((v) =>
            h(
              'tr',
              {},
              h('td', {}, h('code', { title: v.revision_id }, short(v.revision_id))),
              h('td', {}, v.version ?? '—'),
              h('td', {}, String(v.size)),
              h('td', {}, day(v.first_seen)),
              h('td', {}, v.last_served ? day(v.last_served) : '—'),
            ),
          ),
        ),
        h('h2', {}, 'Lifecycle'),
        h(
          'ol',
          { class: 'timeline' },
          r.lifecycle.map((l) =>
            h(
              'li',
              {},
              h('span', { class: `state ${l.state}` }, l.state),
              ` in generation ${l.seq} (${day(l.created_at)})`,
            ),
          ),
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Suggestions and fetches'),
        p.usage.length === 0
          ? h('p', { class: 'empty' }, 'No telemetry for this skill.')
          : usageChart(p.usage),
      ),
    ),
    h('h2', {}, 'SKILL.md'),
    body,
  );
}

interface Overview {
  catalog_generation: string;
  policy: string;
  created_at: string;
  counts: { total: number; active: number; deprecated: number; archived: number };
  by_scope: { scope: string; active: number; deprecated: number; archived: number }[];
  telemetry: { suggestions: number; fetches: number };
  suggested_never_fetched: { skill_id: string; suggestions: number }[];
  never_in_top_five: { count: number; skill_ids: string[] };
}

interface Generations {
  generations: {
    seq: number;
    parent_seq: number | null;
    catalog_generation: string;
    policy: string;
    created_at: string;
    published: boolean;
    counts: { total: number };
    added: number;
    changed: number;
    retired: number;
    examples: { added: string[]; changed: string[]; retired: string[] };
  }[];
}

/** The catalog overview: counts by scope and state, generation timeline, unused skills. */
export async function overviewView(main: HTMLElement): Promise<void> {
  const [o, g] = await Promise.all([
    api<Overview>('/api/overview'),
    api<Generations>('/api/generations'),
  ]);
  const ids = (xs: string[], more: number): (Node | string)[] => {
    const parts: (Node | string)[] = xs.map((id) => link(`/skills/${encodeURIComponent(id)}`, id));
    if (more > xs.length) parts.push(`… ${more - xs.length} more`);
    return parts.flatMap((x, i) => (i === 0 ? [x] : [', ', x]));
  };
  main.append(
    h('h1', {}, 'Catalog'),
    h(
      'div',
      { class: 'stats' },
      ...(['total', 'active', 'deprecated', 'archived'] as const).map((k) =>
        h('div', { class: 'stat card' }, h('b', {}, String(o.counts[k])), k),
      ),
      h('div', { class: 'stat card' }, h('b', {}, String(o.telemetry.suggestions)), 'suggestions'),
      h('div', { class: 'stat card' }, h('b', {}, String(o.telemetry.fetches)), 'fetches'),
    ),
    h(
      'p',
      { class: 'meta' },
      'generation ',
      h('code', { title: o.catalog_generation }, short(o.catalog_generation)),
      ` published ${o.created_at} under `,
      h('code', {}, o.policy),
    ),
    h(
      'div',
      { class: 'grid' },
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'By scope'),
        h(
          'table',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'scope'),
            h('th', {}, 'active'),
            h('th', {}, 'deprecated'),
            h('th', {}, 'archived'),
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
      ),
      h(
        'section',
        { class: 'card' },
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
                  ` — ${u.suggestions} suggestions`,
                ),
              ),
            ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, `Never in a top 5 (${o.never_in_top_five.count})`),
        h('p', { class: 'ids' }, ...ids(o.never_in_top_five.skill_ids, o.never_in_top_five.count)),
      ),
    ),
    h('h2', {}, 'Generations'),
    h(
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
            ` ${x.created_at} · ${x.counts.total} skills · `,
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
                    ? [h('span', {}, `${k}: `, ...ids(x.examples[k], x[k])), ' ']
                    : [],
                ),
              )
            : null,
        ),
      ),
    ),
  );
}

interface CascadeTree {
  root: string;
  audit: {
    clean: boolean;
    skills: number;
    reachable: number;
    problems: { code: string; path: string; line?: number; message: string }[];
  };
  nodes: {
    node: string;
    entries: { key: string; keywords: string[] }[];
    malformed: { line: number; text: string; reason: string }[];
  }[];
}

/** Cascade: the skill.index tree of a root with audit problems marked, and a crawl box. */
export async function cascadeView(main: HTMLElement): Promise<void> {
  const roots = await api<{ roots: string[] }>('/api/cascade');
  if (roots.roots.length === 0) {
    main.append(
      h('p', { class: 'empty' }, 'No cascade root: start skilldex serve with --cascade-root DIR.'),
    );
    return;
  }
  const params = new URLSearchParams(location.search);
  const rootIdx = params.get('root') ?? '0';
  const t = await api<CascadeTree>(`/api/cascade/tree?root=${encodeURIComponent(rootIdx)}`);
  // Each audit problem is shown once, under the deepest node whose folder holds its path.
  const within = (node: string, p: string): boolean =>
    node === '.' || p === node || p.startsWith(node + '/');
  const depth = (n: string): number => (n === '.' ? 0 : n.length + 1);
  const ownerOf = (p: string): string =>
    t.nodes
      .map((n) => n.node)
      .reduce((best, n) => (within(n, p) && depth(n) > depth(best) ? n : best), '.');
  const problemsAt = (node: string) => t.audit.problems.filter((p) => ownerOf(p.path) === node);
  const need = h('input', {
    attrs: { type: 'search', id: 'need', placeholder: 'a need, e.g. pdf', 'aria-label': 'need' },
  });
  need.value = params.get('need') ?? '';
  const out = h('div', { attrs: { id: 'crawl' } });
  const form = h(
    'form',
    { class: 'searchbar' },
    need,
    h('button', { attrs: { type: 'submit' } }, 'Crawl'),
  );
  const crawl = async (): Promise<void> => {
    if (need.value.trim() === '') return;
    history.replaceState(
      null,
      '',
      `/cascade?root=${encodeURIComponent(rootIdx)}&need=${encodeURIComponent(need.value)}`,
    );
    try {
      const r = await api<{
        outcome: string;
        hit?: { key: string; path: string };
        candidates?: { key: string; path: string }[];
        visited: string[];
        inconsistencies: { code: string; path: string; message: string }[];
      }>(
        `/api/cascade/crawl?root=${encodeURIComponent(rootIdx)}&need=${encodeURIComponent(need.value)}`,
      );
      out.replaceChildren(
        h(
          'div',
          {},
          h(
            'p',
            {},
            'outcome ',
            h('b', {}, r.outcome),
            r.hit
              ? h('span', {}, ' → ', h('code', {}, r.hit.key), ' at ', h('code', {}, r.hit.path))
              : null,
          ),
          r.candidates
            ? h(
                'p',
                {},
                'candidates: ',
                ...r.candidates.map((c) => h('code', { class: 'tok' }, c.key)),
              )
            : null,
          h(
            'ol',
            { class: 'visited' },
            r.visited.map((v) => h('li', {}, h('code', {}, v))),
          ),
          r.inconsistencies.length > 0
            ? h(
                'ul',
                { class: 'problems' },
                r.inconsistencies.map((p) =>
                  h('li', {}, h('b', {}, p.code), ` ${p.path}: ${p.message}`),
                ),
              )
            : null,
        ),
      );
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void crawl();
  });
  main.append(
    h(
      'div',
      {},
      h('h1', {}, 'Cascade'),
      h(
        'p',
        { class: 'meta' },
        h('code', {}, t.root),
        ` · ${t.audit.reachable}/${t.audit.skills} skills reachable · `,
        t.audit.clean
          ? h('span', { class: 'state active' }, 'clean')
          : h('span', { class: 'state deprecated' }, `${t.audit.problems.length} problems`),
      ),
      roots.roots.length > 1
        ? h(
            'p',
            {},
            ...roots.roots
              .map((r, i) => link(`/cascade?root=${i}`, r))
              .flatMap((x, i) => (i === 0 ? [x] : [' · ', x])),
          )
        : null,
      form,
      out,
      h(
        'ul',
        { class: 'tree' },
        t.nodes.map((n) =>
          h(
            'li',
            {},
            h('b', {}, h('code', {}, n.node === '.' ? '/' : n.node + '/')),
            h(
              'ul',
              {},
              n.entries.map((e) =>
                h(
                  'li',
                  {},
                  h('code', {}, e.key),
                  ': ',
                  h('span', { class: 'kw' }, e.keywords.join(', ')),
                ),
              ),
            ),
            problemsAt(n.node).length > 0
              ? h(
                  'ul',
                  { class: 'problems' },
                  problemsAt(n.node).map((p) =>
                    h(
                      'li',
                      {},
                      h('b', {}, p.code),
                      ` ${p.message}`, // The message names the file and line.
                    ),
                  ),
                )
              : null,
          ),
        ),
      ),
    ),
  );
  await crawl();
}

/** Substrate: a read with its hits and the stop depth of every file opened. */
export function substrateView(main: HTMLElement): Promise<void> {
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
  const out = h('div', {});
  const form = h(
    'form',
    { class: 'searchbar' },
    input,
    h('button', { attrs: { type: 'submit' } }, 'Read'),
  );
  const run = async (): Promise<void> => {
    if (input.value.trim() === '') return;
    history.replaceState(null, '', `/substrate?q=${encodeURIComponent(input.value)}`);
    try {
      const r = await api<{
        query_kind: string;
        root: string;
        hits: {
          type: string;
          id: string;
          description: string;
          stop_depth: string;
          match: string;
          path?: string;
        }[];
        opened?: { path: string; depth: string; why: string }[];
        problems: { code: string; path: string; message: string }[];
      }>(`/api/substrate?q=${encodeURIComponent(input.value)}`);
      out.replaceChildren(
        h(
          'div',
          {},
          h(
            'p',
            { class: 'meta' },
            `${r.query_kind} query · ${r.hits.length} hits · `,
            h('code', {}, r.root),
          ),
          h(
            'table',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'type'),
              h('th', {}, 'id'),
              h('th', {}, 'match'),
              h('th', {}, 'stop depth'),
              h('th', {}, 'description'),
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
            (r.opened ?? []).map((f) =>
              h('li', {}, h('code', {}, f.path), ` — ${f.depth}: ${f.why}`),
            ),
          ),
          r.problems.length > 0
            ? h(
                'ul',
                { class: 'problems' },
                r.problems.map((p) => h('li', {}, h('b', {}, p.code), ` ${p.path}: ${p.message}`)),
              )
            : null,
        ),
      );
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  main.append(h('h1', {}, 'Substrate'), form, out);
  return run();
}

function table(rows: [string, Node | string][]): HTMLTableElement {
  return h(
    'table',
    { class: 'kv' },
    rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))),
  );
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

export { fmt };
