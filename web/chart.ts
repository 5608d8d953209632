/**
 * The usage chart of the skill page: suggestions and fetches per day, drawn with uPlot (bundled at
 * build time and loaded with the skill page; its stylesheet is imported by main.ts into app.css).
 * uPlot draws on a canvas and sets styles through the CSSOM only, so it runs under the page's
 * Content-Security-Policy. The x axis is days, within the data's own range (half a day of margin
 * each side, ticks on whole days labelled YYYY-MM-DD), never a padded span of years; the legend is
 * the page's own (uPlot's shows "--" for the x value when no point is hovered). The tick labels
 * drawn are kept in the box's `data-x-ticks` (for the page's tests).
 */
import uPlot from 'uplot';
import { chartTicks, type DayCount } from './chart-axis.js';
import { h } from './dom.js';

/** Width of the chart in CSS pixels at most (it shrinks to its card on a phone). */
const MAX_WIDTH = 520;

/** Line colours of the two series (their legend swatches use the same). */
const SERIES = [
  { label: 'suggestions', colour: '#4c78a8' },
  { label: 'fetches', colour: '#f58518' },
] as const;

/** A chart of `usage` (oldest first) in a container; a table under it carries the same figures. */
export function usageChart(usage: readonly DayCount[]): HTMLElement {
  const box = h('div', { class: 'chart', attrs: { id: 'usage-chart' } });
  const xs = usage.map((u) => Date.parse(u.day + 'T00:00:00Z') / 1000);
  const data: uPlot.AlignedData = [
    xs,
    usage.map((u) => u.suggestions),
    usage.map((u) => u.fetches),
  ];
  const ticks = chartTicks(xs);
  // The container has no width until it is in the document: draw on the next frame.
  requestAnimationFrame(() => {
    const width = Math.max(240, Math.min(MAX_WIDTH, box.clientWidth || MAX_WIDTH));
    new uPlot(
      {
        width,
        height: 180,
        legend: { show: false },
        series: [
          {},
          ...SERIES.map((s) => ({
            label: s.label,
            stroke: s.colour,
            width: 2,
            points: { show: true },
          })),
        ],
        axes: [
          {
            splits: () => ticks.splits,
            values: (_u: uPlot, splits: number[]) => {
              const labels = splits.map(ticks.label);
              box.dataset['xTicks'] = labels.join(' ');
              return labels;
            },
          },
          { size: 40 },
        ],
        scales: { x: { time: true, range: () => ticks.range } },
      },
      data,
      box,
    );
  });
  const legend = h(
    'div',
    { class: 'legend' },
    SERIES.map((s) => {
      const sw = h('i', { class: 'swatch' });
      sw.style.backgroundColor = s.colour;
      return h('span', {}, sw, s.label);
    }),
  );
  const table = h(
    'table',
    { class: 'usage tokens' },
    h('tr', {}, h('th', {}, 'day'), h('th', {}, 'suggestions'), h('th', {}, 'fetches')),
    usage.map((u) =>
      h(
        'tr',
        {},
        h('td', {}, u.day),
        h('td', { class: 'num' }, String(u.suggestions)),
        h('td', { class: 'num' }, String(u.fetches)),
      ),
    ),
  );
  return h('div', {}, box, legend, table);
}
