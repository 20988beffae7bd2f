import { DatabaseTimeoutError } from './database-timeout-error.js';
import type { ExpiringConnection } from './expiring-connection.js';
import type { PgQueryable, PgQueryResultLike, TransactionalQueryable } from './pg-like.js';
import { TurnQueue } from './turn-queue.js';

/** A PGlite result, as far as the adapter reads it. */
export interface PgliteResultLike<Row> {
  rows: Row[];
  /** Rows returned or changed by the statement (its command tag). */
  rowCount?: number;
  affectedRows?: number;
}

/** What PGlite and its transactions both offer. */
export interface PgliteQueryableLike {
  query<Row>(text: string, params?: unknown[]): Promise<PgliteResultLike<Row>>;
  exec(text: string): Promise<Array<PgliteResultLike<Record<string, unknown>>>>;
}

/** The parts of `@electric-sql/pglite`'s `PGlite` the adapter uses, typed structurally (no dependency on PGlite). */
export interface PgliteLike extends PgliteQueryableLike {
  transaction<T>(work: (tx: PgliteQueryableLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PgliteConnectionOptions {
  /** An open PGlite, e.g. `await PGlite.create(dataDir)`; the connection owns it from then on (`end()` closes it). */
  db: PgliteLike;
  name?: string;
  /** Longest wait, in ms, for the database's turn (it runs one query or transaction at a time). Default 5000. */
  timeoutMs?: number;
  /** `Retry-After` of the 503 a timeout becomes. Default 1. */
  retryAfterSeconds?: number;
}

/**
 * PGlite in this process, with the query interface of the node-postgres adapters: no socket, so
 * nothing but this process can reach the data. PGlite is a single session, so this adapter runs
 * one query or one transaction at a time, in arrival order: a transaction's statements never
 * interleave with another request's, and a statement never lands inside another's transaction.
 * Work that waited longer than `timeoutMs` for its turn gives up with a `DatabaseTimeoutError` (503).
 *
 * As an `ExpiringConnection` it never expires: there is no server to drop an idle session.
 */
export class PgliteConnection implements ExpiringConnection, TransactionalQueryable {
  static readonly DEFAULT_TIMEOUT_MS = 5000;

  readonly name: string;
  readonly #db: PgliteLike;
  readonly #turns = new TurnQueue();
  readonly #timeoutMs: number;
  readonly #retryAfterSeconds: number;

  constructor(options: PgliteConnectionOptions) {
    this.#db = options.db;
    this.name = options.name ?? 'default';
    this.#timeoutMs = options.timeoutMs ?? PgliteConnection.DEFAULT_TIMEOUT_MS;
    if (!(this.#timeoutMs > 0)) throw new RangeError(`A PGlite timeout must be more than 0 ms, got ${this.#timeoutMs}.`);
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  /** Without values, `text` may hold several statements, run as one implicit transaction (as node-postgres does); the last one's result is returned. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResultLike<Row>> {
    return this.#inTurn(() => run<Row>(this.#db, text, values));
  }

  /** Runs `work` in a transaction, committed when it resolves and rolled back when it throws; `work` queries through `tx` only. */
  transaction<T>(work: (tx: PgQueryable) => Promise<T>): Promise<T> {
    return this.#inTurn(() =>
      this.#db.transaction((tx) =>
        work({ query: <Row = Record<string, unknown>>(text: string, values?: unknown[]) => run<Row>(tx, text, values) }),
      ),
    );
  }

  /** Resolves once the database answers `SELECT 1` in its turn; rejects as a query would (a readiness check). */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  openedAt(): number | null {
    return null;
  }

  /** Nothing to retire: the database lives in this process. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Closes PGlite once the work already queued is done. */
  end(): Promise<void> {
    return this.#turns.run(
      () => this.#db.close(),
      null,
      () => new Error('unreachable'),
    );
  }

  #inTurn<R>(work: () => Promise<R>): Promise<R> {
    return this.#turns.run(
      work,
      this.#timeoutMs,
      () =>
        new DatabaseTimeoutError(`The embedded database "${this.name}" stayed busy for ${this.#timeoutMs} ms.`, {
          retryAfterSeconds: this.#retryAfterSeconds,
        }),
    );
  }
}

async function run<Row>(db: PgliteQueryableLike, text: string, values: unknown[] | undefined): Promise<PgQueryResultLike<Row>> {
  const result = values === undefined ? (await db.exec(text)).at(-1) : await db.query<Row>(text, values);
  return { rows: (result?.rows ?? []) as Row[], rowCount: result?.rowCount ?? result?.affectedRows ?? null };
}
