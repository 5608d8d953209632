/**
 * Supporting-file benchmark (issue #12): what recording supporting files at index time costs the
 * index, measured in one process on generated libraries of the same skills, one with SKILL.md files
 * only and one with four supporting files per skill (a script, a reference, a JSON asset, a text
 * file; about 4 KB together):
 *   - full index into a fresh catalog (discover + read + hash + ingest + publish, policy bm25f.v3);
 *   - unchanged re-index (every folder walked again, no file re-read);
 *   - re-index after changing one supporting file in 1 % of the skills (SKILL.md unchanged).
 * With `--baseline DIR` the same passes also run the index of another build of skilldex (DIR: its
 * dist/index.js, e.g. the previous commit built in /tmp), interleaved with this one, so the ratios
 * new / baseline come from the same run. Medians of `--passes` (default 3) passes.
 *
 *   npm run bench:files [-- --skills 2000] [--passes 3] [--baseline /tmp/skilldex-v2/dist/index.js]
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { indexCatalog } from '../src/internal.js';
import {
  WORK,
  fmt,
  generateSkillLibrary,
  machineLine,
  median,
  rng,
  time,
  writeResult,
  zipfWords,
} from './lib.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SKILLS = Number(arg('--skills') ?? 2_000);
const PASSES = Number(arg('--passes') ?? 3);
const BASELINE = arg('--baseline');
/** Share of skills whose script changes before the third measurement. */
const CHANGED_SHARE = 0.01;

type IndexFn = (o: { catalog: string; scopes: string[]; home: string; project: string }) => {
  read: number;
  supporting_files?: { hashed: number; listed: number };
};

// The same skills as generateSkillLibrary, plus four supporting files in each folder.
function withFiles(plain: string): string {
  const dir = path.join(WORK, `index-files-${SKILLS}`);
  const marker = path.join(dir, '.complete');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  cpSync(plain, dir, { recursive: true });
  const rand = rng(12);
  for (const folder of skillFolders(dir)) {
    const words = (n: number): string => zipfWords(rand, n).join(' ');
    mkdirSync(path.join(folder, 'scripts'), { recursive: true });
    mkdirSync(path.join(folder, 'references'), { recursive: true });
    writeFileSync(path.join(folder, 'scripts', 'run.sh'), `#!/bin/sh\n# ${words(20)}\necho ok\n`);
    writeFileSync(path.join(folder, 'references', 'guide.md'), `# Guide\n\n${words(300)}\n`);
    writeFileSync(path.join(folder, 'data.json'), JSON.stringify({ words: words(120) }) + '\n');
    writeFileSync(path.join(folder, 'NOTES.txt'), words(60) + '\n');
  }
  writeFileSync(marker, '');
  return dir;
}

function skillFolders(root: string): string[] {
  const out: string[] = [];
  for (let s = 0; s < 100; s++) {
    const shard = path.join(root, `shard-${s}`);
    if (!existsSync(shard)) continue;
    for (const name of readdirSync(shard)) out.push(path.join(shard, name));
  }
  return out.sort();
}

interface Figures {
  full: number[];
  again: number[];
  changed: number[];
  hashedAfterChange: number[];
}

function measure(index: IndexFn, lib: string, label: string, pass: number, f: Figures): void {
  const catalog = path.join(WORK, 'index-files-catalogs', `${label}-${pass}.sqlite`);
  rmSync(path.dirname(catalog), { recursive: true, force: true });
  mkdirSync(path.dirname(catalog), { recursive: true });
  const o = { catalog, scopes: [lib], home: lib, project: lib };
  f.full.push(time(() => index(o)).ms);
  f.again.push(time(() => index(o)).ms);
  const folders = skillFolders(lib);
  const step = Math.round(1 / CHANGED_SHARE);
  for (let i = ((pass % step) + step) % step; i < folders.length; i += step) {
    const script = path.join(folders[i]!, 'scripts', 'run.sh');
    if (existsSync(script)) writeFileSync(script, `#!/bin/sh\n# pass ${pass} ${label}\necho ok\n`);
  }
  const changed = time(() => index(o));
  f.changed.push(changed.ms);
  f.hashedAfterChange.push(changed.value.supporting_files?.hashed ?? NaN);
  rmSync(path.dirname(catalog), { recursive: true, force: true });
}

async function main(): Promise<void> {
  const plain = generateSkillLibrary(SKILLS, path.join(WORK, `index-files-plain-${SKILLS}`));
  const files = withFiles(plain);
  const current = indexCatalog as unknown as IndexFn;
  const baseline = BASELINE
    ? ((await import(pathToFileURL(BASELINE).href)) as { indexCatalog: IndexFn }).indexCatalog
    : undefined;
  const runs: { name: string; index: IndexFn; lib: string }[] = [
    { name: 'this build, SKILL.md only', index: current, lib: plain },
    { name: 'this build, 4 supporting files per skill', index: current, lib: files },
  ];
  if (baseline) {
    runs.push({ name: 'baseline, SKILL.md only', index: baseline, lib: plain });
    runs.push({ name: 'baseline, 4 supporting files per skill', index: baseline, lib: files });
  }
  const figures = new Map<string, Figures>(
    runs.map((r) => [r.name, { full: [], again: [], changed: [], hashedAfterChange: [] }]),
  );
  // One untimed warm-up pass of each, then the timed passes, interleaved.
  for (const r of runs) measure(r.index, r.lib, 'warm', -1, { ...emptyFigures() });
  for (let p = 0; p < PASSES; p++) {
    for (const [i, r] of runs.entries()) {
      process.stderr.write(`pass ${p + 1}/${PASSES}: ${r.name}\n`);
      measure(r.index, r.lib, `r${i}`, p, figures.get(r.name)!);
    }
  }
  const m = (name: string, k: keyof Figures): number => median(figures.get(name)![k]);
  const fig = (i: number): Figures => figures.get(runs[i]!.name)!;
  const lines = [
    '# Index cost of recording supporting files',
    '',
    `${machineLine()}; ${SKILLS} skills, ${PASSES} passes (medians), policy bm25f.v3, SQLite`,
    '',
    '| run | full index | unchanged re-index | re-index, 1 % of scripts changed | files re-hashed then |',
    '|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.name} | ${fmt(m(r.name, 'full') / 1000)} s (${fmt(SKILLS / (m(r.name, 'full') / 1000), 0)}/s) | ${fmt(m(r.name, 'again'))} ms | ${fmt(m(r.name, 'changed'))} ms | ${fmt(m(r.name, 'hashedAfterChange'), 0)} |`,
    ),
    '',
    '| ratio (median of per-pass ratios) | full index | unchanged re-index | re-index, 1 % changed |',
    '|---|---|---|---|',
    ratioRow('this build: with files / SKILL.md only', fig(1), fig(0)),
  ];
  if (baseline) {
    lines.push(
      ratioRow('SKILL.md only: this build / baseline', fig(0), fig(2)),
      ratioRow('with files: this build / baseline', fig(1), fig(3)),
      ratioRow(
        'baseline: with files / SKILL.md only (only its scope walk sees the files)',
        fig(3),
        fig(2),
      ),
    );
  }
  lines.push(
    '',
    'The baseline (when given) is the previous build, which listed supporting files at a server’s first listing, not at index time, so its index does not read them: the ratio is the whole price of recording them. "Files re-hashed" is the index report’s `supporting_files.hashed` (the baseline has none). What this build adds per skill: a folder holding only SKILL.md costs one listing of names (readdir) on every index; a folder with files is walked and every file read and hashed once on the first index, then, while nothing in it changes, costs one lstat per sub-folder and per file (no walk, no read). The 1 % row of this build also publishes a new generation (the baseline does not see the change, so publishes nothing): the two columns do different work there. Load on this shared machine moves single figures by ±30 %; compare the paired ratios.',
  );
  writeResult('index-files', lines.join('\n'));
}

// The median over passes of the ratio of two runs measured next to each other in the same pass:
// the load of a shared machine drifts between passes, far less within one.
function ratioRow(label: string, a: Figures, b: Figures): string {
  const r = (k: 'full' | 'again' | 'changed'): string =>
    fmt(median(a[k].map((x, i) => x / b[k][i]!)));
  return `| ${label} | ${r('full')} | ${r('again')} | ${r('changed')} |`;
}

function emptyFigures(): Figures {
  return { full: [], again: [], changed: [], hashedAfterChange: [] };
}

void main();
