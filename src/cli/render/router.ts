/**
 * Human renderings of the router commands' reports (index, search, show): every field a skill
 * author controls goes through the sanitiser (terminal controls and invisible characters escaped,
 * lengths capped); `--json` prints the report objects themselves and never comes here.
 */
import path from 'node:path';
import type {
  Candidate,
  ExampleSource,
  IndexReport,
  SearchResult,
  SkillDetail,
  SkillLocation,
} from '../../index.js';
import { escapeInvisible, sanitizeField } from '../../text/index.js';
import { isPgLocation } from '../../catalog/location.js';
import { shellWord } from './shell.js';

/** Human rendering of an index report. */
export function renderIndex(r: IndexReport, cwd: string): string {
  // A catalog path is text from a flag or a config file: it may hold ESC or OSC sequences too.
  const rel = (p: string): string =>
    sanitizeField(
      isPgLocation(p) || path.relative(cwd, p).startsWith('..') ? p : path.relative(cwd, p),
      2000,
    );
  const lines = [
    `indexed ${r.enumerated} SKILL.md file${r.enumerated === 1 ? '' : 's'} into ${rel(r.catalog)} (${r.read} read, the rest unchanged by size and mtime)`,
    `  added ${r.added.length}, changed ${r.changed.length}, removed ${r.removed.length}, unchanged ${r.unchanged}, skipped ${r.skipped.length}, duplicates ${r.duplicates.length}, shadowed ${r.shadowed.length}`,
  ];
  if (r.dry_run) lines.push('  dry run: nothing was written');
  else if (r.publish) {
    lines.push(
      r.publish.changed
        ? `  published generation ${r.publish.seq}: ${r.publish.catalog_generation}`
        : `  generation ${r.publish.seq} unchanged: ${r.publish.catalog_generation}`,
    );
  } else lines.push('  not published (--no-publish): run skilldex publish');
  for (const k of r.skipped) lines.push(`  skipped ${k.code}: ${sanitizeField(k.reason)}`);
  const f = r.supporting_files;
  if (f.listed > 0 || f.problems.length > 0) {
    lines.push(
      `  supporting files: ${f.listed} listed (${f.hashed} hashed, ${f.reused} folders unchanged), ${f.truncated} skills cut at a bound`,
    );
    for (const p of f.problems) lines.push(`  not listed ${p.code}: ${sanitizeField(p.message)}`);
  }
  const t = r.revision_texts;
  if (t && (t.stored > 0 || t.pruned > 0 || t.not_stored.length > 0)) {
    lines.push(
      `  revision texts (for skilldex diff): ${t.stored} stored (${t.bytes} bytes, ${t.compressed_bytes} compressed), ${t.pruned} pruned past ${t.keep} per skill`,
    );
    for (const n of t.not_stored)
      lines.push(`  text not stored for ${sanitizeField(n.skill_id)}: ${sanitizeField(n.reason)}`);
  }
  return lines.join('\n');
}

/** Human rendering of a search result: each candidate with its file, scope and a ready fetch command. */
export function renderSearch(
  r: SearchResult,
  locations: ReadonlyMap<string, SkillLocation> = new Map(),
  cwd?: string,
): string {
  const lines = [`generation ${r.catalog_generation}  policy ${r.policy}`];
  if (r.candidates.length === 0) lines.push('no candidates');
  r.candidates.forEach((c, i) => {
    lines.push(
      `${String(i + 1).padStart(2)}. ${sanitizeField(c.skill_id)}  ${sanitizeField(c.skill_version, MAX_VERSION_SHOWN)}  score ${c.score.toFixed(3)}${c.state !== 'active' ? `  [${c.state}]` : ''}`,
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

// A version is one short line (VERSION_INVALID otherwise): its display is cut at the same 64 characters.
const MAX_VERSION_SHOWN = 64;

/** Human rendering of `show`. */
export function renderShow(
  d: SkillDetail,
  body: string | undefined,
  askedBody: boolean,
  cwd: string,
  usage?: Readonly<Record<ExampleSource, number>>,
): string {
  const lines = [`${escapeInvisible(d.skill_id)}`];
  if (d.published) {
    lines.push(`  name:        ${escapeInvisible(d.published.name)}`);
    lines.push(`  version:     ${escapeInvisible(d.published.skill_version)}`);
    lines.push(`  revision:    ${d.published.revision_id}`);
    lines.push(`  generation:  ${d.catalog_generation}`);
    lines.push(`  description: ${escapeInvisible(oneLine(d.published.description, 200))}`);
  } else lines.push(`  not in the published generation ${d.catalog_generation}`);
  lines.push(
    `  state:       ${d.state}${d.reason ? ` (${escapeInvisible(d.reason)})` : ''}${d.replacement ? `; use ${escapeInvisible(d.replacement)} instead` : ''}`,
  );
  if (d.location)
    lines.push(
      `  path:        ${escapeInvisible(relPath(d.location.path, cwd))}`,
      `  scope:       ${escapeInvisible(d.location.scope)} ${escapeInvisible(relPath(d.location.scope_path, cwd))}`,
    );
  lines.push(
    `  revisions:   ${d.revisions_total} seen${d.revisions_total > d.revisions.length ? `, the ${d.revisions.length} most recent:` : ':'}`,
  );
  for (const v of d.revisions)
    lines.push(
      `    r${v.seq}  ${v.revision_id}  ${escapeInvisible(v.version ?? '-')}  ${v.first_seen}`,
    );
  if (usage)
    lines.push(
      `  examples:    ${usage.import} import, ${usage.host} host, ${usage.fetch} fetch (skilldex usage list --skill ${shellWord(d.skill_id)})`,
    );
  if (d.published)
    lines.push(
      `  fetch:       skilldex fetch ${shellWord(d.skill_id)} --revision ${d.published.revision_id} --generation ${d.catalog_generation}`,
    );
  if (askedBody) {
    // The body is data: invisible and control characters are shown escaped, never interpreted.
    lines.push(
      '',
      body !== undefined
        ? escapeInvisible(body)
        : '(no body: the skill is not in the published generation)',
    );
  }
  return lines.join('\n');
}

function relPath(p: string, cwd: string | undefined): string {
  if (cwd === undefined || isPgLocation(p)) return p;
  const r = path.relative(cwd, p);
  return r.startsWith('..') || path.isAbsolute(r) ? p : r;
}

// A skill id as one shell word: quoted when it holds anything but safe characters.
function why(c: Candidate): string {
  const e = c.explanation;
  const parts: string[] = [];
  if (!('exact' in e)) {
    const terms = (field: 'name' | 'keywords' | 'description' | 'body' | 'usage'): string =>
      e.terms
        .filter((t) => t.tf[field] > 0)
        .map((t) => escapeInvisible(t.token))
        .join(',');
    for (const field of ['name', 'keywords', 'description', 'body', 'usage'] as const) {
      if (e.fields[field] > 0)
        parts.push(`${field}[${terms(field)}] +${e.fields[field].toFixed(3)}`);
    }
    if (e.name_bonus.applies) parts.push(`exact name +${e.name_bonus.points}`);
    if (e.fuzzy.weighted > 0)
      parts.push(
        `fuzzy[${e.fuzzy.matches.map((m) => `${escapeInvisible(m.query_token)}~${escapeInvisible(m.term)}`).join(',')}] +${e.fuzzy.weighted.toFixed(3)}`,
      );
    if (e.telemetry.multiplier !== 1) parts.push(`telemetry ×${e.telemetry.multiplier.toFixed(3)}`);
    if (e.lifecycle.multiplier !== 1) parts.push(`${e.lifecycle.state} ×${e.lifecycle.multiplier}`);
    if (e.usage.matched.length > 0)
      parts.push(
        `learned from: ${e.usage.matched.map((q) => JSON.stringify(escapeInvisible(oneLine(q, 60)))).join('; ')}`,
      );
    if (e.dropped_tokens.length > 0)
      parts.push(
        `dropped: ${e.dropped_tokens.map((d) => `${escapeInvisible(d.token)} (${d.reason})`).join(', ')}`,
      );
    return parts.join(', ');
  }
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
  if (e.telemetry.multiplier !== 1) parts.push(`telemetry ×${e.telemetry.multiplier.toFixed(3)}`);
  if (e.lifecycle.multiplier !== 1) parts.push(`${e.lifecycle.state} ×${e.lifecycle.multiplier}`);
  return parts.join(', ');
}

export function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : t.slice(0, n - 1) + '…';
}
