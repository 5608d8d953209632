/**
 * Read-only views of a catalog's telemetry file for the explorer (issue 15): skills most often
 * suggested but never fetched, the skills that ever reached a top-5 suggestion, and one skill's
 * suggestions and fetches per day. Opens the file read-only for each call (a missing or unreadable
 * file reads as no history), so it never creates, migrates or writes telemetry.
 */
import { existsSync } from 'node:fs';
import { openSideStore, type Db } from '../db.js';
import { isPgLocation } from '../store/location.js';

/** A skill with its suggestion and fetch totals. */
export interface UsageCount {
  readonly skill_id: string;
  readonly suggestions: number;
  readonly fetches: number;
}

/** Suggestions and fetches of one skill on one UTC day (YYYY-MM-DD). */
export interface UsageDay {
  readonly day: string;
  readonly suggestions: number;
  readonly fetches: number;
}

/** Rank at or above which a suggestion counts as "in the top 5". */
export const TOP_RANK = 5;

/** Read-only queries over one telemetry file. */
export class TelemetryReader {
  /** `file`: the telemetry file, or undefined when telemetry is off (every view is then empty). */
  constructor(readonly file: string | undefined) {}

  /** Skills suggested at least once and never fetched, most suggested first (tie: skill_id). */
  suggestedNeverFetched(limit: number): UsageCount[] {
    return this.query(
      (db) =>
        db
          .prepare(
            `SELECT skill_id, suggestions, fetches FROM counts WHERE suggestions > 0 AND fetches = 0 ORDER BY suggestions DESC, skill_id LIMIT ?`,
          )
          .all(limit) as UsageCount[],
      [],
    );
  }

  /** Every skill id that appeared at rank 1–5 in some suggestion. */
  everInTopFive(): Set<string> {
    return this.query(
      (db) =>
        new Set(
          (
            db
              .prepare(
                `SELECT DISTINCT skill_id FROM events WHERE kind = 'suggestion' AND rank <= ?`,
              )
              .all(TOP_RANK) as { skill_id: string }[]
          ).map((r) => r.skill_id),
        ),
      new Set<string>(),
    );
  }

  /** Suggestions and fetches of `skillId` per UTC day, oldest first. */
  usageByDay(skillId: string): UsageDay[] {
    return this.query(
      (db) =>
        db
          .prepare(
            `SELECT substr(at, 1, 10) AS day, count(*) FILTER (WHERE kind = 'suggestion') AS suggestions, count(*) FILTER (WHERE kind = 'fetch') AS fetches
             FROM events WHERE skill_id = ? GROUP BY day ORDER BY day`,
          )
          .all(skillId) as UsageDay[],
      [],
    );
  }

  /** Fetches per skill, of every skill fetched at least once. */
  fetchCounts(): Map<string, number> {
    return this.query(
      (db) =>
        new Map(
          (
            db
              .prepare(`SELECT skill_id, fetches FROM counts WHERE fetches > 0 ORDER BY skill_id`)
              .all() as { skill_id: string; fetches: number }[]
          ).map((r) => [r.skill_id, r.fetches]),
        ),
      new Map<string, number>(),
    );
  }

  /** Searches recorded: each recorded search stores one rank-1 suggestion. */
  searches(): number {
    return this.query(
      (db) =>
        (
          db
            .prepare(`SELECT count(*) AS n FROM events WHERE kind = 'suggestion' AND rank = 1`)
            .get() as { n: number }
        ).n,
      0,
    );
  }

  /**
   * Totals over every skill, counted from the recorded events: the same rows a skill page charts
   * (`usageByDay`), so the Catalog page and a skill page agree. `hook_suggestions` is the part the
   * prompt hook showed, which the ranking's counts leave out (docs/ranking.md §9).
   */
  totals(): { suggestions: number; fetches: number; hook_suggestions: number } {
    return this.query(
      (db) =>
        db
          .prepare(
            `SELECT count(*) FILTER (WHERE kind = 'suggestion') AS suggestions, count(*) FILTER (WHERE kind = 'fetch') AS fetches, count(*) FILTER (WHERE kind = 'suggestion' AND source = 'hook') AS hook_suggestions FROM events`,
          )
          .get() as { suggestions: number; fetches: number; hook_suggestions: number },
      { suggestions: 0, fetches: 0, hook_suggestions: 0 },
    );
  }

  // Telemetry is advisory: a missing file, or one that is not (yet) a telemetry store, reads as empty.
  private query<T>(fn: (db: Db) => T, empty: T): T {
    if (this.file === undefined || (!isPgLocation(this.file) && !existsSync(this.file)))
      return empty;
    let db: Db | undefined;
    try {
      db = openSideStore(this.file, { readonly: true });
      db.pragma('busy_timeout = 200');
      return fn(db);
    } catch {
      return empty;
    } finally {
      db?.close();
    }
  }
}
