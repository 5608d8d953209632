/**
 * Start-up benchmark (issue #12): wall time of a one-shot `skilldex search` (the built
 * `bin/skilldex.js`, a fresh process per run, over the 36-skill example catalog) against a bare
 * `node -e 0`, as a ratio of medians. Runs alternate between the two commands so load on a shared
 * machine hits both alike. Also times `skilldex --version` (argument parsing and module loading
 * only) to separate loading from the search itself, `require('better-sqlite3')` and
 * `require('commander')` from node_modules alone (what the unbundled CLI paid before doing anything),
 * and the same search through the unbundled ES modules (tsc's dist/cli/main.js, the start before
 * scripts/build-cli.mjs). Target: search ≤ 1.6× bare Node. Each run adds a row to the file's
 * "Earlier runs" table, which later runs keep.
 *
 *   npm run bench:startup
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
// The start the CLI had before the bundle (scripts/build-cli.mjs): bin/skilldex.js as an ES module
// importing tsc's dist/cli/main.js, module by module. Measured beside the bundle in the same run.
const esmShim = path.join(dir, 'skilldex-esm.mjs');
writeFileSync(
  esmShim,
  `import { main } from ${JSON.stringify(path.join(REPO, 'dist', 'cli', 'main.js'))};\n` +
    'process.exitCode = await main(process.argv.slice(2));\n',
);
const SEARCH = [
  'search',
  'extract tables from a pdf',
  '--catalog',
  catalog,
  '--limit',
  '3',
  '--no-telemetry',
];
const commands: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  "node -e require('commander')": ['-e', "require('commander')"],
  "node -e require('better-sqlite3')": ['-e', "require('better-sqlite3')"],
  'skilldex --version': [BIN, '--version'],
  'skilldex search': [BIN, ...SEARCH],
  'skilldex search, unbundled (ES modules, as before)': [esmShim, ...SEARCH],
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
const unbundled = median(samples['skilldex search, unbundled (ES modules, as before)']!) / bare;
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
    `**search / bare node = ${fmt(ratio)}×** (target ≤ 1.6×: ${ratio <= 1.6 ? 'met' : 'not met'}); unbundled, as before the bundle: ${fmt(unbundled)}×.`,
    '',
    `Load average during the run: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}.`,
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
