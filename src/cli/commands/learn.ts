/**
 * `skilldex learn`, `skilldex usage list` and `skilldex forget` (docs/ranking.md §9): import usage
 * examples (from a JSON-lines file, or from a host's own transcripts with `--from`), list them with
 * their source, sessions and weight, and remove them one by one or in bulk. Operator commands: they
 * write the telemetry file beside the catalog, never the catalog or a skill file, and are never MCP
 * tools. Every field a person or agent wrote is printed through the sanitiser.
 */
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import { xdgBaseDir } from '../../fsx/index.js';
import type { ExampleSource, HostLearnReport, UsageListReport } from '../../internal.js';
import type * as Router from '../../router/index.js';
import { escapeInvisible, sanitizeField } from '../../text/index.js';
import { action, parseIntOption, readInput, type CliContext } from '../context.js';
import { CATALOG_HELP, catalogOf, type CatalogFlag } from '../options.js';

/** Registers learn, usage and forget. */
export function registerLearn(program: Command, ctx: CliContext): void {
  registerLearnCommand(program, ctx);
  registerUsage(program, ctx);
  registerForget(program, ctx);
}

/** Parses `--since DATE` (an ISO date or date-time); INVALID_ARGUMENT otherwise. */
export function parseSince(v: string): Date {
  const t = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim())
    ? Date.parse(v.trim())
    : NaN;
  if (Number.isNaN(t)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--since ${JSON.stringify(v)}: give a date such as 2025-06-01 or 2025-06-01T12:00:00Z`,
      { option: '--since', value: v },
    );
  }
  return new Date(t);
}

function registerLearnCommand(program: Command, ctx: CliContext): void {
  program
    .command('learn [source]')
    .summary('import usage examples (query → skill) that the bm25f policies rank with')
    .description(
      'Import usage examples from FILE ("-" for stdin), one JSON object per line: {"query": "...", "skill_id": "..."},\n' +
        'or the {"id","query","relevant":[...]} lines of skilldex eval files (one example per relevant skill): `import` examples.\n' +
        'A line with "should_trigger": false is a negative example: it never lifts its skill, and under a policy that ranks\n' +
        'with author evidence it may only lower that skill for requests close to it (docs/ranking.md §9a).\n' +
        "With --from claude-code or --from codex, read that host's own session transcripts instead (SOURCE is their folder,\n" +
        'default ~/.claude/projects or ~/.codex/sessions): each skill the host used, with the user prompt before it, becomes\n' +
        'a `host` example; each activation is stored once, so running it again adds only what is new.\n' +
        'Examples live in <catalog>.telemetry.sqlite (at most 200 per skill and source, the newest kept), survive re-indexing,\n' +
        'and are dropped when their skill is retired or archived. Names the catalog does not serve are reported and skipped.\n' +
        'Examples older than usage_retention_days of your own config (default 180) are not kept; `skilldex forget --all\n' +
        '--purge` removes everything skilldex kept about your prompts. A <command-name> pasted inside a typed prompt is\n' +
        'part of that prompt, never an activation.\n' +
        'Exit 0 when at least one example was stored (with --from: found), 1 when none was.',
    )
    .option('--from <host>', 'read the transcripts of this host: claude-code or codex')
    .option(
      '--since <date>',
      'with --from: only activations on or after DATE (2025-06-01)',
      parseSince,
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the learn report object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex learn examples.jsonl\n  echo \'{"query":"slides to pdf handout","skill_id":"pdf-toolkit"}\' | skilldex learn -\n  echo \'{"query":"merge two pdfs","skill_id":"pdf-toolkit","should_trigger":false}\' | skilldex learn -\n  skilldex learn --from claude-code\n  skilldex learn --from claude-code ~/.claude/projects/-home-me-work --since 2025-06-01',
    )
    .action(
      action(
        ctx,
        async (
          source: string | undefined,
          o: CatalogFlag & { from?: string; since?: Date },
        ): Promise<ExitCode> => {
          const catalog = catalogOf(ctx, o);
          if (o.from !== undefined) return learnHost(ctx, catalog, o.from, source, o);
          if (o.since !== undefined)
            throw new SkilldexError('INVALID_ARGUMENT', '--since goes with --from HOST', {
              option: '--since',
            });
          if (source === undefined)
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              'learn needs a FILE ("-": stdin) or --from HOST',
              {},
            );
          const { learnExamples } = await import('../../router/index.js');
          const r = learnExamples({
            catalog,
            text: await readInput(ctx, source),
            file: source,
            retentionDays: ctx.settings().usage_retention_days.value,
          });
          if (o.json) ctx.json(r);
          else {
            const lines = [
              `learned ${r.added} example(s) from ${r.lines} line(s) into ${escapeInvisible(r.telemetry)}`,
            ];
            for (const u of r.unknown)
              lines.push(
                `  skipped line ${u.line}: no served skill ${escapeInvisible(JSON.stringify(u.skill_id))}${u.did_you_mean.length > 0 ? ` (did you mean ${u.did_you_mean.map(escapeInvisible).join(', ')}?)` : ''}`,
              );
            for (const [id, n] of Object.entries(r.per_skill))
              lines.push(`  ${escapeInvisible(id)}: ${n} imported example(s) kept`);
            ctx.out(lines.join('\n'));
          }
          return r.added > 0 ? 0 : 1;
        },
      ),
    );
}

async function learnHost(
  ctx: CliContext,
  catalog: string,
  host: string,
  dir: string | undefined,
  o: { since?: Date; json?: boolean },
): Promise<ExitCode> {
  const { learnFromHost } = await import('../../router/index.js');
  const r = learnFromHost({
    catalog,
    host,
    ...(dir !== undefined ? { dir: path.resolve(ctx.io.cwd, dir) } : {}),
    ...(ctx.io.env['HOME'] !== undefined ? { home: ctx.io.env['HOME'] } : {}),
    ...(o.since !== undefined ? { since: o.since } : {}),
    retentionDays: ctx.settings().usage_retention_days.value,
  });
  if (o.json) ctx.json(r);
  else ctx.out(renderHostLearn(r));
  return r.activations > 0 ? 0 : 1;
}

/** Human rendering of a host import. */
export function renderHostLearn(r: HostLearnReport): string {
  const lines = [
    `learned ${r.added} host example(s) from ${r.activations} activation(s) of served skills in ${r.files_read} transcript(s) under ${sanitizeField(r.dir)}` +
      (r.already_learned > 0 ? ` (${r.already_learned} learned before)` : ''),
  ];
  if (r.files_older > 0)
    lines.push(`  ${r.files_older} transcript(s) last written before --since, not read`);
  if (r.older_than_retention > 0)
    lines.push(
      `  ${r.older_than_retention} activation(s) older than the retention of usage examples (usage_retention_days of your config), not kept`,
    );
  if (r.without_prompt > 0)
    lines.push(`  ${r.without_prompt} activation(s) with no prompt before them, skipped`);
  if (r.unknown_skills.length > 0)
    lines.push(
      `  not served here: ${r.unknown_skills.map((u) => `${sanitizeField(u.skill, 80)} (${u.count})`).join(', ')}`,
    );
  for (const p of r.skipped) lines.push(`  skipped ${p.code}: ${sanitizeField(p.message)}`);
  if (r.skipped_total > r.skipped.length)
    lines.push(`  … ${r.skipped_total - r.skipped.length} more skipped (see --json)`);
  if (r.capped) lines.push('  a run bound was reached: run again with --since to take the rest');
  for (const [id, n] of Object.entries(r.per_skill))
    lines.push(`  ${sanitizeField(id)}: ${n} host example(s) kept`);
  return lines.join('\n');
}

/** The flags `usage list` and `forget` share. */
type ExampleFlags = CatalogFlag & { skill?: string; source?: string };

/** The catalog and the examples `--skill` and `--source` select, as the router's calls take them. */
interface ExampleSelection {
  catalog: string;
  skill_id?: string;
  source?: ExampleSource;
}

/**
 * The action of `usage list` and `forget`: `run` calls the router (loaded on first use) on the
 * selection the flags make, and its report is printed as JSON or as `render` writes it. Exit 0.
 */
function examplesAction<O extends ExampleFlags, R>(
  ctx: CliContext,
  run: (router: typeof Router, selected: ExampleSelection, o: O) => R,
  render: (r: R) => string,
): (o: O) => Promise<void> {
  return action(ctx, async (o: O): Promise<ExitCode> => {
    const router = await import('../../router/index.js');
    const r = run(
      router,
      {
        catalog: catalogOf(ctx, o),
        ...(o.skill !== undefined ? { skill_id: o.skill } : {}),
        ...(o.source !== undefined ? { source: router.checkExampleSource(o.source) } : {}),
      },
      o,
    );
    if (o.json) ctx.json(r);
    else ctx.out(render(r));
    return 0;
  });
}

function registerUsage(program: Command, ctx: CliContext): void {
  const usage = program
    .command('usage')
    .summary('list the usage examples the ranking learns from, with their sources')
    .description(
      'Inspect the usage examples kept beside the catalog (docs/ranking.md §9). Each example shows its id (for\n' +
        'skilldex forget --example), its source (import, host, fetch, or author: the should / should-not requests a\n' +
        'skill ships beside it, read by index), its polarity (+ should trigger, - should not), the sessions and clients\n' +
        'that recorded it, and the weight it counts for in the ranking.',
    );
  usage
    .command('list')
    .description(
      "List usage examples, in (skill, id) order: all of them, one skill's (--skill), or one source's (--source).",
    )
    .option('--skill <skill_id>', 'only the examples of this skill')
    .option('--source <source>', 'only examples of this source: import, host, fetch or author')
    .option(
      '--limit <n>',
      'most examples printed (1-100000, default 1000)',
      parseIntOption('--limit', 1, 100_000),
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the list report object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex usage list\n  skilldex usage list --skill pdf-toolkit\n  skilldex usage list --source fetch --json\n  skilldex usage list --source author   # the requests skills ship in their evals/ files',
    )
    .action(
      examplesAction(
        ctx,
        (router, selected, o: ExampleFlags & { limit?: number }) =>
          router.listExamples({
            ...selected,
            ...(o.limit !== undefined ? { limit: o.limit } : {}),
          }),
        renderUsageList,
      ),
    );
}

/** Human rendering of a usage list. */
export function renderUsageList(r: UsageListReport): string {
  const c = r.counts;
  const lines = [
    `${r.total} usage example(s) in ${sanitizeField(r.telemetry)}: ${c.import} import, ${c.host} host, ${c.fetch} fetch, ${c.author} author`,
  ];
  for (const e of r.examples) {
    const who =
      e.client_names.length > 0
        ? `  ${e.client_names.map((n) => sanitizeField(n, 40)).join(', ')}${e.clients > e.client_names.length ? ', …' : ''}`
        : '';
    lines.push(
      `${String(e.id).padStart(6)}  ${e.source.padEnd(6)} ${e.polarity === 'negative' ? '-' : '+'}  w ${e.weight.toFixed(2)}  ${e.sessions} session(s)  ${sanitizeField(e.skill_id, 80)}`,
      `        ${sanitizeField(e.query, 160)}`,
      `        ${e.first_at === e.last_at ? e.first_at : `${e.first_at} … ${e.last_at}`}${who}`,
    );
  }
  if (r.examples.length < r.total) lines.push(`… ${r.total - r.examples.length} more (--limit)`);
  return lines.join('\n');
}

function registerForget(program: Command, ctx: CliContext): void {
  program
    .command('forget')
    .summary('remove learned usage examples (--example ID, --skill ID or --all [--purge])')
    .description(
      'Remove one usage example (--example ID, from skilldex usage list: every row of it), the examples of one\n' +
        'skill (--skill ID, optionally only one --source), or all of them, from the telemetry file beside the catalog.\n' +
        'An example id no row has is EXAMPLE_NOT_FOUND (exit 1). A forgotten author example (one a skill ships in its\n' +
        'evals/ files) stays forgotten: the next index does not read it back.\n\n' +
        'forget --all --purge removes everything skilldex stored about your prompts: every usage example, every\n' +
        'telemetry event (query hashes, fetch contexts) of the catalog, rebuilding the file so no deleted text\n' +
        "stays in it, and the prompt hook's session files and log ($XDG_STATE_HOME/skilldex/hook). Per-skill\n" +
        'counts stay (they hold no prompt). Examples also expire: usage_retention_days of your own config\n' +
        '(default 180; a project config cannot set it). See docs/integration.md §7.',
    )
    .option(
      '--example <id>',
      'forget this example',
      parseIntOption('--example', 1, Number.MAX_SAFE_INTEGER),
    )
    .option('--skill <skill_id>', 'forget the examples of this skill')
    .option(
      '--source <source>',
      'with --skill: only the examples of this source (import, host, fetch, author)',
    )
    .option('--all', 'forget every example')
    .option(
      '--purge',
      "with --all: also remove the telemetry events and the prompt hook's session files and log",
    )
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the forget report object')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex forget --example 42\n  skilldex forget --skill pdf-toolkit --source fetch\n  skilldex forget --all --json\n  skilldex forget --all --purge   # everything skilldex kept about your prompts',
    )
    .action(
      examplesAction(
        ctx,
        (
          router,
          selected,
          o: ExampleFlags & { example?: number; all?: boolean; purge?: boolean },
        ) => {
          const r = router.forgetExamples({
            ...selected,
            ...(o.example !== undefined ? { example: o.example } : {}),
            ...(o.all ? { all: true } : {}),
            ...(o.purge ? { purge: true } : {}),
          });
          if (r.purged === undefined) return r;
          const home = ctx.io.env['HOME'] ?? '/';
          // The prompt hook's state folder (src/hook/state.ts hookStateDir).
          const dir = path.join(xdgBaseDir('XDG_STATE_HOME', ctx.io.env, home), 'skilldex', 'hook');
          return {
            ...r,
            purged: { ...r.purged, hook_state: dir, hook_files: purgeHookFiles(dir) },
          };
        },
        (r) =>
          r.purged === undefined
            ? `forgot ${r.removed} example row(s)`
            : `forgot ${r.removed} example row(s) and ${r.purged.events} telemetry event(s); removed ${(r.purged as { hook_files?: number }).hook_files ?? 0} prompt hook file(s)`,
      ),
    );
}

/**
 * Removes the prompt hook's own files under `dir`: its session files (`sessions/<32 hex>.json`)
 * and its log (`hook.log`) — only names the hook writes, only regular files or links (a link is
 * removed, never followed), nothing outside `dir`. Returns how many went.
 */
function purgeHookFiles(dir: string): number {
  const files: string[] = [];
  try {
    for (const n of readdirSync(path.join(dir, 'sessions')))
      if (/^[0-9a-f]{32}\.json$/.test(n)) files.push(path.join(dir, 'sessions', n));
  } catch {
    // No sessions folder: nothing to remove.
  }
  files.push(path.join(dir, 'hook.log'));
  let n = 0;
  for (const f of files) {
    try {
      const st = lstatSync(f);
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      unlinkSync(f);
      n++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new SkilldexError('WRITE_FAILED', `cannot remove ${f}: ${(err as Error).message}`, {
        file: f,
      });
    }
  }
  return n;
}
