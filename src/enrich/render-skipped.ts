/**
 * SKIPPED.md and raw-inventory.txt (issue #7), written for a selection and for a refusal alike.
 * SKIPPED.md lists every file enumerated but not scored, and every path the walk refused, each with
 * its coded reason; raw-inventory.txt lists every enumerated SKILL.md, one per line, uncapped.
 * Pure functions of the report.
 */
import { markdownInline } from '../text/index.js';
import { code, count, oneLine } from './markdown.js';
import type { EnrichReport } from './report.js';

/** Renders SKIPPED.md. */
export function renderSkippedMd(report: EnrichReport): string {
  const lines: string[] = ['# Skipped', ''];
  if (report.skipped.length === 0) {
    lines.push(
      `No path was skipped: all ${count(report.enumerated_count, 'enumerated SKILL.md file')} were scored.`,
    );
  } else {
    lines.push(
      `${count(report.skipped.length, 'path')} enumerated or refused but not scored ` +
        `(${report.scored_count} of ${count(report.enumerated_count, 'enumerated SKILL.md file')} were scored). ` +
        'Reasons quote file names as found; they never quote a skill body.',
      '',
    );
    lines.push('| path | code | reason |', '| --- | --- | --- |');
    for (const s of report.skipped) {
      lines.push(`| ${code(s.path, true)} | ${s.code} | ${markdownInline(s.reason)} |`);
    }
  }
  if (report.notes.length > 0) {
    lines.push('', '## Scope notes', '');
    for (const n of report.notes)
      lines.push(`- ${n.code} ${code(n.path)}: ${markdownInline(n.message)}`);
  }
  return lines.join('\n') + '\n';
}

/** Renders raw-inventory.txt: every enumerated SKILL.md path, display form, one per line. */
export function renderRawInventory(report: EnrichReport): string {
  return report.inventory.map((p) => oneLine(p) + '\n').join('');
}
