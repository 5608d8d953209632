/**
 * REFUSAL.md (issue #7) in the seed's form: the line
 * `REFUSED  skill-enrichment  <target>/INDEX.md  fewer-than-5-above-floor`, then `task_brief`,
 * `floor`, `found_count` and `closest_5` as `name@score` lines. Pure; the brief is printed as a JSON
 * string (one line, quotes and controls escaped) with invisible characters shown as `\uXXXX`.
 */
import { SkilldexError } from '../errors.js';
import { escapeInvisible } from '../text/index.js';
import { oneLine } from './markdown.js';
import type { EnrichReport } from './report.js';
import { formatFloor, formatScore } from './score.js';

/** Renders REFUSAL.md for a report whose outcome is `refused`. */
export function renderRefusalMd(report: EnrichReport): string {
  const refusal = report.refusal;
  if (refusal === null)
    throw new SkilldexError(
      'INTERNAL',
      'REFUSAL.md was asked for a report that selected candidates',
    );
  const lines = [
    refusal.line,
    // JSON.stringify escapes quotes and control characters; escapeInvisible then shows the rest as \uXXXX,
    // which a JSON reader decodes back to the same brief.
    `task_brief: ${escapeInvisible(JSON.stringify(report.task_brief))}`,
    `floor: ${formatFloor(report.floor)}`,
    `found_count: ${report.found_count}`,
    'closest_5:',
    ...refusal.closest_5.map((c) => `${oneLine(c.skill_id)}@${formatScore(c.score)}`),
  ];
  return lines.join('\n') + '\n';
}
