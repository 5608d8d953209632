/**
 * Same-process A/B of a full index (issue #26, "Index cost of v3"): on a shared, loaded machine wall
 * time measures the load, so this indexes the `bench:router` library of 10,000 generated skills with
 * several builds in one Node process, alternating, and reports each full index's CPU time (user +
 * system of the process), wall time, the unchanged re-index after it and the catalog's size; then
 * asks every catalog the same Zipf queries (as is, limit 10, and with an excluded word, limit 20),
 * each through its own build and the last build through the first build's catalog too (rows written
 * before are read as they were), and counts the JSON answers that differ from the first. Prints
 * where each build's catalog keeps its bytes (SQLite's dbstat, tables and indexes of 0.1 MB or more).
 *
 *   npm run build && tsc -p tsconfig.bench.json && node --expose-gc dist-bench/bench/index-ab.js \
 *     [--rounds 3] [--queries 500] [--policy ID] LABEL=DIST ...
 *
 * DIST is a build's `dist` folder (the baseline: `git archive COMMIT | tar -x -C DIR`, a link to
 * node_modules and `npx tsc -p tsconfig.build.json` there). Results print to stdout.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORK, generateSkillLibrary, largeVocabulary, rng, zipfFrom } from './lib.js';

interface Build {
  label: string;
  indexCatalog(o: { catalog: string; scopes: string[]; policy?: string }): unknown;
  Router: new (o: { catalog: string; telemetry: boolean }) => {
    search(a: { query: string; limit: number }): unknown;
    close?(): void;
  };
}

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const size = (f: string): number =>
  ['', '-wal', '-shm'].reduce((s, x) => s + (existsSync(f + x) ? statSync(f + x).size : 0), 0);
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
  const rounds = arg('--rounds', 3);
  const queries = arg('--queries', 500);
  // --policy ID: index under that policy with every build (default: each build's default policy).
  const policyAt = process.argv.indexOf('--policy');
  const policy = policyAt > 0 ? { policy: process.argv[policyAt + 1]! } : {};
  const builds: Build[] = [];
  for (const a of process.argv.slice(2).filter((x) => x.includes('='))) {
    const [label, dist] = a.split('=') as [string, string];
    const m = (await import(path.resolve(dist, 'index.js'))) as Omit<Build, 'label'>;
    builds.push({ label, indexCatalog: m.indexCatalog, Router: m.Router });
  }
  const lib = generateSkillLibrary(10_000);
  const catalogOf = (b: Build): string => path.join(WORK, `index-ab-${b.label}.sqlite`);
  for (let r = 0; r < rounds; r++) {
    for (const b of builds) {
      const catalog = catalogOf(b);
      for (const x of ['', '-wal', '-shm']) rmSync(catalog + x, { force: true });
      gc();
      let c0 = cpu();
      let t0 = performance.now();
      b.indexCatalog({ catalog, scopes: [lib], ...policy });
      const full = { cpu: cpu() - c0, wall: (performance.now() - t0) / 1000 };
      gc();
      c0 = cpu();
      t0 = performance.now();
      b.indexCatalog({ catalog, scopes: [lib], ...policy });
      const again = { cpu: cpu() - c0, wall: (performance.now() - t0) / 1000 };
      console.log(
        `${b.label} round ${r + 1}: full ${full.cpu.toFixed(2)} s CPU, ${full.wall.toFixed(2)} s wall; ` +
          `unchanged re-index ${again.cpu.toFixed(2)} s CPU (${(again.cpu / full.cpu).toFixed(3)}), ` +
          `${again.wall.toFixed(2)} s wall (${(again.wall / full.wall).toFixed(3)}); ` +
          `${(size(catalog) / 1e6).toFixed(1)} MB; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  // Where each build's bytes are (SQLite's dbstat: pages per table or index, in MB).
  const Database = (await import('better-sqlite3')).default;
  for (const b of builds) {
    const db = new Database(catalogOf(b), { readonly: true });
    const rows = db
      .prepare(
        `SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name HAVING bytes >= 100000 ORDER BY bytes DESC`,
      )
      .all() as { name: string; bytes: number }[];
    db.close();
    console.log(
      `${b.label} catalog: ${rows.map((r) => `${r.name} ${(r.bytes / 1e6).toFixed(1)}`).join(', ')}`,
    );
  }
  const vocab = largeVocabulary(40_000);
  const rand = rng(10_001);
  const qs = Array.from({ length: queries }, () =>
    zipfFrom(vocab, rand, 1 + Math.floor(rand() * 8)).join(' '),
  );
  const asks = [
    ...qs.map((query) => ({ query, limit: 10 })),
    ...qs.map((q) => ({ query: `${q}, no ${zipfFrom(vocab, rand, 1)[0]!}`, limit: 20 })),
  ];
  const answer = (b: Build, catalog: string): string[] => {
    const router = new b.Router({ catalog, telemetry: false });
    const out = asks.map((a) => JSON.stringify(router.search(a)));
    router.close?.();
    return out;
  };
  const first = builds[0]!;
  const reference = answer(first, catalogOf(first));
  const last = builds[builds.length - 1]!;
  const pairs: [string, Build, string][] = [
    ...builds.slice(1).map((b): [string, Build, string] => [b.label, b, catalogOf(b)]),
    [`${last.label} on ${first.label}'s catalog`, last, catalogOf(first)],
  ];
  for (const [label, b, catalog] of pairs) {
    const got = answer(b, catalog);
    const differ = got.filter((a, i) => a !== reference[i]).length;
    console.log(`${label}: ${got.length} answers, ${differ} differ from ${first.label}'s`);
  }
}

await main();
