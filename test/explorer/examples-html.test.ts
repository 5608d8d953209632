/**
 * The explorer shows each usage example's source and polarity (issue 34 item 1, "explained in the
 * explorer"): the skill page's "Usage examples" card (web/examples.ts) and a search result's line of
 * the skill's own matched examples (web/results.ts `authorLine`) mark a should-not example as
 * negative, and an example's text, an author's included, stays text: the page builds every string
 * as a text node (web/dom.ts `h`), never markup.
 *
 * HTML-level, in Node: the page's own modules are bundled with esbuild (as scripts/build-page.mjs
 * bundles the page) and run in a `node:vm` context whose `document` is the small DOM below; the
 * tree they build is serialised as a browser serialises it (text escaped, attribute values
 * quoted). Markup given to `innerHTML` or `insertAdjacentHTML` is kept raw, as a browser would
 * parse it, so a renderer that let an example's text become markup would show it in the HTML. No
 * global of this process is touched. The rows come from the real `/api/examples`.
 */
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUsageExamples, openUsageForWrite, telemetryPathFor } from '../../src/catalog/index.js';
import { REPO } from '../support/cli.js';
import { makeLibrary, raw, startOver, type Running } from './support.js';

/** An author's should-not request that tries markup and breaks out of quotes. */
const HOSTILE = `"><script>window.__pwned = 1</script><img src=x onerror="alert('x')"> merge pdf`;

// ---- A DOM as small as the page's helpers need, serialised as a browser serialises one. ----

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

class TextNode {
  constructor(readonly data: string) {}
  get textContent(): string {
    return this.data;
  }
  html(): string {
    return escapeText(this.data);
  }
}

/** Markup handed to innerHTML / insertAdjacentHTML: a browser would parse it into elements. */
class RawMarkup {
  constructor(readonly markup: string) {}
  get textContent(): string {
    return this.markup.replace(/<[^>]*>/g, '');
  }
  html(): string {
    return this.markup;
  }
}

type DomNode = Element | TextNode | RawMarkup;

class Element {
  readonly attrs = new Map<string, string>();
  children: DomNode[] = [];
  constructor(readonly tag: string) {}
  get className(): string {
    return this.attrs.get('class') ?? '';
  }
  set className(v: string) {
    this.attrs.set('class', v);
  }
  get title(): string {
    return this.attrs.get('title') ?? '';
  }
  set title(v: string) {
    this.attrs.set('title', v);
  }
  setAttribute(k: string, v: string): void {
    this.attrs.set(k, String(v));
  }
  getAttribute(k: string): string | null {
    return this.attrs.get(k) ?? null;
  }
  append(...nodes: (DomNode | string)[]): void {
    for (const n of nodes) this.children.push(typeof n === 'string' ? new TextNode(n) : n);
  }
  replaceChildren(...nodes: (DomNode | string)[]): void {
    this.children = [];
    this.append(...nodes);
  }
  set innerHTML(markup: string) {
    this.children = [new RawMarkup(markup)];
  }
  insertAdjacentHTML(_where: string, markup: string): void {
    this.children.push(new RawMarkup(markup));
  }
  get textContent(): string {
    return this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.children = [new TextNode(v)];
  }
  html(): string {
    const attrs = [...this.attrs].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
    return `<${this.tag}${attrs}>${this.children.map((c) => c.html()).join('')}</${this.tag}>`;
  }
  /** Every element below (and including) this one, in document order. */
  all(): Element[] {
    return [this, ...this.children.flatMap((c) => (c instanceof Element ? c.all() : []))];
  }
}

interface Page {
  examplesTable(total: number, examples: readonly unknown[]): Element;
  authorLine(candidate: unknown): Element | null;
}

// The page's modules, bundled and run in a context of their own with the DOM above.
async function loadPage(): Promise<Page> {
  const out = await build({
    stdin: {
      contents: `export { examplesTable } from './web/examples.ts';\nexport { authorLine } from './web/results.ts';`,
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: '__page',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    logLevel: 'silent',
  });
  const context = createContext({
    document: {
      createElement: (tag: string) => new Element(tag),
      createTextNode: (s: string) => new TextNode(s),
    },
    location: { href: 'http://127.0.0.1:1/skills/pdf-toolkit' },
    sessionStorage: { getItem: () => null, setItem: () => undefined },
    history: { state: null, replaceState: () => undefined },
    URL,
    URLSearchParams,
  });
  runInContext(out.outputFiles[0]!.text, context);
  return (context as { __page: Page }).__page;
}

let srv: Running;
let page: Page;

beforeAll(async () => {
  const lib = makeLibrary();
  const db = openUsageForWrite(telemetryPathFor(lib.catalog));
  try {
    addUsageExamples(
      db,
      [{ skill_id: 'pdf-toolkit', query: 'split a pdf by chapter' }],
      'import',
      '2025-01-01T00:00:00.000Z',
    );
    // The skill's own trigger evaluations, as `index` stores them: one should, one should-not.
    addUsageExamples(
      db,
      [
        { skill_id: 'pdf-toolkit', query: 'merge two pdf files into one' },
        { skill_id: 'pdf-toolkit', query: HOSTILE, polarity: 'negative' },
      ],
      'author',
      '2025-03-01T00:00:00.000Z',
      {},
      null,
    );
  } finally {
    db.close();
  }
  srv = await startOver(lib);
  page = await loadPage();
});

afterAll(async () => {
  await srv?.close();
});

interface ApiExamples {
  total: number;
  examples: { query: string; source: string; polarity?: string }[];
}

// The cells of each row of the card's table, by the row's data attributes.
function rows(card: Element): { source: string; polarity: string; cls: string; cells: string[] }[] {
  return card
    .all()
    .filter((e) => e.tag === 'tr' && e.getAttribute('data-source') !== null)
    .map((tr) => ({
      source: tr.getAttribute('data-source')!,
      polarity: tr.getAttribute('data-polarity')!,
      cls: tr.className,
      cells: tr.children
        .filter((c): c is Element => c instanceof Element)
        .map((c) => c.textContent),
    }));
}

describe('the skill page shows each usage example with its source and polarity', () => {
  it('/api/examples gives the source and the polarity of each example', async () => {
    const api = (await raw(srv.base, '/api/examples?skill=pdf-toolkit')).json<ApiExamples>();
    expect(api.total).toBe(3);
    expect(api.examples.map((e) => [e.source, e.polarity, e.query]).sort()).toEqual(
      [
        ['author', 'negative', HOSTILE],
        ['author', 'positive', 'merge two pdf files into one'],
        ['import', 'positive', 'split a pdf by chapter'],
      ].sort(),
    );
  });

  it('renders a should-not example as negative and its hostile text as text', async () => {
    const api = (await raw(srv.base, '/api/examples?skill=pdf-toolkit')).json<ApiExamples>();
    const card = page.examplesTable(api.total, api.examples);
    const html = card.html();
    const byText = new Map(rows(card).map((r) => [r.cells[3], r]));
    // Columns: id, source, polarity, request, sessions, weight, clients, last.
    expect(
      card
        .all()
        .filter((e) => e.tag === 'th')
        .map((e) => e.textContent),
    ).toEqual(['id', 'source', 'polarity', 'request', 'sessions', 'weight', 'clients', 'last']);
    const negative = byText.get(HOSTILE)!;
    expect(negative).toMatchObject({ source: 'author', polarity: 'negative', cls: 'negative' });
    expect(negative.cells[1]).toBe('author');
    expect(negative.cells[2]).toBe('− should not trigger');
    for (const q of ['merge two pdf files into one', 'split a pdf by chapter']) {
      expect(byText.get(q)).toMatchObject({ polarity: 'positive', cls: '' });
      expect(byText.get(q)!.cells[2]).toBe('+ should trigger');
    }
    expect(byText.get('split a pdf by chapter')!.cells[1]).toBe('import');
    // The summary counts the author examples and says how many should not trigger.
    expect(card.textContent).toContain('3 example(s): 1 import, 0 host, 0 fetch, 2 author');
    expect(card.textContent).toContain('1 should not trigger');
    // The hostile text is one escaped text node: no element, no attribute made of it.
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain(escapeText(HOSTILE));
    expect(html.match(/data-polarity="negative"/g)).toHaveLength(1);
    for (const e of card.all()) for (const v of e.attrs.values()) expect(v).not.toContain('pdf');
  });

  it('reads an example without a polarity (a server before issue 34) as should trigger', () => {
    const card = page.examplesTable(1, [
      {
        id: 7,
        query: 'extract tables',
        source: 'fetch',
        sessions: 1,
        clients: 1,
        weight: 0.25,
        rows: 1,
        first_at: '2025-01-01T00:00:00.000Z',
        last_at: '2025-01-01T00:00:00.000Z',
        client_names: ['mcp:a'],
      },
    ]);
    expect(rows(card)).toEqual([
      expect.objectContaining({ source: 'fetch', polarity: 'positive', cls: '' }),
    ]);
    expect(rows(card)[0]!.cells[2]).toBe('+ should trigger');
  });
});

describe("a search result lists the skill's own matched examples with their polarity", () => {
  it('marks a should-not example as negative, with the penalty, and keeps its text as text', () => {
    const line = page.authorLine({
      skill_id: 'pdf-toolkit',
      explanation: {
        author: {
          matched: [
            { query: HOSTILE, source: 'author', polarity: 'negative', similarity: 0.8 },
            {
              query: 'merge two pdf files into one',
              source: 'author',
              polarity: 'positive',
              similarity: 0.5,
            },
          ],
          effect: 'penalty',
          factor: 0.6,
        },
      },
    })!;
    const html = line.html();
    expect(line.textContent).toContain('penalty ×0.600');
    const examples = line.all().filter((e) => e.getAttribute('data-polarity') !== null);
    expect(examples.map((e) => [e.getAttribute('data-polarity'), e.textContent])).toEqual([
      ['negative', `− should not ${HOSTILE} (author, 0.80)`],
      ['positive', '; + should merge two pdf files into one (author, 0.50)'],
    ]);
    expect(examples[0]!.className).toBe('example negative');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain(`<q>${escapeText(HOSTILE)}</q>`);
  });

  it('adds nothing to a result without author evidence', () => {
    expect(page.authorLine({ skill_id: 'x', explanation: { components: [] } })).toBeNull();
    expect(
      page.authorLine({ skill_id: 'x', explanation: { author: { matched: [], effect: 'none' } } }),
    ).toBeNull();
  });
});
