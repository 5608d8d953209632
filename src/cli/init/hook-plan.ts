/**
 * init's planning around the prompt hook: whether skilldex is on PATH (so the hook runs it rather
 * than this checkout), the warnings about a hook that would find no catalog or run this checkout,
 * the hook step that is skipped with no skill to index and withheld at apply time if none got
 * indexed, and VS Code's warning when it would also run Claude Code's skilldex hook.
 */
import { accessSync, constants as fsConstants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Client } from './clients.js';
import { exists } from './files.js';
import { deepEqual, parseJsonText, valueAt } from './json-edit.js';
import { readRecords, type JsonRecord, type UndoRecord } from './record.js';
import { planUndo } from './undo.js';
import type { InitFlags } from './report.js';
import { planHook, type HookRunner } from './hook-step.js';
import { jsonWithComments, type InitStep, type PlannedStep, type StepContext } from './steps.js';

// Whether an executable `name` is in one of the PATH folders.
export function onPath(name: string, pathVar: string | undefined): boolean {
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

/** The prompt hook's warnings: none goes in with no catalog, or it would run this checkout. */
export function hookPlanWarnings(
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
      `skilldex is not on your PATH, so the prompt hook runs ${runner.bin} with ${process.execPath}: if this folder moves or that Node goes (nvm), the hook does nothing (silently; skilldex doctor names it) until you run skilldex init again, which puts in a new one. ` +
        'Install skilldex (npm install -g . in this folder), then run skilldex init --yes again: it replaces the hook with one that runs the installed skilldex.',
    );
  return warnings;
}

/** The prompt hook step: skipped with no skill to index, withheld on apply if none got indexed. */
export function planHookAfterIndex(
  sc: StepContext,
  o: InitFlags,
  hooksFile: string | undefined,
  command: string,
  noCatalog: boolean,
  index: PlannedStep,
  warnings: string[],
  /** init's own earlier hook, running another command: taken out, the new one put in. */
  stale?: JsonRecord,
): PlannedStep {
  const hook = planHook(
    sc,
    hooksFile,
    command,
    o.hook !== false,
    noCatalog && o.hook !== false
      ? 'no skill indexed yet: a hook would find no catalog'
      : undefined,
    stale?.value,
  );
  return hookAfterIndex(stale ? replacing(hook, stale) : hook, index, warnings);
}

/**
 * init's own hook record for `client` whose element is still in the hooks file as init wrote it
 * but runs another command than `command` (an earlier init's Node, checkout or catalog): the hook
 * step replaces it, as `init --undo` then `init` would (issue 35: moving the checkout or switching
 * Node made the hook a silent no-op, and a second init kept it, `unchanged`). An element the user
 * edited since is not init's to replace: staleHookWarnings names it instead.
 */
export function staleInitHook(
  client: Client,
  o: InitFlags,
  hooksFile: string | undefined,
  command: string,
  recordFile: string,
): JsonRecord | undefined {
  if (o.hook === false || hooksFile === undefined || !exists(hooksFile)) return undefined;
  let records: UndoRecord[];
  let doc: unknown;
  try {
    records = readRecords(recordFile);
    doc = parseJsonText(readFileSync(hooksFile, 'utf8'), jsonWithComments(client));
  } catch {
    return undefined; // The hook step and the apply name an unreadable file.
  }
  return records.find(
    (r): r is JsonRecord =>
      r.kind === 'json' &&
      r.client === client &&
      r.step === 'hook' &&
      r.file === hooksFile &&
      r.element &&
      !JSON.stringify(r.value).includes(JSON.stringify(command)) &&
      JSON.stringify(r.value).includes(` hook ${client} `) &&
      ((valueAt(doc, r.path) as unknown[] | undefined) ?? []).some((e) => deepEqual(e, r.value)),
  );
}

// The hook step that first takes init's earlier hook out (as --undo does, every other byte kept),
// then adds the new one over the file as it is then; the old record is dropped once it is out.
function replacing(hook: PlannedStep, stale: JsonRecord): PlannedStep {
  if (hook.apply === undefined) return hook;
  let out = false;
  return {
    ...hook,
    step: {
      ...hook.step,
      action: 'replace',
      detail: `${hook.step.detail}; replaces the skilldex hook an earlier init wrote, which ran another command`,
    },
    apply: () => {
      const undo = planUndo([stale], undefined, false);
      if (undo.steps.some((s) => s.action === 'remove')) {
        undo.apply();
        out = true;
      }
      return hook.apply!();
    },
    supersedes: () => (out ? [stale] : []),
  };
}

/**
 * The warning when the host's hook settings already hold a skilldex hook for `client` that runs
 * another command than `command` (an earlier init's, with another Node, checkout or catalog): the
 * hook step leaves it (`unchanged`, also with --force), so a hook pinned to a Node that went away
 * would stay a silent no-op while init said all was well (issue 35). The way to a fresh one is
 * undo, then init.
 */
export function staleHookWarnings(
  client: Client,
  o: InitFlags,
  hooksFile: string | undefined,
  command: string,
): string[] {
  if (o.hook === false || hooksFile === undefined || !exists(hooksFile)) return [];
  let groups: unknown;
  try {
    const doc = parseJsonText(readFileSync(hooksFile, 'utf8'), jsonWithComments(client));
    groups = valueAt(doc, ['hooks', client === 'gemini-cli' ? 'BeforeAgent' : 'UserPromptSubmit']);
  } catch {
    return []; // The hook step names a file it cannot read.
  }
  if (!Array.isArray(groups)) return [];
  const commands = groups.flatMap((g: unknown) => {
    const inner = (g as { hooks?: unknown } | null)?.hooks;
    return (Array.isArray(inner) ? inner : [g])
      .map((h: unknown) => (h as { command?: unknown } | null)?.command)
      .filter((c): c is string => typeof c === 'string');
  });
  const mine = commands.filter((c) => c.includes('skilldex') && c.includes(` hook ${client} `));
  if (mine.length === 0 || mine.includes(command)) return [];
  return [
    `${hooksFile} already has a skilldex prompt hook for ${client} that runs another command than this init would (${mine[0]}); init leaves it as it is, also with --force. If the Node, the checkout or the catalog it names changed, put in the new one: skilldex init --undo --client ${client} --yes, then skilldex init --client ${client} --yes (skilldex doctor checks the hook runs).`,
  ];
}

/** VS Code's warning when ~/.claude/settings.json (whose hooks it runs too) holds skilldex's. */
export function vscodeDoubleHookWarnings(client: Client, o: InitFlags, home: string): string[] {
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
