/**
 * Revision-text benchmark (issue #28): what keeping each revision's SKILL.md text for `skilldex
 * diff` costs the index and the catalog, measured in one process on a real library (default
 * shared/bench/corpus-real, 1,206 skills), this build against a baseline build (`--baseline`: its
 * dist/index.js, e.g. the commit before revision texts built in /tmp), passes interleaved:
 *   - full index into a fresh catalog (policy bm25f.v3, SQLite), and the catalog's size after it
 *     (file after a WAL checkpoint; and the revision_texts rows' compressed bytes);
 *   - re-index after editing 5 % of the SKILL.md files (each a new revision whose text is stored).
 * Medians of `--passes` (default 3); ratios are medians of per-pass ratios.
 *
 *   npm run bench:texts [-- --library DIR] [--passes 3] [--baseline /tmp/skilldex-base/dist/index.js]
 */
import { appendFileSync, cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { indexCatalog } from '../src/internal.js';
import { WORK, fmt, machineLine, median, time, writeResult } from './lib.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const LIBRARY = path.resolve(arg('--library') ?? path.join('..', 'shared', 'bench', 'corpus-real'));
const PASSES = Number(arg('--passes') ?? 3);
const BASELINE = arg('--baseline');
/** Share of SKILL.md files edited before the re-index. */
const EDITED_SHARE = 0.05;

type IndexFn = (o: { catalog: string; scopes: string[]; home: string; project: string }) => unknown;

interface Figures {
  full: number[];
  edited: number[];
  bytes: number[];
  texts: number[];
}

function skillFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'SKILL.md') out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

function measure(index: IndexFn, label: string, pass: number, f: Figures): void {
  const dir = path.join(WORK, 'revision-texts', `${label}-${pass}`);
  rmSync(dir, { recursive: true, force: true });
  const lib = path.join(dir, 'library');
  cpSync(LIBRARY, lib, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  const o = { catalog, scopes: [lib], home: dir, project: dir };
  f.full.push(time(() => index(o)).ms);
  const db = new Database(catalog);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const hasTexts = db
    .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'revision_texts'`)
    .get() as { n: number };
  f.texts.push(
    hasTexts.n > 0
      ? (
          db.prepare(`SELECT coalesce(sum(length(data)), 0) AS b FROM revision_texts`).get() as {
            b: number;
          }
        ).b
      : 0,
  );
  db.close();
  f.bytes.push(statSync(catalog).size);
  const files = skillFiles(lib);
  const step = Math.round(1 / EDITED_SHARE);
  for (let i = ((pass % step) + step) % step; i < files.length; i += step)
    appendFileSync(files[i]!, `\nEdited in pass ${pass} (${label}).\n`);
  f.edited.push(time(() => index(o)).ms);
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const current = indexCatalog as unknown as IndexFn;
  const runs: { name: string; index: IndexFn }[] = [{ name: 'this build', index: current }];
  if (BASELINE) {
    const base = (await import(pathToFileURL(BASELINE).href)) as { indexCatalog: IndexFn };
    runs.push({ name: 'baseline', index: base.indexCatalog });
  }
  const figures = runs.map((): Figures => ({ full: [], edited: [], bytes: [], texts: [] }));
  for (const [i, r] of runs.entries()) measure(r.index, `warm${i}`, -1, emptyFigures());
  for (let p = 0; p < PASSES; p++) {
    for (const [i, r] of runs.entries()) {
      process.stderr.write(`pass ${p + 1}/${PASSES}: ${r.name}\n`);
      measure(r.index, `r${i}`, p, figures[i]!);
    }
  }
  const n = skillFiles(LIBRARY).length;
  const lines = [
    '# Index cost of keeping revision texts (skilldex diff)',
    '',
    `${machineLine()}; ${path.basename(LIBRARY)}: ${n} skills, ${PASSES} passes (medians), policy bm25f.v3, SQLite`,
    '',
    '| run | full index | catalog size | of which revision texts | re-index, 5 % of SKILL.md edited |',
    '|---|---|---|---|---|',
    ...runs.map((r, i) => {
      const f = figures[i]!;
      return `| ${r.name} | ${fmt(median(f.full) / 1000)} s | ${fmt(median(f.bytes) / 1024 / 1024)} MiB | ${fmt(median(f.texts) / 1024 / 1024)} MiB | ${fmt(median(f.edited))} ms |`;
    }),
  ];
  if (BASELINE) {
    const [a, b] = [figures[0]!, figures[1]!];
    const r = (k: keyof Figures): string => fmt(median(a[k].map((x, i) => x / b[k][i]!)));
    lines.push(
      '',
      '| ratio this build / baseline (median of per-pass ratios) | full index | catalog size | re-index, 5 % edited |',
      '|---|---|---|---|',
      `| | ${r('full')} | ${r('bytes')} | ${r('edited')} |`,
    );
  }
  lines.push(
    '',
    'What the texts cost: each new working-set revision is read a second time after the ingest (its bytes checked against the revision, then deflated) and written to its own table; an unchanged re-index stores nothing. Load on this shared machine moves single figures by ±30 %; compare the paired ratios.',
  );
  writeResult('revision-texts', lines.join('\n'));
}

function emptyFigures(): Figures {
  return { full: [], edited: [], bytes: [], texts: [] };
}

void main();
