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
 */
import {
  accessSync,
  constants as fsConstants,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { SkilldexError, isSkilldexError, type ExitCode } from '../errors.js';
import type { IndexReport, indexCatalog as IndexCatalog } from '../index.js';
import { xdgBaseDir } from '../fsx/index.js';
import { escapeInvisible } from '../text/index.js';
import { action, type CliContext } from './context.js';
import {
  CLIENTS,
  clientPaths,
  routerListedTwice,
  ROUTER_FOLDER,
  type Client,
} from './init/clients.js';
import { exists } from './init/files.js';
import {
  backupsDir,
  checkRecordTargets,
  readRecords,
  recordPath,
  writeRecords,
  type UndoRecord,
} from './init/record.js';
import {
  currentConfig,
  hookCommand,
  planConfig,
  planHook,
  planMcp,
  planWholeFile,
  type HookRunner,
  type InitStep,
  type PlannedStep,
  type StepContext,
} from './init/steps.js';
import { planUndo, type UndoStep } from './init/undo.js';
import { renderIndex } from './render/index-report.js';
import type { resolveSettings as ResolveSettings } from './settings.js';

export { CLIENTS, type Client, type InitStep };

/** The init report: the plan, whether it was applied, and what the user still has to do. */
export interface InitReport {
  readonly client: Client;
  readonly applied: boolean;
  readonly library: string;
  /** Every folder indexed as the library (library.scopes): more than one when init found the skills the client already loads. */
  readonly library_scopes: readonly string[];
  readonly catalog: string;
  readonly steps: readonly InitStep[];
  /** Text to show the user: commands to run, snippets to paste, advice. */
  readonly notes: readonly string[];
  /** Things that will not work as the user expects (a router skill listed twice, an ignored project config). */
  readonly warnings: readonly string[];
  readonly index: IndexReport | null;
  /** The file that records what init changed, for `init --undo`. */
  readonly record: string;
}

/** The `init --undo` report. */
export interface UndoReport {
  readonly undo: true;
  /** The client undone, or `all`. */
  readonly client: Client | 'all';
  readonly applied: boolean;
  readonly steps: readonly UndoStep[];
  readonly notes: readonly string[];
  readonly record: string;
}

interface InitFlags {
  client?: string;
  library?: string;
  yes?: boolean;
  move?: boolean;
  force?: boolean;
  dryRun?: boolean;
  undo?: boolean;
  json?: boolean;
  hook?: boolean;
}

/** The package root (this file is dist/cli/init.js): where skills/ and bin/ ship. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUTER_SKILL = path.join(PACKAGE_ROOT, 'skills', ROUTER_FOLDER, 'SKILL.md');
const BIN = path.join(PACKAGE_ROOT, 'bin', 'skilldex.js');

const inside = (dir: string, p: string): boolean => {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
};

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
      'replace a config file, entry or router skill that differs from what init would write (a copy is kept for --undo); with --undo, remove a file init wrote even if it changed since',
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
        '  skilldex init --undo --client cursor --yes     # remove what init added for Cursor',
    )
    .action(
      action(ctx, async (o: InitFlags, cmd: Command): Promise<ExitCode> => {
        const client = checkClient(o.client);
        if (o.undo === true) {
          const explicit = cmd.getOptionValueSource('client') === 'cli';
          const report = runUndo(ctx, o, explicit ? client : 'all');
          if (o.json) ctx.json(report);
          else ctx.out(renderUndo(report));
          return report.applied && report.steps.some((s) => s.action === 'modified') ? 1 : 0;
        }
        const { indexCatalog } = await import('../router/index.js');
        const { resolveSettings } = await import('./settings.js');
        const report = runInit(ctx, o, client, indexCatalog, resolveSettings);
        if (o.json) ctx.json(report);
        else ctx.out(renderInit(report, ctx.io.cwd));
        return 0;
      }),
    );
}

// Whether an executable `name` is in one of the PATH folders.
function onPath(name: string, pathVar: string | undefined): boolean {
  return (pathVar ?? '')
    .split(path.delimiter)
    .filter((d) => d !== '' && path.isAbsolute(d))
    .some((d) => {
      try {
        accessSync(path.join(d, name), fsConstants.X_OK);
        return statSync(path.join(d, name)).isFile();
      } catch {
        return false;
      }
    });
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

/** The prompt hook's warnings: none goes in with no catalog, or it would run this checkout. */
function hookPlanWarnings(
  o: InitFlags,
  hooksFile: string | undefined,
  scopes: readonly string[],
  noCatalog: boolean,
  runner: HookRunner,
): string[] {
  const warnings: string[] = [];
  if (o.hook !== false && noCatalog && hooksFile !== undefined)
    warnings.push(
      `no prompt hook installed: ${scopes.join(', ')} holds no skill yet, so the hook would find no catalog. Add skill folders (each with a SKILL.md) there, or rerun with --library <folder of your skills>, then run skilldex init again.`,
    );
  if (!runner.onPath && o.hook !== false && !noCatalog && hooksFile !== undefined)
    warnings.push(
      `skilldex is not on your PATH, so the prompt hook runs ${BIN} with ${process.execPath}: if this folder moves or that Node goes (nvm), the hook does nothing (silently) until you rerun init. ` +
        'Install skilldex (npm install -g . in this folder), then run skilldex init --undo --yes and skilldex init --yes, so the hook runs the installed skilldex.',
    );
  return warnings;
}

/** The prompt hook step: skipped with no skill to index, withheld on apply if none got indexed. */
function planHookAfterIndex(
  sc: StepContext,
  o: InitFlags,
  hooksFile: string | undefined,
  command: string,
  noCatalog: boolean,
  index: PlannedStep,
  warnings: string[],
): PlannedStep {
  return hookAfterIndex(
    planHook(
      sc,
      hooksFile,
      command,
      o.hook !== false,
      noCatalog && o.hook !== false
        ? 'no skill indexed yet: a hook would find no catalog'
        : undefined,
    ),
    index,
    warnings,
  );
}

/** VS Code's warning when ~/.claude/settings.json (whose hooks it runs too) holds skilldex's. */
function vscodeDoubleHookWarnings(client: Client, o: InitFlags, home: string): string[] {
  // VS Code also runs the hooks of ~/.claude/settings.json (microsoft/vscode-docs
  // docs/agent-customization/hooks.md): with Claude Code's skilldex hook there, it would run both.
  const claudeSettings = path.join(home, '.claude', 'settings.json');
  if (client !== 'vscode' || o.hook === false || !exists(claudeSettings)) return [];
  let text = '';
  try {
    text = readFileSync(claudeSettings, 'utf8');
  } catch {
    // Unreadable: nothing to say about it here.
  }
  if (!text.includes('hook claude-code')) return [];
  return [
    `VS Code also runs the hooks in ${claudeSettings}, which holds skilldex's Claude Code hook: VS Code would ask skilldex twice per prompt. Turn one off, e.g. "chat.hookFilesLocations": {"~/.claude/settings.json": false} in VS Code's settings, or init --no-hook for VS Code.`,
  ];
}

/** Plans init for `client` and, with --yes and no --dry-run, applies the plan. */
function runInit(
  ctx: CliContext,
  o: InitFlags,
  client: Client,
  indexCatalog: typeof IndexCatalog,
  resolveSettings: Resolve,
): InitReport {
  const env = ctx.io.env;
  const home = homeOf(ctx);
  const layers = ctx.configLayers();
  // The user's own files are set up from the user's config, the environment and the flags: a
  // project config found by walking up from here is someone else's input (issue 25) and is left out.
  const userLayers = {
    userPath: layers.userPath,
    ignored: [],
    ...(layers.user ? { user: layers.user } : {}),
  };
  const settings = resolveSettings(userLayers, {}, env, ctx.io.cwd);
  const warnings: string[] = [];
  if (layers.projectPath !== undefined)
    warnings.push(
      `ignored the project config ${layers.projectPath}: init sets up your own files from your user config (${layers.userPath}), the environment and the flags only`,
    );
  const paths = clientPaths(client, home, env);
  const record = recordPath(env, home);
  const sc: StepContext = { client, force: o.force === true, backups: backupsDir(record) };
  const lib = planLibrary(ctx, o, sc, settings['library.scopes'].value, paths, home);
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
  const planned: PlannedStep[] = [
    ...lib.planned,
    planConfig(sc, layers.userPath, currentConfig(layers.userPath, home), catalog, lib.scopes),
    index.planned,
    routerStep(sc, paths.skills),
    planMcp(sc, paths.mcp, {
      command: process.execPath,
      args: [BIN, 'mcp', '--catalog', catalog],
    }),
    planHookAfterIndex(
      sc,
      o,
      paths.hooks,
      hookCommand(runner, client, catalog),
      noCatalog,
      index.planned,
      warnings,
    ),
  ];
  if (paths.skills !== undefined) warnings.push(...routerListedTwice(client, home, env));
  warnings.push(...vscodeDoubleHookWarnings(client, o, home));
  const notes = [...lib.notes, ...planned.flatMap((p) => p.notes ?? [])];
  const apply = o.yes === true && o.dryRun !== true;
  const steps = apply ? applySteps(planned, record) : planned.map((p) => p.step);
  notes.push(...index.notes);
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

// The hook step, withheld at apply time when the index step (applied before it) found no skill
// after all (a --move of folders without a SKILL.md): a hook with no catalog never goes in.
function hookAfterIndex(hook: PlannedStep, index: PlannedStep, warnings: string[]): PlannedStep {
  if (hook.apply === undefined) return hook;
  let withheld: InitStep | undefined;
  return {
    ...hook,
    apply: () => {
      if ((index.result?.() ?? index.step).action !== 'skip') return hook.apply!();
      withheld = {
        ...hook.step,
        action: 'skip',
        detail: 'no skill indexed: a hook would find no catalog',
      };
      warnings.push(
        'no prompt hook installed: the index found no skill, so the hook would find no catalog. Add skill folders (each with a SKILL.md) to the library, then run skilldex init again.',
      );
      return [];
    },
    result: () => withheld ?? hook.result?.() ?? hook.step,
  };
}

// Applies the steps in order, saving the record after each one that changed something (a failure
// further on still leaves a record of what was done); returns the steps as they turned out.
function applySteps(planned: readonly PlannedStep[], record: string): InitStep[] {
  const records = readRecords(record);
  return planned.map((p) => {
    const added = p.apply?.() ?? [];
    if (added.length > 0) {
      records.push(...added);
      writeRecords(record, records);
    }
    return p.result?.() ?? p.step;
  });
}

// The library: the flag, else the configured one, else the folders the client already loads skills
// from (indexed in place, issue 35), else the default outside every native folder; with --move, a
// library inside a natively loaded folder (with no --library: the client's own skills folder) is
// moved out.
function planLibrary(
  ctx: CliContext,
  o: InitFlags,
  sc: StepContext,
  configured: readonly string[] | undefined,
  paths: { native: readonly string[]; skills?: string },
  home: string,
): {
  library: string;
  scopes: string[];
  move?: { from: string; names: string[] };
  planned: PlannedStep[];
  notes: string[];
} {
  const outside = path.join(xdgBaseDir('XDG_DATA_HOME', ctx.io.env, home), 'skilldex', 'library');
  const planned: PlannedStep[] = [];
  const notes: string[] = [];
  if (o.library === undefined && (configured === undefined || configured.length === 0)) {
    const found =
      o.move === true ? [] : paths.native.filter((d) => movableSkills(d, true).length > 0);
    if (found.length > 0) {
      const count = found.reduce((n, d) => n + movableSkills(d, true).length, 0);
      planned.push({
        step: {
          step: 'library',
          action: 'unchanged',
          target: found.join(', '),
          detail: `the ${count} skill folder(s) ${sc.client} already loads, indexed in place (--library picks another folder)`,
        },
      });
      notes.push(
        `skilldex indexes the skills ${sc.client} already loads where they are (${found.join(', ')}): ${sc.client} still lists each of them natively too. ` +
          `Rerun with --move to move them to ${outside}, so only the router skill is always loaded.`,
      );
      return { library: found[0]!, scopes: found, planned, notes };
    }
  }
  let library =
    o.library !== undefined
      ? path.resolve(ctx.io.cwd, o.library)
      : o.move === true && paths.skills !== undefined && configured === undefined
        ? paths.skills
        : (configured?.[0] ?? outside);
  const nativeHit = paths.native.find((n) => inside(n, library));
  let move: { from: string; names: string[] } | undefined;
  if (nativeHit !== undefined && o.move) {
    move = { from: library, names: movableSkills(library) };
    library = outside;
    planned.push(planMove(sc, move, library));
  } else if (nativeHit !== undefined)
    notes.push(
      `${library} is inside ${nativeHit}, which ${sc.client} loads natively: every skill there is always in the agent's context, which is what skilldex is meant to avoid. ` +
        `Keep the library in ${outside} instead (rerun with --move to move the skill folders there).`,
    );
  const scopes =
    o.library === undefined &&
    move === undefined &&
    configured !== undefined &&
    configured.length > 0
      ? [...configured]
      : [library];
  for (const dir of scopes)
    planned.push({
      step: {
        step: 'library',
        action: exists(dir) ? 'unchanged' : 'create',
        target: dir,
        detail: 'the skill library folder',
      },
      apply: () => {
        mkdirSync(dir, { recursive: true });
        return [];
      },
    });
  return { library, scopes, ...(move ? { move } : {}), planned, notes };
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

// The skill folders a --move would take (every folder but the router skill's); `withSkill`: only
// those holding a SKILL.md.
function movableSkills(from: string, withSkill = false): string[] {
  if (!exists(from)) return [];
  try {
    return readdirSync(from)
      .sort()
      .filter(
        (n) =>
          n !== ROUTER_FOLDER &&
          statSync(path.join(from, n)).isDirectory() &&
          (!withSkill || exists(path.join(from, n, 'SKILL.md'))),
      );
  } catch {
    return [];
  }
}

function planMove(
  sc: StepContext,
  move: { from: string; names: string[] },
  to: string,
): PlannedStep {
  return {
    step: {
      step: 'move',
      action: move.names.length > 0 ? 'run' : 'unchanged',
      target: to,
      detail: `move ${move.names.length} skill folder(s) from ${move.from} (loaded natively by ${sc.client}) to ${to}`,
    },
    apply: () => {
      if (move.names.length === 0) return [];
      moveSkills(move.from, to, move.names);
      const r: UndoRecord = {
        kind: 'moved',
        client: sc.client,
        step: 'move',
        file: to,
        from: move.from,
        names: move.names,
      };
      return [r];
    },
  };
}

// The index step: planned from a dry run (`unchanged` when nothing would change, `skip` for an
// empty library, else `run`); applied, it indexes and publishes, and reports what happened.
function indexStep(
  indexCatalog: typeof IndexCatalog,
  catalog: string,
  scopes: readonly string[],
  home: string,
  cwd: string,
  move: { names: string[] } | undefined,
): { planned: PlannedStep; report: () => IndexReport | null; notes: string[] } {
  const library = scopes.join(', ');
  const step = (action: InitStep['action'], detail: string): InitStep => ({
    step: 'index',
    action,
    target: catalog,
    detail,
  });
  const notes: string[] = [];
  let report: IndexReport | null = null;
  let result: InitStep | undefined;
  const options = { catalog, scopes, home, project: cwd };
  const apply = (): [] => {
    try {
      report = indexCatalog(options);
      const changed = report.publish === null || report.publish.changed;
      result = changed
        ? step('run', `indexed ${library} and published generation ${report.publish?.seq ?? '—'}`)
        : step('unchanged', `the catalog already holds the skills of ${library}`);
    } catch (err) {
      // An empty library is the usual state right after a first init: say what to do, do not fail.
      if (!isSkilldexError(err) || err.code !== 'NO_SKILLS_FOUND') throw err;
      result = step('skip', `the library ${library} holds no skill yet`);
      notes.push(
        `The library ${library} holds no skill yet: add skill folders (each with a SKILL.md) to it, then run skilldex index.`,
      );
    }
    return [];
  };
  let planned: InitStep = step('run', `index ${library} into the catalog and publish`);
  if ((move === undefined || move.names.length === 0) && !scopes.some((d) => exists(d)))
    planned = step('skip', `the library ${library} is empty: nothing to index yet`);
  else if (move === undefined || move.names.length === 0) {
    const dry = indexCatalog({ ...options, scopes: scopes.filter((d) => exists(d)), dryRun: true });
    if (dry.added.length + dry.changed.length + dry.removed.length === 0)
      planned =
        dry.unchanged > 0
          ? step(
              'unchanged',
              `the catalog already holds the ${dry.unchanged} skill(s) of ${library}`,
            )
          : step('skip', `the library ${library} holds no skill yet: nothing to index`);
  }
  return {
    planned: { step: planned, apply, result: () => result ?? planned },
    report: () => report,
    notes,
  };
}

function moveSkills(from: string, to: string, names: readonly string[]): void {
  mkdirSync(to, { recursive: true });
  for (const name of names) {
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (exists(dst))
      throw new SkilldexError('FILE_EXISTS', `cannot move ${src}: ${dst} already exists`, {
        file: dst,
      });
    try {
      renameSync(src, dst);
    } catch (err) {
      // Another file system: copy, then remove the original.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV')
        throw new SkilldexError(
          'WRITE_FAILED',
          `cannot move ${src} to ${dst}: ${(err as Error).message}`,
          { file: src },
          { cause: err },
        );
      cpSync(src, dst, { recursive: true, verbatimSymlinks: true });
      rmSync(src, { recursive: true });
    }
  }
}

function runUndo(ctx: CliContext, o: InitFlags, client: Client | 'all'): UndoReport {
  const home = homeOf(ctx);
  const record = recordPath(ctx.io.env, home);
  const apply = o.yes === true && o.dryRun !== true;
  const records = readRecords(record);
  // The record is untrusted input (issue 36 L9): only files init itself writes, else refused.
  const userConfig = ctx.configLayers().userPath;
  checkRecordTargets(record, records, (c, step) => {
    if (!(CLIENTS as readonly string[]).includes(c)) return [];
    const p = clientPaths(c as Client, home, ctx.io.env);
    const one = (f: string | undefined): string[] => (f === undefined ? [] : [f]);
    switch (step) {
      case 'config':
        return [userConfig];
      case 'router-skill':
        return one(
          p.skills === undefined ? undefined : path.join(p.skills, ROUTER_FOLDER, 'SKILL.md'),
        );
      case 'mcp':
        return one(p.mcp);
      case 'hook':
        return one(p.hooks);
      case 'move':
        return [];
    }
  });
  const plan = planUndo(records, client === 'all' ? undefined : [client], o.force === true);
  const notes = [...plan.notes];
  if (records.length === 0) notes.push(`init has recorded no change to undo (${record}).`);
  if (records.some((r) => r.shared) && !plan.keep.some((r) => r.shared))
    notes.push(
      'Undo leaves in place: the library (your skills), the catalog (their index) and the telemetry/usage store beside the catalog (<catalog>.telemetry.sqlite), which holds what skilldex learned from your prompts, prompt text included. ' +
        'skilldex forget --all --purge erases what was learned; delete the catalog and the library by hand if you no longer want them.',
    );
  if (apply) {
    plan.apply();
    if (plan.keep.length > 0 || records.length > 0) writeRecords(record, plan.keep);
  }
  return { undo: true, client, applied: apply, steps: plan.steps, notes, record };
}

/** Human rendering of the plan or report. */
export function renderInit(r: InitReport, cwd: string): string {
  const lines = [
    r.applied
      ? `skilldex init (${r.client}): done`
      : `skilldex init (${r.client}): plan (nothing changed; rerun with --yes to apply)`,
  ];
  for (const s of r.steps)
    lines.push(
      `  ${s.step.padEnd(12)} ${s.action.padEnd(9)} ${escapeInvisible(s.target)}  — ${escapeInvisible(s.detail)}`,
    );
  for (const w of r.warnings) lines.push('', `warning: ${escapeInvisible(w)}`);
  if (r.index) lines.push('', renderIndex(r.index, cwd));
  for (const n of r.notes) lines.push('', escapeInvisible(n));
  if (r.applied)
    lines.push(
      '',
      `Add skills to ${escapeInvisible(r.library)} and run \`skilldex index\` to re-index them; \`skilldex init --undo --yes\` removes what init added.`,
    );
  return lines.join('\n');
}

/** Human rendering of an undo plan or report. */
export function renderUndo(r: UndoReport): string {
  const lines = [
    r.applied
      ? `skilldex init --undo (${r.client}): done`
      : `skilldex init --undo (${r.client}): plan (nothing changed; rerun with --yes to apply)`,
  ];
  for (const s of r.steps)
    lines.push(
      `  ${s.client.padEnd(11)} ${s.step.padEnd(12)} ${s.action.padEnd(9)} ${escapeInvisible(s.target)}  — ${escapeInvisible(s.detail)}`,
    );
  for (const n of r.notes) lines.push('', escapeInvisible(n));
  return lines.join('\n');
}
