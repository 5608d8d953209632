/**
 * Human rendering of an enrichment report (`skilldex enrich`): skill ids, paths and the refusal line
 * go through the sanitiser; `--json` prints the report itself and never comes here.
 */
import { formatFloor, formatScore, type EnrichReport } from '../../enrich/index.js';
import { sanitizeField } from '../../text/index.js';

/** Human summary of an enrichment run. */
export function renderEnrichText(report: EnrichReport): string {
  const lines: string[] = [];
  const tally = `${report.scored_count} scored of ${report.enumerated_count} enumerated, ${report.skipped.length} skipped`;
  if (report.refusal !== null) {
    lines.push(sanitizeField(report.refusal.line, 4096));
    lines.push(
      `found_count ${report.found_count} above floor ${formatFloor(report.floor)} (${tally}); the floor is never lowered.`,
    );
    if (report.refusal.closest_5.length > 0) {
      lines.push('closest:');
      for (const c of report.refusal.closest_5)
        lines.push(`  ${sanitizeField(c.skill_id)}@${formatScore(c.score)}`);
    }
  } else {
    lines.push(
      `${report.candidates.length} candidates (${report.found_count} above floor ${formatFloor(report.floor)}; ${tally})`,
    );
    const width = Math.min(40, Math.max(...report.candidates.map((c) => c.skill_id.length)));
    for (const c of report.candidates) {
      const flag = c.flags.length > 0 ? `  [${c.flags.join(', ')}]` : '';
      lines.push(
        `  ${String(c.rank).padStart(2)}  ${formatScore(c.score)}  ${sanitizeField(c.skill_id).padEnd(width)}  ${sanitizeField(c.path)}${flag}`,
      );
    }
  }
  lines.push(`evidence: ${sanitizeField(report.target, 4096)}/ ${report.artifacts.join(', ')}`);
  return lines.join('\n');
}
