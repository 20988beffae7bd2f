/**
 * The parts of node-postgres (`pg`) the adapters use, described structurally so the kernel does
 * not depend on `pg`: a `pg.Pool` is a `PgPoolLike`, a `pg.Client` a `PgClientLike`.
 */
export interface PgQueryResultLike<Row> {
  rows: Row[];
  rowCount: number | null;
}

export interface PgQueryableLike {
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike<Record<string, unknown>>>;
  end(): Promise<void>;
  /** pg emits `error` when the server drops an idle connection; unheard, it would crash the process. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A client lent by a pool, given back with `release()`. */
export interface PgPoolClientLike {
  query(text: string, values?: unknown[]): Promise<PgQueryResultLike<Record<string, unknown>>>;
  /** An error says the client is broken: the pool closes it instead of lending it again. */
  release(error?: Error | boolean): void;
}

export interface PgPoolLike extends PgQueryableLike {
  /** Lends one client (for a transaction); waits at most the pool's `connectionTimeoutMillis`. */
  connect(): Promise<PgPoolClientLike>;
}

export interface PgClientLike extends PgQueryableLike {
  connect(): Promise<unknown>;
}

/** What every adapter offers to application code. */
export interface PgQueryable {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResultLike<Row>>;
}

/** A connection that can also run several statements as one transaction, seen by no other query until committed. */
export interface TransactionalQueryable extends PgQueryable {
  /** Commits when `work` resolves, rolls back when it throws; `work` must query through `tx`. */
  transaction<T>(work: (tx: PgQueryable) => Promise<T>): Promise<T>;
}
