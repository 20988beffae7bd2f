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
  /** On shutdown, time given to in-flight requests before connections are cut, ms. Default 10 s. */
  shutdownTimeout?: number;
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
};

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
  return resolved;
}
