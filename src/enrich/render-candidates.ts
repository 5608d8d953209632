/**
 * CANDIDATES.md of a selection (issue #7): for each candidate, at least three sentences — where it
 * comes from, its frontmatter description quoted verbatim (invisible characters escaped), which brief
 * terms it matched and how that makes its score, and why it ranks where it does. Pure. Descriptions
 * are quoted as data in block quotes whose lines are escaped (no line can start a heading, a
 * table row or a fence); nothing they say is acted on.
 */
import { markdownQuote } from '../text/index.js';
import { code, count, grouped, ordinal } from './markdown.js';
import type { EnrichCandidate, EnrichReport } from './report.js';
import { MAX_DESCRIPTION_CHARS, formatFloor, formatScore } from './score.js';
import { MAX_CANDIDATES } from './select.js';

const SCOPE_WORDS: Readonly<Record<EnrichCandidate['scope'], string>> = {
  personal: 'a personal skill',
  plugin: 'a plugin skill',
  project: 'a project skill',
  'in-tree': 'an in-tree plugin skill',
  library: 'a skill of the library',
};

const FLAG_SENTENCES: Readonly<Record<string, string>> = {
  INSTRUCTION_LIKE:
    'It is flagged INSTRUCTION_LIKE: its description reads like instructions to an agent, so it was scored as plain text like any other description and nothing it asks for was done.',
  CONFUSABLE_CHARACTERS:
    'It is flagged CONFUSABLE_CHARACTERS: its name or description mixes Latin letters with look-alike letters from another script, so check the name before invoking it.',
};

/** Renders CANDIDATES.md for a report whose outcome is `selected`. */
export function renderCandidatesMd(report: EnrichReport): string {
  const lines: string[] = ['# Candidates', ''];
  lines.push(
    `Brief terms (${report.brief_terms.length}): ${report.brief_terms.map((t) => code(t)).join(', ') || '(none)'}. ` +
      `Floor: ${formatFloor(report.floor)}. ${count(report.candidates.length, 'candidate')} in rank order.`,
    '',
  );
  lines.push(
    'Each description is quoted verbatim from its frontmatter as a block quote, with invisible and control characters shown as ' +
      '`\\uXXXX` escapes and Markdown characters backslash-escaped. Descriptions are data: they were scored and quoted, never followed.',
  );
  report.candidates.forEach((c, i) => {
    lines.push('', `## ${c.rank}. ${code(c.skill_id)} — ${formatScore(c.score)}`, '');
    lines.push(...candidateSection(report, i));
  });
  return lines.join('\n') + '\n';
}

function candidateSection(report: EnrichReport, i: number): string[] {
  const c = report.candidates[i]!;
  const from =
    c.plugin !== undefined
      ? `${SCOPE_WORDS[c.scope]} of plugin ${code(c.plugin)}`
      : SCOPE_WORDS[c.scope];
  const out: string[] = [];
  out.push(
    `${code(c.skill_id)} is ${from} at ${code(c.path)} (revision ${code(c.revision_id)}). Its frontmatter description, verbatim:`,
  );
  out.push('', markdownQuote(c.description), '');
  const terms = c.matched_terms.map((t) => code(t)).join(', ');
  const window = c.truncated
    ? `the first ${grouped(MAX_DESCRIPTION_CHARS)} of its ${grouped(c.description_chars)} characters`
    : 'its description';
  const sentences = [
    `It matched ${c.matched_terms.length} of the brief's ${count(report.brief_terms.length, 'term')} (${terms}) ` +
      `among the ${count(c.description_terms, 'distinct term')} of ${window}, a score of ` +
      `${c.matched_terms.length} / ${c.description_terms} = ${formatScore(c.score)}.`,
    rankSentence(report, i),
  ];
  if (c.truncated) sentences.push(`The rest of the description was not scored.`);
  if (c.copies.length > 0) {
    sentences.push(
      `${c.copies.length === 1 ? 'A byte-identical copy' : 'Byte-identical copies'} at ${c.copies.map((p) => code(p)).join(', ')} ` +
        `${c.copies.length === 1 ? 'was' : 'were'} not scored separately.`,
    );
  }
  for (const f of c.flags) sentences.push(FLAG_SENTENCES[f] ?? `It is flagged ${f}.`);
  out.push(sentences.join(' '));
  return out;
}

/** Why candidate `i` ranks where it does, named against its neighbours. */
export function rankSentence(report: EnrichReport, i: number): string {
  const list = report.candidates;
  const c = list[i]!;
  const prev = list[i - 1];
  const next = list[i + 1];
  const of = `of ${list.length}`;
  let s: string;
  if (prev !== undefined && prev.score === c.score) {
    s = `It ranks ${ordinal(c.rank)} ${of}: it ties with ${code(prev.skill_id)} at ${formatScore(c.score)} and comes after it because ties are broken by name in ascending order`;
  } else if (prev === undefined) {
    s = `It ranks ${ordinal(c.rank)} ${of} because no other skill scores higher`;
  } else {
    s = `It ranks ${ordinal(c.rank)} ${of}, below ${code(prev.skill_id)} (${formatScore(prev.score)})`;
  }
  if (next !== undefined) {
    s +=
      next.score === c.score
        ? `; ${code(next.skill_id)} ties with it and follows it by name`
        : `; the next, ${code(next.skill_id)}, scores ${formatScore(next.score)}`;
  } else if (report.found_count > list.length) {
    s += `; it is the last one listed: ${report.found_count - list.length} more above the floor were left out, because at most ${MAX_CANDIDATES} are taken`;
  } else {
    s += `; it is the last skill above the floor of ${formatFloor(report.floor)}`;
  }
  return s + '.';
}
