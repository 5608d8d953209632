/**
 * Human rendering of a lint report (`skilldex lint`): counts first, then where every other finding
 * went (groups, suppressions, baseline) and the listing costs per host, then the findings grouped
 * by code; every line is escaped for the terminal. `--json` and SARIF never come here.
 */
import path from 'node:path';
import { LINT_CODES, type LintCode, type LintFinding, type LintReport } from '../../lint/index.js';
import { escapeInvisible } from '../../text/index.js';

// Skill ids named on one finding line (a near-duplicate family can hold hundreds).
const IDS_SHOWN = 4;

/** The text rendering: a counts line, counts by code, then findings grouped by code. */
export function renderLintText(
  report: LintReport,
  options: { cwd: string; fixSuggestions: boolean; quiet: boolean; only?: readonly string[] },
): string {
  const rel = (p: string): string => {
    const r = path.relative(options.cwd, p);
    return r.startsWith('..') || path.isAbsolute(r) ? p : r;
  };
  // Messages name absolute paths (a shadowing file, a kept copy); below the cwd they read relative.
  const relText = (s: string): string => s.split(options.cwd + path.sep).join('');
  const c = report.counts;
  const lines: string[] = [
    `${report.skills} skills linted: ${c.error} error${c.error === 1 ? '' : 's'}, ${c.warning} warning${c.warning === 1 ? '' : 's'}, ${c.note} note${c.note === 1 ? '' : 's'}` +
      (report.policy !== null ? ` (ranked under ${report.policy})` : ''),
  ];
  const byCode = Object.entries(c.by_code) as [LintCode, number][];
  if (byCode.length > 0)
    lines.push(
      byCode
        .map(
          ([code, n]) =>
            `  ${code.padEnd(22)} ${String(n).padStart(5)}  ${LINT_CODES[code].severity}`,
        )
        .join('\n'),
    );
  lines.push(...summaryLines(report, rel));
  const skipped: string[] = [];
  if (!report.checks.ranking)
    skipped.push(
      options.only !== undefined
        ? `ranking (not asked for: --only ${options.only.join(',')})`
        : 'ranking (no skill to rank)',
    );
  if (!report.checks.telemetry) skipped.push('NEVER_FETCHED (no telemetry file)');
  if (skipped.length > 0) lines.push(`not checked: ${skipped.join(', ')}`);
  if (options.quiet) return lines.map(escapeInvisible).join('\n');
  let current: LintCode | undefined;
  for (const f of report.findings) {
    if (f.code !== current) {
      current = f.code;
      lines.push(
        '',
        `${f.code} (${f.severity}, ${c.by_code[f.code] ?? 0}): ${LINT_CODES[f.code].rule}`,
      );
    }
    lines.push(...findingLines(f, rel, relText, options.fixSuggestions));
  }
  // Skill text reaches the terminal only with invisible and control characters escaped.
  return lines.map(escapeInvisible).join('\n');
}

// Where the findings not printed went, and what the library costs in each host's listing.
function summaryLines(report: LintReport, rel: (p: string) => string): string[] {
  const s = report.summary;
  const parts = [`${s.raw} found`];
  if (s.grouped.groups > 0)
    parts.push(`${s.grouped.folded} folded into ${s.grouped.groups} family or field groups`);
  const inline = s.suppressed.rules.filter((r) => r.kind === 'inline');
  const config = s.suppressed.rules.filter((r) => r.kind === 'config');
  const count = (rs: typeof inline): number => rs.reduce((n, r) => n + r.findings, 0);
  if (s.suppressed.rules.length > 0)
    parts.push(
      `${s.suppressed.total} suppressed (lint.ignore ${count(config)}, inline ${count(inline)})`,
    );
  if (s.baseline !== null) parts.push(`${s.baseline.known} known in ${rel(s.baseline.file)}`);
  const out = [`findings: ${parts.join(', ')}`];
  for (const r of config)
    out.push(
      `  lint.ignore ${r.code} ${r.skills.join(',')} (${rel(r.source)}): ${r.findings}${r.refused === true ? ' (refused: a security code; SUPPRESSION_REFUSED)' : r.findings === 0 ? ' (matched nothing)' : ''}${r.reason !== undefined ? ` — ${r.reason}` : ''}`,
    );
  const hosts = report.listing.hosts.map((h) => {
    const unit = h.budget_unit === 'characters' ? 'characters' : 'tokens';
    const over = h.total > h.budget ? ', over budget: descriptions are shortened or dropped' : '';
    return `${HOST_NAMES[h.host]} ${h.total.toLocaleString('en-US')} of ${h.budget.toLocaleString('en-US')} ${unit}${over}; ${h.cut} cut at ${h.cap}`;
  });
  if (report.listing.skills.length > 0) out.push(`listing: ${hosts.join('; ')}`);
  return out;
}

const HOST_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
};

function findingLines(
  f: LintFinding,
  rel: (p: string) => string,
  relText: (s: string) => string,
  fix: boolean,
): string[] {
  const ids =
    f.skill_ids.length > IDS_SHOWN
      ? `${f.skill_ids.slice(0, IDS_SHOWN).join(', ')} +${f.skill_ids.length - IDS_SHOWN}`
      : f.skill_ids.join(', ');
  const out = [
    `  ${rel(f.path)}${f.line !== undefined ? `:${f.line}` : ''}${ids !== '' ? `  [${ids}]` : ''}`,
    `    ${relText(f.message)}`,
  ];
  if (fix && f.fix !== undefined) out.push(`    fix: ${f.fix}`);
  if (fix && f.code === 'CONFUSABLE' && f.details['separating_words'] !== undefined) {
    for (const [id, words] of Object.entries(
      f.details['separating_words'] as Record<string, string[]>,
    )) {
      out.push(
        `    only in ${id}: ${words.length > 0 ? words.join(', ') : "(nothing: its text is a subset of the other's)"}`,
      );
    }
  }
  return out;
}
