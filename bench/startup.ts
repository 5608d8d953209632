/**
 * Start-up benchmark (issue #12): wall time of a one-shot `skilldex search` (the built
 * `bin/skilldex.js`, a fresh process per run, over the 36-skill example catalog) against a bare
 * `node -e 0`, as a ratio of medians. Runs alternate between the two commands so load on a shared
 * machine hits both alike. Also times `skilldex --version` (argument parsing and module loading
 * only) to separate loading from the search itself. Target: search ≤ 1.6× bare Node.
 *
 *   npm run bench:startup
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO, WORK, fmt, machineLine, median, now, writeResult } from './lib.js';

/** Runs per command; the median is reported. */
const RUNS = 21;

const BIN = path.join(REPO, 'bin', 'skilldex.js');
const dir = path.join(WORK, 'startup');
mkdirSync(dir, { recursive: true });
const catalog = path.join(dir, 'catalog.sqlite');
const env = { PATH: process.env['PATH'] ?? '', HOME: dir };

function run(args: string[]): number {
  const t = now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

run([
  BIN,
  'index',
  '--catalog',
  catalog,
  '--scope',
  path.join(REPO, 'examples', 'skills'),
  '--quiet',
]);
const commands: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'skilldex --version': [BIN, '--version'],
  'skilldex search': [
    BIN,
    'search',
    'extract tables from a pdf',
    '--catalog',
    catalog,
    '--limit',
    '3',
    '--no-telemetry',
  ],
};
const samples: Record<string, number[]> = Object.fromEntries(
  Object.keys(commands).map((k) => [k, []]),
);
// One untimed round warms the file cache.
for (const args of Object.values(commands)) run(args);
for (let i = 0; i < RUNS; i++)
  for (const [name, args] of Object.entries(commands)) samples[name]!.push(run(args));

const bare = median(samples['node -e 0']!);
const rows = Object.entries(samples).map(
  ([name, xs]) => `| ${name} | ${fmt(median(xs), 1)} | ${fmt(median(xs) / bare)}× |`,
);
const ratio = median(samples['skilldex search']!) / bare;
writeResult(
  'startup',
  [
    '# Start-up: one-shot `skilldex search` against bare `node -e 0`',
    '',
    machineLine(),
    '',
    `Median of ${RUNS} alternating runs each, fresh process per run, the 36-skill example catalog.`,
    '',
    '| command | median ms | × bare node |',
    '|---|---|---|',
    ...rows,
    '',
    `**search / bare node = ${fmt(ratio)}×** (target ≤ 1.6×: ${ratio <= 1.6 ? 'met' : 'not met'}).`,
  ].join('\n'),
);
