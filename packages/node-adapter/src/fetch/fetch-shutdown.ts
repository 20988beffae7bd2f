import type { Logger } from '@switchboard/http-kernel';
import type { FetchHandler } from './fetch-handler.js';

export interface FetchShutdownOptions {
  /**
   * Closes the runtime's server once the requests in flight are done: Bun's `server.stop()`,
   * Deno's `server.shutdown()` (which cuts the body of a request still arriving, so it runs last).
   * What it returns is awaited within `timeout`.
   */
  closeServer: () => unknown;
  /** The longest the shutdown waits for in-flight requests and their `kernel.terminate`, ms. Default 10 s. */
  timeout?: number;
  /** Where the shutdown reports requests it did not wait for. Default: stderr. */
  logger?: Pick<Logger, 'warn'>;
}

/** The default `timeout` of `shutDownFetchServer`, ms (the node adapter's default shutdown timeout). */
export const DEFAULT_FETCH_SHUTDOWN_TIMEOUT_MS = 10_000;

const WARNINGS_ON_STDERR: Pick<Logger, 'warn'> = {
  warn: (contextOrMessage: Record<string, unknown> | string, message?: string) =>
    console.error(typeof contextOrMessage === 'string' ? contextOrMessage : message),
};

/**
 * Shuts a fetch-handler server down gracefully, as `serve()` does on Node: answers new requests 503,
 * lets the requests in flight finish and their `kernel.terminate` run, then closes the server. Call
 * it from the runtime's SIGTERM listener and exit once it resolves. Resolves `true` when everything
 * finished within `timeout`, `false` (after a warning) when time ran out first.
 */
export async function shutDownFetchServer(handler: FetchHandler, options: FetchShutdownOptions): Promise<boolean> {
  const timeout = options.timeout ?? DEFAULT_FETCH_SHUTDOWN_TIMEOUT_MS;
  const finished = handler
    .drain()
    .then(options.closeServer)
    .then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeout);
  });
  const inTime = await Promise.race([finished, timeUp]).finally(() => clearTimeout(timer));
  if (!inTime)
    (options.logger ?? WARNINGS_ON_STDERR).warn(
      { timeout },
      `In-flight requests or the server's close did not finish within ${timeout} ms of the shutdown.`,
    );
  return inTime;
}
