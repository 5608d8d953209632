/**
 * What every CLI command gets: the I/O it may use (so tests run commands in process) and helpers
 * that turn a report or a failure into output and an exit code. Formatting only: no logic here.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { SkilldexError, codedFromForeign, type ExitCode } from '../errors.js';
import { maskSecrets, registerSecret } from '../secrets.js';
import { jsonText, sanitizeField } from '../text/index.js';
import { loadConfigLayers, type ConfigLayers, type IgnoredProjectKey } from './config.js';
import type * as SettingsModule from './settings.js';
import type { SettingFlags, Settings } from './settings.js';
import { MAX_INPUT_BYTES } from './stdio.js';

export { MAX_INPUT_BYTES, readStdinCapped, writeAllSync } from './stdio.js';

/** The process surface a command may touch. */
export interface CliIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** True when stderr is a terminal (progress bars are drawn only then). */
  readonly stderrIsTTY: boolean;
  /**
   * Width of the terminal stdout is, in columns; undefined in a pipe or a file. `--help` wraps to
   * it, and to HELP_WIDTH (80) when undefined, so piped and tested help is the same everywhere.
   */
  readonly stdoutColumns?: number;
  /** Width of the terminal stderr is (help after a usage error goes there); as `stdoutColumns`. */
  readonly stderrColumns?: number;
  /** Milliseconds for progress lines (default `performance.now`); tests pass their own. */
  readonly clock?: () => number;
  /** Reads all of standard input (used by `-` file arguments). */
  readonly readStdin?: () => Promise<string>;
  /** Stops a pending standard-input read and releases the stream (a hook past its deadline). */
  readonly releaseStdin?: () => void;
  /**
   * Writes to stdout and resolves once the stream can take more (after 'drain' when its buffer is
   * full): long outputs (`search --batch`) await it so memory stays bounded. Default: `stdout`.
   */
  readonly writeOut?: (s: string) => Promise<void>;
}

/**
 * A top-level command (or a few that share one registration function): its names, and the function
 * that adds it to the program. program.ts registers only the entry naming the command being run.
 */
export interface CommandEntry {
  readonly names: readonly string[];
  readonly register: (program: Command, ctx: CliContext) => void;
}

/** Shared state of one CLI run: the I/O and the exit code the run ends with. */
export class CliContext {
  exitCode: ExitCode = 0;
  /** `--quiet`: no progress and no notes on stderr (errors still print). Set by program.ts. */
  quiet = false;
  /** `--password-file FILE` (or $SKILLDEX_PASSWORD_FILE): a PostgreSQL catalog's password. */
  passwordFile: string | undefined;
  /** The `--config FILE` given to the program (set by program.ts before a command runs). */
  configFlag: string | undefined;
  private layers: ConfigLayers | undefined;
  // The project keys already reported as not applied (each warned once per run).
  private readonly warned = new Set<string>();
  // settings.ts reads the catalog (its default path, its remembered scopes), so it is loaded by the
  // first action that runs, not at start-up: `--help` and `--version` never load the catalog.
  private settingsModule: typeof SettingsModule | undefined;
  constructor(readonly io: CliIo) {
    // libpq reads PGPASSWORD itself; should any message echo it, the masker knows it.
    const pgPassword = io.env['PGPASSWORD'];
    if (pgPassword) registerSecret(pgPassword);
  }

  /** Loads what `settings()` needs; `action()` awaits it before every command's action. */
  async prepare(): Promise<void> {
    this.settingsModule ??= await import('./settings.js');
  }

  /**
   * The config files of this run, read once on first use. Each project-config key that was not
   * applied is reported once on stderr as a coded warning naming the file and the key.
   */
  configLayers(): ConfigLayers {
    if (this.layers === undefined) {
      this.layers = loadConfigLayers(this.configFlag, this.io.env, this.io.cwd);
      const { ignored, projectRoot, userPath } = this.layers;
      for (const i of ignored) this.warnIgnored(i);
      if (projectRoot !== undefined && ignored.some((i) => i.key !== '*')) {
        this.err(
          `hint: a project config is untrusted; to trust this one, add trust_project_config = [${JSON.stringify(sanitizeField(projectRoot, 2000))}] to ${sanitizeField(userPath, 2000)}`,
        );
      }
    }
    return this.layers;
  }

  /** Prints a project key that was not applied as a coded warning, once per run. */
  warnIgnored(i: IgnoredProjectKey): void {
    const id = `${i.file}\0${i.key}`;
    if (this.warned.has(id)) return;
    this.warned.add(id);
    this.err(
      `warning ${i.code}: ${sanitizeField(i.file, 2000)}: ${i.key === '*' ? 'the file' : i.key} ignored: ${sanitizeField(i.reason, 2000)}`,
    );
  }

  /** The effective settings for a command's flags (flags > env > project > user > defaults). */
  settings(flags: SettingFlags = {}, withCatalogScopes = false): Settings {
    if (this.settingsModule === undefined)
      throw new Error('CliContext.settings() called before prepare()');
    const { settings: s, ignored } = this.settingsModule.resolveSettingsNoting(
      this.configLayers(),
      flags,
      this.io.env,
      this.io.cwd,
      withCatalogScopes,
    );
    for (const i of ignored) this.warnIgnored(i);
    const file = this.passwordFile ?? this.io.env['SKILLDEX_PASSWORD_FILE'];
    return file === undefined
      ? s
      : this.settingsModule.withPasswordFile(s, path.resolve(this.io.cwd, file));
  }

  /**
   * Prints `value` as pretty JSON with a trailing newline on stdout: the one JSON writer of the
   * CLI (jsonText: control, bidi and TAG characters as `\uXXXX` escapes, the data exact).
   */
  json(value: unknown): void {
    this.io.stdout(jsonText(value, 2) + '\n');
  }

  /** Writes `s` on stdout with backpressure (see CliIo.writeOut). */
  async write(s: string): Promise<void> {
    if (this.io.writeOut) await this.io.writeOut(s);
    else this.io.stdout(s);
  }

  /** Prints a line (or lines) on stdout. */
  out(text: string): void {
    this.io.stdout(text.endsWith('\n') ? text : text + '\n');
  }

  /** Prints a diagnostic line on stderr (a log line: secrets masked, src/secrets.ts). */
  err(text: string): void {
    const t = maskSecrets(text);
    this.io.stderr(t.endsWith('\n') ? t : t + '\n');
  }

  /** Prints an advisory line on stderr unless --quiet. */
  note(text: string): void {
    if (!this.quiet) this.err(text);
  }

  /** Reports a failure: JSON `{ error }` on stdout with --json, else `error CODE: …` on stderr. */
  fail(err: SkilldexError, asJson: boolean): void {
    if (asJson) this.json({ error: err.toJSON() });
    // Messages quote ids and paths a skill author chose: escaped like every other terminal field.
    else this.err(`error ${err.code}: ${sanitizeField(err.message, 2000)}\nhint: ${err.hint}`);
    this.exitCode = err.exitCode;
  }
}

/** Wraps a command action: a thrown SkilldexError becomes its exit code and output. */
export function action<A extends unknown[]>(
  ctx: CliContext,
  fn: (...args: A) => Promise<ExitCode | void> | ExitCode | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await ctx.prepare();
      const code = await fn(...args);
      if (code !== undefined) ctx.exitCode = code;
    } catch (err) {
      const opts = args.find(
        (a) => a && typeof a === 'object' && !Array.isArray(a) && 'json' in (a as object),
      ) as { json?: boolean } | undefined;
      // A foreign failure we recognise (SQLite corruption, a full disk) gets its code here too.
      const coded = codedFromForeign(err);
      if (coded && coded.code !== 'OUTPUT_CLOSED') ctx.fail(coded, opts?.json === true);
      else throw err;
    }
  };
}

/** Parses a positive integer option, or throws INVALID_ARGUMENT naming the option. */
export function parseIntOption(name: string, min: number, max: number): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`,
        {
          option: name,
          value: v,
        },
      );
    }
    return n;
  };
}

/** Collects a repeatable option into an array. */
/** A commander parser for a probability option (0–1): INVALID_ARGUMENT naming `name` otherwise. */
export function parseProbability(name: string): (v: string) => number {
  return (v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${name} must be a number from 0 to 1, got ${JSON.stringify(v.slice(0, 40))}`,
        { option: name },
      );
    return n;
  };
}

export function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}

/** Whether telemetry is on: not turned off by `--no-telemetry` nor by SKILLDEX_TELEMETRY=off. */
export function telemetryEnabled(flag: boolean | undefined, env: CliIo['env']): boolean {
  return flag !== false && env['SKILLDEX_TELEMETRY'] !== 'off';
}

/** Whether learned usage examples rank: not turned off by `--no-usage` nor by SKILLDEX_USAGE=off. */
export function usageEnabled(flag: boolean | undefined, env: CliIo['env']): boolean {
  return flag !== false && env['SKILLDEX_USAGE'] !== 'off';
}

/**
 * A failure no code describes (a bug): the INTERNAL error (exit 70) and the stderr text both
 * process entries print for it, its stack included and secrets masked (program.ts's run() and
 * hook-main.ts's runFastHook; issue 33: one copy).
 */
export function internalFailure(err: unknown): { error: SkilldexError; stderr: string } {
  const e = err instanceof Error ? err : new Error(String(err));
  const error = new SkilldexError('INTERNAL', e.message, { name: e.name });
  return {
    error,
    stderr: maskSecrets(`error INTERNAL: ${e.message}\n${e.stack ?? ''}\nhint: ${error.hint}\n`),
  };
}

/**
 * Reads an input file named on the command line ("-": standard input), at most MAX_INPUT_BYTES.
 * FILE_NOT_FOUND, NOT_A_FILE, FILE_TOO_LARGE or INVALID_INPUT_FILE (binary, not UTF-8) name it.
 */
export async function readInput(ctx: CliContext, file: string, option = 'input'): Promise<string> {
  if (file === '-') {
    if (!ctx.io.readStdin)
      throw new SkilldexError('INVALID_ARGUMENT', 'standard input is not available here', {
        option,
      });
    return ctx.io.readStdin();
  }
  const { readTextCapped } = await import('../fsx/index.js');
  const r = readTextCapped(path.resolve(ctx.io.cwd, file), {
    maxBytes: MAX_INPUT_BYTES,
    label: file,
  });
  if (r.ok) return r.text;
  const details = { option, file };
  switch (r.problem.code) {
    case 'FILE_TOO_LARGE':
      throw new SkilldexError(
        'FILE_TOO_LARGE',
        `${file} is over ${MAX_INPUT_BYTES} bytes`,
        details,
      );
    case 'NOT_A_FILE':
      throw new SkilldexError('NOT_A_FILE', `${file} is not a regular file`, details);
    case 'BINARY_CONTENT':
    case 'INVALID_UTF8':
      throw new SkilldexError('INVALID_INPUT_FILE', r.problem.message, details);
    default:
      throw new SkilldexError(
        'FILE_NOT_FOUND',
        `cannot read ${file}: ${r.problem.message}`,
        details,
      );
  }
}
