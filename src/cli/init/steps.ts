/**
 * The file steps of `skilldex init` (issues 12, 25, 27, 23; docs/init.md): the user config, the
 * router skill, the client's MCP configuration and its prompt hook. Each is planned first — what it would do to
 * which file, computed from the file as it is — and applied later, returning the records of what
 * it changed for `init --undo` (record.ts). A step that edits a file reads it once, makes its
 * edits in memory (edits.ts: every other byte kept, the result parsed again) and writes it once,
 * atomically, with the file's own permission bits. This file holds the step shapes and the two
 * builders every step uses (planEdits, planWholeFile); the steps themselves are in config-step.ts,
 * mcp-step.ts and hook-step.ts (the hook step is one more `planEdits` call).
 */
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import type { Client } from './clients.js';
import type { Edit, EditAction } from './edits.js';
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

/**
 * Whether `client` reads its JSON settings as JSON with comments, so init reads and edits them
 * keeping every comment instead of refusing the file: Gemini CLI, whose settings loader strips
 * comments before JSON.parse (google-gemini/gemini-cli packages/cli/src/config/settings.ts,
 * strip-json-comments). Other clients' files stay strict JSON.
 */
export function jsonWithComments(client: string): boolean {
  return client === 'gemini-cli';
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
  /** Once applied: the earlier records this step's change took out (dropped from the record file). */
  readonly supersedes?: () => readonly UndoRecord[];
}

/** What every step needs to know about the run. */
export interface StepContext {
  readonly client: Client;
  /** --force: replace a differing file or entry of the user's (keeping a backup). */
  readonly force: boolean;
  /** Folder for copies of files replaced with --force. */
  readonly backups: string;
}

/** An edit of one file, with what it records for undo. */
export type AnyEdit = Edit<Omit<UndoRecord, 'client' | 'step' | 'file' | 'shared'>>;

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

// Keeps a copy of a file init is about to replace, named by its digest; returns its path.
function keepBackup(sc: StepContext, file: string, read: ReadFile): string {
  const backup = path.join(
    sc.backups,
    `${path.basename(file)}.${textDigest(read.text).slice(0, 16)}.bak`,
  );
  writeClientFile(backup, read.text, 0o600);
  return backup;
}
