/**
 * Search latency of two builds over the same generated library (issue 33's target: "search
 * p50/p99 not slower than today"): each build indexes `generateSkillLibrary(N)` under a policy it
 * names into its own catalog, then both answer the same 1,000 Zipf queries (bench:router's kind,
 * limit 10, telemetry off), interleaved query by query so load on a shared machine hits both alike.
 * Reports p50/p95/p99 per build and their ratios, and each build's full index (wall, CPU, catalog size). A build is a folder holding a compiled `dist`
 * (`git archive <rev> | tar -x -C DIR && npx tsc -p tsconfig.build.json` there, node_modules
 * linked).
 *
 *   npx tsc -p tsconfig.bench.json && node --expose-gc dist-bench/bench/search-ab.js \
 *     [--index-only] --sizes 10000 base=/tmp/base/dist:tf.skillrouter.bm25f.v4 main=dist:tf.skillrouter.bm25f.v5
 *
 * Every build indexes before any router opens; with --expose-gc each index starts after a collection.
 */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  REPO,
  WORK,
  fmt,
  generateSkillLibrary,
  machineLine,
  percentile,
  zipfQueries,
  time,
  writeResult,
} from './lib.js';

interface Build {
  readonly label: string;
  readonly dist: string;
  readonly policy: string;
}
interface Api {
  indexCatalog(o: { catalog: string; scopes: string[]; policy?: string }): unknown;
  Router: new (o: { catalog: string; telemetry: boolean }) => {
    search(o: { query: string; limit: number }): unknown;
    close(): void;
  };
}

const args = process.argv.slice(2);
const sizesAt = args.indexOf('--sizes');
const SIZES = sizesAt >= 0 ? args[sizesAt + 1]!.split(',').map(Number) : [10_000];
// --index-only: the full indexes alone, without the 1,000 searches (while iterating on the index).
const INDEX_ONLY = args.includes('--index-only');
const builds: Build[] = args
  .filter((a, i) => a.includes('=') && args[i - 1] !== '--sizes')
  .map((a) => {
    const [label, rest] = a.split('=') as [string, string];
    const at = rest.lastIndexOf(':');
    return {
      label,
      dist: path.resolve(REPO, rest.slice(0, at)),
      policy: rest.slice(at + 1),
    };
  });
if (builds.length < 2) {
  process.stderr.write('usage: search-ab [--sizes N,…] LABEL=DIST:POLICY LABEL=DIST:POLICY…\n');
  process.exit(2);
}

async function main(): Promise<void> {
  const apis = await Promise.all(
    builds.map(
      async (b) => (await import(pathToFileURL(path.join(b.dist, 'internal.js')).href)) as Api,
    ),
  );
  const rows: string[] = [];
  const indexRows: string[] = [];
  for (const n of SIZES) {
    process.stderr.write(`generating ${n} skills…\n`);
    const dir = generateSkillLibrary(n);
    const indexed: { ms: number; cpu: number; bytes: number }[] = [];
    const catalogs = builds.map((b) => path.join(WORK, `search-ab-${b.label}-${n}.sqlite`));
    // Every build indexes before any router opens (a router's caches would enlarge the heap that
    // the next build's index collects garbage in), after a collection when --expose-gc is given.
    builds.forEach((b, i) => {
      const catalog = catalogs[i]!;
      for (const f of [catalog, `${catalog}-wal`, `${catalog}-shm`]) rmSync(f, { force: true });
      process.stderr.write(`indexing ${n} with ${b.label} (${b.policy})…\n`);
      (globalThis as { gc?: () => void }).gc?.();
      const cpu0 = process.cpuUsage();
      const t = time(() => apis[i]!.indexCatalog({ catalog, scopes: [dir], policy: b.policy }));
      const cpu = process.cpuUsage(cpu0);
      indexed.push({
        ms: t.ms,
        cpu: (cpu.user + cpu.system) / 1000,
        bytes: statSync(catalog).size,
      });
    });
    const routers = INDEX_ONLY
      ? []
      : builds.map((_, i) => new apis[i]!.Router({ catalog: catalogs[i]!, telemetry: false }));
    const qs = zipfQueries(1_000, n + 1);
    for (let i = 0; i < 50; i++) for (const r of routers) r.search({ query: qs[i]!, limit: 10 });
    const times = builds.map(() => [] as number[]);
    process.stderr.write(`searching ${n}…\n`);
    for (const q of qs)
      routers.forEach((r, i) => times[i]!.push(time(() => r.search({ query: q, limit: 10 })).ms));
    routers.forEach((r) => r.close());
    const p = (xs: number[]): string => [50, 95, 99].map((k) => fmt(percentile(xs, k))).join(' / ');
    builds.forEach((b, i) =>
      indexRows.push(
        `| ${n} | ${b.label} (${b.policy.replace(/^tf\.skillrouter\./, '')}) | ${fmt(indexed[i]!.ms / 1000)} s | ${fmt(indexed[i]!.cpu / 1000)} s | ${fmt(indexed[0]!.cpu / indexed[i]!.cpu)}× | ${fmt(indexed[i]!.bytes / 1e6, 1)} MB | ${fmt(indexed[i]!.bytes / indexed[0]!.bytes)} |`,
      ),
    );
    if (!INDEX_ONLY)
      builds.forEach((b, i) =>
        rows.push(
          `| ${n} | ${b.label} (${b.policy.replace(/^tf\.skillrouter\./, '')}) | ${p(times[i]!)} | ${fmt(percentile(times[i]!, 50) / percentile(times[0]!, 50))} | ${fmt(percentile(times[i]!, 99) / percentile(times[0]!, 99))} |`,
        ),
      );
  }
  const md = [
    '# Search latency: build against build',
    '',
    machineLine(),
    '',
    `Builds: ${builds.map((b) => `${b.label} = ${path.relative(REPO, b.dist) || '.'}`).join(', ')}. 1,000 Zipf queries of 1–8 words, limit 10, telemetry off, interleaved; ratios against the first build.`,
    '',
    '| skills | build (policy) | skill_search p50 / p95 / p99 (ms) | p50 ratio | p99 ratio |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    "Full index of each build (one run each, in turn, before the searches; CPU = the process's user + system time during it):",
    '',
    '| skills | build (policy) | wall | CPU | throughput against the first (CPU) | catalog | size against the first |',
    '|---|---|---|---|---|---|---|',
    ...indexRows,
  ].join('\n');
  console.log(md);
  // An index-only run has no search figures: it prints, and leaves the results file as it is.
  if (!INDEX_ONLY) writeResult('search-ab', md);
}

void main();
