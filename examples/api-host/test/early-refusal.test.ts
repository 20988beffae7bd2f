/**
 * A body declared over a route's limit, refused before a byte of it is read, over a raw socket to
 * the host: the 413 says `Connection: close` (the rest is never promised to be read) and the
 * server then closes the connection, on each route that takes a body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponses, rawExchangeDetailed } from '../../../test/kit/raw-http.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

let host: StartedHost;
let adminToken: string;
beforeAll(async () => {
  host = await startHostInProcess({ ALLOW_DEMO_USERS: '1' });
  const login = await fetch(`${host.running.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
  });
  adminToken = ((await login.json()) as { token: string }).token;
});
afterAll(async () => {
  await host?.stop();
});

describe('a body declared over the limit', () => {
  it.each([
    ['/api/token', 'application/json'],
    ['/api/items', 'application/json'],
    ['/api/items/import', 'multipart/form-data; boundary=x'],
  ])('POST %s: 413 with Connection: close, and the socket closes', async (path, type) => {
    const head = [
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Accept: application/json',
      `Authorization: Bearer ${adminToken}`,
      `Content-Type: ${type}`,
      'Content-Length: 5000000',
    ];
    // Only the head: the body never comes, as from a client that waits for the answer first.
    const { received, closedByServer } = await rawExchangeDetailed(host.running.port, `${head.join('\r\n')}\r\n\r\n`, { waitMs: 30_000 });
    const [answer] = parseResponses(received).responses;
    expect(answer?.status).toBe(413);
    expect(answer?.headers['connection']).toBe('close');
    expect(answer?.headers['keep-alive']).toBeUndefined();
    expect(closedByServer).toBe(true);
  });
});
