/**
 * The x axis of the usage chart (issue 27), as a pure function of the days charted: the scale's
 * range (the first day minus half a day to the last plus half a day, so one day of data is a point
 * in the middle, never a span padded out to other years), ticks on whole UTC days (at most
 * MAX_TICKS, evenly spaced), and their labels (YYYY-MM-DD). No DOM, so unit tests run it.
 */

/** One day of a skill's usage. */
export interface DayCount {
  readonly day: string;
  readonly suggestions: number;
  readonly fetches: number;
}

/** Most tick labels on the axis (each is ten characters wide). */
export const MAX_TICKS = 6;

const DAY = 86_400;

/** Range, ticks and tick labels for days given as UTC-midnight epoch seconds (ascending). */
export function chartTicks(days: readonly number[]): {
  range: [number, number];
  splits: number[];
  label: (t: number) => string;
} {
  const first = days[0] ?? 0;
  const last = days[days.length - 1] ?? first;
  const span = Math.round((last - first) / DAY);
  const step = Math.max(1, Math.ceil((span + 1) / MAX_TICKS));
  const splits: number[] = [];
  for (let t = first; t <= last; t += step * DAY) splits.push(t);
  return {
    range: [first - DAY / 2, last + DAY / 2],
    splits,
    label: (t) => new Date(t * 1000).toISOString().slice(0, 10),
  };
}
