/**
 * Human rendering of a search result (`skilldex search`): each candidate with its file, scope, a
 * one-line reason for its score and a ready fetch command. Every field a skill author controls
 * goes through the sanitiser; `--json` prints the result object itself and never comes here.
 */
import type { Candidate, SearchResult, SkillLocation } from '../../internal.js';
import { escapeInvisible, sanitizeField } from '../../text/index.js';
import { shellWord } from '../render/shell.js';
import { oneLine, relPath } from '../render/text.js';

// A version is one short line (VERSION_INVALID otherwise): its display is cut at the same 64 characters.
const MAX_VERSION_SHOWN = 64;

/** Human rendering of a search result: each candidate with its file, scope and a ready fetch command. */
export function renderSearch(
  r: SearchResult,
  locations: ReadonlyMap<string, SkillLocation> = new Map(),
  cwd?: string,
): string {
  const lines = [
    `generation ${r.catalog_generation}  policy ${r.policy}  confidence floor ${r.min_confidence.toFixed(2)}`,
  ];
  if (r.candidates.length === 0) lines.push('no candidates');
  else if (r.abstain)
    lines.push(
      `nothing fits well enough: no candidate reaches the confidence floor ${r.min_confidence.toFixed(2)} (an agent would use no skill; the closest are below)`,
    );
  r.candidates.forEach((c, i) => {
    lines.push(
      `${String(i + 1).padStart(2)}. ${sanitizeField(c.skill_id)}  ${sanitizeField(c.skill_version, MAX_VERSION_SHOWN)}  score ${c.score.toFixed(3)}  confidence ${c.confidence.toFixed(2)}${c.state !== 'active' ? `  [${c.state}]` : ''}`,
    );
    lines.push(`    ${sanitizeField(oneLine(c.description, 100))}`);
    const loc = locations.get(c.skill_id);
    if (loc)
      lines.push(
        `    path: ${sanitizeField(relPath(loc.path, cwd))}  (${sanitizeField(loc.scope)})`,
      );
    lines.push(`    why: ${sanitizeField(why(c))}`);
    lines.push(
      `    fetch: skilldex fetch ${sanitizeField(shellWord(c.skill_id))} --revision ${c.revision_id} --generation ${r.catalog_generation}`,
    );
  });
  return lines.join('\n');
}

// The score of a candidate in one line: what each part of its explanation added or multiplied.
function why(c: Candidate): string {
  const e = c.explanation;
  if ('exact' in e) return whyLexical(e);
  const parts: string[] = [];
  const terms = (field: 'name' | 'keywords' | 'description' | 'body' | 'usage'): string =>
    e.terms
      .filter((t) => t.tf[field] > 0)
      .map((t) => escapeInvisible(t.token))
      .join(',');
  for (const field of ['name', 'keywords', 'description', 'body', 'usage'] as const) {
    if (e.fields[field] > 0) parts.push(`${field}[${terms(field)}] +${e.fields[field].toFixed(3)}`);
  }
  if (e.name_bonus.applies) parts.push(`exact name +${e.name_bonus.points}`);
  if (e.fuzzy.weighted > 0)
    parts.push(
      `fuzzy[${e.fuzzy.matches.map((m) => `${escapeInvisible(m.query_token)}~${escapeInvisible(m.term)}`).join(',')}] +${e.fuzzy.weighted.toFixed(3)}`,
    );
  parts.push(...multipliers(e));
  if (e.usage.matched.length > 0)
    parts.push(
      `learned from: ${e.usage.matched.map((q) => JSON.stringify(escapeInvisible(oneLine(q, 60)))).join('; ')}`,
    );
  if (e.dropped_tokens.length > 0)
    parts.push(
      `dropped: ${e.dropped_tokens.map((d) => `${escapeInvisible(d.token)} (${d.reason})`).join(', ')}`,
    );
  const tb = c.explanation.trust_bound;
  if (tb)
    parts.push(
      tb.role === 'first'
        ? `trust bound: put first over ${escapeInvisible(tb.skill)}, which only fetch or author examples ranked first (not in the first ${tb.k} without them)`
        : `trust bound: held back behind ${escapeInvisible(tb.skill)} (not in the first ${tb.k} without fetch or author examples)`,
    );
  // issue 34 item 1: the skill's own author / negative examples that matched, lift or penalty.
  const au = c.explanation.author;
  if (au) parts.push(authorWhy(au));
  return parts.join(', ');
}

// The author evidence of a candidate in one part of its why line.
function authorWhy(au: NonNullable<Candidate['explanation']['author']>): string {
  const ex = au.matched
    .map(
      (m) =>
        `${m.polarity === 'negative' ? 'should-not' : 'should'} ${JSON.stringify(escapeInvisible(oneLine(m.query, 60)))} (${m.source}, ${m.similarity.toFixed(2)})`,
    )
    .join('; ');
  const effect =
    au.effect === 'penalty'
      ? `penalty ×${au.factor.toFixed(3)}`
      : au.effect === 'lift'
        ? 'lift (usage field, trust bound)'
        : 'no effect';
  return `author examples: ${effect}: ${ex}`;
}

/** The explanation of the hybrid-lexical policies (v1, v2): exact matches, FTS and fuzzy. */
type LexicalExplanation = Extract<Candidate['explanation'], { exact: unknown }>;

// why() for the hybrid-lexical policies.
function whyLexical(e: LexicalExplanation): string {
  const parts: string[] = [];
  if (e.exact.keywords.points > 0)
    parts.push(`keywords[${e.exact.keywords.matched.join(',')}] +${e.exact.keywords.points}`);
  if (e.exact.name.points > 0)
    parts.push(`name[${e.exact.name.matched.join(',')}] +${e.exact.name.points}`);
  if (e.exact.description.points > 0)
    parts.push(
      `description[${e.exact.description.matched.join(',')}] +${e.exact.description.points}`,
    );
  if (e.fts.weighted > 0) parts.push(`fts +${e.fts.weighted.toFixed(3)}`);
  if (e.fuzzy.weighted > 0)
    parts.push(
      `fuzzy[${e.fuzzy.matches.map((m) => `${m.query_token}~${m.term}`).join(',')}] +${e.fuzzy.weighted.toFixed(3)}`,
    );
  return [...parts, ...multipliers(e)].join(', ');
}

// The telemetry and lifecycle multipliers every policy explains the same way, when not 1.
function multipliers(e: Candidate['explanation']): string[] {
  const parts: string[] = [];
  if (e.telemetry.multiplier !== 1) parts.push(`telemetry ×${e.telemetry.multiplier.toFixed(3)}`);
  if (e.lifecycle.multiplier !== 1) parts.push(`${e.lifecycle.state} ×${e.lifecycle.multiplier}`);
  return parts;
}
