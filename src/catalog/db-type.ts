/**
 * The catalog connection type, on its own so that db.ts (which opens connections and runs the
 * migrations) and migrations.ts (which takes a connection) both import it without importing each
 * other.
 */
import type Database from 'better-sqlite3';

/** A better-sqlite3 connection. */
export type Db = Database.Database;
