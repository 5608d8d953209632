/**
 * The page's pure helpers of issue 27: a component's colour depends on its name alone (fixed for the
 * shipped policies' components, a hash-chosen fallback for a new policy's), the legend order is
 * stable, and the usage chart's x axis spans the data's own days with ticks on whole days.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TICKS, chartTicks } from '../../web/chart-axis.js';
import {
  COMPONENT_COLOURS,
  FALLBACK_COLOURS,
  componentColour,
  legendOrder,
} from '../../web/palette.js';

describe('component colours', () => {
  it('gives every shipped component its own fixed colour', () => {
    const names = [
      'keywords',
      'name',
      'description',
      'fts',
      'fuzzy',
      'body',
      'usage',
      'name_bonus',
      'name_phrase',
      'boundary',
      'exclusion',
    ];
    const colours = names.map(componentColour);
    expect(new Set(colours).size).toBe(names.length);
    for (const n of names) expect(componentColour(n)).toBe(COMPONENT_COLOURS[n]);
  });

  it("names every component of the default policy's explanations, and no fallback repeats a fixed colour", () => {
    const v4 = ['name', 'keywords', 'description', 'body', 'usage'].concat([
      'name_bonus',
      'name_phrase',
      'fuzzy',
      'boundary',
      'exclusion',
    ]);
    for (const n of v4) expect(Object.keys(COMPONENT_COLOURS)).toContain(n);
    const fixed = new Set(Object.values(COMPONENT_COLOURS));
    for (const c of FALLBACK_COLOURS) expect(fixed.has(c), c).toBe(false);
  });

  it('gives any other name a fallback colour that depends on the name alone', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (n) => {
        fc.pre(!(n in COMPONENT_COLOURS));
        expect(FALLBACK_COLOURS).toContain(componentColour(n));
        expect(componentColour(n)).toBe(componentColour(`${n}`.slice(0)));
      }),
    );
  });

  it('orders a legend by the fixed order, then by name, whatever order names come in', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(['body', 'name', 'zeta', 'alpha', 'fts', 'usage', 'name']),
        (names) => {
          const order = legendOrder(names);
          expect(order).toEqual(legendOrder([...names].reverse()));
          expect(new Set(order).size).toBe(order.length);
        },
      ),
    );
    expect(legendOrder(['zeta', 'body', 'alpha', 'name'])).toEqual([
      'name',
      'body',
      'alpha',
      'zeta',
    ]);
  });
});

describe('the usage chart axis', () => {
  const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 1000;

  it('spans one day of data by half a day each side, with that day as its one tick', () => {
    const t = chartTicks([day('2026-12-02')]);
    expect(t.range).toEqual([day('2026-12-02') - 43_200, day('2026-12-02') + 43_200]);
    expect(t.splits.map(t.label)).toEqual(['2026-12-02']);
  });

  it('puts at most MAX_TICKS ticks on whole days within the data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 800 }),
        (start, span) => {
          const first = day('2024-01-01') + start * 86_400;
          const t = chartTicks([first, first + span * 86_400]);
          expect(t.splits.length).toBeLessThanOrEqual(MAX_TICKS);
          expect(t.splits.length).toBeGreaterThan(0);
          for (const s of t.splits) {
            expect(s % 86_400).toBe(0);
            expect(s).toBeGreaterThanOrEqual(first);
            expect(s).toBeLessThanOrEqual(first + span * 86_400);
          }
        },
      ),
    );
  });
});
