/**
 * Reading a host's transcripts from one folder (issue 23): every `*.jsonl` (Claude Code) or
 * `rollout-*.jsonl` (Codex) below it, in sorted order, each parsed by transcripts.ts. Confined to
 * the folder: a link is followed only when its real path stays inside it (fsx walkFiles), each file
 * is opened by its real path without following a link planted since the walk, and every bound is a
 * counted skip, never a failure: files over MAX_TRANSCRIPT_BYTES, more than MAX_TRANSCRIPT_FILES
 * files, more than MAX_ACTIVATIONS activations. Files last written before `since` are not read.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError, type Problem } from '../errors.js';
import { readTextCapped, realpathOrUndefined, walkFiles } from '../fsx/index.js';
import {
  parseClaudeCodeTranscript,
  parseCodexRollout,
  type Activation,
  type TranscriptHost,
} from './transcripts.js';

/** Largest transcript read, in bytes (a longer session is skipped and reported). */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;
/** Most transcript files read in one run (sorted by path; the rest are reported). */
export const MAX_TRANSCRIPT_FILES = 20_000;
/** Most activations taken in one run. */
export const MAX_ACTIVATIONS = 100_000;

/** The default transcript folder of each host under `home`. */
export function defaultTranscriptDir(host: TranscriptHost, home: string): string {
  return host === 'claude-code'
    ? path.join(home, '.claude', 'projects')
    : path.join(home, '.codex', 'sessions');
}

/** What reading a folder of transcripts found. */
export interface TranscriptRead {
  readonly host: TranscriptHost;
  readonly dir: string;
  readonly files_read: number;
  /** Files not read because they were last written before `since`. */
  readonly files_older: number;
  readonly activations: readonly Activation[];
  readonly without_prompt: number;
  readonly malformed_lines: number;
  /** Transcripts longer than MAX_TRANSCRIPT_LINES (their first lines were read). */
  readonly truncated_files: number;
  /** Files and links skipped (too large, unreadable, a link out of the folder), with their code. */
  readonly skipped: readonly Problem[];
  /** True when a run bound (files or activations) was reached. */
  readonly capped: boolean;
}

function isTranscript(host: TranscriptHost): (name: string) => boolean {
  return host === 'claude-code'
    ? (n) => n.endsWith('.jsonl')
    : (n) => n.startsWith('rollout-') && n.endsWith('.jsonl');
}

/**
 * Reads the transcripts of `host` below `dir`. FILE_NOT_FOUND when `dir` is missing, NOT_A_FILE
 * when it is not a folder.
 */
export function readTranscripts(
  host: TranscriptHost,
  dir: string,
  options: { since?: Date } = {},
): TranscriptRead {
  const real = realpathOrUndefined(dir);
  if (real === undefined)
    throw new SkilldexError('FILE_NOT_FOUND', `no transcript folder at ${dir}`, { dir });
  if (!statSync(real).isDirectory())
    throw new SkilldexError('NOT_A_FILE', `${dir} is not a folder`, { dir });
  const walk = walkFiles(dir, isTranscript(host), { allowedRoots: [real] });
  const skipped: Problem[] = [...walk.problems];
  const activations: Activation[] = [];
  let filesRead = 0;
  let older = 0;
  let withoutPrompt = 0;
  let malformed = 0;
  let truncated = 0;
  let capped = walk.files.length > MAX_TRANSCRIPT_FILES;
  const parse = host === 'claude-code' ? parseClaudeCodeTranscript : parseCodexRollout;
  for (const f of walk.files.slice(0, MAX_TRANSCRIPT_FILES)) {
    if (options.since && f.mtimeMs !== undefined && f.mtimeMs < options.since.getTime()) {
      older++;
      continue;
    }
    const r = readTextCapped(f.realPath, {
      maxBytes: MAX_TRANSCRIPT_BYTES,
      label: f.path,
      noFollow: true,
    });
    if (!r.ok) {
      skipped.push(r.problem);
      continue;
    }
    filesRead++;
    const scan = parse(r.text, {
      fallbackSession: path.basename(f.path, '.jsonl'),
      ...(options.since ? { since: options.since } : {}),
    });
    withoutPrompt += scan.without_prompt;
    malformed += scan.malformed_lines;
    if (scan.truncated) truncated++;
    for (const a of scan.activations) {
      if (activations.length >= MAX_ACTIVATIONS) {
        capped = true;
        break;
      }
      activations.push(a);
    }
    if (activations.length >= MAX_ACTIVATIONS) break;
  }
  return {
    host,
    dir,
    files_read: filesRead,
    files_older: older,
    activations,
    without_prompt: withoutPrompt,
    malformed_lines: malformed,
    truncated_files: truncated,
    skipped,
    capped,
  };
}
