/**
 * Prompt-hook benchmark (issue 23 §1, docs/integration.md §8).
 *
 * Latency: the whole `skilldex hook claude-code` process, start to exit (the built bin, a fresh
 * process per run, the host's event object on stdin), over a catalog of the 1,206 real skills of
 * ../shared/bench/corpus-real, beside a bare `node -e 0` measured alternately in the same run (load
 * on a shared machine hits them alike), and beside the same hook through the whole CLI bundle (as
 * the launcher ran it before the hook had its own entry, issue 35) and as init installs it (a user
 * config, telemetry on), and beside a floor: the hook's bundle and the SQLite addon loaded and stdin
 * read, nothing run. The hook runs two ways: answered by the user's hook server (the default: the
 * process loads only the client, src/cli/hook-client.ts) and in its own process (hook_server off),
 * with the client's own floor beside them. Reports p50, p95 and p99 and their ratio to bare Node;
 * every way must print the same bytes. Target (issue 35): p50 ≤ 1.5× bare Node.
 *
 * The hook's suggestion quality per policy is bench/hook-quality.ts (npm run bench:hook-quality).
 *
 *   npm run bench:hook
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { DEFAULT_POLICY_ID, indexCatalog } from '../src/internal.js';
import { triggerQueries } from './trigger-quality.js';
import { REPO, WORK, fmt, machineLine, now, percentile, writeResult } from './lib.js';

const RUNS = 81;
const BIN = path.join(REPO, 'bin', 'skilldex.js');
const SHARED = path.resolve(REPO, '..', 'shared', 'bench');
const TRIGGER = path.join(SHARED, 'trigger');
const CORPUS = path.join(SHARED, 'corpus-real');
const dir = path.join(WORK, 'hook');
mkdirSync(dir, { recursive: true });
const home = path.join(dir, 'home');
mkdirSync(home, { recursive: true });

function build(name: string, scopes: string[]): string {
  const catalog = path.join(dir, `${name}-${Date.now()}.sqlite`);
  indexCatalog({ catalog, scopes, now: () => new Date(0), policy: DEFAULT_POLICY_ID });
  return catalog;
}

function timed(args: string[], input: string): number {
  const t = now();
  const r = spawnSync(process.execPath, args, {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: home },
  });
  const ms = now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const queries = triggerQueries(TRIGGER);

// Latency over the real corpus: prompts drawn from the trigger set, a new session each run. Four
// commands alternate (load on a shared machine hits them alike): bare Node; the hook through the
// whole CLI bundle, as bin/skilldex.js ran it before the hook had its own entry (a script doing
// what the launcher did then); the hook through bin/skilldex.js, which loads the hook's own
// bundle; and that again as init installs it: the user config init writes, telemetry on.
const corpusCatalog = build('corpus', [CORPUS]);
const fullEntry = path.join(dir, 'full-cli.cjs');
writeFileSync(
  fullEntry,
  `require(${JSON.stringify(BIN)}).loadCli().cli.main(process.argv.slice(2)).then((c) => { process.exitCode = c; });\n`,
);
const configHome = path.join(dir, 'home-config');
mkdirSync(path.join(configHome, '.config', 'skilldex'), { recursive: true });
writeFileSync(
  path.join(configHome, '.config', 'skilldex', 'config.toml'),
  `catalog = ${JSON.stringify(corpusCatalog)}\n\n[library]\nscopes = [${JSON.stringify(CORPUS)}]\n`,
);
// The floor of an in-process hook of this design: Node, the hook's bundle loaded from its code
// cache, the SQLite addon loaded and the event read from stdin through the stream (a host that is a
// Node program hands a socket, which only the stream reads without risking a hang at exit). No
// config, no catalog, no search: what is left above this row is skilldex's own work.
const floorEntry = path.join(dir, 'floor.cjs');
const addon = path.join(
  path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
writeFileSync(
  floorEntry,
  `const b = require(${JSON.stringify(BIN)}); b.loadCli(b.HOOK_BUNDLE); require(${JSON.stringify(addon)});\n` +
    `process.stdin.on('data', () => {}).on('end', () => {});\n`,
);
// The floor of the hook server's client: Node, the client bundle loaded from its code cache, the
// event read from stdin; no socket, no answer.
const clientFloorEntry = path.join(dir, 'client-floor.cjs');
writeFileSync(
  clientFloorEntry,
  `const b = require(${JSON.stringify(BIN)}); b.loadCli(b.HOOK_CLIENT_BUNDLE);\n` +
    `process.stdin.on('data', () => {}).on('end', () => {});\n`,
);
const bare: number[] = [];
const floor: number[] = [];
const clientFloor: number[] = [];
const full: number[] = [];
const alone: number[] = [];
const hook: number[] = [];
const installed: number[] = [];
// In their own process: the hook server turned off for the run.
const OFF = { SKILLDEX_HOOK_SERVER: 'off' };
const prompts = queries.filter((_, i) => i % 37 === 0).map((q) => q.query);
let suggested = 0;
const runId = Date.now().toString(36);
const hookArgs = ['hook', 'claude-code', '--catalog', corpusCatalog, '--no-telemetry'];
const run = (
  args: string[],
  input: string,
  h = home,
  env: Record<string, string> = {},
): { ms: number; out: string } => {
  const t = now();
  const r = spawnSync(process.execPath, args, {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: h, ...env },
  });
  const ms = now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
};
// Each home's hook server, started before the runs (a prompt would start it after the first).
for (const h of [home, configHome]) run([BIN, 'hook-server', 'start'], '', h);
for (let i = 0; i < RUNS; i++) {
  bare.push(timed(['-e', '0'], ''));
  const event = (who: string): string =>
    JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      // A session of its own per run and per bench run: a session state left by an earlier bench
      // run (same topic) would hold the suggestions back.
      session_id: `bench-${who}-${runId}-${i}`,
      cwd: dir,
      prompt: prompts[i % prompts.length],
    });
  floor.push(run([floorEntry], event('floor')).ms);
  clientFloor.push(run([clientFloorEntry], event('client-floor')).ms);
  const before = run([fullEntry, ...hookArgs], event('full'), home, OFF);
  full.push(before.ms);
  const own = run([BIN, ...hookArgs], event('alone'), home, OFF);
  alone.push(own.ms);
  const after = run([BIN, ...hookArgs], event('hook'));
  hook.push(after.ms);
  if (after.out !== before.out || own.out !== before.out)
    throw new Error(`the entries answered differently: ${prompts[i % prompts.length]}`);
  if (after.out !== '') suggested++;
  installed.push(run([BIN, 'hook', 'claude-code'], event('installed'), configHome).ms);
}
const served = (h: string): string => {
  const r = spawnSync(process.execPath, [BIN, 'hook-server', 'status', '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: h },
  });
  const st = JSON.parse(r.stdout) as { servers: { current: boolean; info?: { served: number } }[] };
  return String(st.servers.find((x) => x.current)?.info?.served ?? 0);
};
const servedCounts = [served(home), served(configHome)];
for (const h of [home, configHome]) run([BIN, 'hook-server', 'stop'], '', h);
if (servedCounts.some((n) => Number(n) < RUNS))
  throw new Error(`the hook servers answered ${servedCounts.join(' and ')} of ${RUNS} prompts`);

const p = (xs: number[], k: number): number => percentile(xs, k);
const b50 = p(bare, 50);
const latencyRow = (name: string, xs: number[]): string =>
  `| ${name} | ${fmt(p(xs, 50), 1)} | ${fmt(p(xs, 95), 1)} | ${fmt(p(xs, 99), 1)} | ${fmt(p(xs, 50) / b50, 2)}× |`;
const md = [
  '# Prompt hook: latency',
  '',
  machineLine(),
  '',
  `## Latency: one \`skilldex hook claude-code\` process over the ${'1,206'}-skill real corpus`,
  '',
  `${RUNS} alternating runs each, fresh process per run, the event object on stdin, a new session per run; ${suggested} of ${RUNS} prompts got suggestions (the same bytes every way). The two hook servers answered ${servedCounts.join(' and ')} prompts.`,
  '',
  '| command | p50 ms | p95 ms | p99 ms | p50 × bare node |',
  '|---|---|---|---|---|',
  latencyRow('node -e 0', bare),
  latencyRow(
    'floor in its own process: hook bundle + SQLite addon loaded, stdin read, nothing run',
    floor,
  ),
  latencyRow('floor of the client: client bundle loaded, stdin read, nothing asked', clientFloor),
  latencyRow('hook through the whole CLI bundle, in its own process (before)', full),
  latencyRow('skilldex hook claude-code in its own process (hook_server off)', alone),
  latencyRow('**skilldex hook claude-code, answered by the hook server (default)**', hook),
  latencyRow('the same as init installs it (user config, telemetry on), hook server', installed),
  '',
  `p99 of ${RUNS} runs is their slowest but one at most. Target: p50 of the hook ≤ 1.5× bare Node (${fmt(1.5 * b50, 1)} ms): ${p(hook, 50) <= 1.5 * b50 ? 'met' : 'not met'} in this run with the hook server, ${p(alone, 50) <= 1.5 * b50 ? 'met' : 'not met'} in its own process. Load average during the run: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}.`,
  '',
].join('\n');
console.log(md);
writeResult('hook', md);
