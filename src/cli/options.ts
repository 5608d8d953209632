/**
 * Options and argument checks that several commands share, written once: the catalog option and
 * how it resolves (flag > environment > config > default), the discovery scopes and `--prefer`,
 * choice and `--format` options, ids that may start with '-', and the wrapper that names the
 * catalog in a foreign failure. Definitions only: nothing here loads a capability, so registering
 * a command stays as cheap as start-up needs (issue #12).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, codedFromForeign } from '../errors.js';
import { statOrUndefined } from '../fsx/index.js';
import type { DiscoverOptions } from '../internal.js';
import { collect, parseIntOption, type CliContext } from './context.js';

/** Help text of every `--catalog` option that names the catalog a command reads or writes. */
export const CATALOG_HELP =
  'catalog file or postgres:// URL (default: $SKILLDEX_CATALOG, else the config file, else ~/.local/share/skilldex/catalog.sqlite)';

/** `--catalog FILE` and `--json`, which every catalog command takes. */
export interface CatalogFlag {
  catalog?: string;
  json?: boolean;
}

/** Adds `--catalog <file>` to `cmd` with `help` (default: CATALOG_HELP). */
export function addCatalogOption(cmd: Command, help = CATALOG_HELP): Command {
  return cmd.option('--catalog <file>', help);
}

/** The catalog a command uses: `--catalog`, else the environment, the config files, the default. */
export function catalogOf(ctx: CliContext, o: { catalog?: string }): string {
  return ctx.settings({ catalog: o.catalog }).catalog.value;
}

/** Whether telemetry is on for a command: `--no-telemetry`, the environment and the config files. */
export function telemetryOf(ctx: CliContext, o: { telemetry?: boolean }): boolean {
  return ctx.settings({ telemetry: o.telemetry }).telemetry.value;
}

/** Options shared by every command that discovers skills (scan, index, lint, lock, verify…). */
export interface ScopeFlags {
  scope?: string[];
  /** `--prefer DIR` (scan, index): folders whose skills win an id collision. */
  prefer?: string[];
  home?: string;
  project?: string;
  maxBytes?: number;
}

/** Help of `--max-bytes`, the size cap per SKILL.md (scan, index, enrich…). */
export const MAX_BYTES_HELP =
  'size cap per SKILL.md in bytes, hashed but never kept (default: 268435456; the frontmatter is capped at 65536)';

/** Adds `--max-bytes <n>` (1 to 2^30) to `cmd`. */
export function addMaxBytesOption(cmd: Command): Command {
  return cmd.option('--max-bytes <n>', MAX_BYTES_HELP, parseIntOption('--max-bytes', 1, 1 << 30));
}

/** Adds the scope options (`--scope`, `--home`, `--project`, `--max-bytes`) to `cmd`. */
export function addScopeOptions(cmd: Command): Command {
  return addMaxBytesOption(
    cmd
      .option(
        '--scope <dir>',
        'read skills from DIR (repeatable); replaces the default scopes',
        collect,
      )
      .option('--home <dir>', 'home folder for personal and plugin scopes (default: $HOME)')
      .option(
        '--project <dir>',
        'project folder for project scopes (default: the current directory)',
      ),
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

/**
 * INVALID_ARGUMENT naming the first `--scope` of `flags` that is not a folder (a typo, a file):
 * `lint` and `eval --triggers` would otherwise report on nothing, as if the library were empty.
 * `scan` keeps reporting such a scope as a line of its own (that is its job); `index` refuses it
 * itself. `did`: what nothing was ("linted", "evaluated").
 */
export function refuseMissingScopes(flags: ScopeFlags, ctx: CliContext, did: string): void {
  for (const scope of flags.scope ?? []) {
    const abs = path.resolve(ctx.io.cwd, scope);
    if (statOrUndefined(abs)?.isDirectory() !== true)
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `--scope ${scope} is not a folder${abs !== scope ? ` (${abs})` : ''}; nothing was ${did}`,
        { option: '--scope', value: scope },
      );
  }
}

/** The value of a choice option, refused with INVALID_ARGUMENT naming it when not one of `choices`. */
export function oneOf<T extends string>(option: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`,
      { option, value },
    );
  return value as T;
}

/**
 * The output format of a command with `--format` and `--json` (lint, verify, eval --triggers):
 * `--json` is `--format json`; `--json` beside any other format but text is refused, as is a
 * format not in `formats`.
 */
export function formatOf<T extends string>(
  o: { json?: boolean; format?: string },
  formats: readonly T[],
): T {
  if (o.json && o.format !== undefined && o.format !== 'text' && o.format !== 'json')
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--json and --format ${o.format} disagree: give one`,
      { option: '--format', value: o.format },
    );
  return oneOf('--format', o.json ? 'json' : (o.format ?? 'text'), formats);
}

/**
 * With allowUnknownOption an id argument may start with '-' (`show -odd-id`); anything else
 * unknown is still a mistake: INVALID_ARGUMENT naming it.
 */
export function checkOneId(cmd: Command): void {
  const extra = cmd.args.slice(1);
  const first = cmd.args[0] ?? '';
  if (extra.length > 0 || first.startsWith('--')) {
    const bad = first.startsWith('--') ? first : extra[0]!;
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `unexpected argument or unknown option ${JSON.stringify(bad)} (see --help)`,
      { argument: bad },
    );
  }
}

/** Runs `fn`; a foreign failure it throws (SQLite corruption, a lock) becomes coded, naming `file`. */
export async function namingCatalog<T>(file: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw codedFromForeign(err, file) ?? err;
  }
}
