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

export type PgPoolLike = PgQueryableLike;

export interface PgClientLike extends PgQueryableLike {
  connect(): Promise<unknown>;
}

/** What every adapter offers to application code. */
export interface PgQueryable {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResultLike<Row>>;
}
