import { PgConnection, type PgConnectionOptions } from './pg-connection.js';
import type { PgClientLike } from './pg-like.js';

export interface PgClientConnectionOptions<C extends PgClientLike> extends PgConnectionOptions {
  /** Makes a new, unconnected client, e.g. `() => new pg.Client({ connectionString })`. */
  createClient: () => C;
  /**
   * Drop the client as soon as it reports an error (the server hung up), so the next use
   * reconnects even between two idle-connection steps. Default true.
   */
  reconnectOnError?: boolean;
}

/**
 * A single `pg.Client` the idle-connection step can retire. A pg client cannot reconnect once
 * ended, so each (re)connection makes a new one; closing ends the old one after its queries.
 */
export class PgClientConnection<C extends PgClientLike = PgClientLike> extends PgConnection<C> {
  readonly #createClient: () => C;
  readonly #reconnectOnError: boolean;
  protected override readonly oneQueryAtATime = true;

  constructor(options: PgClientConnectionOptions<C>) {
    super(options);
    this.#createClient = options.createClient;
    this.#reconnectOnError = options.reconnectOnError ?? true;
  }

  protected open(): { pg: C; ready: Promise<void> } {
    const pg = this.#createClient();
    return { pg, ready: pg.connect().then(() => undefined) };
  }

  protected override onHandleError(_error: Error, client: C): void {
    if (this.#reconnectOnError) this.retire(client).catch(() => undefined);
  }
}
