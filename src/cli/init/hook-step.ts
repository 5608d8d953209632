/**
 * init's `hook` step: the prompt hook's command line (a silent `sh -c` wrapper around `skilldex
 * hook`, run by name from PATH or through this Node and this checkout's bin) and the step that
 * appends it to the host's hook settings (Claude Code, Codex, Gemini CLI, VS Code), every other
 * byte kept, never twice; other clients get a `skip` with the reason.
 */
import { jsonAppendElement } from './edits.js';
import { deepEqual } from './json-edit.js';
import { jsonWithComments, planEdits, type PlannedStep, type StepContext } from './steps.js';

/** Where the hook command finds skilldex: the `skilldex` on PATH, or this Node and this checkout's bin. */
export interface HookRunner {
  /** True when a `skilldex` command is on PATH (an `npm install -g`): the hook runs it by name. */
  readonly onPath: boolean;
  /** The Node that ran init (used only when skilldex is not on PATH). */
  readonly node: string;
  /** This checkout's bin/skilldex.js (used only when skilldex is not on PATH). */
  readonly bin: string;
}

/** `s` as one POSIX shell word, exactly (quoted unless plain; nothing escaped for display). */
function shWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line a host runs for the prompt hook (issue 35): a `sh -c` wrapper that stays silent
 * (exit 0, nothing printed) when what it needs is missing, so a moved clone, a switched Node (nvm)
 * or an uninstalled skilldex never shows the user a hook error. Both hosts run a command hook's
 * string through a shell: Claude Code runs `command` as a bash command (code.claude.com/docs/en/hooks,
 * "command: The bash command to execute"); Codex runs it with `$SHELL -lc <command>`, else
 * `/bin/sh -lc` (openai/codex codex-rs/hooks/src/engine/command_runner.rs, default_shell_command);
 * the explicit `/bin/sh -c '…'` keeps the script POSIX whatever the user's shell. With skilldex on PATH
 * it runs `skilldex` by name (found again on each prompt); else this Node and this checkout's bin,
 * each checked first. Values are passed as positional arguments, never spliced into the script.
 */
export function hookCommand(runner: HookRunner, client: string, catalog: string): string {
  const script = runner.onPath
    ? `command -v node >/dev/null 2>&1 && command -v skilldex >/dev/null 2>&1 || exit 0; exec skilldex hook ${client} --catalog "$1"`
    : `[ -x "$1" ] && [ -f "$2" ] || exit 0; exec "$1" "$2" hook ${client} --catalog "$3"`;
  const args = runner.onPath ? [catalog] : [runner.node, runner.bin, catalog];
  return ['/bin/sh', '-c', shWord(script), 'skilldex-hook', ...args.map(shWord)].join(' ');
}

/** Seconds the host waits for the hook before going on without it (the hook's own deadline is 1 s). */
export const HOOK_TIMEOUT_SECONDS = 5;

/**
 * The prompt hook (issue 23 §1): one `UserPromptSubmit` command hook appended to the host's hook
 * settings, every other byte kept. Claude Code reads `hooks` from ~/.claude/settings.json
 * (code.claude.com/docs/en/hooks: `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
 * "command", "timeout"}]}]}}`, timeout in seconds); Codex the same shape from $CODEX_HOME/hooks.json
 * (developers.openai.com/codex/hooks; its schema in SchemaStore, codex-hooks.json). Other clients
 * have no hook that adds context to a prompt: the step is skipped with the reason.
 */
export function planHook(
  sc: StepContext,
  file: string | undefined,
  command: string,
  enabled: boolean,
  /** Why the hook is not installed although it was asked for (no catalog to answer from). */
  withheld?: string,
  /** init's earlier hook element, which the step replaces: not counted as already there. */
  replaced?: unknown,
): PlannedStep {
  const skip = (detail: string): PlannedStep => ({
    step: { step: 'hook', action: 'skip', target: file ?? '-', detail },
  });
  if (withheld !== undefined && file !== undefined) return skip(withheld);
  if (!enabled) return skip('--no-hook: no prompt hook installed');
  if (file === undefined)
    return skip(
      sc.client === 'cursor'
        ? 'no Cursor hook adds context to a prompt (beforeSubmitPrompt only allows or blocks it; sessionStart runs before any prompt, cursor.com/docs/agent/hooks): the router skill and the MCP server are the way in'
        : 'this client has no prompt hook: pipe prompts to skilldex hook generic yourself',
    );
  // Gemini CLI: `hooks.BeforeAgent` groups of `{type, command, name, timeout}`, timeout in
  // milliseconds (google-gemini/gemini-cli docs/hooks/reference.md). VS Code: flat entries
  // `{type, command, timeout}` per event, timeout in seconds (microsoft/vscode-docs
  // docs/agent-customization/hooks.md, "Hook command properties").
  const [event, entry]: [string, unknown] =
    sc.client === 'gemini-cli'
      ? [
          'BeforeAgent',
          {
            hooks: [
              { type: 'command', name: 'skilldex', command, timeout: HOOK_TIMEOUT_SECONDS * 1000 },
            ],
          },
        ]
      : sc.client === 'vscode'
        ? ['UserPromptSubmit', { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }]
        : [
            'UserPromptSubmit',
            { hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }] },
          ];
  const step = planEdits(
    sc,
    'hook',
    file,
    `hooks.${event}: skilldex hook suggests skills on every prompt (every other byte kept)`,
    [
      (t) =>
        jsonAppendElement(
          file,
          t,
          ['hooks', event],
          entry,
          (e) =>
            isSkilldexHook(sc.client)(e) && !(replaced !== undefined && deepEqual(e, replaced)),
          jsonWithComments(sc.client),
        ),
    ],
  );
  // Stable Gemini CLI releases where hooks were still experimental run them only with
  // "hooksConfig": {"enabled": true} (google-gemini/gemini-cli docs/hooks/index.md, "Availability"):
  // init does not switch that on for you, it says so.
  return sc.client === 'gemini-cli'
    ? {
        ...step,
        notes: [
          `If your Gemini CLI runs no hooks yet (hooks were experimental in older stable releases), add "hooksConfig": {"enabled": true} to ${file}.`,
        ],
      }
    : step;
}

// Whether a hook element already runs skilldex's hook for `client` (one init installed earlier,
// with another timeout or an older command form): a second init leaves it, never adds a twin.
function isSkilldexHook(client: string): (element: unknown) => boolean {
  const leaves = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : v !== null && typeof v === 'object'
        ? Object.values(v).flatMap(leaves)
        : [];
  return (e) => leaves(e).some((s) => s.includes('skilldex') && s.includes(` hook ${client} `));
}
