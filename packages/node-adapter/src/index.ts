/**
 * @switchboard/node-adapter — hosts a Switchboard kernel on node:http, node:https and node:http2,
 * inside Express or Connect, or behind a WHATWG fetch handler; `serve` starts a hardened server.
 * @module
 */
export { createRequestListener, NodeAdapter, type NodeRequestListener } from './node-adapter.js';
export {
  DEFAULT_BODY_LIMIT,
  DEFAULT_BODY_TIMEOUT_MS,
  resolveAdapterOptions,
  type NodeAdapterOptions,
  type ResolvedAdapterOptions,
} from './adapter-options.js';
export { NodeRequestFactory, type NodeIncomingRequest, type RequestHead } from './request/node-request-factory.js';
export { parseRequestTarget, type RequestTarget } from './request/request-target.js';
export { IncomingBody } from './request/incoming-body.js';
export type { BodyLimits } from './request/limited-body.js';
export { TrustedProxies } from './request/trusted-proxies.js';
export { TrustedHosts } from './request/trusted-hosts.js';
export { InvalidRequestError } from './request/invalid-request-error.js';
export { writeResponse } from './response/response-writer.js';
export { plainAnswer } from './response/plain-response.js';
export type { NodeServerResponse } from './response/node-response.js';
export { createMiddleware, type ConnectMiddleware, type MiddlewareOptions } from './middleware/connect-middleware.js';
export { UnmatchedRequestListener } from './middleware/unmatched-request-listener.js';
export { createFetchHandler, UNKNOWN_CLIENT_IP, type FetchHandler, type FetchHandlerOptions } from './fetch/fetch-handler.js';
export { serve, type RunningServer, type ServeOptions, type TlsOptions } from './server/serve.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server/server-limits.js';
export { answerClientError } from './server/client-error-responder.js';
