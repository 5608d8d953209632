/**
 * The usage chart of the skill page: suggestions and fetches per day, drawn with uPlot (bundled at
 * build time and loaded with the skill page; its stylesheet is imported by main.ts into app.css). uPlot draws on a canvas and sets styles through
 * the CSSOM only, so it runs under the page's Content-Security-Policy.
 */
import uPlot from 'uplot';
import { h } from './dom.js';

/** Width of the chart in CSS pixels at most (it shrinks to its card on a phone). */
const MAX_WIDTH = 520;

/** A chart of `usage` (oldest first) in a container; a table under it carries the same figures. */
export function usageChart(
  usage: readonly { day: string; suggestions: number; fetches: number }[],
): HTMLElement {
  const box = h('div', { class: 'chart' });
  const xs = usage.map((u) => Date.parse(u.day + 'T00:00:00Z') / 1000);
  const data: uPlot.AlignedData = [
    xs,
    usage.map((u) => u.suggestions),
    usage.map((u) => u.fetches),
  ];
  // The container has no width until it is in the document: draw on the next frame.
  requestAnimationFrame(() => {
    const width = Math.max(240, Math.min(MAX_WIDTH, box.clientWidth || MAX_WIDTH));
    new uPlot(
      {
        width,
        height: 180,
        series: [
          {},
          { label: 'suggestions', stroke: '#4c78a8', width: 2, points: { show: true } },
          { label: 'fetches', stroke: '#f58518', width: 2, points: { show: true } },
        ],
        axes: [{}, { size: 40 }],
        scales: { x: { time: true } },
      },
      data,
      box,
    );
  });
  const table = h(
    'table',
    { class: 'usage' },
    h('tr', {}, h('th', {}, 'day'), h('th', {}, 'suggestions'), h('th', {}, 'fetches')),
    usage.map((u) =>
      h(
        'tr',
        {},
        h('td', {}, u.day),
        h('td', {}, String(u.suggestions)),
        h('td', {}, String(u.fetches)),
      ),
    ),
  );
  return h('div', {}, box, table);
}
