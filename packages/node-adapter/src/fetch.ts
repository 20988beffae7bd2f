/**
 * `@switchboard/node-adapter/fetch` — the kernel as a WHATWG fetch handler, for Deno, Bun, workers
 * or any server that speaks `(Request) => Promise<Response>`. This entry loads no Node-only module:
 * its import graph holds the kernel, which needs only `node:diagnostics_channel` (Node, Deno and
 * Bun have it; Cloudflare Workers with `nodejs_compat`).
 * @module
 */
export { createFetchHandler, UNKNOWN_CLIENT_IP, type FetchHandler, type FetchHandlerOptions } from './fetch/fetch-handler.js';
export {
  DEFAULT_FETCH_SHUTDOWN_TIMEOUT_MS,
  shutDownFetchServer,
  type FetchShutdownOptions,
} from './fetch/fetch-shutdown.js';
export { DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT_MS } from './adapter-options.js';
