/**
 * Lint benchmark (issue #14 "fast enough for CI"): `lintLibrary` over a generated library of
 * 10,000 skills (bench/lib.ts `generateSkillLibrary`, shared with the router and MCP benchmarks),
 * temporary catalog with the default policy, target under 60 s. Beside it, in the same process
 * run, the baseline of what lint must do anyway: `indexCatalog` of the same tree into a fresh
 * catalog. The stages of the lint run (index, self-query ranking) are timed from its progress
 * callbacks. One pass: the run is long and its cost is dominated by the self-queries.
 *
 *   npm run bench:lint
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { indexCatalog, lintLibrary } from '../src/index.js';
import { WORK, fmt, generateSkillLibrary, machineLine, time, writeResult } from './lib.js';

/** Skills in the generated library. */
const SKILLS = 10_000;
/** The issue's target for the whole lint, in seconds. */
const TARGET_S = 60;

function main(): void {
  const tree = generateSkillLibrary(SKILLS);
  const scope = {
    scopes: [tree],
    home: path.join(WORK, 'no-home'),
    project: path.join(WORK, 'no-project'),
  };
  const scratch = path.join(WORK, 'lint-bench');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });

  const baseline = time(() =>
    indexCatalog({ catalog: path.join(scratch, 'baseline.sqlite'), ...scope }),
  );

  const marks: Record<string, number> = {};
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const run = time(() =>
    lintLibrary({
      ...scope,
      tmpDir: scratch,
      onProgress: (stage) => {
        marks[stage] ??= performance.now() - t0;
      },
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  rmSync(scratch, { recursive: true, force: true });
  const r = run.value;
  const rankStart = marks['rank'] ?? run.ms;
  const indexStart = marks['index'] ?? 0;
  const queries = r.checks.ranking ? '2 per skill at most (name, rare words)' : 'none';
  const lines = [
    '# Lint speed',
    '',
    machineLine(),
    '',
    `| skills | lint total (wall) | lint CPU (user + system) | target | before indexing (discover + re-read) | index (temp catalog) | self-queries + checks | baseline: indexCatalog alone | lint / baseline |`,
    '|---|---|---|---|---|---|---|---|---|',
    `| ${r.skills} | ${fmt(run.ms / 1000)} s | ${fmt(cpuS)} s | < ${TARGET_S} s ${run.ms / 1000 < TARGET_S ? 'met' : 'MISSED'} | ${fmt(indexStart / 1000)} s | ${fmt((rankStart - indexStart) / 1000)} s | ${fmt((run.ms - rankStart) / 1000)} s | ${fmt(baseline.ms / 1000)} s | ${fmt(run.ms / baseline.ms)} |`,
    '',
    `Policy: ${r.policy ?? 'none'}. Self-queries: ${queries}, limit 3 (10 when the skill is not in the top 3, for its own score), telemetry off.`,
    `Findings: ${r.counts.error} errors, ${r.counts.warning} warnings, ${r.counts.note} notes (${Object.entries(
      r.counts.by_code,
    )
      .map(([c, n]) => `${c} ${n}`)
      .join(', ')}).`,
    'Wall time far above CPU time means the machine was busy with other work during the run (it is shared); the target is judged on wall time.',
    'Stage marks come from the first progress callback of each stage; "self-queries + checks" also holds the word statistics, near-duplicate pairs and report assembly.',
  ];
  writeResult('lint', lines.join('\n'));
}

main();
