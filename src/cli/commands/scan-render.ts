/**
 * Human rendering of a scan report (`skilldex scan`): the summary first (counts, scopes read or
 * not found, skills per scope, skips by code, warnings by code with the fields they name); with
 * `--verbose`, every skill, skip, duplicate and shadowed id after it. Paths and skill text go
 * through the sanitiser; `--json` prints the report itself and never comes here.
 */
import path from 'node:path';
import type { ScanReport } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { oneLine } from '../render/text.js';

/** How a rendering names paths: relative below the cwd, sanitised. */
interface Paths {
  /** A path, relative to the cwd when below it. */
  readonly rel: (p: string) => string;
  /** A message naming absolute paths, with the cwd's prefix removed. */
  readonly relText: (s: string) => string;
}

/** Human rendering of a scan: the summary, then with `verbose` every skill, skip and duplicate. */
export function renderScan(report: ScanReport, cwd: string, verbose = false): string {
  const paths: Paths = {
    // Paths are text from the file system: a folder name may hold invisible characters too.
    rel: (p) => {
      const r = path.relative(cwd, p);
      return sanitizeField(r.startsWith('..') ? p : r);
    },
    // Reasons and notes name absolute paths; below the cwd they read relative, like the rest.
    relText: (s) => s.split(cwd + path.sep).join(''),
  };
  const lines = summaryLines(report, paths);
  if (!verbose) {
    const listed =
      report.skills.length +
      report.skipped.length +
      report.duplicates.length +
      report.shadowed.length;
    if (listed > 0) lines.push('', 'Per-skill lines: --verbose. The whole report: --json.');
  } else lines.push(...skillLines(report), ...fileLines(report, paths));
  for (const p of report.problems)
    lines.push(`note ${p.code}: ${sanitizeField(paths.relText(p.message))}`);
  return lines.join('\n');
}

// The counts, the scopes, and the skips and warnings by code.
function summaryLines(report: ScanReport, { rel, relText }: Paths): string[] {
  const lines = [
    `${report.skills.length} skills, ${report.skipped.length} skipped, ${report.duplicates.length} duplicate groups, ${report.shadowed.length} shadowed (${report.enumerated.length} SKILL.md files enumerated)`,
    '',
    'Scopes:',
  ];
  const perScope = countBy(report.skills.map((s) => s.scope_path));
  for (const s of report.scopes) {
    const what = s.exists
      ? `${perScope.get(s.path) ?? 0} skills`
      : s.unreadable !== undefined
        ? `unreadable: ${sanitizeField(relText(s.unreadable))}`
        : 'not found';
    lines.push(
      `  ${s.exists ? '✓' : s.unreadable !== undefined ? '!' : '·'} ${s.kind.padEnd(15)} ${rel(s.path)}${s.plugin ? `  [${sanitizeField(s.plugin)}]` : ''}  (${what})`,
    );
  }
  if (report.plugin_filter !== 'not applicable')
    lines.push(`  plugin filter: ${report.plugin_filter}`);
  if (report.skipped.length > 0) {
    lines.push('', 'Skipped by code:');
    for (const [code, n] of sortedCounts(countBy(report.skipped.map((k) => k.code))))
      lines.push(`  ${code.padEnd(22)} ${n}`);
  }
  return [...lines, ...warningLines(report)];
}

// Warnings by code, each with the fields its messages name.
function warningLines(report: ScanReport): string[] {
  const warnings = report.skills.flatMap((s) => s.warnings);
  if (warnings.length === 0) return [];
  const lines = ['', 'Warnings by code:'];
  const byCode = new Map<string, string[]>();
  for (const w of warnings)
    byCode.set(w.code, [...(byCode.get(w.code) ?? []), warningField(w.message)]);
  for (const [code, n] of sortedCounts(countBy(warnings.map((w) => w.code)))) {
    const fields = sortedCounts(countBy(byCode.get(code)!.filter((f) => f !== '')));
    const named =
      fields.length > 0
        ? `  (${fields.map(([f, c]) => (c > 1 ? `${sanitizeField(f)} ×${c}` : sanitizeField(f))).join(', ')})`
        : '';
    lines.push(`  ${code.padEnd(22)} ${n}${named}`);
  }
  return lines;
}

// --verbose: one line per skill, its description cut to 70 characters.
function skillLines(report: ScanReport): string[] {
  if (report.skills.length === 0) return [];
  const lines = ['', 'Skills:'];
  const width = Math.min(
    40,
    Math.max(...report.skills.map((s) => sanitizeField(s.skill_id).length)),
  );
  for (const s of report.skills) {
    const warn =
      s.warnings.length > 0
        ? `  (${s.warnings.length} warning${s.warnings.length > 1 ? 's' : ''}: ${[...new Set(s.warnings.map((w) => w.code))].join(', ')})`
        : '';
    lines.push(
      `  ${sanitizeField(s.skill_id).padEnd(width)}  ${oneLine(sanitizeField(s.description), 70)}${warn}`,
    );
  }
  return lines;
}

// --verbose: the skipped files, duplicates, near-duplicates and shadowed ids.
function fileLines(report: ScanReport, { rel, relText }: Paths): string[] {
  const lines: string[] = [];
  if (report.skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const k of report.skipped) {
      // Most reasons already start with the path (and line): print it once.
      const reason = sanitizeField(relText(k.reason));
      const where = rel(k.path);
      lines.push(
        `  ${k.code.padEnd(22)} ${reason.startsWith(where) ? reason : `${where}: ${reason}`}`,
      );
    }
  }
  if (report.duplicates.length > 0) {
    lines.push('', 'Duplicates (byte-identical; first kept):');
    for (const d of report.duplicates)
      lines.push(`  ${rel(d.kept)} = ${d.copies.map(rel).join(', ')}`);
  }
  if (report.near_duplicates.length > 0) {
    lines.push('', 'Near-duplicates (differ only by BOM or line endings):');
    for (const d of report.near_duplicates) lines.push(`  ${d.paths.map(rel).join(' ~ ')}`);
  }
  if (report.shadowed.length > 0) {
    lines.push('', 'Shadowed:');
    for (const s of report.shadowed)
      lines.push(
        `  ${sanitizeField(s.skill_id)}: ${rel(s.winner)} (${s.winner_scope}${s.preferred !== undefined ? `, preferred: ${rel(s.preferred)}` : ''}) shadows ${rel(s.shadowed)} (${s.shadowed_scope})`,
      );
  }
  return lines;
}

function countBy(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

// Most frequent first, then by key: the same report always prints the same summary.
function sortedCounts(m: ReadonlyMap<string, number>): [string, number][] {
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

// The field a warning names: its messages read `<file>: <field> …` or `<file>: unknown field "<field>"`.
function warningField(message: string): string {
  const rest = message.slice(message.indexOf(': ') + 2);
  const unknown = /^unknown field "((?:[^"\\]|\\.)*)"/.exec(rest);
  if (unknown) return unknown[1]!;
  const first = /^([a-z_][a-z0-9_.-]*)\s/i.exec(rest);
  return first && !['invisible', 'latin'].includes(first[1]!.toLowerCase()) ? first[1]! : '';
}
