/**
 * Start-up benchmark (issue #12): wall time of a one-shot `skilldex search` (the built
 * `bin/skilldex.js`, a fresh process per run, over the 36-skill example catalog) against a bare
 * `node -e 0`, as a ratio of medians. Runs alternate between the two commands so load on a shared
 * machine hits both alike. Also times `skilldex --version` (argument parsing and module loading
 * only) to separate loading from the search itself, and `require('better-sqlite3')` and
 * `require('commander')` alone (floors no lazy loading can go under). Target: search ≤ 1.6× bare
 * Node. Each run adds a row to the file's "Earlier runs" table, which later runs keep.
 *
 *   npm run bench:startup
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
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
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', cwd: REPO });
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
  "node -e require('commander')": ['-e', "require('commander')"],
  "node -e require('better-sqlite3')": ['-e', "require('better-sqlite3')"],
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
const version = median(samples['skilldex --version']!) / bare;

// The rows of earlier runs, kept from the file this run replaces, then this run's row.
const HISTORY = '## Earlier runs';
const file = path.join(REPO, 'bench', 'results', 'startup.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const kept = previous.includes(HISTORY)
  ? previous
      .slice(previous.indexOf(HISTORY))
      .split('\n')
      .filter((l) => /^\| \d{4}-/.test(l))
  : [];
const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' });
const commit = head.status === 0 ? head.stdout.trim() : '?';
const row = `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${commit} | ${fmt(bare, 1)} | ${fmt(version)}× | ${fmt(ratio)}× |`;
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
    '',
    HISTORY,
    '',
    'One row per run of this bench (the commit it ran on; `--version` and search as × bare node).',
    '',
    '| when (UTC) | commit | node -e 0 ms | --version | search |',
    '|---|---|---|---|---|',
    ...kept,
    row,
  ].join('\n'),
);
