/**
 * Listing benchmark (issue 23 §2): what Claude Code and Codex would put in their model's skill
 * listing if ../shared/bench/corpus-real (1,206 real SKILL.md files) were this machine's library,
 * by `listingReport` (src/hosts): how many skills each host lists in full, cuts, lists by name
 * alone or drops, the listing's size against its budget, and the plan's. The library is copied
 * into a scratch home — Claude Code's `~/.claude/skills/<name>/SKILL.md`, Codex's
 * `~/.agents/skills/<name>/SKILL.md` — one folder per frontmatter name (a repeated name gets `-2`).
 *
 *   npm run bench:listing
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { discoverSkills, listingReport, type ListingReport } from '../src/internal.js';
import { REPO, WORK, machineLine, now, writeResult } from './lib.js';

const CORPUS = path.resolve(REPO, '..', 'shared', 'bench', 'corpus-real');

function scratchHome(): { home: string; project: string; skills: number } {
  const home = path.join(WORK, 'listing-home');
  rmSync(home, { recursive: true, force: true });
  const report = discoverSkills({ scopes: [CORPUS] });
  const used = new Set<string>();
  let n = 0;
  for (const s of report.skills) {
    let name = s.name;
    for (let i = 2; used.has(name); i++) name = `${s.name}-${i}`;
    used.add(name);
    for (const dir of [
      path.join(home, '.claude', 'skills', name),
      path.join(home, '.agents', 'skills', name),
    ]) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(s.real_path, path.join(dir, 'SKILL.md'));
    }
    n++;
  }
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  return { home, project, skills: n };
}

function row(label: string, r: ListingReport, ms: number): string {
  const c = r.now.counts;
  const p = r.planned.counts;
  const keep = r.skills.filter((s) => s.plan === 'keep').length;
  const lostTriggers = r.skills.filter((s) => (s.now.loss?.lost_triggers.length ?? 0) > 0).length;
  const lostNeg = r.skills.filter((s) => (s.now.loss?.lost_negatives.length ?? 0) > 0).length;
  return `| ${label} | ${r.budget.limit} ${r.budget.unit} | ${c.full} | ${c.truncated} | ${c['name-only']} | ${c.omitted} | ${r.now.total} (${r.now.full_total} in full) | ${lostTriggers} / ${lostNeg} | ${keep} kept, ${p.full} full, total ${r.planned.total} | ${ms.toFixed(0)} ms |`;
}

function main(): void {
  const { home, project, skills } = scratchHome();
  const env = { HOME: home };
  const cases: [string, Parameters<typeof listingReport>[0]][] = [
    ['Claude Code, 200k window', { host: 'claude-code', home, project, env }],
    [
      'Claude Code, 1M window',
      { host: 'claude-code', home, project, env, contextTokens: 1_000_000 },
    ],
    ['Codex, 272k window', { host: 'codex', home, project, env }],
    [
      'Codex, window unknown (8,000 chars)',
      { host: 'codex', home, project, env, budgetChars: 8_000 },
    ],
  ];
  const rows: string[] = [];
  for (const [label, o] of cases) {
    const t0 = now();
    const r = listingReport(o);
    rows.push(row(label, r, now() - t0));
  }
  writeResult(
    'listing',
    [
      '# What each host lists of a 1,206-skill library',
      '',
      machineLine(),
      '',
      `../shared/bench/corpus-real (${skills} skills) as the user's personal skills; \`skilldex listing\` (src/hosts) by each host's`,
      'documented rules (docs/integration.md §8). No usage record: Claude Code keeps descriptions by name order, and the',
      'plan by distinctive words. Columns: skills listed in full, cut (shortened), by name only, dropped; the listing',
      'size now; skills whose cut lost a trigger phrase / a "do not use" clause; the plan; the time of one report.',
      '',
      '| host | budget | full | cut | name only | dropped | size now | lost triggers / negatives | plan | time |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
}

mkdirSync(WORK, { recursive: true });
main();
