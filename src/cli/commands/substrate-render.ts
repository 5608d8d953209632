/**
 * Human text of the substrate reports (`skilldex substrate read | lint`): hits with the depth each
 * read stopped at, the files opened and why, near-miss tags and problems, every id, path and
 * description escaped for the terminal. `--json` and `--yaml` never come here.
 */
import path from 'node:path';
import type { Problem } from '../../errors.js';
import type {
  OpenedFile,
  SubstrateLintReport,
  SubstrateReport,
  TagNearMiss,
} from '../../internal.js';
import { sanitizeField } from '../../text/index.js';

/** Human rendering of a read. */
export function renderRead(report: SubstrateReport, cwd: string): string {
  const lines: string[] = [];
  const n = report.hits.length;
  const terms =
    report.terms.length > 0 ? ` (terms: ${sanitizeField(report.terms.join(', '))})` : '';
  const scope = report.type_filter === null ? '' : `, type ${report.type_filter}`;
  lines.push(
    `${report.query_kind} ${JSON.stringify(sanitizeField(report.query))}${terms}: ${n === 0 ? 'no hits' : `${n} hit${n > 1 ? 's' : ''}`} in ${relTo(cwd, report.root)}${scope}`,
  );
  if (n > 0) {
    const idWidth = Math.min(24, Math.max(...report.hits.map((h) => h.id.length)));
    for (const h of report.hits) {
      lines.push(
        `  ${h.type.padEnd(12)}  ${sanitizeField(h.id).padEnd(idWidth)}  ${h.stop_depth.padEnd(7)}  ${h.match.padEnd(7)}  ${sanitizeField(h.description)}`,
      );
    }
  }
  if (report.problems.length > 0) lines.push('', ...renderProblems(report.problems));
  if (report.opened !== undefined) lines.push('', renderOpened(report.opened));
  if (report.tag_near_misses !== undefined && report.tag_near_misses.length > 0) {
    lines.push('', renderNearMisses(report.tag_near_misses));
  }
  return lines.join('\n');
}

/** Human rendering of a lint. */
export function renderLint(report: SubstrateLintReport, cwd: string): string {
  const rows = report.types.reduce((a, t) => a + t.rows, 0);
  const files = report.types.reduce((a, t) => a + t.entry_files, 0);
  const lines = [
    `substrate ${relTo(cwd, report.root)}: ${report.clean ? 'clean' : `${report.problems.length} problem${report.problems.length > 1 ? 's' : ''}`} (${rows} rows, ${files} entry files)`,
  ];
  for (const t of report.types)
    lines.push(
      `  ${t.type.padEnd(12)}  ${String(t.rows).padStart(4)} rows  ${String(t.entry_files).padStart(4)} entry files`,
    );
  if (report.problems.length > 0) lines.push('', ...renderProblems(report.problems));
  return lines.join('\n');
}

function renderProblems(problems: readonly Problem[]): string[] {
  return [
    `Problems (${problems.length}):`,
    ...problems.map((p) => `  ${p.code.padEnd(20)} ${sanitizeField(p.message)}`),
  ];
}

/** The files a read opened, and why. */
export function renderOpened(opened: readonly OpenedFile[]): string {
  const lines = [`Opened (${opened.length} files):`];
  for (const o of opened)
    lines.push(`  ${o.depth.padEnd(7)}  ${sanitizeField(o.path)}  ${sanitizeField(o.why)}`);
  return lines.join('\n');
}

function relTo(cwd: string, p: string): string {
  const r = path.relative(cwd, p);
  return r === '' ? '.' : r.startsWith('..') ? p : r;
}

/** Tags that differ from the one asked only by case or white space. */
export function renderNearMisses(misses: readonly TagNearMiss[]): string {
  const lines = ['Near misses (tags match exactly; these differ only by case or white space):'];
  for (const m of misses)
    lines.push(
      `  ${m.type.padEnd(12)}  ${sanitizeField(m.id)}  tag ${JSON.stringify(sanitizeField(m.tag))}`,
    );
  return lines.join('\n');
}
