import { ServiceUnavailableHttpError } from '@switchboard/http-kernel';

/** PostgreSQL's codes for a statement it cancelled: `statement_timeout` (57014) and `lock_timeout` (55P03). */
const CANCELLED_STATEMENT_CODES = new Set(['57014', '55P03']);
/** What pg-pool and pg say when no connection came within `connectionTimeoutMillis`. */
const CONNECT_TIMEOUT_MESSAGES = [/^timeout exceeded when trying to connect$/i, /connection timeout/i];

/**
 * The database did not answer in time: no connection came (a full pool, a server that does not
 * accept), or a statement ran past its bound (a lock held by someone else). An HTTP 503 with
 * `Retry-After`, so the error flow answers it like any overloaded dependency instead of holding
 * the request.
 */
export class DatabaseTimeoutError extends ServiceUnavailableHttpError {
  constructor(message: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, {
      headers: { 'retry-after': String(options.retryAfterSeconds ?? 1) },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }

  /** `error` as a `DatabaseTimeoutError` when it says the database did not answer in time; else `error` itself. */
  static from(error: unknown, connection: string): unknown {
    if (error instanceof DatabaseTimeoutError || !(error instanceof Error)) return error;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && CANCELLED_STATEMENT_CODES.has(code)) {
      return new DatabaseTimeoutError(`A statement on database connection "${connection}" ran past its time limit.`, { cause: error });
    }
    if (CONNECT_TIMEOUT_MESSAGES.some((pattern) => pattern.test(error.message))) {
      return new DatabaseTimeoutError(`No connection to database "${connection}" became free in time.`, { cause: error });
    }
    return error;
  }
}
