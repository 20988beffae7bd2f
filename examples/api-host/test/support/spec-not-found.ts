import { expect } from 'vitest';
import type { SimpleResponse } from './clients.js';

/** The 404 request the host tests replay: GET of a path with no route, with the four optional headers. */
export const ROBOTS_HEADERS = {
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) switchboard-e2e',
  referer: 'https://search.example.org/?q=robots',
};

/** Checks a robots.txt answer against the documented 404 (every header that exists before the profiler). */
export function expectSpecNotFound(response: SimpleResponse, absoluteUrl: string, { head = false } = {}): void {
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const message = `No route found for "${head ? 'HEAD' : 'GET'} ${absoluteUrl}" (from "${ROBOTS_HEADERS.referer}")`;
  expect(response.status).toBe(404);
  expect(header('content-type')).toBe('text/html; charset=UTF-8');
  expect(header('cache-control')).toBe('no-cache, private');
  expect(header('vary')).toBe('Accept');
  expect(header('x-robots-tag')).toBe('noindex');
  expect(new Date(header('date') ?? '').toUTCString()).toBe(header('date'));
  expect(decodeURIComponent(header('x-debug-exception') ?? '')).toBe(message);
  expect(header('x-debug-exception-file')).toMatch(/^%2F.+\.ts:\d+$/);
  expect(response.headers['set-cookie']).toBeUndefined();
  // The profiler's three: the token and link name the error sub-request, the previous token the main request.
  const token = header('x-debug-token') ?? '';
  expect(token).toMatch(/^[0-9a-f]{6,}$/);
  expect(header('x-previous-debug-token')).toMatch(/^[0-9a-f]{6,}$/);
  expect(header('x-previous-debug-token')).not.toBe(token);
  expect(header('x-debug-token-link')).toBe(`${new URL(absoluteUrl).origin}/_profiler/${token}`);
  if (head) expect(response.body).toBe('');
  else expect(response.body).toContain(message.replaceAll('"', '&quot;'));
}
