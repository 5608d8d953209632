/**
 * Lint benchmark (issue #14 "fast enough for CI", issue #25 "lint is quadratic in identical
 * descriptions"): `lintLibrary` over two libraries of 10,000 skills, each with a temporary catalog
 * under the default policy, target under 60 s wall and (identical descriptions) under 1 GB:
 *
 * - generated: bench/lib.ts `generateSkillLibrary`, shared with the router and MCP benchmarks;
 * - identical: 10,000 skills with one description (distinct names), the case that was quadratic
 *   (3,000 took 58 s and 533 MB, 10,000 died at 4 GB before near-duplicate grouping and memoised
 *   self-queries).
 *
 * Beside each, in the same process run, the baseline of what lint must do anyway: `indexCatalog` of
 * the same tree into a fresh catalog. The stages of a lint run (index, self-query ranking) are timed
 * from its progress callbacks; peak memory is the process's maximum resident set after the run.
 * One pass per library: the runs are long and dominated by indexing and self-queries.
 *
 *   npm run bench:lint            # both libraries
 *   npm run bench:lint identical  # one of them
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { indexCatalog, lintLibrary, type LintReport } from '../src/internal.js';
import { WORK, fmt, generateSkillLibrary, machineLine, time, writeResult } from './lib.js';

/** Skills in each library. */
const SKILLS = 10_000;
/** The issues' targets: the whole lint in seconds, and peak memory for identical descriptions. */
const TARGET_S = 60;
const TARGET_MB = 1024;

/** 10,000 skills sharing one description, names `same-00000`…, 50 shard folders (reused when complete). */
function identicalLibrary(n: number): string {
  const dir = path.join(WORK, `lint-identical-${n}`);
  const marker = path.join(dir, '.complete');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < n; i++) {
    const name = `same-${String(i).padStart(5, '0')}`;
    const folder = path.join(dir, `shard-${i % 50}`, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Extract tables and text from PDF files, merge documents and fill forms when the user works with PDFs.\n---\n\n# ${name}\n\nSteps.\n`,
    );
  }
  writeFileSync(marker, '');
  return dir;
}

interface Row {
  readonly name: string;
  readonly report: LintReport;
  readonly ms: number;
  readonly cpuS: number;
  readonly indexStart: number;
  readonly rankStart: number;
  readonly baselineMs: number;
  readonly peakMb: number;
}

function measure(name: string, tree: string): Row {
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
  rmSync(scratch, { recursive: true, force: true });
  return {
    name,
    report: run.value,
    ms: run.ms,
    cpuS: (cpu.user + cpu.system) / 1e6,
    indexStart: marks['index'] ?? 0,
    rankStart: marks['rank'] ?? run.ms,
    baselineMs: baseline.ms,
    // maxRSS is in kilobytes: the process's peak so far (this library's run is the largest part).
    peakMb: process.resourceUsage().maxRSS / 1024,
  };
}

function line(r: Row): string {
  const met = r.ms / 1000 < TARGET_S ? 'met' : 'MISSED';
  const mem = r.name === 'identical' ? ` (${r.peakMb < TARGET_MB ? 'met' : 'MISSED'} < 1 GB)` : '';
  return `| ${r.name} | ${r.report.skills} | ${fmt(r.ms / 1000)} s | ${fmt(r.cpuS)} s | < ${TARGET_S} s ${met} | ${fmt(r.indexStart / 1000)} s | ${fmt((r.rankStart - r.indexStart) / 1000)} s | ${fmt((r.ms - r.rankStart) / 1000)} s | ${fmt(r.peakMb, 0)} MB${mem} | ${fmt(r.baselineMs / 1000)} s | ${fmt(r.ms / r.baselineMs)} | ${r.report.summary.raw} → ${r.report.findings.length} |`;
}

function main(): void {
  const only = process.argv[2];
  const cases: [string, () => string][] = [
    ['identical', () => identicalLibrary(SKILLS)],
    ['generated', () => generateSkillLibrary(SKILLS)],
  ];
  const rows = cases
    .filter(([n]) => only === undefined || n === only)
    .map(([n, tree]) => measure(n, tree()));
  const lines = [
    '# Lint speed',
    '',
    machineLine(),
    '',
    '| library | skills | lint total (wall) | lint CPU (user + system) | target | before indexing (discover + re-read) | index (temp catalog) | self-queries + checks | peak RSS | baseline: indexCatalog alone | lint / baseline | findings (raw → printed) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(line),
    '',
    `Policy: ${rows[0]?.report.policy ?? 'none'}. Self-queries: 2 per skill at most (name, rare words; words common to a fifth of the library left out), limit 1, then 3 when another skill wins, then 10 when the skill is not in the top 3; memoised by (query, limit); telemetry off.`,
    ...rows.map(
      (r) =>
        `Findings (${r.name}): ${r.report.counts.error} errors, ${r.report.counts.warning} warnings, ${r.report.counts.note} notes (${Object.entries(
          r.report.counts.by_code,
        )
          .map(([c, n]) => `${c} ${n}`)
          .join(
            ', ',
          )}); ${r.report.summary.grouped.folded} folded into ${r.report.summary.grouped.groups} groups.`,
    ),
    'Wall time far above CPU time means the machine was busy with other work during the run (it is shared); the target is judged on wall time on a quiet machine.',
    'Stage marks come from the first progress callback of each stage; "self-queries + checks" also holds the word statistics, near-duplicate families, grouping and report assembly. Peak RSS is the process maximum after that library ran.',
  ];
  writeResult('lint', lines.join('\n'));
}

main();
