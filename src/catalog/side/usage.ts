/**
 * Usage examples, the read side (docs/ranking.md §9): `(query, skill_id)` pairs the ranking learns
 * from, each with its source — `import` (`skilldex learn FILE`), `host` (`skilldex learn --from
 * claude-code`: a skill the host activated after a prompt) or `fetch` (a consumer fetch's
 * `context`) — and the client and session that recorded it. Rows live in the telemetry file beside
 * the catalog (on PostgreSQL, a table of the catalog's schema; never in skill files). Rows of one
 * skill and source whose queries are equal once normalised (side-migrate.ts) are one example; a
 * fetch example counts the distinct sessions that recorded it, and its weight grows with them
 * (`exampleWeight`). Reads open the file read-only and never create or migrate it; the writes and
 * the caps are in usage-write.ts.
 */
import { existsSync } from 'node:fs';
import { openSideStore, type Db } from '../db.js';
import { dialectOf } from '../store/db-type.js';
import { isPgLocation, locationIdentity } from '../store/location.js';
import { compareStrings } from '../../text/index.js';
import { normalizeExampleQuery, sideVersionOf } from './side-migrate.js';

/**
 * Where a usage example came from. `author`: a skill's own trigger evaluations (its should and
 * should-not requests), read by `index` (router/learning/author-sync.ts; issue 34 item 1).
 */
export type ExampleSource = 'import' | 'host' | 'fetch' | 'author';

/** Every example source, in the order reports list them. */
export const EXAMPLE_SOURCES: readonly ExampleSource[] = ['import', 'host', 'fetch', 'author'];

/**
 * Whether an example says the request should use its skill (`positive`, every example before issue
 * 34) or should not (`negative`: an author's should-not request, or a learned `"should_trigger":
 * false`). Negative examples never enter the usage field; they may only lower their own skill
 * (router/search/stages/author-penalty.ts).
 */
export type ExamplePolarity = 'positive' | 'negative';

/**
 * Distinct sessions a fetch example needs before it weighs as much as an imported one (4: one
 * agent run, or a few runs of one client, stay below; a request several sessions made reaches it).
 */
export const FETCH_FULL_WEIGHT_SESSIONS = 4;

/**
 * How much one example counts in the ranking's usage field, in (0, 1]: 1 for `import` and `host`
 * (the operator's own file, the host's own record of what the user did), and for `fetch`
 * sessions / FETCH_FULL_WEIGHT_SESSIONS, at most 1 (0.25 for one session). Any client can fetch
 * with any context; only agreement across sessions earns a fetch example full weight.
 */
export function exampleWeight(source: ExampleSource, sessions: number): number {
  if (source !== 'fetch') return 1;
  return Math.min(1, Math.max(1, sessions) / FETCH_FULL_WEIGHT_SESSIONS);
}

/**
 * One usage example as the ranking reads it: the rows of one skill, source and normalised query.
 * `id` is its first row's id (what `forget --example` takes); `query` that row's text.
 */
export interface UsageExample {
  readonly id: number;
  readonly skill_id: string;
  readonly query: string;
  readonly source: ExampleSource;
  /** Distinct sessions that recorded it (rows without a session count as one). */
  readonly sessions: number;
  /** Distinct clients that recorded it (rows without a client count as one). */
  readonly clients: number;
  /** exampleWeight(source, sessions): what the example counts for in the usage field. */
  readonly weight: number;
  /** Should-trigger (`positive`, also when absent) or should-not (`negative`). */
  readonly polarity?: ExamplePolarity;
}

/** A usage example as `skilldex usage list` shows it: the ranking's view plus its history. */
export interface UsageExampleDetail extends UsageExample {
  /** Rows stored for it (one per client and session for a fetch example, one per activation for host). */
  readonly rows: number;
  readonly first_at: string;
  readonly last_at: string;
  /** Its distinct clients, sorted, at most MAX_LISTED_CLIENTS (`clients` has the full count). */
  readonly client_names: readonly string[];
}

/** Most client names a listed example carries. */
export const MAX_LISTED_CLIENTS = 5;

/** The examples of a telemetry file, in (skill_id, id) order, and a signature that changes with them. */
export interface UsageSnapshot {
  readonly signature: string;
  readonly examples: readonly UsageExample[];
}

/**
 * The signature of the examples as one SQL expression: `count:newest id` (`0:0` for none). Any
 * learned, imported, trimmed or forgotten row changes it. On PostgreSQL the catalog reader reads
 * it in the statement that reads the published generation (reader.ts), saving a round trip.
 */
export const USAGE_SIGNATURE_SQL = `SELECT count(*) || ':' || coalesce(max(id), 0) FROM usage_examples`;

/** One stored row. */
export interface UsageRow {
  readonly id: number;
  readonly skill_id: string;
  readonly query: string;
  readonly source: ExampleSource;
  readonly at: string;
  readonly client: string | null;
  readonly session: string | null;
  /** 1 should-trigger, -1 should-not (a store before side version 3 has only 1). */
  readonly polarity: number;
}

// Every row, in the order examples are read; a file of the first shape has no client or session.
function rowsSql(version: number, where = ''): string {
  const extra =
    (version >= 2 ? 'client, session' : 'NULL AS client, NULL AS session') +
    (version >= 3 ? ', polarity' : ', 1 AS polarity');
  return `SELECT id, skill_id, query, source, at, ${extra} FROM usage_examples ${where} ORDER BY skill_id, id`;
}

/** The rows of `db`, optionally of one skill (in skill_id, id order). */
export function usageRows(db: Db, skillId?: string): UsageRow[] {
  const version = sideVersionOf(db);
  return skillId === undefined
    ? (db.prepare(rowsSql(version)).all() as UsageRow[])
    : (db.prepare(rowsSql(version, 'WHERE skill_id = ?')).all(skillId) as UsageRow[]);
}

/** The group of a row: its skill, source and normalised query. */
export function exampleGroupOf(
  row: Pick<UsageRow, 'skill_id' | 'source' | 'query'> & { readonly polarity?: number },
): string {
  const neg = Number(row.polarity ?? 1) < 0 ? '\u0000-' : '';
  return `${row.skill_id}\u0000${row.source}\u0000${normalizeExampleQuery(row.query)}${neg}`;
}

/** Groups rows (in skill_id, id order) into examples, each in the order of its first row. */
export function groupExamples(rows: readonly UsageRow[]): UsageExampleDetail[] {
  const groups = new Map<string, UsageRow[]>();
  for (const r of rows) {
    const key = exampleGroupOf(r);
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const out: UsageExampleDetail[] = [];
  for (const g of groups.values()) {
    const first = g[0]!;
    const sessions = distinctCount(g.map((r) => r.session));
    const clientSet = [...new Set(g.map((r) => r.client ?? ''))].filter((c) => c !== '').sort();
    out.push({
      id: first.id,
      skill_id: first.skill_id,
      query: first.query,
      source: first.source,
      sessions,
      clients: distinctCount(g.map((r) => r.client)),
      weight: exampleWeight(first.source, sessions),
      polarity: Number(first.polarity) < 0 ? 'negative' : 'positive',
      rows: g.length,
      first_at: g.reduce((a, r) => (r.at < a ? r.at : a), first.at),
      last_at: g.reduce((a, r) => (r.at > a ? r.at : a), first.at),
      client_names: clientSet.slice(0, MAX_LISTED_CLIENTS),
    });
  }
  return out.sort((a, b) => compareStrings(a.skill_id, b.skill_id) || a.id - b.id);
}

// Distinct non-null values; nulls together count as one value (at least 1 for a non-empty list).
function distinctCount(values: readonly (string | null)[]): number {
  const set = new Set(values.map((v) => v ?? '\u0000null'));
  return Math.max(1, set.size);
}

// The ranking's view of a detail (no history fields), so snapshots stay small and stable.
function rankingView(e: UsageExampleDetail): UsageExample {
  return {
    id: e.id,
    skill_id: e.skill_id,
    query: e.query,
    source: e.source,
    sessions: e.sessions,
    clients: e.clients,
    weight: e.weight,
    polarity: e.polarity ?? 'positive',
  };
}

/** The examples of an open side store, as the ranking reads them. */
export function examplesOf(db: Db): UsageExample[] {
  return groupExamples(usageRows(db)).map(rankingView);
}

/** Reads the usage examples of `file`; none when the file or its table does not exist. */
export function readUsage(file: string): UsageSnapshot {
  if (!isPgLocation(file) && !existsSync(file)) return { signature: 'none', examples: [] };
  let db: Db | undefined;
  try {
    db = openSideStore(file, { readonly: true });
    db.pragma('busy_timeout = 200');
    if (!hasUsageTable(db, file)) return { signature: 'none', examples: [] };
    const sig = db.prepare(USAGE_SIGNATURE_SQL).pluck().get() as string;
    return { signature: String(sig), examples: examplesOf(db) };
  } catch {
    pgTables.delete(file);
    // Usage is advisory like telemetry: an unreadable file ranks as if no example had been learned.
    return { signature: 'unreadable', examples: [] };
  } finally {
    db?.close();
  }
}

/**
 * The examples of `file` with their history, filtered by skill and source, in (skill_id, id)
 * order: what `skilldex usage list` and the explorer show. A missing file lists none; an
 * unreadable one throws (a person asked for this list, unlike the ranking's advisory read).
 */
export function listUsage(
  file: string,
  filter: { skill_id?: string; source?: ExampleSource } = {},
): UsageExampleDetail[] {
  if (!isPgLocation(file) && !existsSync(file)) return [];
  const db = openSideStore(file, { readonly: true });
  try {
    db.pragma('busy_timeout = 2000');
    if (!hasUsageTable(db, file)) return [];
    return groupExamples(usageRows(db, filter.skill_id)).filter(
      (e) => filter.source === undefined || e.source === filter.source,
    );
  } finally {
    db.close();
  }
}

/** Signature of the examples in `file` (cheap: a count and the largest id; USAGE_SIGNATURE_SQL). */
export function usageSignature(file: string): string {
  if (!isPgLocation(file) && !existsSync(file)) return 'none';
  let db: Db | undefined;
  try {
    db = openSideStore(file, { readonly: true });
    if (!hasUsageTable(db, file)) return 'none';
    return String(db.prepare(USAGE_SIGNATURE_SQL).pluck().get());
  } catch {
    pgTables.delete(file);
    return 'unreadable';
  } finally {
    db?.close();
  }
}

/**
 * `usageSignature` for a long-lived reader (a Router): one read-only connection to the telemetry
 * file kept open, and the signature recomputed only when `PRAGMA data_version` says another
 * connection committed since the last look, or the file was replaced. Opening the file and
 * counting the examples for every search was a fifth of a search's time on 2,000 skills. On
 * PostgreSQL the reader reads the signature with the generation (reader.ts), so this answers as
 * `usageSignature` does.
 */
export class UsageWatch {
  private db: Db | undefined;
  private identity: string | undefined;
  private version: number | undefined;
  private signature = 'none';
  constructor(private readonly file: string) {}

  /** The signature of the examples now (see USAGE_SIGNATURE_SQL). */
  current(): string {
    if (isPgLocation(this.file)) return usageSignature(this.file);
    const identity = locationIdentity(this.file);
    if (identity !== this.identity) {
      this.close();
      this.identity = identity;
    }
    if (identity === undefined) return 'none';
    try {
      this.db ??= openSideStore(this.file, { readonly: true });
      const version = this.db.pragma('data_version', { simple: true }) as number;
      if (version !== this.version) {
        this.signature = hasUsageTable(this.db, this.file)
          ? String(this.db.prepare(USAGE_SIGNATURE_SQL).pluck().get())
          : 'none';
        this.version = version;
      }
      return this.signature;
    } catch {
      // Advisory like all usage: an unreadable file ranks as if no example had been learned.
      this.close();
      return 'unreadable';
    }
  }

  /**
   * The examples now, as `readUsage` reads them, through the kept connection (opening the file a
   * second time was a third of what a one-shot search spent on usage).
   */
  examples(): readonly UsageExample[] {
    if (isPgLocation(this.file)) return readUsage(this.file).examples;
    const sig = this.current();
    if (this.db === undefined || sig === 'none' || sig === 'unreadable') return [];
    try {
      return examplesOf(this.db);
    } catch {
      this.close();
      return [];
    }
  }

  /** Closes the connection (a later `current()` opens it again). */
  close(): void {
    this.db?.close();
    this.db = undefined;
    this.version = undefined;
  }
}

// PostgreSQL locations whose usage table was seen: it is part of the catalog's schema from the
// first migration on, so this process asks once per location, not once per search (a read that
// fails forgets the answer).
const pgTables = new Set<string>();

/** True when `db` has a usage_examples table (always on PostgreSQL catalogs). */
export function hasUsageTable(db: Db, file: string): boolean {
  const pg = dialectOf(db) === 'pg';
  if (pg && pgTables.has(file)) return true;
  const sql = pg
    ? `SELECT 1 WHERE to_regclass('usage_examples') IS NOT NULL`
    : `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_examples'`;
  const has = db.prepare(sql).get() !== undefined;
  if (pg && has) pgTables.add(file);
  return has;
}
