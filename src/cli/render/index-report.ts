/**
 * Human rendering of an index report, shared by `skilldex index` and `skilldex init` (which indexes
 * the library it sets up): every field a skill author controls goes through the sanitiser
 * (terminal controls and invisible characters escaped, lengths capped); `--json` prints the report
 * object itself and never comes here.
 */
import type { IndexReport } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { relPath } from './text.js';

/** Human rendering of an index report. */
export function renderIndex(r: IndexReport, cwd: string): string {
  // A catalog path is text from a flag or a config file: it may hold ESC or OSC sequences too.
  const rel = (p: string): string => sanitizeField(relPath(p, cwd), 2000);
  const files = `${r.enumerated} SKILL.md file${r.enumerated === 1 ? '' : 's'} into ${rel(r.catalog)} (${r.read} read, the rest unchanged by size and mtime)`;
  const others = `skipped ${r.skipped.length}, duplicates ${r.duplicates.length}, shadowed ${r.shadowed.length}`;
  // A dry run says what it would do (issue 35), never "indexed".
  const lines = r.dry_run
    ? [
        `would index ${files}`,
        `  would add ${r.added.length}, change ${r.changed.length}, remove ${r.removed.length}; unchanged ${r.unchanged}, ${others}`,
      ]
    : [
        `indexed ${files}`,
        `  added ${r.added.length}, changed ${r.changed.length}, removed ${r.removed.length}, unchanged ${r.unchanged}, ${others}`,
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
