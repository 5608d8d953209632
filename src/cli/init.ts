/**
 * `skilldex init` (issues 12, 23, 25, 27; docs/init.md): sets skilldex up for one agent client in
 * one go — the user config, the library folder and its index, the always-loaded router skill in
 * the client's personal skills folder, the client's MCP configuration (merged into an existing
 * file keeping every other byte, or printed) and, for Claude Code and Codex, the prompt hook. First it plans the steps, each saying what it would
 * do to which file; without `--yes` (or with `--dry-run`) it prints the plan and changes nothing.
 * Idempotent: a second run finds every step `unchanged`. Never replaces a file of the user's
 * without `--force`; refuses a file it cannot parse or merge into (CLIENT_CONFIG_INVALID) and
 * leaves it untouched. Every change is recorded (init/record.ts) and `init --undo` removes exactly
 * those changes (init/undo.ts). What init writes comes from the user's config, the environment and
 * the flags: a project config (untrusted, issue 25) never steers it.
 *
 * Writes only: the user config file, `<library>`, the catalog (and its telemetry file), the router
 * skill folder in the client's skills folder, the client's MCP config file, and init's record.
 *
 * This file registers the command and runs it (runInit, runUndo); the steps and their pieces live
 * in init/: the library and --move steps (library.ts), the index step (index-step.ts), the hook
 * planning and its warnings (hook-plan.ts), the reports and their rendering (report.ts), and the
 * file steps (steps.ts and the files it draws on).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../errors.js';
import type { indexCatalog as IndexCatalog } from '../internal.js';
import type { skilldexMcpServer as SkilldexMcpServer } from '../hosts/index.js';
import type { resolvePluginScopes as ResolvePluginScopes } from '../skills/index.js';
import { pluginSkillFolders } from './init/plugins.js';
import { action, type CliContext } from './context.js';
import {
  CLIENTS,
  clientPaths,
  routerListedTwice,
  ROUTER_FOLDER,
  type Client,
} from './init/clients.js';
import {
  hookPlanWarnings,
  onPath,
  planHookAfterIndex,
  staleHookWarnings,
  staleInitHook,
  vscodeDoubleHookWarnings,
} from './init/hook-plan.js';
import { indexStep } from './init/index-step.js';
import { planLibrary } from './init/library.js';
import {
  backupsDir,
  missingFolders,
  readRecords,
  recordPath,
  writeRecords,
} from './init/record.js';
import {
  renderInit,
  renderUndo,
  type InitFlags,
  type InitReport,
  type UndoReport,
} from './init/report.js';
import { currentConfig, planConfig } from './init/config-step.js';
import { hookCommand, type HookRunner } from './init/hook-step.js';
import { planMcp } from './init/mcp-step.js';
import { planWholeFile, type InitStep, type PlannedStep, type StepContext } from './init/steps.js';
import { runUndoCommand } from './init/undo-run.js';
import type { resolveSettings as ResolveSettings } from './settings.js';

export { CLIENTS, type Client, type InitStep };
export { renderInit, renderUndo, type InitReport, type UndoReport };

/** The package root (this file is dist/cli/init.js): where skills/ and bin/ ship. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUTER_SKILL = path.join(PACKAGE_ROOT, 'skills', ROUTER_FOLDER, 'SKILL.md');
const BIN = path.join(PACKAGE_ROOT, 'bin', 'skilldex.js');

/** Registers `init`. */
export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .summary('set skilldex up for an agent client: config, library index, router skill, MCP config')
    .description(
      'Write the user config (catalog and library), index the library, install the always-loaded\n' +
        "router skill into the client's personal skills folder, and write (merging into an existing\n" +
        "file, every other byte kept) or print the client's MCP configuration:\n" +
        '  claude-code  ~/.claude/skills/skill-router; prints `claude mcp add …`\n' +
        '  cursor       ~/.cursor/skills/skill-router; merges into ~/.cursor/mcp.json\n' +
        '  codex        ~/.codex/skills/skill-router; appends to ~/.codex/config.toml\n' +
        '  gemini-cli   ~/.gemini/skills/skill-router; adds to ~/.gemini/settings.json\n' +
        '  vscode       ~/.copilot/skills/skill-router; prints `code --add-mcp …`\n' +
        "  generic      prints the router skill's path and an mcpServers JSON snippet\n" +
        'With no --library, init indexes the skills the client already loads where they are (its\n' +
        'router skill never counts as one); with no skill anywhere it installs no prompt hook.\n' +
        'The library should live outside the folders the client loads natively (by default\n' +
        '~/.local/share/skilldex/library), so only the router skill is always loaded; a --library\n' +
        'inside one is reported, and --move moves its skills out. Without --yes, prints the plan\n' +
        'and changes nothing; a second run finds every step unchanged. Files skilldex did not write\n' +
        'are never replaced without --force, and a file it cannot parse or merge into is refused\n' +
        '(CLIENT_CONFIG_INVALID) and left untouched. Only the user config, the environment and the\n' +
        'flags decide what init writes; a project config is ignored. init records every change in\n' +
        '~/.local/state/skilldex/init.json, and --undo removes exactly those changes (for every\n' +
        'client, or the one --client names): the router skill, the MCP entry, the prompt hook, the\n' +
        'config lines. For Claude Code, Codex and VS Code init also adds a UserPromptSubmit hook (for\n' +
        'Gemini CLI a BeforeAgent hook) that runs skilldex hook on every prompt (--no-hook to skip;\n' +
        'see skilldex hook --help).',
    )
    .option('--client <name>', `agent client: ${CLIENTS.join(', ')}`, 'claude-code')
    .option(
      '--library <dir>',
      'the skill library folder (default: library.scopes of the user config, else the folders the client already loads skills from, indexed in place, else ~/.local/share/skilldex/library)',
    )
    .option('--yes', 'apply the plan (without it, init only prints the plan)')
    .option(
      '--move',
      'move the skills of a --library inside a natively loaded folder to ~/.local/share/skilldex/library',
    )
    .option(
      '--force',
      'replace a config file, entry or router skill that differs from what init would write (a copy is kept for --undo; the prompt hook an earlier init wrote is replaced without it, one you edited is kept: --undo, then init); with --undo, remove a file init wrote even if it changed since',
    )
    .option(
      '--undo',
      'remove what init added (for every client, or the one --client names); with --yes only',
    )
    .option(
      '--no-hook',
      'do not install the prompt hook (Claude Code: ~/.claude/settings.json; Codex: ~/.codex/hooks.json; Gemini CLI: ~/.gemini/settings.json; VS Code: ~/.copilot/hooks/skilldex.json)',
    )
    .option('--dry-run', 'print the plan and change nothing (even with --yes)')
    .option('--json', 'print the plan or report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex init                                  # show the plan for Claude Code\n  skilldex init --yes                            # apply it\n' +
        '  skilldex init --client cursor --library ~/skills --yes\n  skilldex init --client codex --library ~/.codex/skills --move --yes\n' +
        '  skilldex init --undo                           # show what undo would remove\n' +
        '  skilldex init --undo --client cursor --yes     # remove what init added for Cursor\n' +
        '  skilldex doctor                                # then: check that it all works',
    )
    .action(
      action(ctx, async (o: InitFlags, cmd: Command): Promise<ExitCode> => {
        const client = checkClient(o.client);
        if (o.undo === true) {
          const explicit = cmd.getOptionValueSource('client') === 'cli';
          const report = await runUndoCommand(ctx, o, explicit ? client : 'all', homeOf(ctx));
          if (o.json) ctx.json(report);
          else ctx.out(renderUndo(report));
          return report.applied && report.steps.some((s) => s.action === 'modified') ? 1 : 0;
        }
        const { indexCatalog } = await import('../router/index.js');
        const { resolveSettings } = await import('./settings.js');
        const { resolvePluginScopes } = await import('../skills/index.js');
        const { skilldexMcpServer } = await import('../hosts/index.js');
        const report = runInit(
          ctx,
          o,
          client,
          indexCatalog,
          resolveSettings,
          resolvePluginScopes,
          skilldexMcpServer,
        );
        if (o.json) ctx.json(report);
        else ctx.out(renderInit(report, ctx.io.cwd));
        return 0;
      }),
    );
}

function checkClient(value: string | undefined): Client {
  if (!(CLIENTS as readonly string[]).includes(value ?? ''))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--client must be one of ${CLIENTS.join(', ')}, got ${JSON.stringify(value)}`,
      { option: '--client', value },
    );
  return value as Client;
}

function homeOf(ctx: CliContext): string {
  return path.resolve(ctx.io.cwd, ctx.io.env['HOME'] ?? ctx.io.cwd);
}

type Resolve = typeof ResolveSettings;

/** Plans init for `client` and, with --yes and no --dry-run, applies the plan. */
function runInit(
  ctx: CliContext,
  o: InitFlags,
  client: Client,
  indexCatalog: typeof IndexCatalog,
  resolveSettings: Resolve,
  resolvePlugins: typeof ResolvePluginScopes,
  mcpLookup: typeof SkilldexMcpServer,
): InitReport {
  const env = ctx.io.env;
  const home = homeOf(ctx);
  const { layers, settings, warnings } = userSettings(ctx, resolveSettings);
  const paths = clientPaths(client, home, env);
  const record = recordPath(env, home);
  const sc: StepContext = { client, force: o.force === true, backups: backupsDir(record) };
  const lib = planLibrary(
    ctx,
    o,
    sc,
    settings['library.scopes'].value,
    paths,
    home,
    pluginSkillFolders(client, home, resolvePlugins),
  );
  const catalog = settings.catalog.value;
  const index = indexStep(indexCatalog, catalog, lib.scopes, home, ctx.io.cwd, lib.move);
  // A hook with no catalog behind it would log CATALOG_MISSING on every prompt and never suggest
  // anything (issue 35): with no skill to index, the hook step is skipped and the report says so.
  const noCatalog = index.planned.step.action === 'skip';
  // The hook runs the skilldex on PATH when there is one (issue 35), else this checkout.
  const runner: HookRunner = {
    onPath: onPath('skilldex', env['PATH']),
    node: process.execPath,
    bin: BIN,
  };
  warnings.push(...hookPlanWarnings(o, paths.hooks, lib.scopes, noCatalog, runner));
  // init's own earlier hook, running another command (another Node, checkout or catalog): replaced.
  const stale = staleInitHook(client, o, paths.hooks, hookCommand(runner, client, catalog), record);
  if (!noCatalog && stale === undefined)
    warnings.push(
      ...staleHookWarnings(client, o, paths.hooks, hookCommand(runner, client, catalog)),
    );
  const planned: PlannedStep[] = [
    ...lib.planned,
    planConfig(sc, layers.userPath, currentConfig(layers.userPath, home), catalog, lib.scopes),
    index.planned,
    routerStep(sc, paths.skills),
    planMcp(
      sc,
      paths.mcp,
      { command: process.execPath, args: [BIN, 'mcp', '--catalog', catalog] },
      client === 'claude-code' || client === 'vscode'
        ? mcpLookup(client, { home, env, cwd: ctx.io.cwd, userScopeOnly: true })
        : undefined,
    ),
    planHookAfterIndex(
      sc,
      o,
      paths.hooks,
      hookCommand(runner, client, catalog),
      noCatalog,
      index.planned,
      warnings,
      stale,
    ),
  ];
  if (paths.skills !== undefined) warnings.push(...routerListedTwice(client, home, env));
  warnings.push(...vscodeDoubleHookWarnings(client, o, home));
  const effect = hookTakesEffect(
    client,
    planned.find((p) => p.step.step === 'hook')?.step.action,
    paths.hooks,
  );
  warnings.push(...effect.warnings);
  const notes = [...lib.notes, ...planned.flatMap((p) => p.notes ?? [])];
  const apply = o.yes === true && o.dryRun !== true;
  const steps = apply ? applySteps(planned, record) : planned.map((p) => p.step);
  notes.push(...index.notes, ...effect.notes);
  return {
    client,
    applied: apply,
    library: lib.library,
    library_scopes: lib.scopes,
    catalog,
    steps,
    notes,
    warnings,
    index: index.report(),
    record,
  };
}

// The settings init reads: the user's own files are set up from the user's config, the environment
// and the flags; a project config found by walking up from here is someone else's input (issue 25)
// and is left out, with a warning.
function userSettings(
  ctx: CliContext,
  resolveSettings: Resolve,
): {
  layers: ReturnType<CliContext['configLayers']>;
  settings: ReturnType<Resolve>;
  warnings: string[];
} {
  const layers = ctx.configLayers();
  const userLayers = {
    userPath: layers.userPath,
    ignored: [],
    ...(layers.user ? { user: layers.user } : {}),
  };
  const settings = resolveSettings(userLayers, {}, ctx.io.env, ctx.io.cwd);
  const warnings: string[] = [];
  if (layers.projectPath !== undefined)
    warnings.push(
      `ignored the project config ${layers.projectPath}: init sets up your own files from your user config (${layers.userPath}), the environment and the flags only`,
    );
  return { layers, settings, warnings };
}

// What the person must do for a hook init wrote to run: Codex skips a new or changed hook until the
// person trusts it in /hooks, and says so only at start-up (developers.openai.com/codex/hooks,
// "Review and trust hooks"); Claude Code takes a snapshot of its hooks when a session starts, and an
// edit made while one runs applies only after review in /hooks (code.claude.com/docs/en/hooks,
// "Hook modification behavior"). Issue 35: otherwise the first prompts get nothing, silently.
function hookTakesEffect(
  client: Client,
  action: string | undefined,
  hooksFile: string | undefined,
): { warnings: string[]; notes: string[] } {
  const wrote = action === 'create' || action === 'merge' || action === 'replace';
  return {
    warnings:
      wrote && client === 'codex'
        ? [
            `Codex runs a new or changed hook only once you trust it: start Codex, open /hooks and trust skilldex's UserPromptSubmit hook in ${hooksFile ?? ''} (until then Codex skips it; skilldex doctor warns while no trust is recorded).`,
          ]
        : [],
    notes:
      wrote && client === 'claude-code'
        ? [
            'Claude Code reads its hooks when a session starts: start a new Claude Code session for the prompt hook to run (in a session already running, open /hooks and review the change).',
          ]
        : [],
  };
}

// Applies the steps in order, saving the record after each one that changed something (a failure
// further on still leaves a record of what was done); returns the steps as they turned out.
function applySteps(planned: readonly PlannedStep[], record: string): InitStep[] {
  const records = readRecords(record);
  return planned.map((p) => {
    // The folders this step's file needs that do not exist yet: undo removes them again.
    const target = p.apply !== undefined && path.isAbsolute(p.step.target) ? p.step.target : '';
    const missing = target === '' ? [] : missingFolders(target);
    const added = (p.apply?.() ?? []).map((r) =>
      r.file === target && missing.length > 0 ? { ...r, created_folders: missing } : r,
    );
    const gone = new Set((p.supersedes?.() ?? []).map((r) => JSON.stringify(r)));
    if (added.length > 0 || gone.size > 0) {
      const kept = records.filter((r) => !gone.has(JSON.stringify(r)));
      records.splice(0, records.length, ...kept, ...added);
      writeRecords(record, records);
    }
    return p.result?.() ?? p.step;
  });
}

// The router skill: written into the client's skills folder, or its path printed.
function routerStep(sc: StepContext, skills: string | undefined): PlannedStep {
  if (skills === undefined)
    return {
      step: {
        step: 'router-skill',
        action: 'print',
        target: ROUTER_SKILL,
        detail: 'load this file as an always-on skill or system-prompt section in your client',
      },
    };
  return planWholeFile(
    sc,
    'router-skill',
    path.join(skills, ROUTER_FOLDER, 'SKILL.md'),
    readFileSync(ROUTER_SKILL, 'utf8'),
    'the always-loaded router skill',
  );
}

/** The listing controls `skilldex listing --apply` left in force for a host, if any. */
