/**
 * The explorer's cascade view (issue 15; issue 27): problems first, then a crawl box, then the
 * skill.index tree, collapsed. The first view needs one fast route (/api/cascade/tree: index files
 * only) and shows the structure's problems at once; the full audit (every skill's own name crawled,
 * seconds on a thousand skills) loads after it from /api/cascade/audit and replaces the problem
 * list when it arrives (`data-audit` goes from `pending` to `done`, and the page marks
 * `skilldex:audit`). Nodes and keywords are built only when opened, so a large cascade is a short
 * list of top-level entries, not a wall of keywords. Each problem links to the node it is in.
 */
import { ApiError, api, errorBox, h, link } from './dom.js';
import { plural } from './overview-view.js';

interface Problem {
  code: string;
  path: string;
  line?: number;
  message: string;
}

interface TreeEntry {
  key: string;
  kind: 'self' | 'leaf' | 'descent';
  keywords: string[];
  target: string;
}

interface Tree {
  root: string;
  nodes: { node: string; entries: TreeEntry[] }[];
  reached: number;
  problems: Problem[];
}

interface Audit {
  audit: { clean: boolean; skills: number; reachable: number; problems: Problem[] };
}

/** Cascade: problems first, a crawl box, and the skill.index tree of a root, opened on demand. */
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
  const t = await api<Tree>(`/api/cascade/tree?root=${encodeURIComponent(rootIdx)}`);
  const nodes = new Map(t.nodes.map((n) => [n.node, n]));
  const tree = new CascadeTree(nodes);
  const problems = h('section', {
    class: 'card problems-card',
    attrs: { id: 'cascade-problems', 'data-audit': 'pending' },
  });
  const meta = h('span', {}, `${plural(t.nodes.length, 'node')} · ${t.reached} skills reached`);
  showProblems(problems, t.problems, tree, false);
  main.append(
    h('h1', {}, 'Cascade'),
    h('p', { class: 'meta' }, h('code', {}, t.root), meta),
    h(
      'p',
      {},
      ...(roots.roots.length > 1
        ? roots.roots
            .map((r, i) => link(`/cascade?root=${i}`, r))
            .flatMap((x, i) => (i === 0 ? [x] : [' · ', x]))
        : []),
    ),
    problems,
    crawlBox(rootIdx, params.get('need') ?? ''),
    h('h2', {}, 'Tree'),
    tree.element,
  );
  // The full audit comes after the first view: the page is usable while it runs.
  void api<Audit>(`/api/cascade/audit?root=${encodeURIComponent(rootIdx)}`)
    .then((a) => {
      meta.textContent = `${plural(t.nodes.length, 'node')} · ${a.audit.reachable} of ${plural(a.audit.skills, 'skill')} reachable`;
      showProblems(problems, a.audit.problems, tree, true);
    })
    .catch((err: unknown) => {
      problems.append(errorBox(err instanceof ApiError ? err : String(err)));
      problems.dataset['audit'] = 'failed';
    });
}

// The problem list: the structure's at first, the full audit's once it is in.
function showProblems(
  box: HTMLElement,
  list: readonly Problem[],
  tree: CascadeTree,
  complete: boolean,
): void {
  const heading = complete
    ? list.length === 0
      ? h('h2', {}, 'Problems: none — ', h('span', { class: 'state active' }, 'clean'))
      : h('h2', {}, `Problems (${list.length})`)
    : h('h2', {}, `Problems${list.length > 0 ? ` (${list.length} so far)` : ''}`);
  box.replaceChildren(
    h(
      'div',
      {},
      heading,
      complete
        ? null
        : h(
            'p',
            { class: 'hint', attrs: { id: 'audit-pending' } },
            "Checking every skill's own name against the cascade (the full audit)…",
          ),
      list.length > 0
        ? h(
            'ul',
            { class: 'problems' },
            list.map((p) => {
              const owner = tree.ownerOf(p.path);
              const show = h('a', { attrs: { href: '#', 'data-node': owner } }, 'show');
              show.addEventListener('click', (e) => {
                e.preventDefault();
                tree.reveal(owner);
              });
              return h('li', {}, h('b', {}, p.code), ` ${p.message} `, show);
            }),
          )
        : null,
    ),
  );
  if (complete) {
    box.dataset['audit'] = 'done';
    performance.mark('skilldex:audit');
  }
}

function crawlBox(rootIdx: string, initial: string): HTMLElement {
  const need = h('input', {
    attrs: { type: 'search', id: 'need', placeholder: 'a need, e.g. pdf', 'aria-label': 'need' },
  });
  need.value = initial;
  const out = h('div', { attrs: { id: 'crawl' } });
  const form = h(
    'form',
    { class: 'searchbar' },
    need,
    h('button', { attrs: { type: 'submit' } }, 'Crawl'),
  );
  const crawl = async (): Promise<void> => {
    if (need.value.trim() === '') return;
    const q = `root=${encodeURIComponent(rootIdx)}&need=${encodeURIComponent(need.value)}`;
    history.replaceState(null, '', `/cascade?${q}`);
    try {
      out.replaceChildren(crawlReport(await api<CrawlReport>(`/api/cascade/crawl?${q}`)));
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void crawl();
  });
  void crawl();
  return h('div', {}, form, out);
}

interface CrawlReport {
  outcome: string;
  hit?: { key: string; path: string };
  candidates?: { key: string; path: string }[];
  visited: string[];
  inconsistencies: Problem[];
}

function crawlReport(r: CrawlReport): HTMLElement {
  return h(
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
      ? h('p', {}, 'candidates: ', ...r.candidates.map((c) => h('code', { class: 'tok' }, c.key)))
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
          r.inconsistencies.map((p) => h('li', {}, h('b', {}, p.code), ` ${p.path}: ${p.message}`)),
        )
      : null,
  );
}

/** The tree: the root's entries; a descent's node and an entry's keywords are built when opened. */
class CascadeTree {
  readonly element: HTMLElement;
  // Each descent's <details> by the node it leads to, once built; each entry's by its element.
  private readonly opened = new Map<string, HTMLDetailsElement>();
  private readonly entries = new WeakMap<HTMLDetailsElement, TreeEntry>();

  constructor(private readonly nodes: ReadonlyMap<string, { node: string; entries: TreeEntry[] }>) {
    this.element = h('div', { class: 'tree', attrs: { id: 'cascade-tree' } }, this.list('.'));
  }

  /** The deepest node whose folder holds `p` (a problem's path). */
  ownerOf(p: string): string {
    let best = '.';
    for (const n of this.nodes.keys())
      if (
        n !== '.' &&
        (p === n || p.startsWith(n + '/')) &&
        (best === '.' || n.length > best.length)
      )
        best = n;
    return best;
  }

  /** Opens every node on the way to `node` and scrolls to it. */
  reveal(node: string): void {
    const parts = node === '.' ? [] : node.split('/');
    let target: HTMLElement = this.element;
    for (let i = 1; i <= parts.length; i++) {
      const d = this.opened.get(parts.slice(0, i).join('/'));
      if (d === undefined) continue;
      d.open = true;
      this.fill(d);
      target = d;
    }
    target.scrollIntoView({ block: 'start' });
    target.classList.add('flash');
  }

  private list(node: string): HTMLElement {
    const n = this.nodes.get(node);
    if (n === undefined)
      return h('p', { class: 'empty' }, 'This node has no readable skill.index.');
    return h(
      'ul',
      {},
      n.entries.map((e) => h('li', {}, this.entry(e))),
    );
  }

  private entry(e: TreeEntry): HTMLElement {
    const child = e.kind === 'descent' ? this.nodes.get(e.target) : undefined;
    const count = child
      ? plural(child.entries.length, 'entry', 'entries')
      : plural(e.keywords.length, 'keyword');
    const d = h(
      'details',
      { attrs: { 'data-node': e.target, 'data-kind': e.kind } },
      h(
        'summary',
        {},
        h('code', {}, e.key),
        ' ',
        h('span', { class: 'kw' }, e.kind === 'descent' ? `${count}` : `${e.kind} · ${count}`),
      ),
    );
    if (child) this.opened.set(e.target, d);
    this.entries.set(d, e);
    d.addEventListener('toggle', () => {
      if (d.open) this.fill(d);
    });
    return d;
  }

  // Builds an opened entry's inside once: a descent's keywords and node, or a skill's keywords.
  private fill(d: HTMLDetailsElement): void {
    const e = this.entries.get(d);
    if (e === undefined || d.dataset['filled'] === 'true') return;
    d.dataset['filled'] = 'true';
    const keywords = h('p', { class: 'kw' }, e.keywords.join(', '));
    if (e.kind === 'descent' && this.nodes.has(e.target)) d.append(keywords, this.list(e.target));
    else d.append(keywords);
  }
}
