/**
 * What `skilldex init` reports and how it shows it: the init report (the plan, whether it was
 * applied, the notes and warnings for the user), the `init --undo` report, the flags both read, and
 * their human renderings. The command itself (init.ts) builds the reports; this file only shapes
 * and prints them.
 */
import type { IndexReport } from '../../internal.js';
import { escapeInvisible } from '../../text/index.js';
import { renderIndex } from '../render/index-report.js';
import type { Client } from './clients.js';
import type { InitStep } from './steps.js';
import type { UndoStep } from './undo.js';

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

export interface InitFlags {
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
