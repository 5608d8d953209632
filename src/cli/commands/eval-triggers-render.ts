/**
 * Human rendering of an `eval --triggers` report: the totals, a table of every skill that fits in
 * 100 columns, the confusions with the words that carried them, the pairs of skills that take each
 * other's requests, gate failures, file problems and (with --suggest) suggestions. Every skill id,
 * word and path is escaped for the terminal. --json, JUnit and SARIF never come here.
 */
import path from 'node:path';
import type { TriggerReport } from '../../triggers/index.js';
import { escapeInvisible } from '../../text/index.js';

/** Widest line of the table: the issue's 100 columns. */
export const MAX_COLUMNS = 100;
const ID = 28;

/** The text rendering; `quiet` keeps the totals, gate failures and problems. */
export function renderTriggerText(
  report: TriggerReport,
  options: { cwd: string; quiet: boolean },
): string {
  const rel = (p: string): string => {
    const r = path.relative(options.cwd, p);
    return r.startsWith('..') || path.isAbsolute(r) ? p : r;
  };
  const t = report.totals;
  const lines = [
    `eval --triggers: ${report.per_skill.length} skills with cases, ${t.cases} requests (${t.positives} should, ${t.negatives} should not) routed against ${report.skills} skills${report.policy !== null ? ` (${report.policy})` : ''}`,
    `recall ${f(t.recall)} (${report.recall_at === 1 ? 'first' : `top ${report.recall_at}`}) · top-1 ${f(ratio(t.top1, t.positives))} · top-3 ${f(ratio(t.top3, t.positives))} · MRR ${f(t.mrr)} · false triggers ${t.false_triggers}/${t.negatives} (${f(t.false_rate)}) · abstained ${t.abstained} · macro recall ${f(t.macro.recall)}`,
  ];
  lines.push(splitLine(report)); // issue 34 item 3
  if (!report.confidence.available)
    lines.push('confidence: not given by this ranking policy; a false trigger is a first rank');
  if (!options.quiet) lines.push('', ...table(report), ...confusions(report), ...stealing(report));
  lines.push(...failures(report), ...problems(report, rel));
  if (!options.quiet && report.suggestions !== undefined) lines.push(...suggestions(report));
  return lines.map((l) => escapeInvisible(l)).join('\n');
}

function table(report: TriggerReport): string[] {
  const head = `${'skill'.padEnd(ID)} ${'should'.padStart(6)} ${'top1'.padStart(5)} ${'top3'.padStart(5)} ${'MRR'.padStart(5)} ${'not'.padStart(4)} ${'false'.padStart(5)} ${'abst'.padStart(4)}  most taken by`;
  const rows = report.per_skill.map((s) => {
    const worst = s.confusions[0];
    const taken = worst !== undefined ? `${cut(worst.to, 26)} ${worst.count}` : '';
    return `${cut(s.skill_id, ID).padEnd(ID)} ${String(s.positives).padStart(6)} ${f(ratio(s.top1, s.positives)).padStart(5)} ${f(ratio(s.top3, s.positives)).padStart(5)} ${f(s.mrr).padStart(5)} ${String(s.negatives).padStart(4)} ${f(s.false_rate).padStart(5)} ${String(s.abstained).padStart(4)}  ${taken}`;
  });
  return [head, ...rows].map((l) => cut(l, MAX_COLUMNS));
}

function confusions(report: TriggerReport): string[] {
  const all = report.per_skill.flatMap((s) =>
    s.confusions.map((c) => ({ from: s.skill_id, ...c })),
  );
  if (all.length === 0) return [];
  all.sort((a, b) => b.count - a.count || (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  return [
    '',
    'confusions (who took the requests, and the words that carried them):',
    ...all
      .slice(0, 20)
      .map((c) =>
        cut(
          `  ${c.count} of ${c.from}'s requests went to ${c.to}${c.words.length > 0 ? ` on: ${c.words.join(', ')}` : ''}`,
          MAX_COLUMNS,
        ),
      ),
    ...(all.length > 20 ? [`  … and ${all.length - 20} more (--json has them all)`] : []),
  ];
}

function stealing(report: TriggerReport): string[] {
  const pairs = report.stealing.filter((p) => p.total > 1 || (p.a_to_b > 0 && p.b_to_a > 0));
  if (pairs.length === 0) return [];
  return [
    '',
    "pairs that take each other's requests:",
    ...pairs.map((p) =>
      cut(
        `  ${p.a} ⇄ ${p.b}: ${p.total} (${p.a_to_b} → ${p.b}, ${p.b_to_a} → ${p.a})`,
        MAX_COLUMNS,
      ),
    ),
  ];
}

function failures(report: TriggerReport): string[] {
  const fs = report.gates.failures;
  if (fs.length === 0) return [];
  return ['', `gates failed (${fs.length}):`, ...fs.map((x) => cut(`  ${x.message}`, MAX_COLUMNS))];
}

function problems(report: TriggerReport, rel: (p: string) => string): string[] {
  if (report.problems.length === 0) return [];
  return [
    '',
    `trigger-eval problems (${report.problems.length}):`,
    ...report.problems.map(
      (p) =>
        `  ${p.code} ${rel(p.path)}${p.line !== undefined ? `:${p.line}` : ''}: ${withoutPrefix(p.message, p.path)}`,
    ),
  ];
}

function suggestions(report: TriggerReport): string[] {
  const out = ['', 'suggestions (never applied):'];
  for (const s of report.suggestions ?? []) {
    out.push(`  ${s.skill_id}`);
    for (const c of s.competing)
      out.push(
        `    competes with ${c.skill} (${c.count}) on ${c.carried_by.join(', ') || '—'}${c.shared_with_description.length > 0 ? `; your description has ${c.shared_with_description.join(', ')}` : ''}`,
      );
    if (s.missing_words.length > 0)
      out.push(
        `    its missed requests say, its description does not: ${s.missing_words.join(', ')}`,
      );
    if (s.boundary !== null)
      out.push(
        `    ${s.boundary.false_triggers} false triggers on ${s.boundary.words.join(', ') || '—'}: ${s.boundary.advice}`,
      );
  }
  return out;
}

// A problem's message without its `<file>: ` or `<file>:<line>: ` prefix (printed beside it).
function withoutPrefix(message: string, file: string): string {
  if (!message.startsWith(file)) return message;
  const m = /^:(?:\d+:)? /.exec(message.slice(file.length));
  return m ? message.slice(file.length + m[0].length) : message;
}

function ratio(n: number, d: number): number | null {
  return d > 0 ? n / d : null;
}

function f(x: number | null): string {
  return x === null ? '–' : x.toFixed(2);
}

function cut(s: string, n: number): string {
  return [...s].length > n ? `${[...s].slice(0, n - 1).join('')}…` : s;
}

/** The split of the cases in one line (issue 34 item 3: every report format states it). */
export function splitLine(report: TriggerReport): string {
  const x = report.split;
  const what =
    x.method === 'hash-60-40'
      ? `60/40 train/validation by request hash: ${x.train} train requests not graded, ${x.validation} graded`
      : `none: ${x.validation} graded`;
  return `split ${what}${x.learned > 0 ? `, ${x.learned} not graded because the ranking learned them` : ''} (${x.reason})`;
}
