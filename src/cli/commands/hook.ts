/**
 * `skilldex hook <host>` (issue 23 §1, docs/integration.md §8): the prompt hook. Claude Code and
 * Codex run it on every prompt (`UserPromptSubmit`); it reads their event object on stdin and
 * prints the skills that fit the prompt as context for the model, or nothing. It never gets in the
 * way: whatever goes wrong, it prints nothing, logs one line and exits 0 (`--strict` reports the
 * error and its exit code instead, for setting it up). `generic` reads a prompt as text and prints
 * the answer as JSON. The router loads inside the action, so `--help` loads no catalog.
 */
import type { Command } from 'commander';
import { SkilldexError, codedFromForeign } from '../../errors.js';
import {
  action,
  parseIntOption,
  parseProbability,
  usageEnabled,
  type CliContext,
} from '../context.js';
import type { HookRouters } from '../../hook/index.js';
import type { Settings } from '../settings.js';
import { monotonicMs, withinDeadline } from '../stdio.js';

// The numeric options arrive as text and are checked inside the run: a bad value in a host's hook
// command must be logged like any other error, never exit 2 (which Claude Code reads as "block
// this prompt").
// The value options are declared `[value]` (optional) for the same reason: a missing value is
// `true` here and logged as INVALID_ARGUMENT, where `<value>` would be a parser error (exit 2).
export interface HookFlags {
  catalog?: string | true;
  max?: string | true;
  minConfidence?: string | true;
  deadlineMs?: string | true;
  telemetry?: boolean;
  usage?: boolean;
  strict?: boolean;
  json?: boolean;
}

const HOOK_HELP_AFTER =
  '\nHosts:\n' +
  '  claude-code  UserPromptSubmit command hook in ~/.claude/settings.json (skilldex init installs it)\n' +
  '  codex        UserPromptSubmit command hook in ~/.codex/hooks.json (Codex asks you to trust it once)\n' +
  '  gemini-cli   BeforeAgent command hook in ~/.gemini/settings.json (the context is added to that turn)\n' +
  "  vscode       UserPromptSubmit command hook of VS Code agent mode (Claude Code's hook format)\n" +
  '  generic      reads a prompt (plain text, or {"prompt": ...}) and prints the answer as JSON\n' +
  '  Cursor has no hook that adds context to a prompt (beforeSubmitPrompt can only allow or block):\n' +
  '  use the MCP server there (skilldex init --client cursor).\n\n' +
  'What it prints: at most --max skills that the hook rule of the catalog policy names (v5, the\n' +
  'default: the first at confidence 0.45 or more, then each next one at 0.25 or more, nothing for\n' +
  'greetings and small talk; v4 and v1: every skill at or above the floor; --min-confidence sets one\n' +
  'floor for all), each on one line with how to load it; nothing when nothing fits, when the prompt is a /command, or when the skill was\n' +
  'already suggested on the same topic in this session. Skills with disable-model-invocation: true\n' +
  "are never suggested. Events that are not a person's prompt (a sub-agent's, a host-made\n" +
  'notification) get nothing. Skill text is quoted as data with every "<" escaped, and the context\n' +
  'stays under 10,000 characters. Suggestions are recorded as telemetry events (source hook).\n' +
  'What each host takes: docs/hosts.md.\n\n' +
  'It never blocks a prompt: on any error (a bad input, a missing catalog, an unknown host or option,\n' +
  'an option without its value), or past --deadline-ms, it prints nothing, exits 0 and\n' +
  'appends one line to $XDG_STATE_HOME/skilldex/hook/hook.log (default ~/.local/state/...).\n' +
  'With --strict it prints the coded error and exits with its code instead.\n\n' +
  'Examples:\n' +
  '  echo \'{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"merge two pdf files"}\' | skilldex hook claude-code\n' +
  '  echo \'{"hook_event_name":"BeforeAgent","session_id":"g1","prompt":"merge two pdf files"}\' | skilldex hook gemini-cli\n' +
  '  echo "deploy this to kubernetes" | skilldex hook generic\n' +
  '  echo "what is the weather" | skilldex hook generic --strict   # abstain: true, no suggestions';

/** Registers `hook`. */
export function registerHook(program: Command, ctx: CliContext): void {
  program
    .command('hook [host]')
    .summary("suggest the skills that fit a prompt, inside the host's prompt hook")
    .description(
      'Read a host hook event (claude-code, codex, gemini-cli, vscode) or a prompt (generic) on stdin,\n' +
        'route it through the catalog, and print the skills whose confidence clears the floor in the\n' +
        "host's hook output format.",
    )
    .option(
      '--catalog [file]',
      'catalog file (default: $SKILLDEX_CATALOG, else the config file, else the default)',
    )
    .option('--max [n]', 'most suggestions per prompt (1-5, default 3)')
    .option(
      '--min-confidence [p]',
      "confidence floor for every suggestion, 0-1 (default: min_confidence of the config, else the policy's hook rule)",
    )
    .option(
      '--deadline-ms [ms]',
      'answer within this many milliseconds of start, else print nothing (default 1000)',
    )
    .option('--no-telemetry', 'do not record the suggestions or use history')
    .option('--no-usage', 'rank without learned usage examples')
    .option('--strict', 'report errors (coded, with their exit code) instead of printing nothing')
    .option('--json', 'with --strict: print errors as JSON')
    .addHelpText('after', HOOK_HELP_AFTER)
    // Whatever else a host's command line holds is not a reason to block its prompt.
    .allowUnknownOption()
    .allowExcessArguments()
    .action(
      action(ctx, (hostArg: string | undefined, o: HookFlags) => runHookCommand(ctx, hostArg, o)),
    );
}

/**
 * What an entry that did part of the run itself passes in: when the run started (monotonicMs; the
 * deadline counts from it), and a function told the run's settings once they are resolved (the
 * hook server's client reads `hook_server` from them).
 */
export interface HookRunFrame {
  readonly startedMs?: number;
  readonly settled?: (settings: Settings) => void;
  /** Where the run gets its router (the hook server's pool; default a new one per run). */
  readonly routers?: HookRouters;
  /** What the run records after its answer is handed here (HookRunOptions.afterAnswer). */
  readonly afterAnswer?: (work: () => void) => void;
}

/**
 * One hook run: the host checked, stdin read within the deadline, the settings resolved, the
 * answer printed; every error logged (or, with --strict, thrown) instead of shown. The full CLI's
 * action, the hook's own entry (src/cli/hook-main.ts) and the hook server (hook-server.ts) run this.
 */
export async function runHookCommand(
  ctx: CliContext,
  hostArg: string | undefined,
  o: HookFlags,
  frame: HookRunFrame = {},
): Promise<void> {
  const started = frame.startedMs ?? monotonicMs();
  const lib = await import('../../hook/index.js');
  const host = (hostArg ?? '') as (typeof lib.HOOK_HOSTS)[number];
  const home = ctx.io.env['HOME'] ?? '/';
  const stateDir = lib.hookStateDir(home, ctx.io.env);
  const fail = (err: SkilldexError): void => {
    if (o.strict) throw err;
    lib.logHookError(stateDir, host || '-', err);
  };
  let n: ReturnType<typeof numbers>;
  let catalog: string | undefined;
  try {
    catalog = valueOf('--catalog', o.catalog);
    n = numbers(o);
  } catch (err) {
    fail(err as SkilldexError);
    return;
  }
  const deadline = n.deadlineMs ?? lib.DEFAULT_HOOK_DEADLINE_MS;
  if (!lib.HOOK_HOSTS.includes(host)) {
    fail(
      new SkilldexError(
        'INVALID_ARGUMENT',
        `unknown hook host ${JSON.stringify(host.slice(0, 60))}: use ${lib.HOOK_HOSTS.join(', ')}` +
          (hostArg === 'cursor'
            ? " (Cursor's prompt hook cannot add context: use its MCP server)"
            : ''),
        { argument: 'host' },
      ),
    );
    return;
  }
  let text: string;
  try {
    text = await readHookInput(ctx, lib.MAX_HOOK_INPUT_BYTES, deadline - (monotonicMs() - started));
  } catch (err) {
    fail(err as SkilldexError);
    return;
  }
  // A config file that cannot be read is one more error the host must not see.
  let settings: ReturnType<CliContext['settings']>;
  try {
    settings = ctx.settings({
      catalog,
      telemetry: o.telemetry,
      minConfidence: n.minConfidence,
    });
  } catch (err) {
    fail(codedFromForeign(err) ?? new SkilldexError('INTERNAL', String(err)));
    return;
  }
  frame.settled?.(settings);
  const floor = settings.min_confidence.value;
  const result = lib.runHook(text, {
    host,
    catalog: settings.catalog.value,
    telemetry: settings.telemetry.value,
    usage: usageEnabled(o.usage, ctx.io.env),
    ...(n.max === undefined ? {} : { max: n.max }),
    ...(floor === undefined ? {} : { minConfidence: floor }),
    home,
    env: ctx.io.env,
    stateDir,
    remaining: () => deadline - (monotonicMs() - started),
    ...(frame.routers ? { routers: frame.routers } : {}),
    ...(frame.afterAnswer ? { afterAnswer: frame.afterAnswer } : {}),
  });
  if (result.error) {
    fail(result.error);
    return;
  }
  if (result.stdout !== '') ctx.io.stdout(result.stdout);
}

// An option's value: INVALID_ARGUMENT naming the option when it was given without one.
function valueOf(name: string, v: string | true | undefined): string | undefined {
  if (v === true)
    throw new SkilldexError('INVALID_ARGUMENT', `${name} needs a value`, { option: name });
  return v;
}

// The numeric options, checked: INVALID_ARGUMENT naming the option otherwise.
function numbers(o: HookFlags): { max?: number; minConfidence?: number; deadlineMs?: number } {
  const at = <T>(name: string, v: string | true | undefined, parse: (v: string) => T) => {
    const text = valueOf(name, v);
    return text === undefined ? undefined : parse(text);
  };
  const max = at('--max', o.max, parseIntOption('--max', 1, 5));
  const minConfidence = at(
    '--min-confidence',
    o.minConfidence,
    parseProbability('--min-confidence'),
  );
  const deadlineMs = at('--deadline-ms', o.deadlineMs, parseIntOption('--deadline-ms', 50, 60_000));
  return {
    ...(max === undefined ? {} : { max }),
    ...(minConfidence === undefined ? {} : { minConfidence }),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  };
}

// Standard input, at most `maxBytes`, within `ms` milliseconds: HOOK_DEADLINE when the host has not
// closed it by then (the read is abandoned and stdin released, so the process can exit).
async function readHookInput(ctx: CliContext, maxBytes: number, ms: number): Promise<string> {
  const read = ctx.io.readStdin;
  if (read === undefined)
    throw new SkilldexError('HOOK_INPUT_INVALID', 'there is no standard input to read');
  const text = await withinDeadline(read(), ms, () => ctx.io.releaseStdin?.());
  if (text === undefined)
    throw new SkilldexError(
      'HOOK_DEADLINE',
      'the host did not close standard input before the deadline',
    );
  if (Buffer.byteLength(text, 'utf8') > maxBytes)
    throw new SkilldexError('HOOK_INPUT_INVALID', `the hook input is over ${maxBytes} bytes`, {
      limit: maxBytes,
    });
  return text;
}
