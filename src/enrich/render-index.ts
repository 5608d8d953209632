/**
 * INDEX.md of a selection (issue #7): the brief, the floor, the ranked table (rank, name, source
 * path, score, one-line rationale), the scopes read and how plugins were filtered. A pure function
 * of the report; no timestamps, so one library and brief always give the same bytes.
 */
import { markdownInline, markdownQuote } from '../text/index.js';
import { code, count, grouped } from './markdown.js';
import { ARTIFACTS, type EnrichReport } from './report.js';
import { MAX_DESCRIPTION_CHARS, formatFloor, formatScore } from './score.js';
import { MAX_CANDIDATES } from './select.js';

/** Renders INDEX.md for a report whose outcome is `selected`. */
export function renderIndexMd(report: EnrichReport): string {
  const n = report.candidates.length;
  const lines: string[] = [];
  lines.push(`# Skill enrichment: ${count(n, 'candidate')}`, '');
  lines.push('Task brief:', '', markdownQuote(report.task_brief), '');
  lines.push(
    `Brief terms (${report.brief_terms.length}): ${report.brief_terms.map((t) => code(t)).join(', ') || '(none)'}.`,
    '',
  );
  const listed =
    report.found_count > n
      ? `the top ${n} are listed (never more than ${MAX_CANDIDATES})`
      : `all ${n} are listed (never more than ${MAX_CANDIDATES})`;
  lines.push(
    `Floor: ${formatFloor(report.floor)}; a score must be strictly above it. ` +
      `${report.found_count} of ${count(report.scored_count, 'scored skill')} are above it; ${listed}.`,
    '',
  );
  lines.push(
    '| rank | name | source path | score | rationale |',
    '| ---: | --- | --- | ---: | --- |',
  );
  for (const c of report.candidates) {
    lines.push(
      `| ${c.rank} | ${code(c.skill_id, true)} | ${code(c.path, true)} | ${formatScore(c.score)} | ${markdownInline(c.rationale)} |`,
    );
  }
  lines.push('');
  lines.push(
    `Score: the number of distinct brief terms found among the distinct terms of a description's first ` +
      `${grouped(MAX_DESCRIPTION_CHARS)} characters, divided by the number of those description terms ` +
      `(case-folded, stop-words removed, no stemming). Ties are broken by name, ascending.`,
    '',
  );
  lines.push(...renderScopes(report), '');
  lines.push('## Files', '');
  lines.push(
    `- ${ARTIFACTS.candidates}: for each candidate, its description quoted, the brief terms it matched and why it ranks where it does.`,
  );
  lines.push(
    `- ${ARTIFACTS.skipped}: ${count(report.skipped.length, 'path')} enumerated or refused but not scored, each with its reason.`,
  );
  lines.push(
    `- ${ARTIFACTS.inventory}: all ${count(report.enumerated_count, 'SKILL.md path')} enumerated.`,
  );
  return lines.join('\n') + '\n';
}

/** The scopes section shared by INDEX.md and SKIPPED.md. */
export function renderScopes(report: EnrichReport): string[] {
  const lines: string[] = ['## Scopes', ''];
  lines.push('| scope | folder | read |', '| --- | --- | --- |');
  for (const s of report.scopes) {
    const label = s.plugin !== undefined ? `plugin ${code(s.plugin, true)}` : s.scope;
    lines.push(`| ${label} | ${code(s.path, true)} | ${s.exists ? 'yes' : 'no (missing)'} |`);
  }
  lines.push('', markdownInline(report.plugin_note));
  for (const note of report.notes)
    lines.push('', `Note ${note.code}: ${markdownInline(note.message)}`);
  return lines;
}
