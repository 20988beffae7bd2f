/** Time and size limits of a server started by `serve`. Node's own defaults are in parentheses. */
export interface ServerLimits {
  /** Time to receive a request's headers, ms. Default 20 s (Node: 60 s). */
  headersTimeout?: number;
  /** Time to receive a whole request, headers and body, ms. Default 60 s (Node: 300 s). */
  requestTimeout?: number;
  /** How long an idle keep-alive connection stays open, ms. Default 5 s (Node: 5 s). */
  keepAliveTimeout?: number;
  /**
   * TLS server only: a connection (HTTP/2 session or HTTP/1 socket) with no traffic for this long
   * is closed, ms. Node's HTTP/1 header and request timeouts are not enforced on connections that
   * fall back to HTTP/1 on an HTTP/2 server, so this is what bounds them there. Default 30 s.
   */
  idleTimeout?: number;
  /** Largest request head (request line and headers), bytes; past it 431. Default 16 KiB (Node: 16 KiB). */
  maxHeaderSize?: number;
  /** HTTP/2: streams a client may have open at once on one connection. Default 100 (Node: unlimited). */
  maxConcurrentStreams?: number;
  /**
   * The longest a shutdown takes, from the signal (or `close()`) to its end, ms: in-flight
   * requests, `kernel.terminate` and `onShutdown` all fit in it. Default 10 s.
   */
  shutdownTimeout?: number;
  /**
   * The part of `shutdownTimeout` in-flight requests get to finish, ms; those still running then
   * are answered 503 and their connections closed, and the rest of `shutdownTimeout` goes to
   * `kernel.terminate` and `onShutdown`. Default 70 % of `shutdownTimeout`.
   */
  shutdownGracePeriod?: number;
}

export type ResolvedServerLimits = Required<ServerLimits>;

export const DEFAULT_SERVER_LIMITS: ResolvedServerLimits = {
  headersTimeout: 20_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  idleTimeout: 30_000,
  maxHeaderSize: 16 * 1024,
  maxConcurrentStreams: 100,
  shutdownTimeout: 10_000,
  shutdownGracePeriod: 7_000,
};

const DEFAULT_GRACE_SHARE = 0.7;

export function resolveServerLimits(limits: ServerLimits): ResolvedServerLimits {
  const resolved: ResolvedServerLimits = { ...DEFAULT_SERVER_LIMITS };
  for (const key of Object.keys(DEFAULT_SERVER_LIMITS) as (keyof ServerLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${key} must be a positive number, got ${value}.`);
    resolved[key] = value;
  }
  // Node refuses a request timeout shorter than the headers timeout.
  if (resolved.requestTimeout < resolved.headersTimeout) resolved.headersTimeout = resolved.requestTimeout;
  if (limits.shutdownGracePeriod === undefined) {
    resolved.shutdownGracePeriod = Math.round(resolved.shutdownTimeout * DEFAULT_GRACE_SHARE);
  } else if (resolved.shutdownGracePeriod >= resolved.shutdownTimeout) {
    throw new RangeError(
      `shutdownGracePeriod (${resolved.shutdownGracePeriod} ms) must be shorter than shutdownTimeout (${resolved.shutdownTimeout} ms).`,
    );
  }
  return resolved;
}
