/**
 * Entry point of the explorer page (issue 15): draws the navigation and picks the view from the
 * path (`/`, `/compare`, `/skills/<id>`, `/overview`, `/cascade`, `/substrate`,
 * `/generations/diff`). Bundled by
 * scripts/build-page.mjs into dist/explorer/assets/app.js; the page loads nothing else.
 */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { errorBox, h, link } from './dom.js';
import { cascadeView } from './cascade-view.js';
import { overviewView } from './overview-view.js';
import { skillView } from './skill-view.js';
import { substrateView } from './substrate-view.js';
import { compareView, searchView } from './views.js';
import { generationDiffView } from './generation-diff.js';

const NAV: [string, string][] = [
  ['/', 'Search'],
  ['/compare', 'Compare policies'],
  ['/overview', 'Catalog'],
  ['/cascade', 'Cascade'],
  ['/substrate', 'Substrate'],
];

async function start(): Promise<void> {
  const path = location.pathname;
  const header = h(
    'header',
    {},
    h('a', { class: 'brand', attrs: { href: '/' } }, 'skilldex'),
    h(
      'nav',
      {},
      NAV.map(([href, label]) => {
        const a = link(href, label);
        if (href === path) a.setAttribute('aria-current', 'page');
        return a;
      }),
    ),
  );
  const main = h('main', {});
  document.body.replaceChildren(header, main);
  try {
    if (path.startsWith('/skills/'))
      await skillView(main, decodeURIComponent(path.slice('/skills/'.length)));
    else if (path === '/compare') await compareView(main);
    else if (path === '/overview') await overviewView(main);
    else if (path === '/cascade') await cascadeView(main);
    else if (path === '/substrate') await substrateView(main);
    else if (path === '/generations/diff') await generationDiffView(main);
    else await searchView(main);
  } catch (err) {
    main.append(errorBox(err));
  }
  // The view has drawn its data: tests wait for this flag, the benchmark reads the mark.
  performance.mark('skilldex:ready');
  document.body.dataset['ready'] = 'true';
}

void start();
