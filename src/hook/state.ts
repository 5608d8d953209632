/**
 * The prompt hook's memory of one host session (issue 23 §1): which skills it suggested since the
 * session's topic began, so a skill is not repeated on every turn about the same thing. One small
 * JSON file per session under `$XDG_STATE_HOME/skilldex/hook/sessions/` (default
 * `~/.local/state/…`), named by a hash of host and session id (a session id never becomes a path).
 * Bounded: at most MAX_SESSION_IDS ids per list, MAX_SESSION_FILES files (the oldest pruned), and
 * files untouched for SESSION_TTL_MS removed. Reads are capped and a broken file is treated as
 * absent; writes are atomic (fsx) and confined to the sessions folder.
 */
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { readTextCapped, writeInside } from '../fsx/index.js';
import { fnv1a } from '../text/index.js';

/** Most skill ids kept per list of a session's state. */
export const MAX_SESSION_IDS = 50;
/** Most session files kept; the least recently written beyond it are removed. */
export const MAX_SESSION_FILES = 256;
/** A session file not written for this long is removed (7 days). */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const MAX_STATE_BYTES = 64 * 1024;

/** One session's state. */
export interface SessionState {
  /** The skills that cleared the floor for the latest prompt that had any: the current topic. */
  readonly topic: readonly string[];
  /** The skills suggested since this topic began. */
  readonly suggested: readonly string[];
}

export { hookStateDir } from './server-socket.js';

// 128 bits of four seeded FNV-1a hashes: a name no session id can steer out of the folder, without
// loading node:crypto (~3 ms of the hook's start). Two sessions sharing a file would only share
// which skills were already suggested.
function fileName(host: string, session: string): string {
  const key = `${host}\0${session}`;
  return (
    [0, 1, 2, 3].map((seed) => fnv1a(`${seed}\0${key}`).toString(16).padStart(8, '0')).join('') +
    '.json'
  );
}

function ids(v: unknown): string[] {
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string').slice(0, MAX_SESSION_IDS)
    : [];
}

/** The state of a session, or undefined when there is none (or it cannot be read). */
export function readSessionState(
  dir: string,
  host: string,
  session: string,
): SessionState | undefined {
  const file = path.join(dir, 'sessions', fileName(host, session));
  const r = readTextCapped(file, { maxBytes: MAX_STATE_BYTES });
  if (!r.ok) return undefined;
  try {
    const o = JSON.parse(r.text) as Record<string, unknown>;
    return { topic: ids(o['topic']), suggested: ids(o['suggested']) };
  } catch {
    return undefined;
  }
}

/**
 * Writes a session's state (atomically); when that made a new session file, prunes old and surplus
 * ones. Only then can the folder hold more files than before, and a prune stats every file (about
 * 1 ms of a prompt with MAX_SESSION_FILES of them, bench/results/hook.md).
 */
export function writeSessionState(
  dir: string,
  host: string,
  session: string,
  state: SessionState,
  now = Date.now(),
): void {
  const sessions = path.join(dir, 'sessions');
  const name = fileName(host, session);
  const data = {
    topic: state.topic.slice(0, MAX_SESSION_IDS),
    suggested: state.suggested.slice(-MAX_SESSION_IDS),
  };
  const existed = existsSync(path.join(sessions, name));
  writeInside(sessions, name, JSON.stringify(data) + '\n', undefined, 0o600);
  if (!existed) pruneSessions(sessions, now);
}

/** Removes session files older than SESSION_TTL_MS and the oldest beyond MAX_SESSION_FILES. */
export function pruneSessions(sessions: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(sessions).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
  } catch {
    return;
  }
  if (names.length <= MAX_SESSION_FILES && names.length % 16 !== 0) return;
  const aged = names
    .map((n) => {
      try {
        return { n, t: statSync(path.join(sessions, n)).mtimeMs };
      } catch {
        return { n, t: 0 };
      }
    })
    .sort((a, b) => b.t - a.t);
  aged.forEach((f, i) => {
    if (i >= MAX_SESSION_FILES || now - f.t > SESSION_TTL_MS) {
      try {
        unlinkSync(path.join(sessions, f.n));
      } catch {
        // Gone already, or not ours to remove: the next prune tries again.
      }
    }
  });
}

/**
 * The next state and the skills to hold back, given the skills clearing the floor now (`above`,
 * best first). The prompt stays on the session's topic when its best skill was in the topic; then
 * skills already suggested are held back. A prompt where nothing clears the floor keeps the state.
 */
export function sessionStep(
  state: SessionState | undefined,
  above: readonly string[],
): { hold: ReadonlySet<string>; sameTopic: boolean } {
  const sameTopic = state !== undefined && above.length > 0 && state.topic.includes(above[0]!);
  return { hold: new Set(sameTopic ? state.suggested : []), sameTopic };
}

/** The state after suggesting `shown` for a prompt whose floor-clearing skills were `above`. */
export function nextSessionState(
  state: SessionState | undefined,
  above: readonly string[],
  shown: readonly string[],
  sameTopic: boolean,
): SessionState | undefined {
  if (above.length === 0) return state;
  const before = sameTopic && state ? state.suggested.filter((id) => !shown.includes(id)) : [];
  return {
    topic: above.slice(0, MAX_SESSION_IDS),
    suggested: [...before, ...shown].slice(-MAX_SESSION_IDS),
  };
}
