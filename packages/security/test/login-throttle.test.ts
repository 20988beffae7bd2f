/**
 * The limits of `LoginThrottle` and the keys they count under, on a real `MemoryStore`: an IPv6
 * client by its /64, an IPv4-mapped address as its IPv4 client, and one username across every
 * address. Through the example host's real server: `examples/api-host/test/login-throttling.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { Request } from '@switchboard/http-kernel';
import { MemoryStore } from '@switchboard/rate-limit';
import { LoginThrottle } from '../src/index.js';

/** The statuses of one attempt per client address, in order: 0 for an attempt let through to its password check. */
async function attempts(throttle: LoginThrottle, username: string, addresses: readonly string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const clientIp of addresses) {
    const refusal = await throttle.check(Request.fromUrl('http://localhost/login', { method: 'POST', clientIp }), username);
    statuses.push(refusal?.status ?? 0);
  }
  return statuses;
}

const LET_THROUGH_5_THEN_REFUSED = [0, 0, 0, 0, 0, 429, 429];
const addressesOf = (count: number, address: (index: number) => string): string[] =>
  Array.from({ length: count }, (_, index) => address(index));

describe('LoginThrottle', () => {
  it('counts every address of one IPv6 /64 as one client, for the (username, address) limit', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore() });
    const rotating = addressesOf(7, (index) => `2001:db8:0:1:${index.toString(16)}:${(index * 7919).toString(16)}::1`);
    expect(await attempts(throttle, 'admin', rotating)).toEqual(LET_THROUGH_5_THEN_REFUSED);
    // The next /64 is another client.
    expect(await attempts(throttle, 'admin', ['2001:db8:0:2::1'])).toEqual([0]);
  });

  it('counts every address of one IPv6 /64 as one client, for the per-address limit', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore(), limit: 1 });
    const statuses = [];
    for (let index = 0; index < 7; index++) statuses.push(...(await attempts(throttle, `user-${index}`, [`2001:db8:0:3::${index + 1}`])));
    expect(statuses).toEqual([0, 0, 0, 0, 0, 429, 429]);
  });

  it('counts an IPv4-mapped address as its IPv4 client, and honours another prefix', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore() });
    const spellings = [
      '203.0.113.9',
      '::ffff:203.0.113.9',
      '::ffff:cb00:7109',
      '0:0:0:0:0:ffff:cb00:7109',
      '203.0.113.9',
      '::FFFF:CB00:7109',
      '203.0.113.9',
    ];
    expect(await attempts(throttle, 'admin', spellings)).toEqual(LET_THROUGH_5_THEN_REFUSED);

    const perAddress = new LoginThrottle({ store: new MemoryStore(), ipv6Prefix: 128 });
    expect(
      await attempts(
        perAddress,
        'admin',
        addressesOf(7, (index) => `2001:db8::${index + 1}`),
      ),
    ).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const perNetwork = new LoginThrottle({ store: new MemoryStore(), ipv6Prefix: 48 });
    expect(
      await attempts(
        perNetwork,
        'admin',
        addressesOf(7, (index) => `2001:db8:0:${index + 1}::1`),
      ),
    ).toEqual(LET_THROUGH_5_THEN_REFUSED);
    expect(() => new LoginThrottle({ store: new MemoryStore(), ipv6Prefix: 0 })).toThrow(RangeError);
  });

  it('limits one username across all addresses at perUsernameFactor (10) times the limit; other usernames go on', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore(), limit: 2 });
    const many = addressesOf(22, (index) => `198.51.100.${index + 1}`);
    const statuses = await attempts(throttle, 'admin', many);
    expect(statuses.filter((status) => status === 0)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
    // The same normalised username is the same account.
    expect(await attempts(throttle, ' ADMIN', ['198.51.100.99'])).toEqual([429]);
    expect(await attempts(throttle, 'demo', ['198.51.100.99'])).toEqual([0]);

    const refusal = await throttle.check(Request.fromUrl('http://localhost/login', { method: 'POST', clientIp: '192.0.2.1' }), 'admin');
    expect(refusal?.headers.get('ratelimit-policy')).toBe('"login";q=2;w=60, "login-address";q=10;w=60, "login-username";q=20;w=60');
    const twice = new LoginThrottle({ store: new MemoryStore(), limit: 2, perUsernameFactor: 2 });
    expect(
      await attempts(
        twice,
        'admin',
        addressesOf(6, (index) => `192.0.2.${index + 1}`),
      ),
    ).toEqual([0, 0, 0, 0, 429, 429]);
  });

  it('exhausted() says whether the next attempt would be refused, taking nothing', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore(), limit: 2 });
    const request = Request.fromUrl('http://localhost/login', { method: 'POST', clientIp: '2001:db8:0:5::1' });
    for (let look = 0; look < 5; look++) expect(await throttle.exhausted(request, 'admin')).toBe(false);
    expect(await attempts(throttle, 'admin', ['2001:db8:0:5::2', '2001:db8:0:5::3'])).toEqual([0, 0]);
    expect(await throttle.exhausted(request, 'admin')).toBe(true);
    expect(await throttle.exhausted(request, 'demo')).toBe(false);
  });

  it('a successful login gives back the (username, address) attempts of its whole /64', async () => {
    const throttle = new LoginThrottle({ store: new MemoryStore() });
    expect(
      await attempts(
        throttle,
        'admin',
        addressesOf(4, (index) => `2001:db8:0:4::${index + 1}`),
      ),
    ).toEqual([0, 0, 0, 0]);
    await throttle.succeeded(Request.fromUrl('http://localhost/login', { method: 'POST', clientIp: '2001:db8:0:4::ff' }), 'admin');
    expect(
      await attempts(
        throttle,
        'admin',
        addressesOf(6, (index) => `2001:db8:0:4::${index + 10}`),
      ),
    ).toEqual([0, 0, 0, 0, 0, 429]);
  });
});
