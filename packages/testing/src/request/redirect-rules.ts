/** The redirect statuses a client follows (RFC 9110 §15.4). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** At most this many redirects are followed for one request. */
export const MAX_REDIRECTS = 10;

/** One redirect followed: the answer that sent the client on, and where it went. */
export interface RedirectStep {
  readonly status: number;
  /** The URL that answered with the redirect. */
  readonly from: string;
  /** The `Location` resolved against `from`. */
  readonly to: string;
}

export function isFollowedRedirect(status: number, location: string | null): location is string {
  return REDIRECTS.has(status) && location !== null && location !== '';
}

/**
 * The method of the next request (RFC 9110 §15.4): 303 turns everything but HEAD into GET; 301
 * and 302 turn POST into GET, as every browser and `fetch` do; 307 and 308 keep the method and the
 * body. `keepsBody` is false when the method changed.
 */
export function nextMethod(status: number, method: string): { method: string; keepsBody: boolean } {
  if (status === 303 && method !== 'GET' && method !== 'HEAD') return { method: 'GET', keepsBody: false };
  if ((status === 301 || status === 302) && method === 'POST') return { method: 'GET', keepsBody: false };
  return { method, keepsBody: true };
}

/** Thrown when a request is redirected more than `MAX_REDIRECTS` times; `chain` holds every step. */
export class TooManyRedirectsError extends Error {
  override readonly name = 'TooManyRedirectsError';

  constructor(readonly chain: readonly RedirectStep[]) {
    super(
      `More than ${MAX_REDIRECTS} redirects, the last ones: ${chain
        .slice(-3)
        .map((step) => `${step.status} ${step.from} -> ${step.to}`)
        .join(', ')}.`,
    );
  }
}
