/**
 * The file steps of `skilldex init` (issues 12, 25, 27, 23; docs/init.md): the user config, the
 * router skill, the client's MCP configuration and its prompt hook. Each is planned first — what it would do to
 * which file, computed from the file as it is — and applied later, returning the records of what
 * it changed for `init --undo` (record.ts). A step that edits a file reads it once, makes its
 * edits in memory (edits.ts: every other byte kept, the result parsed again) and writes it once,
 * atomically, with the file's own permission bits. The hook step (planHook) is one more
 * `planEdits` call.
 */
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { readConfigFile, renderConfig, type ConfigFile } from '../config.js';
import { shellWord } from '../render/shell.js';
import type { Client } from './clients.js';
import {
  jsonAppendElement,
  jsonSetMember,
  tomlAddEntries,
  type Edit,
  type EditAction,
} from './edits.js';
import { readClientFile, textDigest, writeClientFile, type ReadFile } from './files.js';
import type { RecordStep, UndoRecord } from './record.js';

/** One step of the plan, as the report shows it. */
export interface InitStep {
  readonly step: 'config' | 'library' | 'move' | 'index' | 'router-skill' | 'mcp' | 'hook';
  /**
   * What happens: `create`, `merge` (into a file of the user's, every other byte kept), `replace`
   * (only with --force), `unchanged`, `print` (for the user to run or paste), `run`, `skip`.
   */
  readonly action: EditAction | 'print' | 'run' | 'skip';
  /** The file or folder the step writes (or the command it prints). */
  readonly target: string;
  readonly detail: string;
}

/** A planned step and, when it changes something, how to apply it. */
export interface PlannedStep {
  readonly step: InitStep;
  /** Notes for the user (commands to run, snippets to paste). */
  readonly notes?: readonly string[];
  /** Makes the change; returns the records of what it added, for `init --undo`. */
  readonly apply?: () => readonly UndoRecord[];
  /** The step as it turned out once applied (default: as planned). */
  readonly result?: () => InitStep;
}

/** What every step needs to know about the run. */
export interface StepContext {
  readonly client: Client;
  /** --force: replace a differing file or entry of the user's (keeping a backup). */
  readonly force: boolean;
  /** Folder for copies of files replaced with --force. */
  readonly backups: string;
}

/** The first line of a user config init creates. */
export const CONFIG_HEADER =
  '# skilldex configuration, written by skilldex init (see skilldex config --help;\n# skilldex init --undo removes what init added).\n';

type AnyEdit = Edit<Omit<UndoRecord, 'client' | 'step' | 'file' | 'shared'>>;

/**
 * A step of edits to one file: `edits` run in order over its text (undefined: no file yet), the
 * result written once. The action is the strongest of the edits'.
 */
export function planEdits(
  sc: StepContext,
  step: RecordStep & InitStep['step'],
  file: string,
  detail: string,
  edits: readonly ((text: string | undefined) => AnyEdit)[],
  shared = false,
): PlannedStep {
  const read = readClientFile(file);
  const plan = runEdits(read?.text, edits);
  const action: EditAction =
    plan.changed.length === 0
      ? 'unchanged'
      : read === undefined
        ? 'create'
        : plan.changed.some((e) => e.action === 'replace')
          ? 'replace'
          : 'merge';
  return {
    step: { step, action, target: file, detail },
    ...(plan.changed.length > 0
      ? {
          apply: () => {
            // The file may have changed since the plan (the user saved it while init indexed, or
            // an earlier step of this run wrote it): read it again right before the atomic write
            // and, when its bytes differ, make the edits again over what is there now, so nothing
            // written in between is lost (issue 36 L12). A file that no longer parses is refused.
            const now = readClientFile(file);
            const fresh = now?.text === read?.text ? plan : runEdits(now?.text, edits);
            if (fresh.changed.length === 0) return [];
            writeClientFile(file, fresh.text!, now?.mode ?? read?.mode ?? 0o644);
            return fresh.changed.map(
              (e) =>
                ({
                  ...e.record!,
                  client: sc.client,
                  step,
                  file,
                  ...(shared ? { shared } : {}),
                }) as UndoRecord,
            );
          },
        }
      : {}),
  };
}

// Runs `edits` in order over `text`: the final text and the edits that changed something.
function runEdits(
  text: string | undefined,
  edits: readonly ((text: string | undefined) => AnyEdit)[],
): { text: string | undefined; changed: AnyEdit[] } {
  const done: AnyEdit[] = [];
  for (const edit of edits) {
    const e = edit(text);
    done.push(e);
    text = e.text;
  }
  return { text, changed: done.filter((e) => e.record !== undefined) };
}

/**
 * A step writing a whole file init owns (the router skill): `create` when absent, `unchanged` when
 * equal, else FILE_EXISTS, or with --force `replace` (a copy of the old file kept for undo).
 */
export function planWholeFile(
  sc: StepContext,
  step: RecordStep & InitStep['step'],
  file: string,
  text: string,
  detail: string,
  shared = false,
): PlannedStep {
  const read = readClientFile(file);
  if (read !== undefined && read.text === text)
    return { step: { step, action: 'unchanged', target: file, detail } };
  if (read !== undefined && !sc.force)
    throw new SkilldexError(
      'FILE_EXISTS',
      `${file} exists and differs from what init would write`,
      {
        file,
      },
    );
  return {
    step: { step, action: read === undefined ? 'create' : 'replace', target: file, detail },
    apply: () => {
      // Changed since the plan (issue 36 L12): refused rather than overwritten.
      const now = readClientFile(file);
      if (now?.text !== read?.text)
        throw new SkilldexError(
          'FILE_EXISTS',
          `${file} changed while init ran (after it planned this step); nothing was written to it: run init again`,
          { file },
        );
      const backup = read === undefined ? null : keepBackup(sc, file, read);
      writeClientFile(file, text, read?.mode ?? 0o644);
      return [
        {
          kind: 'file',
          client: sc.client,
          step,
          file,
          sha256: textDigest(text),
          backup,
          ...(shared ? { shared } : {}),
        },
      ];
    },
  };
}

/**
 * The user config step: `catalog` and `library.scopes` set in the user's config file (never a
 * project's), added as lines when missing and every other line kept; a file that already says so
 * is `unchanged`; one that says otherwise is FILE_EXISTS, or replaced with --force.
 */
export function planConfig(
  sc: StepContext,
  file: string,
  current: ConfigFile | undefined,
  catalog: string,
  library: readonly string[],
): PlannedStep {
  const detail = `catalog = ${catalog}, library.scopes = [${library.join(', ')}]`;
  const catalogSet = current?.catalog !== undefined;
  const scopes = current?.library?.scopes;
  const differs =
    (catalogSet && current.catalog !== catalog) ||
    (scopes !== undefined && JSON.stringify(scopes) !== JSON.stringify(library));
  if (differs) {
    if (!sc.force)
      throw new SkilldexError(
        'FILE_EXISTS',
        `${file} sets ${catalogSet && current.catalog !== catalog ? `catalog = ${current.catalog}` : `library.scopes = ${JSON.stringify(scopes)}`}, not what init would write (${detail})`,
        { file },
      );
    const wanted: ConfigFile = {
      ...(current ?? {}),
      catalog,
      library: { ...(current?.library ?? {}), scopes: [...library] },
    };
    return planWholeFile(sc, 'config', file, renderConfig(wanted), detail, true);
  }
  const json = file.endsWith('.json');
  const edits: ((text: string | undefined) => AnyEdit)[] = [];
  if (!catalogSet)
    edits.push((t) =>
      json
        ? jsonSetMember(file, t, ['catalog'], catalog, false)
        : tomlAddEntries(file, t, [], { catalog }, CONFIG_HEADER),
    );
  if (scopes === undefined)
    edits.push((t) =>
      json
        ? jsonSetMember(file, t, ['library', 'scopes'], [...library], false)
        : tomlAddEntries(file, t, ['library'], { scopes: [...library] }, CONFIG_HEADER),
    );
  return planEdits(sc, 'config', file, detail, edits, true);
}

/** The stdio server entry init registers: this Node, this checkout's bin, the catalog. */
export interface ServerEntry {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The MCP step: merged into Cursor's mcp.json (`mcpServers.skilldex`, every other byte kept) or
 * Codex's config.toml (`[mcp_servers.skilldex]` appended); printed for Claude Code (`claude mcp
 * add`) and generic clients.
 */
export function planMcp(
  sc: StepContext,
  file: string | undefined,
  server: ServerEntry,
): PlannedStep {
  const snippet = JSON.stringify({ mcpServers: { skilldex: server } }, null, 2);
  if (sc.client === 'vscode') {
    // `code --add-mcp <json>` adds a server to the user profile (code.visualstudio.com/docs/
    // agent-customization/mcp-servers, "command line").
    const json = JSON.stringify({ name: 'skilldex', command: server.command, args: server.args });
    const cmd = `code --add-mcp ${shellWord(json)}`;
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: cmd,
        detail: 'register the MCP server with VS Code',
      },
      notes: [`Register the MCP server with VS Code (user profile):\n  ${cmd}`],
    };
  }
  if (sc.client === 'claude-code') {
    const cmd = `claude mcp add --scope user skilldex -- ${[server.command, ...server.args].map(shellWord).join(' ')}`;
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
  if (file === undefined)
    return {
      step: {
        step: 'mcp',
        action: 'print',
        target: 'mcpServers',
        detail: 'add this server to your client',
      },
      notes: [`Add this server to your MCP client's configuration:\n${snippet}`],
    };
  if (sc.client === 'cursor' || sc.client === 'gemini-cli')
    return planEdits(sc, 'mcp', file, 'mcpServers.skilldex (every other byte of the file kept)', [
      (t) => jsonSetMember(file, t, ['mcpServers', 'skilldex'], server, sc.force),
    ]);
  return planEdits(
    sc,
    'mcp',
    file,
    '[mcp_servers.skilldex] appended; the rest of the file is kept byte for byte',
    [
      (t) =>
        tomlAddEntries(file, t, ['mcp_servers', 'skilldex'], {
          command: server.command,
          args: server.args,
        }),
    ],
  );
}

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
): PlannedStep {
  const skip = (detail: string): PlannedStep => ({
    step: { step: 'hook', action: 'skip', target: file ?? '-', detail },
  });
  if (withheld !== undefined && file !== undefined) return skip(withheld);
  if (!enabled) return skip('--no-hook: no prompt hook installed');
  if (file === undefined)
    return skip(
      sc.client === 'cursor'
        ? "Cursor's beforeSubmitPrompt hook cannot add context to a prompt: the MCP server is the way in"
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
    [(t) => jsonAppendElement(file, t, ['hooks', event], entry, isSkilldexHook(sc.client))],
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

// Keeps a copy of a file init is about to replace, named by its digest; returns its path.
function keepBackup(sc: StepContext, file: string, read: ReadFile): string {
  const backup = path.join(
    sc.backups,
    `${path.basename(file)}.${textDigest(read.text).slice(0, 16)}.bak`,
  );
  writeClientFile(backup, read.text, 0o600);
  return backup;
}

/** Checks a config file before init adds to it: its parsed settings, or undefined when absent. */
export function currentConfig(file: string, home: string): ConfigFile | undefined {
  return readClientFile(file) === undefined ? undefined : readConfigFile(file, home);
}
