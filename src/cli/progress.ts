/**
 * A progress line for long work: drawn on stderr only when it is a terminal, only once the work
 * has run for a second (short runs stay quiet), and never under --json or --quiet (the caller
 * passes `enabled: false`). Results never go through here.
 */
import type { CliIo } from './context.js';

/** Returns a progress callback `(done, total)` and a `done()` that clears the line. */
export function progressLine(
  io: CliIo,
  label: string,
  options: { readonly enabled?: boolean; readonly clock?: () => number } = {},
): {
  update: (done: number, total: number) => void;
  done: () => void;
} {
  const clock = options.clock ?? io.clock ?? (() => performance.now());
  const enabled = options.enabled !== false && io.stderrIsTTY;
  const start = clock();
  let drawn = false;
  return {
    update: (done, total) => {
      if (!enabled || clock() - start < 1000) return;
      const width = 30;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    done: () => {
      if (drawn) io.stderr('\r\x1b[2K');
      drawn = false;
    },
  };
}
