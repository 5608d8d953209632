/**
 * `skilldex doctor` (issue 35): checks the set-up `skilldex init` made — the prompt hook (installed,
 * and its command runs), the errors it logged, the catalog, the MCP server in each client's own
 * config, the router skill, the listing controls — and names each problem with its fix. Exit 0
 * when healthy, 1 when a check failed. The checks are in src/cli/doctor.ts and src/cli/doctor/, loaded in the action.
 */
import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { sanitizeField } from '../../text/index.js';
import { action, parseIntOption, type CliContext } from '../context.js';
import type { DoctorReport } from '../doctor.js';

interface DoctorFlags {
  catalog?: string;
  hookTimeoutMs?: number;
  json?: boolean;
}

/** Registers `doctor`. */
export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .summary(
      'check the set-up init made: hook, hook errors, catalog, MCP server, router skill, listing',
    )
    .description(
      'Check that skilldex works on this machine: one check per piece of the set-up skilldex init made\n' +
        '(what it recorded in ~/.local/state/skilldex/init.json), each ok, warn, fail or skip.\n\n' +
        '  init               init has set something up, and for which clients\n' +
        "  hook.CLIENT        the prompt hook is still in the host's hook settings\n" +
        '        (Claude Code ~/.claude/settings.json, Codex hooks.json, VS Code\n' +
        '        ~/.copilot/hooks/skilldex.json: UserPromptSubmit; Gemini CLI\n' +
        '        ~/.gemini/settings.json: BeforeAgent, not switched off in its\n' +
        '        hooksConfig); the Node and skilldex its silent wrapper runs are\n' +
        '        there (else it does nothing, exit 0); and its command runs:\n' +
        '        doctor runs it with a harmless slash-command prompt on stdin and\n' +
        '        checks it exits 0 in time and logs no error\n' +
        '  hook-log           errors the hook logged since it last answered a prompt,\n' +
        '        with their codes and hints (a warning when the live run passed\n' +
        '        since, except an event the hook could not read)\n' +
        '  catalog            the catalog exists, is published, no skill file drifted\n' +
        '        since the last index, and no skill of the configured library is\n' +
        '        missing from it\n' +
        "  mcp.CLIENT         the skilldex MCP server is registered in the client's own\n" +
        '        config (Claude Code ~/.claude.json or .mcp.json, Codex\n' +
        '        config.toml, Cursor ~/.cursor/mcp.json, Gemini CLI\n' +
        "        ~/.gemini/settings.json, VS Code's profile mcp.json) and the\n" +
        '        program it names exists\n' +
        '  router-skill.CLIENT  the router skill init installed is still there\n' +
        "  codex-project.*    this project's .codex/config.toml and hooks.json: a\n" +
        '        skilldex MCP server or prompt hook of its own, or turned off, and\n' +
        '        whether Codex applies them (read as data, never run)\n' +
        '  listing.HOST       the controls skilldex listing --apply wrote are in force\n' +
        '        and strand no skill\n\n' +
        'Each failure names its fix. Exit 0 when no check failed, 1 otherwise. Reads only; the one\n' +
        'process it starts is the hook command.',
    )
    .option('--catalog <file>', 'the catalog to check (default: as for search)')
    .option(
      '--hook-timeout-ms <n>',
      'how long the hook command may run before it is killed (default 10000)',
      parseIntOption('--hook-timeout-ms', 100, 600_000),
    )
    .option(
      '--json',
      'print the report as JSON: { healthy, problems, warnings, checks: [{ id, status, message, fix? }] }',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex doctor\n  skilldex doctor --json | jq \'.checks[] | select(.status == "fail")\'',
    )
    .action(
      action(ctx, async (o: DoctorFlags): Promise<ExitCode> => {
        const { runDoctor } = await import('../doctor.js');
        const settings = ctx.settings({ catalog: o.catalog });
        const r = await runDoctor({
          home: ctx.io.env['HOME'] ?? '/',
          env: ctx.io.env,
          cwd: ctx.io.cwd,
          catalog: settings.catalog.value,
          // The configured library belongs to the configured catalog, not to one --catalog names.
          ...(o.catalog === undefined
            ? {
                scopes: settings['library.scopes'].value,
                scopesSource: settings['library.scopes'].source,
              }
            : {}),
          runHook: true,
          hookServer: settings.hook_server,
          ...(o.hookTimeoutMs !== undefined ? { hookTimeoutMs: o.hookTimeoutMs } : {}),
        });
        if (o.json) ctx.json(r);
        else ctx.out(renderDoctor(r));
        return r.healthy ? 0 : 1;
      }),
    );
}

/** Human rendering of a doctor report. */
export function renderDoctor(r: DoctorReport): string {
  const lines = r.checks.map((c) => {
    const head = `${c.status.padEnd(4)}  ${c.id}: ${sanitizeField(c.message, 2000)}`;
    return c.fix && c.status !== 'ok' ? `${head}\n      fix: ${sanitizeField(c.fix, 2000)}` : head;
  });
  lines.push(
    r.healthy
      ? `healthy${r.warnings > 0 ? ` (${r.warnings} warning(s))` : ''}`
      : `${r.problems} problem(s)${r.warnings > 0 ? `, ${r.warnings} warning(s)` : ''}`,
  );
  return lines.join('\n');
}
