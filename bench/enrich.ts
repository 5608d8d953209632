/**
 * Enrichment benchmark (issue #7): a generated library of 9,000 skills across the four enrichment
 * scopes (personal, enabled plugins, project, in-tree), in bench/.work/enrich/ (git-ignored). It
 * times a whole `enrichSkills` run (enumerate, read, hash, parse frontmatter, score, select, write
 * the evidence) beside two baselines measured in the same process: the plain walk + read of the
 * same files, and discovery (`discoverSkills`) over the same folders. Medians of several runs after
 * a warm-up; the figures are for reading, never asserted.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { discoverSkills, enrichSkills, planEnrichment } from '../src/internal.js';
import { WORK, fmt, machineLine, median, rng, time, writeResult, zipfWords } from './lib.js';

/** Skills generated per scope; enabled-plugin skills are split over PLUGINS plugins. */
const COUNTS = { personal: 3000, plugin: 2000, project: 2000, inTree: 2000 } as const;
/** Enabled plugins in the registry (plus one disabled plugin whose skills must not be read). */
const PLUGINS = 8;
/** Timed runs per measurement, after one untimed warm-up run. */
const RUNS = 7;
/** Bumped whenever the generator changes, so a stale library is rebuilt. */
const GENERATOR_VERSION = 2;

const ROOT = path.join(WORK, 'enrich');
const HOME = path.join(ROOT, 'home');
const PROJECT = path.join(ROOT, 'project');
const BRIEF =
  'Extract tables from PDF invoices, validate the schema and export a CSV report for the finance dashboard';

function skillText(name: string, rand: () => number): string {
  const description = zipfWords(rand, 10 + Math.floor(rand() * 30)).join(' ');
  const keywords = zipfWords(rand, 4).join(', ');
  // A body of a few hundred words: read and hashed, never parsed.
  const body = Array.from({ length: 6 }, () =>
    zipfWords(rand, 40 + Math.floor(rand() * 40)).join(' '),
  ).join('\n\n');
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nkeywords: ${JSON.stringify(keywords)}\n---\n\n# ${name}\n\n${body}\n`;
}

function writeSkills(dir: string, prefix: string, n: number, rand: () => number): void {
  for (let i = 0; i < n; i++) {
    const name = `${prefix}-${String(i).padStart(5, '0')}`;
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'SKILL.md'), skillText(name, rand));
  }
}

/** Generates the library unless an identical one is already there. */
function generate(): void {
  const marker = path.join(ROOT, 'generated.json');
  const want = JSON.stringify({ GENERATOR_VERSION, COUNTS, PLUGINS });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  rmSync(ROOT, { recursive: true, force: true });
  const rand = rng(7);
  writeSkills(path.join(HOME, '.claude', 'skills'), 'personal', COUNTS.personal, rand);
  writeSkills(path.join(PROJECT, '.claude', 'skills'), 'project', COUNTS.project, rand);
  writeSkills(path.join(PROJECT, 'crucible-plugin', 'skills'), 'intree', COUNTS.inTree, rand);
  const plugins = path.join(HOME, '.claude', 'plugins');
  const registry: Record<string, { installPath: string; version: string }[]> = {};
  const per = Math.ceil(COUNTS.plugin / PLUGINS);
  for (let p = 0; p < PLUGINS; p++) {
    const installPath = path.join(plugins, 'cache', 'bench', `kit${p}`, '1.0.0');
    writeSkills(
      path.join(installPath, 'skills'),
      `kit${p}`,
      Math.min(per, COUNTS.plugin - p * per),
      rand,
    );
    registry[`kit${p}@bench`] = [{ installPath, version: '1.0.0' }];
  }
  const offPath = path.join(plugins, 'cache', 'bench', 'off', '1.0.0');
  writeSkills(path.join(offPath, 'skills'), 'off', 200, rand);
  registry['off@bench'] = [{ installPath: offPath, version: '1.0.0' }];
  writeFileSync(
    path.join(plugins, 'installed_plugins.json'),
    JSON.stringify({ version: 2, plugins: registry }, null, 2),
  );
  writeFileSync(
    path.join(HOME, '.claude', 'settings.json'),
    JSON.stringify({ enabledPlugins: { 'off@bench': false } }),
  );
  writeFileSync(marker, want);
}

/** The scope folders enrichment reads, for the baselines. */
function scopeFolders(): string[] {
  const cache = path.join(HOME, '.claude', 'plugins', 'cache', 'bench');
  const kits = Array.from({ length: PLUGINS }, (_, p) =>
    path.join(cache, `kit${p}`, '1.0.0', 'skills'),
  );
  return [
    path.join(HOME, '.claude', 'skills'),
    path.join(PROJECT, '.claude', 'skills'),
    path.join(PROJECT, 'crucible-plugin', 'skills'),
    ...kits,
  ];
}

/** Baseline: a plain recursive walk for SKILL.md plus one read of each file. Returns files and bytes. */
function plainWalkAndRead(folders: readonly string[]): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name === 'SKILL.md') {
        files++;
        bytes += readFileSync(p).length;
      }
    }
  };
  for (const f of folders) walk(f);
  return { files, bytes };
}

interface Measured<T> {
  readonly label: string;
  readonly fn: () => T;
  readonly times: number[];
  value?: T;
}

function task<T>(label: string, fn: () => T): Measured<T> {
  return { label, fn, times: [] };
}

/**
 * Runs every task once to warm up, then RUNS rounds in which each task runs once, interleaved: on a
 * shared machine a change of load hits every measurement of a round alike.
 */
function measureInterleaved(tasks: readonly Measured<unknown>[]): void {
  for (const t of tasks) t.fn();
  for (let round = 0; round < RUNS; round++) {
    for (const t of tasks) {
      const r = time(t.fn);
      t.times.push(r.ms);
      t.value = r.value;
    }
    process.stderr.write(
      `round ${round + 1}/${RUNS}: ${tasks.map((t) => `${t.label} ${fmt(t.times[round]!, 0)} ms`).join(', ')}\n`,
    );
  }
}

function main(): void {
  process.stderr.write(
    `generating ${COUNTS.personal + COUNTS.plugin + COUNTS.project + COUNTS.inTree} skills in ${ROOT}…\n`,
  );
  generate();
  const loadBefore = loadavg()[0]!;
  const folders = scopeFolders();
  const options = {
    brief: BRIEF,
    target: 'evidence/skill-enrichment/bench',
    env: {},
    cwd: PROJECT,
    home: HOME,
  };

  const walk = task('walk+read', () => plainWalkAndRead(folders));
  const discover = task('discover', () => discoverSkills({ scopes: folders }));
  const plan = task('plan', () => planEnrichment(options).report);
  const full = task('enrich', () => enrichSkills(options));
  measureInterleaved([walk, discover, plan, full] as Measured<unknown>[]);
  const ms = (t: Measured<unknown>): number => median(t.times);

  const report = full.value!.report;
  const evidence = path.join(PROJECT, 'evidence', 'skill-enrichment', 'bench');
  const sizes = readdirSync(evidence)
    .sort()
    .map((f) => `${f} ${fmt(statSync(path.join(evidence, f)).size / 1024, 1)} KiB`)
    .join(', ');
  const n = report.enumerated_count;
  const perSkill = (msv: number): string => fmt((msv * 1000) / n, 1);
  const row = (what: string, msv: number): string =>
    `| ${what} | ${fmt(msv, 1)} | ${perSkill(msv)} | ${fmt(msv / ms(walk), 2)}× |`;

  const md = [
    '# Enrichment benchmark',
    '',
    `${machineLine()}. Library: ${n.toLocaleString('en-US')} SKILL.md files enumerated across the four scopes ` +
      `(${COUNTS.personal} personal, ${COUNTS.plugin} in ${PLUGINS} enabled plugins, ${COUNTS.project} project, ${COUNTS.inTree} in-tree; ` +
      `200 more in a disabled plugin, not read), ${fmt(walk.value!.bytes / 1024 / 1024, 1)} MiB, generated by \`bench/enrich.ts\` ` +
      `in \`bench/.work/enrich/\`. Medians of ${RUNS} interleaved rounds (each measurement once per round) after one warm-up, warm file cache, one process.`,
    '',
    `Brief: "${BRIEF}". One-minute load average at the start: ${fmt(loadBefore, 2)} ` +
      '(other work on the machine inflates every row alike; compare the ratios).',
    '',
    '| measurement | median ms | µs per skill | × plain walk + read |',
    '| --- | ---: | ---: | ---: |',
    row(`plain walk + read of the same files (baseline, ${walk.value!.files} files)`, ms(walk)),
    row(
      `discovery: \`discoverSkills\` over the same folders (walk + read + sha256 + YAML)`,
      ms(discover),
    ),
    row('enrichment without writing: `planEnrichment`', ms(plan)),
    row('whole enrichment: `enrichSkills` (plan + write the evidence)', ms(full)),
    '',
    `Outcome: ${report.outcome}, ${report.found_count} skills above the floor, ${report.candidates.length} candidates; ` +
      `${report.skipped.length} skipped; ${report.scored_count} scored. Evidence: ${sizes}.`,
    '',
    'Reading: the plain walk + read is the floor any implementation pays for touching every file. ' +
      'Enrichment adds hashing, frontmatter parsing (YAML dominates, as it does in discovery), scoring and the ' +
      'writes; it should track discovery closely, since scoring is a set lookup per description term.',
  ].join('\n');
  writeResult('enrich', md);
}

main();
