/** `skilldex scan`: discover SKILL.md files across scopes and report them (issue #2 §5). */
import path from 'node:path';
import type { Command } from 'commander';
import type { ExitCode } from '../errors.js';
import type { DiscoverOptions, ScanReport } from '../index.js';
import { sanitizeField } from '../text/index.js';
import { action, collect, parseIntOption, type CliContext } from './context.js';
import { progressLine } from './progress.js';

/** Options shared by every command that discovers skills (scan, index). */
export interface ScopeFlags {
  scope?: string[];
  /** `--prefer DIR` (scan, index): folders whose skills win an id collision. */
  prefer?: string[];
  home?: string;
  project?: string;
  maxBytes?: number;
}

/** Adds the scope options to `cmd`. */
export function addScopeOptions(cmd: Command): Command {
  return cmd
    .option(
      '--scope <dir>',
      'read skills from DIR (repeatable); replaces the default scopes',
      collect,
    )
    .option('--home <dir>', 'home folder for personal and plugin scopes (default: $HOME)')
    .option('--project <dir>', 'project folder for project scopes (default: the current directory)')
    .option(
      '--max-bytes <n>',
      'size cap per SKILL.md in bytes, hashed but never kept (default: 268435456; the frontmatter is capped at 65536)',
      parseIntOption('--max-bytes', 1, 1 << 30),
    );
}

/** Adds `--prefer DIR` (scan, index): which file wins when two define one skill id. */
export function addPreferOption(cmd: Command): Command {
  return cmd.option(
    '--prefer <dir>',
    'when two files define one skill id, keep the one inside DIR (repeatable, earliest first; default: scope order, then path order; also library.prefer)',
    collect,
  );
}

/** Turns scope flags into discovery options, resolving paths against the CLI's cwd. */
export function discoverOptions(flags: ScopeFlags, ctx: CliContext): DiscoverOptions {
  const abs = (p: string): string => path.resolve(ctx.io.cwd, p);
  return {
    ...(flags.scope ? { scopes: flags.scope.map(abs) } : {}),
    ...(flags.prefer ? { prefer: flags.prefer.map(abs) } : {}),
    home: abs(flags.home ?? ctx.io.env['HOME'] ?? '.'),
    project: abs(flags.project ?? '.'),
    ...(flags.maxBytes !== undefined ? { maxBytes: flags.maxBytes } : {}),
  };
}

/** Registers `scan`. */
export function registerScan(program: Command, ctx: CliContext): void {
  addPreferOption(
    addScopeOptions(
      program
        .command('scan')
        .summary(
          'discover SKILL.md files and report what was found, skipped, duplicated or shadowed',
        )
        .description(
          'Walk the skill scopes, parse and validate every SKILL.md, and report the skills found,\n' +
            'the files skipped (with a coded reason), byte-identical duplicates and shadowed ids.\n' +
            'Without --scope, reads ~/.claude/skills, ~/.agents/skills, <project>/.claude/skills,\n' +
            '<project>/.agents/skills and the skills of enabled plugins. When two files define one\n' +
            'skill id, the earlier scope wins (then path order), unless --prefer names the folder\n' +
            'of the one to keep.',
        ),
    ),
  )
    .option(
      '--verbose',
      'also list every skill, skipped file, duplicate and shadowed id (default: the summary only)',
    )
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex scan --scope examples/skills\n  skilldex scan --scope examples/skills --verbose\n  skilldex scan --home ~ --project . --json\n' +
        '\nExit codes: 0 skills found, 1 no skill found, 2 refused (bad arguments).',
    )
    .action(
      action(
        ctx,
        async (opts: ScopeFlags & { json?: boolean; verbose?: boolean }): Promise<ExitCode> => {
          const { discoverSkills } = await import('../skills/index.js');
          const progress = progressLine(ctx.io, 'scanning', {
            enabled: opts.json !== true && !ctx.quiet,
          });
          let report: ScanReport;
          try {
            report = discoverSkills(discoverOptions(opts, ctx), progress.update);
          } finally {
            progress.done();
          }
          if (opts.json) ctx.json(report);
          else ctx.out(renderScan(report, ctx.io.cwd, opts.verbose === true));
          // No skill at all is "ran but found nothing usable" (docs/integration.md §4).
          return report.skills.length > 0 ? 0 : 1;
        },
      ),
    );
}

/**
 * Human rendering of a scan: the summary first (counts, scopes read or not found, skills per scope,
 * skips by code, warnings by code with the fields they name); with `verbose`, every skill, skip,
 * duplicate and shadowed id after it.
 */
export function renderScan(report: ScanReport, cwd: string, verbose = false): string {
  // Paths are text from the file system: a folder name may hold invisible characters too.
  const rel = (p: string): string => {
    const r = path.relative(cwd, p);
    return sanitizeField(r.startsWith('..') ? p : r);
  };
  // Reasons and notes name absolute paths; below the cwd they read relative, like the rest.
  const relText = (s: string): string => s.split(cwd + path.sep).join('');
  const lines: string[] = [];
  lines.push(
    `${report.skills.length} skills, ${report.skipped.length} skipped, ${report.duplicates.length} duplicate groups, ${report.shadowed.length} shadowed (${report.enumerated.length} SKILL.md files enumerated)`,
  );
  lines.push('', 'Scopes:');
  const perScope = countBy(report.skills.map((s) => s.scope_path));
  for (const s of report.scopes) {
    const what = s.exists
      ? `${perScope.get(s.path) ?? 0} skills`
      : s.unreadable !== undefined
        ? `unreadable: ${sanitizeField(relText(s.unreadable))}`
        : 'not found';
    lines.push(
      `  ${s.exists ? '✓' : s.unreadable !== undefined ? '!' : '·'} ${s.kind.padEnd(15)} ${rel(s.path)}${s.plugin ? `  [${sanitizeField(s.plugin)}]` : ''}  (${what})`,
    );
  }
  if (report.plugin_filter !== 'not applicable')
    lines.push(`  plugin filter: ${report.plugin_filter}`);
  if (report.skipped.length > 0) {
    lines.push('', 'Skipped by code:');
    for (const [code, n] of sortedCounts(countBy(report.skipped.map((k) => k.code))))
      lines.push(`  ${code.padEnd(22)} ${n}`);
  }
  const warnings = report.skills.flatMap((s) => s.warnings);
  if (warnings.length > 0) {
    lines.push('', 'Warnings by code:');
    const byCode = new Map<string, string[]>();
    for (const w of warnings)
      byCode.set(w.code, [...(byCode.get(w.code) ?? []), warningField(w.message)]);
    for (const [code, n] of sortedCounts(countBy(warnings.map((w) => w.code)))) {
      const fields = sortedCounts(countBy(byCode.get(code)!.filter((f) => f !== '')));
      const named =
        fields.length > 0
          ? `  (${fields.map(([f, c]) => (c > 1 ? `${sanitizeField(f)} ×${c}` : sanitizeField(f))).join(', ')})`
          : '';
      lines.push(`  ${code.padEnd(22)} ${n}${named}`);
    }
  }
  if (!verbose) {
    if (
      report.skills.length +
        report.skipped.length +
        report.duplicates.length +
        report.shadowed.length >
      0
    ) {
      lines.push('', 'Per-skill lines: --verbose. The whole report: --json.');
    }
    for (const p of report.problems)
      lines.push(`note ${p.code}: ${sanitizeField(relText(p.message))}`);
    return lines.join('\n');
  }
  if (report.skills.length > 0) {
    lines.push('', 'Skills:');
    const width = Math.min(
      40,
      Math.max(...report.skills.map((s) => sanitizeField(s.skill_id).length)),
    );
    for (const s of report.skills) {
      const warn =
        s.warnings.length > 0
          ? `  (${s.warnings.length} warning${s.warnings.length > 1 ? 's' : ''}: ${[...new Set(s.warnings.map((w) => w.code))].join(', ')})`
          : '';
      lines.push(
        `  ${sanitizeField(s.skill_id).padEnd(width)}  ${truncate(sanitizeField(s.description), 70)}${warn}`,
      );
    }
  }
  if (report.skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const k of report.skipped) {
      // Most reasons already start with the path (and line): print it once.
      const reason = sanitizeField(relText(k.reason));
      const where = rel(k.path);
      lines.push(
        `  ${k.code.padEnd(22)} ${reason.startsWith(where) ? reason : `${where}: ${reason}`}`,
      );
    }
  }
  if (report.duplicates.length > 0) {
    lines.push('', 'Duplicates (byte-identical; first kept):');
    for (const d of report.duplicates)
      lines.push(`  ${rel(d.kept)} = ${d.copies.map(rel).join(', ')}`);
  }
  if (report.near_duplicates.length > 0) {
    lines.push('', 'Near-duplicates (differ only by BOM or line endings):');
    for (const d of report.near_duplicates) lines.push(`  ${d.paths.map(rel).join(' ~ ')}`);
  }
  if (report.shadowed.length > 0) {
    lines.push('', 'Shadowed:');
    for (const s of report.shadowed)
      lines.push(
        `  ${sanitizeField(s.skill_id)}: ${rel(s.winner)} (${s.winner_scope}${s.preferred !== undefined ? `, preferred: ${rel(s.preferred)}` : ''}) shadows ${rel(s.shadowed)} (${s.shadowed_scope})`,
      );
  }
  for (const p of report.problems)
    lines.push(`note ${p.code}: ${sanitizeField(relText(p.message))}`);
  return lines.join('\n');
}

function truncate(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= n ? one : one.slice(0, n - 1) + '…';
}

function countBy(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

// Most frequent first, then by key: the same report always prints the same summary.
function sortedCounts(m: ReadonlyMap<string, number>): [string, number][] {
  return [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

// The field a warning names: its messages read `<file>: <field> …` or `<file>: unknown field "<field>"`.
function warningField(message: string): string {
  const rest = message.slice(message.indexOf(': ') + 2);
  const unknown = /^unknown field "((?:[^"\\]|\\.)*)"/.exec(rest);
  if (unknown) return unknown[1]!;
  const first = /^([a-z_][a-z0-9_.-]*)\s/i.exec(rest);
  return first && !['invisible', 'latin'].includes(first[1]!.toLowerCase()) ? first[1]! : '';
}
