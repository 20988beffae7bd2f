import type { Request } from '@switchboard/http-kernel';

/** Attribute names of the OpenTelemetry HTTP semantic conventions (stable since v1.23), and ours. */
export const ATTR = {
  httpRequestMethod: 'http.request.method',
  httpRequestMethodOriginal: 'http.request.method_original',
  httpResponseStatusCode: 'http.response.status_code',
  httpRoute: 'http.route',
  urlPath: 'url.path',
  urlScheme: 'url.scheme',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  clientAddress: 'client.address',
  networkProtocolVersion: 'network.protocol.version',
  userAgentOriginal: 'user_agent.original',
  errorType: 'error.type',
  /** `main` or `sub`. */
  requestType: 'switchboard.request.type',
  /** The matched route's name (the route's path is `http.route`). */
  routeName: 'switchboard.route.name',
  /** The request's id (`RequestIdListener`), so a log line's or a problem document's id finds its trace. */
  requestId: 'switchboard.request.id',
  /** The controller a sub-request runs (the error controller for an error page). */
  controller: 'switchboard.controller',
  eventName: 'switchboard.event.name',
  listenerName: 'switchboard.listener.name',
  listenerPriority: 'switchboard.listener.priority',
  /** How many events an event stream sent (on its request's span, which ends with the stream). */
  eventStreamEventsSent: 'switchboard.event_stream.events_sent',
  /** How it ended: `completed`, `client-gone`, `shutdown` or `error`. */
  eventStreamEnding: 'switchboard.event_stream.ending',
} as const;

/** The methods the conventions name; any other is reported as `_OTHER`, with the original beside it. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY']);

/** The method as a span name's first word: `HTTP` for one the conventions do not know. */
export function spanMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : 'HTTP';
}

/**
 * What the server span knows when the request starts. The query string is left out: it may hold
 * secrets. Keys written out (the values of `ATTR`), not computed: see docs/decisions.md,
 * Observability.
 */
export function serverRequestAttributes(request: Request): Record<string, string | number> {
  const method = request.method;
  const attributes: Record<string, string | number> = {
    'http.request.method': KNOWN_METHODS.has(method) ? method : '_OTHER',
    'url.path': request.rawPath,
    'url.scheme': request.scheme,
    'server.address': request.host,
    'server.port': request.port,
    'network.protocol.version': request.protocolVersion,
    'switchboard.request.type': 'main',
  };
  if (!KNOWN_METHODS.has(method)) attributes[ATTR.httpRequestMethodOriginal] = method;
  if (request.clientIp !== '') attributes[ATTR.clientAddress] = request.clientIp;
  const userAgent = request.headers.get('user-agent');
  if (userAgent !== undefined) attributes[ATTR.userAgentOriginal] = userAgent;
  return attributes;
}
