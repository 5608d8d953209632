/**
 * Human text of the cascade reports (`skilldex cascade crawl | build | audit`): outcome, visited
 * nodes, changes and problems, every key, path and message escaped for the terminal. `--json`
 * prints the report objects themselves and never comes here.
 */
import type { AuditReport, BuildReport, CrawlReport, Problem } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { shellWord } from '../render/shell.js';

/** Human text of a crawl report; `root` is the folder as given, for the next step to suggest. */
export function renderCrawl(report: CrawlReport, root = 'ROOT'): string {
  const lines: string[] = [];
  const where = report.visited.at(-1) ?? '.';
  if (report.outcome === 'hit' && report.hit) {
    lines.push(
      `hit: ${sanitizeField(report.hit.path)} (key ${JSON.stringify(sanitizeField(report.hit.key))} in ${where})`,
    );
  } else if (report.outcome === 'ambiguous') {
    const c = report.candidates ?? [];
    lines.push(`ambiguous: ${c.length} entries of ${where} tie`);
    const width = Math.max(...c.map((x) => sanitizeField(x.key).length));
    for (const x of c)
      lines.push(`  ${sanitizeField(x.key).padEnd(width)}  ${sanitizeField(x.path)}`);
  } else if (report.outcome === 'no match') {
    lines.push(`no match in ${where}`);
    lines.push(
      "  a need matches an entry when, case-folded, it occurs inside the entry's key or one",
      '  of its keywords: a shorter need (one word of it) matches more',
    );
    const near = report.suggestions ?? [];
    if (near.length > 0) {
      lines.push(`  entries of ${where}, closest first:`);
      const width = Math.max(...near.map((x) => sanitizeField(x.key).length));
      for (const x of near)
        lines.push(
          `    ${sanitizeField(x.key).padEnd(width)}  ${x.closest === x.key.replace(/\/$/, '').toLowerCase() ? '' : `(${sanitizeField(x.closest)})`}`.trimEnd(),
        );
    }
  } else if (report.outcome === 'no index here') {
    lines.push(
      `no index here: ${sanitizeField(root)} has no skill.index`,
      `  build one from the skills below it with: skilldex cascade build ${sanitizeField(shellWord(root))}`,
      '  (or give the folder that holds the top skill.index)',
    );
  } else {
    lines.push(report.outcome);
  }
  lines.push(
    `visited: ${report.visited.length > 0 ? report.visited.map((v) => sanitizeField(v)).join(' → ') : '(none)'}`,
  );
  lines.push(...renderProblems('inconsistencies', report.inconsistencies));
  return lines.join('\n');
}

/** Human text of a build report. */
export function renderBuild(report: BuildReport): string {
  const files = report.changes.length + report.unchanged;
  const lines: string[] = [];
  const what = `${report.skills} skill${report.skills === 1 ? '' : 's'} in ${report.nodes.length} node${report.nodes.length === 1 ? '' : 's'}`;
  if (report.check) {
    lines.push(
      report.changes.length === 0
        ? `up to date: ${what}, ${files} files unchanged`
        : `out of date: ${what}, ${report.changes.length} of ${files} files would change`,
    );
  } else {
    lines.push(
      `built ${what}: ${report.changes.length} files written, ${report.unchanged} unchanged`,
    );
  }
  for (const c of report.changes) lines.push(`  ${c.change.padEnd(6)} ${sanitizeField(c.path)}`);
  lines.push(...renderProblems('problems', report.problems));
  if (report.audit !== undefined) {
    const when = report.check ? 'as it would be built' : 'as built';
    lines.push(
      report.audit.clean
        ? `audit ${when}: clean (${report.audit.reachable} of ${report.audit.skills} skills reachable)`
        : `audit ${when}: ${report.audit.problems.length} problem${report.audit.problems.length === 1 ? '' : 's'} (${report.audit.reachable} of ${report.audit.skills} skills reachable), as skilldex cascade audit would report:`,
    );
    if (!report.audit.clean) lines.push(...renderProblems('', report.audit.problems).slice(1));
  }
  return lines.join('\n');
}

/** Human text of an audit report. */
export function renderAudit(report: AuditReport): string {
  const counts = `${report.nodes.length} node${report.nodes.length === 1 ? '' : 's'}, ${report.skills} skills, ${report.reachable} reachable`;
  const lines = [
    report.clean
      ? `clean: ${counts}`
      : `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}: ${counts}`,
  ];
  if (!report.clean) lines.push(...renderProblems('problems', report.problems).slice(1));
  return lines.join('\n');
}

function renderProblems(title: string, problems: readonly Problem[]): string[] {
  if (problems.length === 0) return [`${title}: none`];
  const width = Math.max(...problems.map((p) => p.code.length));
  return [
    `${title} (${problems.length}):`,
    ...problems.map((p) => `  ${p.code.padEnd(width)}  ${sanitizeField(p.message)}`),
  ];
}
