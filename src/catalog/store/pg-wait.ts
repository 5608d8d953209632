/**
 * One libpq command with a deadline, still synchronous for its caller (pg.ts): the command is sent
 * with libpq's asynchronous calls (`PQsendQuery…`), and the answer is waited for by polling
 * `PQconsumeInput` / `PQisBusy` between short sleeps, never longer than the deadline. libpq's own
 * synchronous calls (`PQexec…`, what pg-native's `querySync` runs) wait on the socket without a
 * bound: a database that stops answering without closing the connection (a frozen host, a
 * partition, a proxy that stops forwarding) would hold a server, `/healthz` included, forever.
 * TCP keepalives and `tcp_user_timeout` (location.ts) catch a vanished peer only where the network
 * stops acknowledging; this catches every silence. (libpq "Asynchronous Command Processing",
 * https://www.postgresql.org/docs/current/libpq-async.html.)
 *
 * Never retries and never cancels on the server: a command past its deadline throws DeadlineError,
 * and the caller drops the connection (the server's statement_timeout ends the statement there).
 */

/** The libpq calls this module uses (the `libpq` package's PQ object, under pg-native). */
export interface Libpq {
  sendQuery(text: string): boolean;
  sendQueryParams(text: string, values: unknown[]): boolean;
  sendPrepare(name: string, text: string, nParams: number): boolean;
  sendQueryPrepared(name: string, values: unknown[]): boolean;
  consumeInput(): boolean;
  isBusy(): boolean;
  getResult(): boolean;
  resultStatus(): string;
  resultErrorMessage(): string;
  resultErrorFields(): Record<string, string> | undefined;
  errorMessage(): string;
  cmdTuples(): string;
  nfields(): number;
  ntuples(): number;
  fname(i: number): string;
  ftype(i: number): number;
  getvalue(row: number, col: number): string;
  getisnull(row: number, col: number): boolean;
  transactionStatus(): number;
}

/** Text-to-value parsers by type oid (pg-types, as pg-native uses them). */
export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (v: string) => unknown;
}

/** A command that got no answer within its deadline. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`the database did not answer within ${ms} ms`);
  }
}

/** An error result of the server, with its SQLSTATE. */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly sqlState: string | undefined,
  ) {
    super(message);
  }
}

/** Rows of the last result that had rows, and the change count of the last command. */
export interface Answer {
  readonly rows: Record<string, unknown>[];
  readonly changes: number;
}

// Sleeping without the event loop: Atomics.wait on a cell nobody ever notifies.
const cell = new Int32Array(new SharedArrayBuffer(4));

/** First pause between polls, ms: about a loopback round trip's slack. */
const FIRST_PAUSE_MS = 0.02;
/** Longest pause in a command's first 50 ms: what a short command may lose to polling. */
const SHORT_PAUSE_MS = 0.25;
/** Longest pause after that: the poll rate of a long command. */
const LONG_PAUSE_MS = 5;

/**
 * Sends one command with `send` and returns its answer, waiting at most `deadlineMs`. Throws
 * DeadlineError past the deadline, ServerError for an error result, and a plain Error (libpq's
 * message) when the connection fails.
 */
export function runBounded(
  pq: Libpq,
  send: () => boolean,
  deadlineMs: number,
  types: TypeParsers,
): Answer {
  if (!send()) throw new Error(pq.errorMessage());
  const start = Date.now();
  let rows: Record<string, unknown>[] = [];
  let changes = 0;
  let error: ServerError | undefined;
  for (;;) {
    waitReady(pq, start, deadlineMs);
    if (!pq.getResult()) break;
    const status = pq.resultStatus();
    if (status === 'PGRES_FATAL_ERROR' || status === 'PGRES_BAD_RESPONSE') {
      error ??= new ServerError(
        pq.resultErrorMessage() || pq.errorMessage(),
        pq.resultErrorFields()?.['sqlState'],
      );
    } else if (status === 'PGRES_TUPLES_OK') {
      rows = rowsOf(pq, types);
      changes = Number(pq.cmdTuples() || 0);
    } else changes = Number(pq.cmdTuples() || 0);
  }
  if (error) throw error;
  return { rows, changes };
}

// Until a result can be taken without blocking: consume what arrived, sleep a little, again.
function waitReady(pq: Libpq, start: number, deadlineMs: number): void {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    if (!pq.consumeInput()) throw new Error(pq.errorMessage());
    if (!pq.isBusy()) return;
    const elapsed = Date.now() - start;
    if (elapsed >= deadlineMs) throw new DeadlineError(deadlineMs);
    Atomics.wait(cell, 0, 0, Math.min(pause, deadlineMs - elapsed));
    pause = Math.min(pause * 2, elapsed < 50 ? SHORT_PAUSE_MS : LONG_PAUSE_MS);
  }
}

// The rows of the current result as objects keyed by column name (pg-native's row shape).
function rowsOf(pq: Libpq, types: TypeParsers): Record<string, unknown>[] {
  const n = pq.nfields();
  const names: string[] = [];
  const parsers: ((v: string) => unknown)[] = [];
  for (let c = 0; c < n; c++) {
    names.push(pq.fname(c));
    parsers.push(types.getTypeParser(pq.ftype(c), 'text'));
  }
  const count = pq.ntuples();
  const out = new Array<Record<string, unknown>>(count);
  for (let r = 0; r < count; r++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < n; c++) {
      const raw = pq.getvalue(r, c);
      row[names[c]!] = raw === '' && pq.getisnull(r, c) ? null : parsers[c]!(raw);
    }
    out[r] = row;
  }
  return out;
}
