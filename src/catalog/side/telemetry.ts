/**
 * Telemetry store (docs/integration.md): a separate SQLite file beside the catalog (for a PostgreSQL
 * catalog, tables in its own schema), so the catalog can stay
 * read-only for consumers. Holds `suggestion` events (query hash, skill_id, rank, generation) and
 * `fetch` events (skill_id, revision, generation, context), each with who recorded it (an
 * EventOrigin: the path — `search`, `hook`, `fetch` — and the client and session), plus per-skill
 * counts the ranking reads cheaply. Writing telemetry never fails a search or fetch: every failure
 * is swallowed here and counted in `failures`.
 */
import { existsSync } from 'node:fs';
import { insertRows, selectIn } from '../store/batch.js';
import { openSideStore, type Db } from '../db.js';
import { isPgLocation, locationIdentity } from '../store/location.js';
import { migrateSideStore } from './side-migrate.js';

/**
 * The telemetry store that belongs to `catalogFile`: `<name>.telemetry.sqlite` beside it, or for a
 * PostgreSQL catalog the same database (its `events`, `counts` and `usage_examples` tables).
 */
export function telemetryPathFor(catalogFile: string): string {
  if (isPgLocation(catalogFile)) return catalogFile;
  return catalogFile.replace(/(\.sqlite3?|\.db)?$/, '') + '.telemetry.sqlite';
}

/** Per-skill history read by the ranking. */
export interface SkillHistory {
  readonly suggestions: number;
  readonly fetches: number;
}

/** Longest fetch context stored, in characters. */
export const MAX_CONTEXT_CHARS = 2_000;

/**
 * Most event rows kept (suggestions and fetches together); older ones are deleted after each
 * write. The ranking reads only `counts`, which every event is added to when recorded, so old
 * events live on there as per-skill totals: about 100,000 rows is some 20 MB of file.
 */
export const MAX_EVENT_ROWS = 100_000;

/**
 * Who recorded an event: the path it came through (`search` for a skill_search, `hook` for a
 * prompt hook's suggestions, `fetch` for a skill_fetch) and the client and session (labels the
 * client gave or the transport knows; see docs/integration.md §5). The source lets reports tell a
 * hook's suggestions from a search's; a hook's are recorded as events and not counted (see
 * recordSuggestions).
 */
export interface EventOrigin {
  readonly source?: string;
  readonly client?: string;
  readonly session?: string;
}

// An origin label as stored: at most 200 characters, null when absent.
function originLabel(v: string | undefined): string | null {
  return v === undefined || v === '' ? null : v.slice(0, 200);
}

/** A telemetry store; every method is best-effort and never throws. */
export class TelemetryStore {
  /** Writes or reads that failed (the search or fetch went on). */
  failures = 0;
  private db: Db | undefined;
  private opened = false;
  private identity: string | undefined;

  constructor(
    readonly file: string,
    private readonly now: () => Date,
  ) {}

  /** History of `skillId` (zeros when none or when telemetry cannot be read). */
  history(skillId: string): SkillHistory {
    const db = this.open(false);
    if (!db) return { suggestions: 0, fetches: 0 };
    try {
      const row = db
        .prepare(`SELECT suggestions, fetches FROM counts WHERE skill_id = ?`)
        .get(skillId) as SkillHistory | undefined;
      return row ?? { suggestions: 0, fetches: 0 };
    } catch {
      this.failures++;
      return { suggestions: 0, fetches: 0 };
    }
  }

  /** Histories of `skillIds`, in their order (zeros for none, or when telemetry cannot be read). */
  histories(skillIds: readonly string[]): Map<string, SkillHistory> {
    const found = new Map<string, SkillHistory>();
    const db = this.open(false);
    if (db) {
      try {
        for (const r of selectIn(
          db,
          `SELECT skill_id, suggestions, fetches FROM counts WHERE skill_id IN (%s)`,
          skillIds,
        ) as (SkillHistory & { skill_id: string })[])
          found.set(r.skill_id, { suggestions: r.suggestions, fetches: r.fetches });
      } catch {
        this.failures++;
      }
    }
    return new Map(
      skillIds.map((id) => [id, found.get(id) ?? { suggestions: 0, fetches: 0 }] as const),
    );
  }

  /**
   * Records that `skillIds` were shown, in rank order, for a query (by default from a `search`).
   * `counted: false` records the events only, leaving the counts the ranking reads as they are
   * (a prompt hook's suggestions: docs/ranking.md §9).
   */
  recordSuggestions(
    queryHash: string,
    generation: string,
    skillIds: readonly string[],
    origin: EventOrigin = {},
    counted = true,
  ): void {
    const db = this.current(true);
    if (!db || skillIds.length === 0) return;
    try {
      const at = this.now().toISOString();
      const shown = new Map<string, number>();
      for (const id of skillIds) shown.set(id, (shown.get(id) ?? 0) + 1);
      // Multi-row statements (batch.ts): on PostgreSQL each statement is a round trip.
      db.transaction(() => {
        insertRows(
          db,
          'events',
          [
            'kind',
            'at',
            'query_hash',
            'skill_id',
            'rank',
            'generation',
            'source',
            'client',
            'session',
          ],
          skillIds.map((id, i) => ({
            kind: 'suggestion',
            at,
            query_hash: queryHash,
            skill_id: id,
            rank: i + 1,
            generation,
            source: originLabel(origin.source) ?? 'search',
            client: originLabel(origin.client),
            session: originLabel(origin.session),
          })),
        );
        if (counted)
          insertRows(
            db,
            'counts',
            ['skill_id', 'suggestions'],
            [...shown].map(([skill_id, suggestions]) => ({ skill_id, suggestions })),
            `ON CONFLICT (skill_id) DO UPDATE SET suggestions = counts.suggestions + excluded.suggestions`,
          );
        prune(db);
      })();
    } catch {
      this.failures++;
    }
  }

  /** Records a verified fetch. */
  recordFetch(
    skillId: string,
    revisionId: string,
    generation: string,
    context: string,
    origin: EventOrigin = {},
  ): void {
    const db = this.current(true);
    if (!db) return;
    try {
      db.transaction(() => {
        db.prepare(
          `INSERT INTO events (kind, at, skill_id, revision_id, generation, context, source, client, session) VALUES ('fetch', ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          this.now().toISOString(),
          skillId,
          revisionId,
          generation,
          context.slice(0, MAX_CONTEXT_CHARS),
          originLabel(origin.source) ?? 'fetch',
          originLabel(origin.client),
          originLabel(origin.session),
        );
        db.prepare(
          `INSERT INTO counts (skill_id, fetches) VALUES (?, 1) ON CONFLICT (skill_id) DO UPDATE SET fetches = counts.fetches + 1`,
        ).run(skillId);
        prune(db);
      })();
    } catch {
      this.failures++;
    }
  }

  /** Histories of every skill fetched at least once (the only ones whose multiplier can exceed 1). */
  fetchedHistories(): SkillHistory[] {
    const db = this.current(false);
    if (!db) return [];
    try {
      return db
        .prepare(`SELECT suggestions, fetches FROM counts WHERE fetches > 0`)
        .all() as SkillHistory[];
    } catch {
      this.failures++;
      return [];
    }
  }

  /** Closes the file. */
  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  // The open connection, reopened first when the file was deleted or replaced since it was opened
  // (an operator removed or rebuilt it under a running server): writing on into an unlinked file
  // would lose every event. Called once per search or fetch, not per candidate.
  private current(write: boolean): Db | undefined {
    if (this.opened && this.identity !== locationIdentity(this.file)) {
      this.close();
      this.opened = false;
    }
    return this.open(write);
  }

  // The connection, opened on first use. A read of a file that does not exist yet answers "no
  // history" without creating it (a search that records nothing writes no file); the first write
  // creates it.
  private open(write: boolean): Db | undefined {
    if (this.opened) return this.db;
    if (!write && !isPgLocation(this.file) && !existsSync(this.file)) return undefined;
    this.opened = true;
    let db: Db | undefined;
    try {
      db = openSideStore(this.file);
      if (isPgLocation(this.file)) {
        // The tables are part of the catalog's schema (migrations.ts); their later columns are not.
        // A role that may not alter them still reads history (its writes then count as failures).
        try {
          migrateSideStore(db);
        } catch {
          this.failures++;
        }
        this.db = db;
        this.identity = 'pg';
        return this.db;
      }
      db.pragma('journal_mode = WAL');
      // Telemetry is advisory: losing the last events in a power cut is acceptable, a slow search is not.
      db.pragma('synchronous = OFF');
      // A first writer migrates the file (side-migrate.ts) and may wait for another process's write.
      db.pragma('busy_timeout = 2000');
      migrateSideStore(db);
      db.pragma('busy_timeout = 200');
      this.db = db;
      this.identity = locationIdentity(this.file);
    } catch {
      this.failures++;
      // A file that opened but is not usable (garbage bytes, a foreign schema) must not stay open.
      db?.close();
      this.db = undefined;
    }
    return this.db;
  }
}

// Deletes the events older than the newest MAX_EVENT_ROWS (a range delete on the rowid).
function prune(db: Db): void {
  db.prepare(`DELETE FROM events WHERE id <= (SELECT max(id) FROM events) - ?`).run(MAX_EVENT_ROWS);
}
