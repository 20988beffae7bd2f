import { SecurityHeadersListener } from '@switchboard/security-headers';
import type { Wiring } from './wiring.js';

export interface WiredSecurityHeaders extends Wiring {
  /** The same headers for the answers the node adapter writes itself (its `answerHeaders`). */
  readonly answerHeaders: Readonly<Record<string, string>>;
}

/**
 * The OWASP REST headers on every answer (nosniff, no framing, no referrer, HSTS over HTTPS); the
 * profiler's pages keep their own policy, and in debug mode error pages lose theirs (ErrorListener).
 */
export function wireSecurityHeaders(): WiredSecurityHeaders {
  const listener = new SecurityHeadersListener();
  return { subscribers: [listener], answerHeaders: listener.plainAnswerHeaders() };
}
