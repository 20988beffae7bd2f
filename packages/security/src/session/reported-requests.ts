import type { Request } from '@switchboard/http-kernel';

/**
 * Main requests whose stateless violation was already reported. Keyed by the request (weakly),
 * shared by the guard and the response check, so the error response of a debug-mode violation
 * passes through kernel.response without being failed a second time.
 */
const reported = new WeakSet<Request>();

export function markReported(request: Request): void {
  reported.add(request);
}

export function wasReported(request: Request): boolean {
  return reported.has(request);
}
