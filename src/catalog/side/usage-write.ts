/**
 * Usage examples, the write side (docs/ranking.md §9): adding examples with their source, client
 * and session under the caps below, and forgetting them (one example, one skill's, or all). The
 * caps keep each source in its own budget, so no number of fetches can evict an example the
 * operator imported or the host recorded, and one client can hold only a few of a skill's fetch
 * examples. Writes are the operator's (`learn`, `forget`) or the router's (a fetch with a context);
 * the side tables are migrated (side-migrate.ts) before the first write.
 */
import { SkilldexError } from '../../errors.js';
import { sha256Hex } from '../../fsx/index.js';
import { openSideStore, type Db } from '../db.js';
import { dialectOf } from '../store/db-type.js';
import { exampleHash, migrateSideStore } from './side-migrate.js';
import { exampleGroupOf, usageRows, type ExamplePolarity, type ExampleSource } from './usage.js';

/** Most examples of one source (`import`, `host`) kept per skill; the oldest go first. */
export const MAX_EXAMPLES_PER_SKILL = 200;
/** Most fetch rows kept per skill (one per client, session and example), oldest first. */
export const MAX_FETCH_EXAMPLES_PER_SKILL = 100;
/** Most fetch rows one client may hold for one skill: its own oldest go first. */
export const MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL = 10;
/** Most fetch rows one client may hold over all skills: its own oldest go first. */
export const MAX_FETCH_EXAMPLES_PER_CLIENT = 1_000;
/**
 * Most fetch rows kept in all (about 4 MB of file), oldest first. Checked when a fetch row's id is a
 * multiple of GLOBAL_CAP_EVERY (counting them walks the whole index: 3.8 ms at 20,000 rows, where
 * every other cap costs under 0.2 ms), so the table may pass it by that many rows in between.
 */
export const MAX_FETCH_EXAMPLES = 20_000;
/** How often (in row ids) the MAX_FETCH_EXAMPLES cap is applied. */
export const GLOBAL_CAP_EVERY = 64;
/** Longest example query kept, in characters (longer text is cut). */
export const MAX_EXAMPLE_CHARS = 1_000;
/**
 * Most author examples (a skill's own trigger evaluations, read by `index`) kept per skill and
 * polarity: a skill's files cannot bloat the catalog (issue 34 item 1). The first in file order win.
 */
export const MAX_AUTHOR_EXAMPLES_PER_SKILL = 64;
/** Longest author example kept, in characters (longer text is cut). */
export const MAX_AUTHOR_EXAMPLE_CHARS = 300;
/** Longest client or session label kept, in characters. */
export const MAX_ORIGIN_CHARS = 200;

/**
 * Default retention of usage examples, in days (issue 36 P1, docs/integration.md §7): an example
 * older than this is not stored, and every write drops the stored ones older than this. The user's
 * own config may change it (`usage_retention_days`); a project config may not.
 */
export const DEFAULT_USAGE_RETENTION_DAYS = 180;
/** Largest retention accepted, in days (100 years). */
export const MAX_USAGE_RETENTION_DAYS = 36_500;

/** The client recorded for a fetch that names none. */
export const UNKNOWN_CLIENT = 'unknown';

/** Who recorded examples or events: a client and a session within it (both labels, never trusted). */
export interface UsageOrigin {
  /** `mcp:<clientInfo.name>`, `http:<token fingerprint>`, `cli`, `library`, `claude-code`… */
  readonly client?: string;
  /** An MCP connection, one CLI process, one host transcript session… */
  readonly session?: string;
}

/** An example to store. */
export interface NewUsageExample {
  readonly skill_id: string;
  readonly query: string;
  /** Its own session (a host example's transcript session), instead of the write's. */
  readonly session?: string;
  /** When it happened (a host example's transcript time), instead of the write's `at`. */
  readonly at?: string;
  /**
   * What makes it the same example on a second import (a host activation's message id): a row
   * with a key already stored is not added again. Imports and fetches get theirs from the query.
   */
  readonly key?: string;
  /** Should-trigger (default) or should-not. */
  readonly polarity?: ExamplePolarity;
}

/** Opens (creating and migrating if needed) the usage table of a telemetry file for writing. */
export function openUsageForWrite(file: string): Db {
  let db: Db | undefined;
  try {
    db = openSideStore(file);
    if (dialectOf(db) === 'sqlite') {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
    }
    migrateSideStore(db);
    return db;
  } catch (err) {
    db?.close();
    throw new SkilldexError(
      'WRITE_FAILED',
      `cannot write usage examples to ${file}: ${(err as Error).message}`,
      { file },
      { cause: err },
    );
  }
}

/** Cuts an origin label to MAX_ORIGIN_CHARS. */
function label(v: string | undefined): string | null {
  if (v === undefined || v === '') return null;
  return v.slice(0, MAX_ORIGIN_CHARS);
}

// The idempotency key of a row: the caller's, else one per client, session and example for a
// fetch (a session repeating a fetch counts once; two clients that happen to use one session label
// keep a row each), one per example for an import, none for host rows without a key of their own.
// The client and session enter as a hash, so long labels never cut the example's hash off the key.
// (Rows written before this keyed a fetch by session alone: a session of then repeating its fetch
// now adds one row, which changes no weight, since weights count distinct sessions.)
function keyOf(
  source: ExampleSource,
  e: NewUsageExample,
  hash: string,
  origin: { client: string | null; session: string | null },
): string | null {
  if (e.key !== undefined) return `${source}:${e.key}`.slice(0, 2 * MAX_ORIGIN_CHARS);
  if (e.polarity === 'negative' || source === 'author')
    return `${source}:${e.polarity === 'negative' ? 'neg' : 'pos'}:${hash}`;
  if (source === 'fetch') {
    const who = sha256Hex(`${origin.client ?? ''}\u0000${origin.session ?? ''}`).slice(0, 32);
    return `fetch:${who}:${hash}`;
  }
  if (source === 'import') return `import:${hash}`;
  return null;
}

/**
 * Adds examples of one source (each cut to MAX_EXAMPLE_CHARS; blank ones skipped; one already
 * stored under the same key skipped; one whose own time is older than `retentionDays` before `at`
 * skipped), then applies the caps to every skill and client touched, and drops every stored
 * example older than the retention. A fetch without a client is recorded as UNKNOWN_CLIENT.
 * Returns how many rows were added.
 */
export function addUsageExamples(
  db: Db,
  examples: readonly NewUsageExample[],
  source: ExampleSource,
  at: string,
  origin: UsageOrigin = {},
  retentionDays: number | null = DEFAULT_USAGE_RETENTION_DAYS,
): number {
  // null: no retention pass (author examples: `index` does not know the user's retention, and an
  // author example is not a prompt; issue 34).
  const cutoff = retentionDays === null ? '' : retentionCutoff(at, retentionDays);
  // RETURNING answers the new row's id (none when the key was already stored), on both engines.
  const ins = db.prepare(
    `INSERT INTO usage_examples (skill_id, query, source, at, client, session, key, polarity) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING id`,
  );
  const client = label(origin.client) ?? (source === 'fetch' ? UNKNOWN_CLIENT : null);
  return db.transaction(() => {
    const touched = new Set<string>();
    let n = 0;
    let globalDue = false;
    for (const e of examples) {
      const q = e.query
        .trim()
        .slice(0, source === 'author' ? MAX_AUTHOR_EXAMPLE_CHARS : MAX_EXAMPLE_CHARS);
      if (q === '') continue;
      // Times are stored as ISO 8601 UTC (so the retention compares them as text); a time that does
      // not parse, or lies after the write, is the write's (a future time would never expire).
      const when = e.at !== undefined ? Date.parse(e.at) : NaN;
      const stamp =
        Number.isFinite(when) && when <= Date.parse(at) ? new Date(when).toISOString() : at;
      if (stamp < cutoff) continue;
      const hash = exampleHash(e.skill_id, q);
      const session = label(e.session ?? origin.session);
      const key = keyOf(source, e, hash, { client, session });
      const polarity = e.polarity === 'negative' ? -1 : 1;
      const row = ins.get(e.skill_id, q, source, stamp, client, session, key, polarity) as
        { id: number } | undefined;
      if (row === undefined) continue;
      if (Number(row.id) % GLOBAL_CAP_EVERY === 0) globalDue = true;
      touched.add(e.skill_id);
      n++;
    }
    for (const id of touched) applySkillCaps(db, id, source, client);
    if (source === 'fetch' && n > 0) applyFetchCaps(db, client!, globalDue);
    if (retentionDays !== null) dropExpiredUsage(db, cutoff);
    return n;
  })();
}

/** The ISO time before which an example is past a retention of `days` at `at`. */
export function retentionCutoff(at: string, days: number): string {
  checkRetentionDays(days);
  const now = Date.parse(at);
  return new Date((Number.isFinite(now) ? now : Date.now()) - days * 86_400_000).toISOString();
}

/** Validates a retention in days: a whole number from 1 to MAX_USAGE_RETENTION_DAYS. */
export function checkRetentionDays(days: unknown, option = 'usage_retention_days'): number {
  if (
    typeof days !== 'number' ||
    !Number.isInteger(days) ||
    days < 1 ||
    days > MAX_USAGE_RETENTION_DAYS
  )
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} must be a whole number of days from 1 to ${MAX_USAGE_RETENTION_DAYS}, got ${JSON.stringify(days)}`,
      { option, value: days },
    );
  return days;
}

/**
 * Drops the examples stored before `cutoff` (an ISO time); returns how many went. Author examples
 * are the skill's own files, not requests anyone made: `index` keeps them in step with the files.
 */
export function dropExpiredUsage(db: Db, cutoff: string): number {
  return db.prepare(`DELETE FROM usage_examples WHERE at < ? AND source != 'author'`).run(cutoff)
    .changes;
}

// Deletes the rows matching `where` (with `params`) older than the newest `keep` of them.
function keepNewest(db: Db, where: string, params: readonly unknown[], keep: number): void {
  db.prepare(
    `DELETE FROM usage_examples WHERE ${where} AND id <= (SELECT id FROM usage_examples WHERE ${where} ORDER BY id DESC LIMIT 1 OFFSET ?)`,
  ).run(...params, ...params, keep);
}

// Deletes the author rows matching `where` after the first MAX_AUTHOR_EXAMPLES_PER_SKILL of them.
function keepOldest(db: Db, where: string, params: readonly unknown[]): void {
  db.prepare(
    `DELETE FROM usage_examples WHERE ${where} AND id >= (SELECT id FROM usage_examples WHERE ${where} ORDER BY id LIMIT 1 OFFSET ?)`,
  ).run(...params, ...params, MAX_AUTHOR_EXAMPLES_PER_SKILL);
}

// The per-skill caps: one budget per source, and within fetch, one per client.
function applySkillCaps(
  db: Db,
  skillId: string,
  source: ExampleSource,
  client: string | null,
): void {
  if (source === 'author') {
    for (const p of [1, -1])
      keepOldest(db, `skill_id = ? AND source = 'author' AND polarity = ?`, [skillId, p]);
    return;
  }
  if (source !== 'fetch') {
    keepNewest(db, 'skill_id = ? AND source = ?', [skillId, source], MAX_EXAMPLES_PER_SKILL);
    return;
  }
  keepNewest(
    db,
    `skill_id = ? AND source = 'fetch' AND client = ?`,
    [skillId, client],
    MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL,
  );
  keepNewest(db, `skill_id = ? AND source = 'fetch'`, [skillId], MAX_FETCH_EXAMPLES_PER_SKILL);
}

// The fetch caps over all skills: per client, then in all (every GLOBAL_CAP_EVERY ids).
function applyFetchCaps(db: Db, client: string, global: boolean): void {
  keepNewest(db, `source = 'fetch' AND client = ?`, [client], MAX_FETCH_EXAMPLES_PER_CLIENT);
  if (global) keepNewest(db, `source = 'fetch'`, [], MAX_FETCH_EXAMPLES);
}

/** What to forget: one example (by its id), one skill's examples (optionally of one source), or all. */
export type ForgetTarget =
  | { readonly example: number }
  | { readonly skill_id: string; readonly source?: ExampleSource }
  | { readonly all: true };

/**
 * Removes examples and returns how many rows went. `{ example }` removes every row of that example
 * (its skill, source and normalised query: each session's row of a fetch example), 0 when no row
 * has that id.
 */
export function forgetUsage(db: Db, target: ForgetTarget): number {
  return db.transaction(() => {
    remember(db, target);
    return forgetRows(db, target);
  })();
}

// Keeps the keys of the author examples `target` removes (usage_forgotten), so `index` does not
// read them back from the skill's files.
function remember(db: Db, target: ForgetTarget): void {
  const at = new Date().toISOString();
  const keep = (where: string, ...params: unknown[]): void => {
    db.prepare(
      `INSERT INTO usage_forgotten (key, at) SELECT key, ? FROM usage_examples WHERE source = 'author' AND key IS NOT NULL AND ${where} ON CONFLICT (key) DO NOTHING`,
    ).run(at, ...params);
  };
  if ('all' in target) keep('1 = 1');
  else if ('skill_id' in target) {
    if (target.source === undefined || target.source === 'author')
      keep('skill_id = ?', target.skill_id);
  } else {
    const row = db
      .prepare(`SELECT skill_id, source, query, polarity FROM usage_examples WHERE id = ?`)
      .get(target.example) as
      { skill_id: string; source: ExampleSource; query: string; polarity: number } | undefined;
    if (row?.source !== 'author') return;
    const group = exampleGroupOf(row);
    for (const r of usageRows(db, row.skill_id))
      if (exampleGroupOf(r) === group) keep('id = ?', r.id);
  }
}

function forgetRows(db: Db, target: ForgetTarget): number {
  if ('all' in target) return db.prepare(`DELETE FROM usage_examples`).run().changes;
  if ('skill_id' in target) {
    return target.source === undefined
      ? db.prepare(`DELETE FROM usage_examples WHERE skill_id = ?`).run(target.skill_id).changes
      : db
          .prepare(`DELETE FROM usage_examples WHERE skill_id = ? AND source = ?`)
          .run(target.skill_id, target.source).changes;
  }
  const row = db
    .prepare(`SELECT skill_id, source, query, polarity FROM usage_examples WHERE id = ?`)
    .get(target.example) as
    { skill_id: string; source: ExampleSource; query: string; polarity: number } | undefined;
  if (!row) return 0;
  const group = exampleGroupOf(row);
  const del = db.prepare(`DELETE FROM usage_examples WHERE id = ?`);
  let n = 0;
  for (const r of usageRows(db, row.skill_id))
    if (exampleGroupOf(r) === group) n += del.run(r.id).changes;
  return n;
}

/** What purgePromptData removed. */
export interface PromptPurge {
  /** Usage example rows (the prompts learned from). */
  readonly examples: number;
  /** Telemetry event rows (each with its query's hash, a fetch's context text). */
  readonly events: number;
}

/**
 * Removes everything this store holds about the requests people made (issue 36 P1): every usage
 * example and every telemetry event (query hashes, fetch contexts), in one transaction; on SQLite
 * the file is then rebuilt (VACUUM) and its write-ahead log truncated, so the deleted text does not
 * linger in free pages. The per-skill counts stay: they hold no request.
 */
export function purgePromptData(db: Db): PromptPurge {
  const out = db.transaction(() => ({
    examples: db.prepare(`DELETE FROM usage_examples`).run().changes,
    events: db.prepare(`DELETE FROM events`).run().changes,
  }))();
  if (dialectOf(db) === 'sqlite') {
    try {
      db.exec('VACUUM');
      // In WAL mode the rebuilt file reaches the main file only at a checkpoint; a reader holding
      // an old snapshot makes it busy, and the deleted text would stay until it ends.
      const [c] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (c !== undefined && c.busy !== 0) throw new Error('another process is reading the file');
    } catch (err) {
      throw new SkilldexError(
        'WRITE_FAILED',
        `removed ${out.examples} example and ${out.events} event rows, but could not rebuild the telemetry file (is a server using it? stop it and run again): ${(err as Error).message}`,
        { ...out },
        { cause: err },
      );
    }
  }
  return out;
}

/** Removes the examples of every skill not in `keep` (retired or archived skills keep none). */
export function pruneUsage(db: Db, keep: ReadonlySet<string>): number {
  const ids = (
    db.prepare(`SELECT DISTINCT skill_id FROM usage_examples`).pluck().all() as string[]
  ).filter((id) => !keep.has(id));
  const del = db.prepare(`DELETE FROM usage_examples WHERE skill_id = ?`);
  return db.transaction(() => ids.reduce((n, id) => n + del.run(id).changes, 0))();
}

/** Row counts per skill, of one source or all. */
export function usageCounts(db: Db, source?: ExampleSource): Map<string, number> {
  const out = new Map<string, number>();
  const rows = (
    source === undefined
      ? db
          .prepare(
            `SELECT skill_id, count(*) AS n FROM usage_examples GROUP BY skill_id ORDER BY skill_id`,
          )
          .all()
      : db
          .prepare(
            `SELECT skill_id, count(*) AS n FROM usage_examples WHERE source = ? GROUP BY skill_id ORDER BY skill_id`,
          )
          .all(source)
  ) as { skill_id: string; n: number }[];
  for (const r of rows) out.set(r.skill_id, r.n);
  return out;
}
