/**
 * `skilldex init` (issue #12): sets skilldex up for one agent client in one go — the user config,
 * the library folder and its index, the always-loaded router skill in the client's personal skills
 * folder, and the client's MCP configuration (merged into an existing file, or printed). First it
 * computes a plan of steps, each saying what it would do to which file; without `--yes` (or with
 * `--dry-run`) it prints the plan and changes nothing. Idempotent: a second run finds every step
 * done. Never replaces a file it did not write without `--force`; merges into MCP configs.
 *
 * Writes only: the user config file, `<library>`, the catalog (and its telemetry file), the
 * router skill folder in the client's skills folder, and the client's MCP config file.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../errors.js';
import type { IndexReport, indexCatalog as IndexCatalog } from '../index.js';
import { escapeInvisible } from '../text/index.js';
import { readConfigFile, renderConfig, toml, type ConfigFile } from './config.js';
import { action, type CliContext } from './context.js';
import { renderIndex } from './render/router.js';

/** The clients `init` knows how to configure. */
export const CLIENTS = ['claude-code', 'cursor', 'codex', 'generic'] as const;
/** One of CLIENTS. */
export type Client = (typeof CLIENTS)[number];

/** One step of the plan. */
export interface InitStep {
  readonly step: 'config' | 'library' | 'move' | 'index' | 'router-skill' | 'mcp';
  /** What happens: `create`, `merge`, `replace` (only with --force), `unchanged`, `print`, `run`. */
  readonly action: 'create' | 'merge' | 'replace' | 'unchanged' | 'print' | 'run';
  /** The file or folder the step writes (or the command it prints). */
  readonly target: string;
  readonly detail: string;
}

/** The init report: the plan, whether it was applied, and what the user still has to do. */
export interface InitReport {
  readonly client: Client;
  readonly applied: boolean;
  readonly library: string;
  readonly catalog: string;
  readonly steps: readonly InitStep[];
  /** Text to show the user: commands to run, snippets to paste, advice. */
  readonly notes: readonly string[];
  readonly index: IndexReport | null;
}

interface InitFlags {
  client?: string;
  library?: string;
  yes?: boolean;
  move?: boolean;
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** The package root (this file is dist/cli/init.js): where skills/ and bin/ ship. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUTER_SKILL = path.join(PACKAGE_ROOT, 'skills', 'skill-router', 'SKILL.md');
const BIN = path.join(PACKAGE_ROOT, 'bin', 'skilldex.js');

/** Where each client loads personal skills from, and the folders it loads natively (DESIGN: keep the library out of them). */
function clientPaths(
  client: Client,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): { skills?: string; native: string[]; mcp?: string } {
  const codexHome = env['CODEX_HOME'] || path.join(home, '.codex');
  switch (client) {
    case 'claude-code':
      return {
        skills: path.join(home, '.claude', 'skills'),
        native: [path.join(home, '.claude', 'skills'), path.join(home, '.agents', 'skills')],
      };
    case 'cursor':
      // Cursor also reads the Claude and Codex personal folders for compatibility.
      return {
        skills: path.join(home, '.cursor', 'skills'),
        native: [
          path.join(home, '.cursor', 'skills'),
          path.join(home, '.claude', 'skills'),
          path.join(codexHome, 'skills'),
        ],
        mcp: path.join(home, '.cursor', 'mcp.json'),
      };
    case 'codex':
      return {
        skills: path.join(codexHome, 'skills'),
        native: [path.join(codexHome, 'skills'), path.join(home, '.agents', 'skills')],
        mcp: path.join(codexHome, 'config.toml'),
      };
    case 'generic':
      return { native: [] };
  }
}

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
        "file) or print the client's MCP configuration:\n" +
        '  claude-code  ~/.claude/skills/skill-router; prints `claude mcp add …`\n' +
        '  cursor       ~/.cursor/skills/skill-router; merges into ~/.cursor/mcp.json\n' +
        '  codex        ~/.codex/skills/skill-router; appends to ~/.codex/config.toml\n' +
        "  generic      prints the router skill's path and an mcpServers JSON snippet\n" +
        'The library should live outside the folders the client loads natively (by default\n' +
        '~/.local/share/skilldex/library), so only the router skill is always loaded; a --library\n' +
        'inside one is reported, and --move moves its skills out. Without --yes, prints the plan\n' +
        'and changes nothing; a second run finds every step done. Files skilldex did not write are\n' +
        'never replaced without --force.',
    )
    .option('--client <name>', `agent client: ${CLIENTS.join(', ')}`, 'claude-code')
    .option(
      '--library <dir>',
      'the skill library folder (default: library.scopes of the config, else ~/.local/share/skilldex/library)',
    )
    .option('--yes', 'apply the plan (without it, init only prints the plan)')
    .option(
      '--move',
      'move the skills of a --library inside a natively loaded folder to ~/.local/share/skilldex/library',
    )
    .option(
      '--force',
      'replace a config file or router skill that differs from what init would write',
    )
    .option('--dry-run', 'print the plan and change nothing (even with --yes)')
    .option('--json', 'print the plan or report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex init                                  # show the plan for Claude Code\n  skilldex init --yes                            # apply it\n' +
        '  skilldex init --client cursor --library ~/skills --yes\n  skilldex init --client codex --library ~/.codex/skills --move --yes',
    )
    .action(
      action(ctx, async (o: InitFlags): Promise<ExitCode> => {
        const { indexCatalog } = await import('../router/index.js');
        const report = runInit(ctx, o, indexCatalog);
        if (o.json) ctx.json(report);
        else ctx.out(renderInit(report, ctx.io.cwd));
        return 0;
      }),
    );
}

function runInit(ctx: CliContext, o: InitFlags, indexCatalog: typeof IndexCatalog): InitReport {
  if (!(CLIENTS as readonly string[]).includes(o.client ?? '')) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--client must be one of ${CLIENTS.join(', ')}, got ${JSON.stringify(o.client)}`,
      { option: '--client', value: o.client },
    );
  }
  const client = o.client as Client;
  const env = ctx.io.env;
  const home = path.resolve(ctx.io.cwd, env['HOME'] ?? ctx.io.cwd);
  const apply = o.yes === true && o.dryRun !== true;
  const layers = ctx.configLayers();
  const settings = ctx.settings({});
  const dataHome = env['XDG_DATA_HOME'] || path.join(home, '.local', 'share');
  const outsideLibrary = path.join(dataHome, 'skilldex', 'library');
  const paths = clientPaths(client, home, env);
  const steps: InitStep[] = [];
  const notes: string[] = [];

  // 1. The library: the flag, else the configured one, else the default outside every native folder.
  let library =
    o.library !== undefined
      ? path.resolve(ctx.io.cwd, o.library)
      : (settings['library.scopes'].value?.[0] ?? outsideLibrary);
  const nativeHit = paths.native.find((n) => inside(n, library));
  let moveFrom: string | undefined;
  if (nativeHit !== undefined) {
    if (o.move) {
      moveFrom = library;
      library = outsideLibrary;
      const names = existsSync(moveFrom)
        ? readdirSync(moveFrom).filter(
            (n) => n !== 'skill-router' && statSync(path.join(moveFrom!, n)).isDirectory(),
          )
        : [];
      steps.push({
        step: 'move',
        action: names.length > 0 ? 'run' : 'unchanged',
        target: library,
        detail: `move ${names.length} skill folder(s) from ${moveFrom} (loaded natively by ${client}) to ${library}`,
      });
    } else {
      notes.push(
        `${library} is inside ${nativeHit}, which ${client} loads natively: every skill there is always in the agent's context, which is what skilldex is meant to avoid. ` +
          `Keep the library in ${outsideLibrary} instead (rerun with --move to move the skill folders there).`,
      );
    }
  }
  steps.push({
    step: 'library',
    action: existsSync(library) ? 'unchanged' : 'create',
    target: library,
    detail: 'the skill library folder',
  });

  // 2. The user config: catalog and library scope.
  const catalog = settings.catalog.value;
  const wanted: ConfigFile = {
    ...(layers.user ?? {}),
    catalog,
    library: { ...(layers.user?.library ?? {}), scopes: [library] },
  };
  const configText = renderConfig(wanted);
  const configStep = planFile(layers.userPath, configText, o.force === true, () => {
    const current = readConfigFile(layers.userPath, home);
    return (
      current.catalog === catalog &&
      JSON.stringify(current.library?.scopes) === JSON.stringify([library])
    );
  });
  steps.push({
    step: 'config',
    ...configStep,
    target: layers.userPath,
    detail: `catalog = ${catalog}, library.scopes = [${library}]`,
  });

  // 3. Index.
  steps.push({
    step: 'index',
    action: 'run',
    target: catalog,
    detail: `index ${library} into the catalog and publish`,
  });

  // 4. The router skill.
  const routerText = readFileSync(ROUTER_SKILL, 'utf8');
  let routerTarget: string | undefined;
  if (paths.skills !== undefined) {
    routerTarget = path.join(paths.skills, 'skill-router', 'SKILL.md');
    steps.push({
      step: 'router-skill',
      ...planFile(routerTarget, routerText, o.force === true),
      target: routerTarget,
      detail: 'the always-loaded router skill',
    });
  } else {
    steps.push({
      step: 'router-skill',
      action: 'print',
      target: ROUTER_SKILL,
      detail: 'load this file as an always-on skill or system-prompt section in your client',
    });
  }

  // 5. The MCP configuration.
  const server = { command: process.execPath, args: [BIN, 'mcp', '--catalog', catalog] };
  const mcpStep = planMcp(client, paths.mcp, server, o.force === true);
  steps.push(mcpStep.step);
  notes.push(...mcpStep.notes);

  let index: IndexReport | null = null;
  if (apply) {
    if (moveFrom !== undefined) moveSkills(moveFrom, library);
    mkdirSync(library, { recursive: true });
    if (configStep.action !== 'unchanged') writeText(layers.userPath, configText);
    index = indexCatalog({ catalog, scopes: [library], home, project: ctx.io.cwd });
    if (routerTarget !== undefined) {
      const s = steps.find((x) => x.step === 'router-skill')!;
      if (s.action !== 'unchanged') writeText(routerTarget, routerText);
    }
    if (mcpStep.write !== undefined && mcpStep.step.action !== 'unchanged')
      writeText(mcpStep.write.file, mcpStep.write.text);
  }
  return { client, applied: apply, library, catalog, steps, notes, index };
}

type FilePlan = Pick<InitStep, 'action'>;

/** create when absent, unchanged when equal (or `equivalent` says so), replace (needs --force) otherwise. */
function planFile(
  file: string,
  text: string,
  force: boolean,
  equivalent?: () => boolean,
): FilePlan {
  if (!existsSync(file)) return { action: 'create' };
  if (readFileSync(file, 'utf8') === text) return { action: 'unchanged' };
  if (equivalent?.() === true) return { action: 'unchanged' };
  if (!force)
    throw new SkilldexError(
      'FILE_EXISTS',
      `${file} exists and differs from what init would write`,
      { file },
    );
  return { action: 'replace' };
}

interface McpPlan {
  readonly step: InitStep;
  readonly notes: string[];
  readonly write?: { file: string; text: string };
}

function planMcp(
  client: Client,
  file: string | undefined,
  server: { command: string; args: string[] },
  force: boolean,
): McpPlan {
  const quoted = [server.command, ...server.args].map(shellQuote).join(' ');
  const snippet = JSON.stringify({ mcpServers: { skilldex: server } }, null, 2);
  if (client === 'claude-code') {
    const cmd = `claude mcp add --scope user skilldex -- ${quoted}`;
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: cmd,
        detail: 'register the MCP server with Claude Code',
      },
      notes: [
        `Register the MCP server with Claude Code (user scope):\n  ${cmd}\nor, for one project, put this in its .mcp.json:\n${snippet}`,
      ],
    };
  }
  if (client === 'generic' || file === undefined) {
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: 'mcpServers',
        detail: 'add this server to your client',
      },
      notes: [`Add this server to your MCP client's configuration:\n${snippet}`],
    };
  }
  if (client === 'cursor') {
    let existing: Record<string, unknown> = {};
    if (existsSync(file)) {
      try {
        existing = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      } catch (err) {
        throw new SkilldexError(
          'CONFIG_INVALID',
          `${file} is not valid JSON: ${(err as Error).message}`,
          { file },
          { cause: err },
        );
      }
      if (existing === null || typeof existing !== 'object' || Array.isArray(existing))
        throw new SkilldexError('CONFIG_INVALID', `${file} is not a JSON object`, { file });
    }
    const servers = (existing['mcpServers'] ?? {}) as Record<string, unknown>;
    const current = servers['skilldex'];
    if (JSON.stringify(current) === JSON.stringify(server))
      return {
        step: { step: 'mcp', action: 'unchanged', target: file, detail: 'mcpServers.skilldex' },
        notes: [],
      };
    if (current !== undefined && !force)
      throw new SkilldexError(
        'FILE_EXISTS',
        `${file} already has a different mcpServers.skilldex`,
        { file, key: 'mcpServers.skilldex' },
      );
    const text =
      JSON.stringify({ ...existing, mcpServers: { ...servers, skilldex: server } }, null, 2) + '\n';
    return {
      step: {
        step: 'mcp',
        action: existsSync(file) ? (current !== undefined ? 'replace' : 'merge') : 'create',
        target: file,
        detail: 'mcpServers.skilldex (other servers kept)',
      },
      notes: [],
      write: { file, text },
    };
  }
  // codex: append a [mcp_servers.skilldex] table, leaving the rest of the file byte for byte.
  const block = `\n[mcp_servers.skilldex]\ncommand = ${JSON.stringify(server.command)}\nargs = [${server.args.map((a) => JSON.stringify(a)).join(', ')}]\n`;
  let text = '';
  if (existsSync(file)) {
    text = readFileSync(file, 'utf8');
    let parsed: Record<string, unknown>;
    try {
      parsed = toml().parse(text) as Record<string, unknown>;
    } catch (err) {
      throw new SkilldexError(
        'CONFIG_INVALID',
        `${file}: ${(err as Error).message.split('\n')[0]}`,
        { file },
        { cause: err },
      );
    }
    const current = (parsed['mcp_servers'] as Record<string, unknown> | undefined)?.['skilldex'] as
      { command?: unknown; args?: unknown } | undefined;
    if (current !== undefined) {
      if (
        current.command === server.command &&
        JSON.stringify(current.args) === JSON.stringify(server.args)
      ) {
        return {
          step: {
            step: 'mcp',
            action: 'unchanged',
            target: file,
            detail: '[mcp_servers.skilldex]',
          },
          notes: [],
        };
      }
      // Replacing one table inside a hand-edited TOML file is not done blindly: say what to change.
      throw new SkilldexError(
        'FILE_EXISTS',
        `${file} already has a different [mcp_servers.skilldex]; edit it to:${block}`,
        { file, key: 'mcp_servers.skilldex' },
      );
    }
  }
  return {
    step: {
      step: 'mcp',
      action: text === '' ? 'create' : 'merge',
      target: file,
      detail: '[mcp_servers.skilldex] appended; the rest of the file is kept as it is',
    },
    notes: [],
    write: {
      file,
      text:
        (text === '' || text.endsWith('\n') ? text : text + '\n') +
        block.slice(text === '' ? 1 : 0),
    },
  };
}

function moveSkills(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from).sort()) {
    const src = path.join(from, name);
    if (name === 'skill-router' || !statSync(src).isDirectory()) continue;
    const dst = path.join(to, name);
    if (existsSync(dst))
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

function writeText(file: string, text: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (err) {
    throw new SkilldexError(
      'WRITE_FAILED',
      `cannot write ${file}: ${(err as Error).message}`,
      { file },
      { cause: err },
    );
  }
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
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
  if (r.index) lines.push('', renderIndex(r.index, cwd));
  for (const n of r.notes) lines.push('', escapeInvisible(n));
  if (r.applied)
    lines.push('', `Add skills to ${r.library} and run \`skilldex index\` to re-index them.`);
  return lines.join('\n');
}
