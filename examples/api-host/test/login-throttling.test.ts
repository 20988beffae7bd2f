/**
 * Login throttling in the example host (on by default: 5 attempts a minute per username and
 * address, 25 per address, 50 per username; an IPv6 address counted by its /64), through the real
 * server and a real HTTP client. The host trusts
 * loopback as a proxy here, so each test speaks for client addresses of its own with
 * X-Forwarded-For; one host runs without trusted proxies to show that the header then changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { rateLimitSettingsFromEnv } from '../src/wiring/rate-limit.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

let host: StartedHost;
beforeAll(async () => {
  host = await startHostInProcess({ APP_DEBUG: '0', TRUSTED_PROXIES: 'loopback' });
});
afterAll(async () => {
  await host?.stop();
});

async function login(target: StartedHost, username: string, password: string, address?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (address !== undefined) headers['x-forwarded-for'] = address;
  const response = await fetch(`${target.running.url}/api/token`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Password checks that ran to the end (the hashing queue's count). */
const checked = (target: StartedHost): number => target.app.passwordHashing.stats.completed;

describe('login throttling', () => {
  it('a brute force of 50 wrong passwords: 5 are checked, the rest get 429 with Retry-After; the right password is refused too', async () => {
    const address = '203.0.113.10';
    const before = checked(host);
    const answers: Answer[] = [];
    for (let attempt = 0; attempt < 50; attempt++) answers.push(await login(host, 'demo', `guess-${attempt}`, address));
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(answers.slice(5).map((answer) => answer.status))).toEqual(new Set([429]));
    expect(checked(host) - before).toBe(5);

    const refused = answers[49]!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // A sliding window: the attempts of this minute weigh on the next one too.
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(refused.body)).toEqual({ code: 429, message: `Too many login attempts. Try again in ${retryAfter} s.` });
    expect(refused.headers.get('ratelimit-policy')).toBe('"login";q=5;w=60, "login-address";q=25;w=60, "login-username";q=50;w=60');
    expect(refused.headers.get('ratelimit')).toMatch(/^"login";r=0;t=\d+, "login-address";r=20;t=\d+, "login-username";r=\d+;t=\d+$/);

    // While throttled the right password gets the same 429, and is not checked.
    const right = await login(host, 'demo', 'demo-password', address);
    expect(right.status).toBe(429);
    expect(checked(host) - before).toBe(5);
    // Another user from the same address, and the same user from another address, still log in.
    expect((await login(host, 'admin', 'admin-password', address)).status).toBe(200);
    expect((await login(host, 'demo', 'demo-password', '203.0.113.11')).status).toBe(200);
  });

  it('the username is normalised: case, width and spaces do not buy more attempts', async () => {
    const address = '203.0.113.20';
    const spellings = ['demo', 'DEMO', ' demo', 'Demo ', 'ｄｅｍｏ'];
    for (const spelling of spellings) expect((await login(host, spelling, 'wrong', address)).status).toBe(401);
    expect((await login(host, 'dEmO', 'wrong', address)).status).toBe(429);
  });

  it('an unknown username is throttled exactly like a known one: same statuses, headers and bodies', async () => {
    const known: Answer[] = [];
    const unknown: Answer[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      known.push(await login(host, 'demo', 'wrong', '203.0.113.30'));
      unknown.push(await login(host, 'nobody-here', 'wrong', '203.0.113.31'));
    }
    const shape = (answer: Answer) => ({
      status: answer.status,
      headers: [...answer.headers.keys()].filter((name) => name !== 'date').sort(),
      // Seconds may differ by one between the two series.
      body: answer.body.replace(/\d+ s\./, 'N s.'),
    });
    expect(unknown.map(shape)).toEqual(known.map(shape));
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('rotating through the addresses of one IPv6 /64 buys no attempts: the sixth guess gets 429', async () => {
    const before = checked(host);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      statuses.push(
        (await login(host, 'admin', `guess-${attempt}`, `2001:db8:37:1:${attempt + 1}:${attempt * 31}::${attempt + 7}`)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(checked(host) - before).toBe(5);
    // The next /64 is another client.
    expect((await login(host, 'admin', 'guess', '2001:db8:37:2::1')).status).toBe(401);
  });

  it('an IPv4-mapped address counts as its IPv4 client, in every spelling', async () => {
    const spellings = ['203.0.113.70', '::ffff:203.0.113.70', '::ffff:cb00:7146', '0:0:0:0:0:FFFF:CB00:7146', '203.0.113.70'];
    for (const address of spellings) expect((await login(host, 'demo', 'wrong', address)).status).toBe(401);
    expect((await login(host, 'demo', 'wrong', '::ffff:cb00:7146')).status).toBe(429);
  });

  it('a successful login gives its attempts back', async () => {
    const address = '203.0.113.40';
    for (let attempt = 0; attempt < 4; attempt++) expect((await login(host, 'demo', 'wrong', address)).status).toBe(401);
    expect((await login(host, 'demo', 'demo-password', address)).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++) expect((await login(host, 'demo', 'wrong', address)).status).toBe(401);
    expect((await login(host, 'demo', 'wrong', address)).status).toBe(429);
  });
});

describe('without trusted proxies', () => {
  let direct: StartedHost;
  beforeAll(async () => {
    direct = await startHostInProcess({ APP_DEBUG: '0' });
  });
  afterAll(async () => {
    await direct?.stop();
  });

  it('X-Forwarded-For from an untrusted peer changes nothing: every attempt counts for the peer address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) statuses.push((await login(direct, 'demo', 'wrong', `198.51.100.${attempt}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});

// Debug mode changes nothing of the throttling: one host serves the stricter limit, another network size and its profile.
describe('LOGIN_THROTTLING=1/60s and CLIENT_IPV6_PREFIX=56, in debug mode with the profiler', () => {
  let debug: StartedHost;
  beforeAll(async () => {
    debug = await startHostInProcess({ APP_DEBUG: '1', TRUSTED_PROXIES: 'loopback', LOGIN_THROTTLING: '1/60s', CLIENT_IPV6_PREFIX: '56' });
  });
  afterAll(async () => {
    await debug?.stop();
  });

  it('one address trying many usernames is stopped at five times the per-user limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) statuses.push((await login(debug, `user-${attempt}`, 'wrong', '203.0.113.50')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Another address is not concerned.
    expect((await login(debug, 'user-0', 'wrong', '203.0.113.51')).status).toBe(401);
  });

  it('counts an IPv6 client by the configured network: two /64s of one /56 are one client', async () => {
    expect((await login(debug, 'prefix-user', 'wrong', '2001:db8:0:100::1')).status).toBe(401);
    const refused = await login(debug, 'prefix-user', 'wrong', '2001:db8:0:1ff::1');
    expect(refused.status).toBe(429);
    // The profile shows the network as it is (an address is no secret), never the username.
    const saved = await profile(refused.headers.get('x-debug-token')!);
    expect(saved).toContain('"key":"2001:db8:0:100::/56"');
    expect(saved).not.toContain('prefix-user');
    expect((await login(debug, 'prefix-user', 'wrong', '2001:db8:0:200::1')).status).toBe(401);
    expect(() => rateLimitSettingsFromEnv({ CLIENT_IPV6_PREFIX: '129' })).toThrow(ConfigError);
    expect(() => rateLimitSettingsFromEnv({ CLIENT_IPV6_PREFIX: '/64' })).toThrow(
      /CLIENT_IPV6_PREFIX must be a prefix length from 1 to 128/,
    );
    expect(rateLimitSettingsFromEnv({}).ipv6Prefix).toBe(64);
  });

  /** A saved profile, as JSON: polled, since profiles are saved after the response was sent. */
  async function profile(token: string): Promise<string> {
    let page = await fetch(`${debug.running.url}/_profiler/${token}?format=json`);
    for (let attempt = 0; attempt < 100 && page.status === 404; attempt++) {
      await page.text();
      await new Promise((resolve) => setTimeout(resolve, 10));
      page = await fetch(`${debug.running.url}/_profiler/${token}?format=json`);
    }
    expect(page.status).toBe(200);
    return page.text();
  }

  it('one username from many addresses is stopped at ten times the per-user limit, whichever address asks', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++)
      statuses.push((await login(debug, 'admin', 'wrong', `198.51.100.${attempt + 1}`)).status);
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 401), 429, 429]);
    // From a fresh address too, and with the right password; another username is not concerned.
    const refused = await login(debug, 'admin', 'admin-password', '192.0.2.99');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe('"login";q=1;w=60, "login-address";q=5;w=60, "login-username";q=10;w=60');
    expect((await login(debug, 'demo', 'wrong', '192.0.2.99')).status).toBe(401);
  });

  it("shows each limiter's decision: remaining, reset, and the username only hashed", async () => {
    const username = 'throttled-user-name';
    expect((await login(debug, username, 'wrong', '203.0.113.60')).status).toBe(401);
    const refused = await login(debug, username, 'wrong', '203.0.113.60');
    expect(refused.status).toBe(429);
    const token = refused.headers.get('x-debug-token')!;
    const saved = await profile(token);
    expect(saved).not.toContain(username);
    const data = (JSON.parse(saved) as { collectors: Record<string, unknown> }).collectors['rate_limit'];
    expect(data).toMatchObject({
      decisions: [
        {
          source: 'login',
          allowed: false,
          results: [
            { id: 'login', key: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), allowed: false, remaining: 0, limit: 1 },
            { id: 'login-address', key: '203.0.113.60', allowed: true, remaining: 4, limit: 5 },
            { id: 'login-username', key: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), allowed: true, remaining: 9, limit: 10 },
          ],
        },
      ],
    });
    const panel = await (await fetch(`${debug.running.url}/_profiler/${token}?panel=rate_limit`)).text();
    expect(panel).toContain('login: refused');
    expect(panel).toContain('203.0.113.60');
    expect(panel).not.toContain(username);
  });
});
