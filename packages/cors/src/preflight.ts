import { Response, type Request } from '@switchboard/http-kernel';
import type { CorsPolicy } from './cors-policy.js';

/** Headers a page may always send; a preflight never needs to list them (as Symfony does). */
const ALWAYS_ALLOWED_HEADERS = new Set(['accept', 'accept-language', 'content-language', 'origin']);

/** RFC 9110 token: what a method or header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A preflight: `OPTIONS` asking `Access-Control-Request-Method`. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
}

/**
 * The answer to a preflight, built before routing (so unknown paths get one too):
 * - origin refused → 200, `Vary: Origin`, no `Access-Control-Allow-*` header at all;
 * - origin allowed → 200 with the exact origin, methods, headers, max-age, credentials;
 *   a method not allowed → 405, a header not allowed → 400 (the browser then blocks the call).
 */
export function answerPreflight(request: Request, origin: string, allowed: boolean, policy: CorsPolicy): Response {
  const response = new Response('', 200, { vary: 'Origin' });
  if (!allowed) return response;

  const headers = response.headers;
  headers.set('access-control-allow-origin', origin);
  if (policy.allowCredentials) headers.set('access-control-allow-credentials', 'true');
  if (policy.maxAgeSeconds > 0) headers.set('access-control-max-age', policy.maxAgeSeconds);

  const requestedMethod = (request.headers.get('access-control-request-method') ?? '').trim();
  const methodAllowed = TOKEN.test(requestedMethod) && policy.allowMethods.includes(requestedMethod.toUpperCase());
  // Browsers upper-case only the six standard methods; `patch` must be echoed as spelled.
  const echoSpelling = methodAllowed && !policy.allowMethods.includes(requestedMethod);
  const allowMethods = echoSpelling ? `${policy.allowMethodsValue}, ${requestedMethod}` : policy.allowMethodsValue;
  if (allowMethods !== '') headers.set('access-control-allow-methods', allowMethods);

  const requested = requestedHeaders(request);
  const allowHeaders = policy.allowHeaders === '*' ? requested.filter((name) => TOKEN.test(name)).join(', ') : policy.allowHeadersValue;
  if (allowHeaders !== '') headers.set('access-control-allow-headers', allowHeaders);

  if (!methodAllowed) {
    response.status = 405;
    headers.set('allow', policy.allowMethodsValue);
    return response;
  }
  const refused = requested.find((name) => !isHeaderAllowed(name, policy));
  if (refused !== undefined) {
    response.status = 400;
    headers.set('content-type', 'text/plain; charset=UTF-8');
    response.body = TOKEN.test(refused) ? `Unauthorized header ${refused}` : 'Malformed Access-Control-Request-Headers';
  }
  return response;
}

function requestedHeaders(request: Request): string[] {
  return request.headers
    .getAll('access-control-request-headers')
    .flatMap((value) => value.split(','))
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

function isHeaderAllowed(name: string, policy: CorsPolicy): boolean {
  if (!TOKEN.test(name)) return false;
  if (ALWAYS_ALLOWED_HEADERS.has(name)) return true;
  return policy.allowHeaders === '*' || policy.allowHeaders.has(name);
}
