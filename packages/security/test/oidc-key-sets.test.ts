import { randomUUID } from 'node:crypto';
import { Request } from '@switchboard/http-kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { TestIdentityProvider } from '../../../test/kit/identity-provider.js';
import { OidcAuthenticator, type RemoteKeySetOptions } from '../src/index.js';
import { freshnessLifetime } from '../src/oidc/cache-control.js';

const AUDIENCE = 'switchboard-api';
/** Tokens outlive every clock step these tests take. */
const TTL = 10 * 86_400;
const started: TestIdentityProvider[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((idp) => idp.stop().catch(() => undefined)));
});

async function provider(cacheControl = 'max-age=600'): Promise<TestIdentityProvider> {
  // ES256: its keys are made in a moment, where RSA keys take a busy machine a good part of a second.
  const idp = await TestIdentityProvider.start({ cacheControl, ttl: TTL, algorithm: 'ES256' });
  started.push(idp);
  return idp;
}

/** A clock the test moves; the authenticator and its key sets read it. */
function clock(): { now: () => Date; advance(seconds: number): void } {
  let time = Date.now();
  return { now: () => new Date(time), advance: (seconds) => (time += seconds * 1000) };
}

function subjectFor(idp: TestIdentityProvider, now: () => Date, keySet: RemoteKeySetOptions = {}, discovery = false): OidcAuthenticator {
  const where = discovery ? {} : { jwksUri: idp.jwksUri };
  return new OidcAuthenticator({ issuers: [{ issuer: idp.issuer, ...where, audience: AUDIENCE, algorithms: ['ES256'], keySet }], now });
}

/** A provider, a clock, an authenticator and a token it has accepted once (the set fetched). */
async function afterFirstToken(cacheControl: string, keySet: RemoteKeySetOptions) {
  const idp = await provider(cacheControl);
  const time = clock();
  const subject = subjectFor(idp, time.now, keySet);
  const token = await idp.issueToken({ identifier: 'ada' });
  expect(await status(subject, token)).toBe('authenticated');
  return { idp, time, subject, token };
}

async function status(subject: OidcAuthenticator, token: string): Promise<string> {
  const request = Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
  const outcome = await subject.authenticate(request);
  return outcome.kind === 'failed' ? `${outcome.response.status} ${outcome.reason}` : outcome.kind;
}

describe('key sets', () => {
  it('discovery: read once from /.well-known/openid-configuration, then the JWKS it names', async () => {
    const idp = await provider();
    const time = clock();
    const subject = subjectFor(idp, time.now, {}, true);
    for (let index = 0; index < 3; index += 1)
      expect(await status(subject, await idp.issueToken({ identifier: 'ada' }))).toBe('authenticated');
    expect(idp.requests).toEqual({ discovery: 1, jwks: 1, introspection: 0 });
  });

  it('discovery: a document naming another issuer gives no keys (503), and is asked again only after the cooldown', async () => {
    const idp = await provider();
    const time = clock();
    // Configured with a trailing slash: the document's `issuer` differs, so it is not trusted.
    const subject = new OidcAuthenticator({
      issuers: [{ issuer: `${idp.issuer}/`, audience: AUDIENCE, algorithms: ['ES256'] }],
      now: time.now,
    });
    const token = await idp.issueToken({ identifier: 'ada' }, { iss: `${idp.issuer}/` });
    expect(await status(subject, token)).toBe('503 Token keys unavailable');
    expect(await status(subject, token)).toBe('503 Token keys unavailable');
    expect(idp.requests).toEqual({ discovery: 1, jwks: 0, introspection: 0 });
    time.advance(30);
    expect(await status(subject, token)).toBe('503 Token keys unavailable');
    expect(idp.requests.discovery).toBe(2);
  });

  it("Cache-Control: kept for the provider's max-age, refreshed in the background past 80% of it, refetched once expired", async () => {
    const idp = await provider('public, max-age=100');
    const time = clock();
    const subject = subjectFor(idp, time.now);
    const token = await idp.issueToken({ identifier: 'ada' });
    expect(await status(subject, token)).toBe('authenticated');
    time.advance(79);
    expect(await status(subject, token)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(1);
    time.advance(2); // 81 s: refresh ahead, answered from the cache meanwhile
    expect(await status(subject, token)).toBe('authenticated');
    await expect.poll(() => subject.issuers[0]!.keySetState?.fetches).toBe(2);
    await expect.poll(() => subject.issuers[0]!.keySetState?.fetchedAt?.getTime()).toBe(time.now().getTime());
    time.advance(101); // past the refreshed set's lifetime
    expect(await status(subject, token)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(3);
    expect(subject.issuers[0]!.keySetState).toMatchObject({ status: 'fresh', kids: [idp.kid], fetches: 3, failures: 0 });
  });

  it('a max-age shorter than the cooldown is honoured while the provider answers; after a failure the cooldown applies', async () => {
    const { idp, time, subject, token } = await afterFirstToken('max-age=5', { cooldown: 30, staleIfError: 100 });
    time.advance(6);
    expect(await status(subject, token)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(2);
    await idp.stop();
    time.advance(6);
    expect(await status(subject, token)).toBe('authenticated'); // the refetch fails: stale keys serve
    time.advance(6);
    expect(await status(subject, token)).toBe('authenticated');
    expect(subject.issuers[0]!.keySetState).toMatchObject({ status: 'stale', fetches: 3, failures: 1 });
  });

  it('a provider saying max-age=0 is asked at most once per minCacheAge, not once per token', async () => {
    const { idp, time, subject, token } = await afterFirstToken('max-age=0', { minCacheAge: 5 });
    for (let index = 0; index < 20; index += 1) expect(await status(subject, token)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(1);
    time.advance(6);
    expect(await status(subject, token)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(2);
  });

  it('Cache-Control: max-age is capped (maxCacheAge), Age counts, no-store means no reuse without a new fetch', () => {
    expect(freshnessLifetime('max-age=600', null)).toBe(600);
    expect(freshnessLifetime('public, max-age="600"', '100')).toBe(500);
    expect(freshnessLifetime('no-store', null)).toBe(0);
    expect(freshnessLifetime('no-cache, max-age=600', null)).toBe(0);
    expect(freshnessLifetime('s-maxage=600', null)).toBeNull();
    expect(freshnessLifetime(null, null)).toBeNull();
    expect(freshnessLifetime('max-age=10', '20')).toBe(0);
  });

  it('rotation: a token with the new kid is accepted after exactly one fetch', async () => {
    const idp = await provider();
    const time = clock();
    const subject = subjectFor(idp, time.now);
    expect(await status(subject, await idp.issueToken({ identifier: 'ada' }))).toBe('authenticated');
    const oldToken = await idp.issueToken({ identifier: 'ada' });
    await idp.rotate();
    expect(await status(subject, await idp.issueToken({ identifier: 'bo' }))).toBe('authenticated');
    expect(await status(subject, oldToken)).toBe('authenticated');
    expect(idp.requests.jwks).toBe(2);
  });

  it('unknown kids: at most one fetch per cooldown, one in flight however many ask, the rest refused at once', async () => {
    const idp = await provider();
    const time = clock();
    const subject = subjectFor(idp, time.now, { cooldown: 30 });
    expect(await status(subject, await idp.issueToken({ identifier: 'ada' }))).toBe('authenticated');
    const forged = () =>
      idp.sign({ iss: idp.issuer, sub: 'x', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 60 }, { kid: randomUUID() });
    const tokens = await Promise.all(Array.from({ length: 200 }, forged));
    const outcomes = await Promise.all(tokens.map((token) => status(subject, token)));
    expect(new Set(outcomes)).toEqual(new Set(['401 Invalid JWT Token']));
    expect(idp.requests.jwks).toBe(2);
    time.advance(29);
    expect(await status(subject, await forged())).toBe('401 Invalid JWT Token');
    expect(idp.requests.jwks).toBe(2);
    time.advance(1);
    await Promise.all(tokens.slice(0, 50).map((token) => status(subject, token)));
    expect(idp.requests.jwks).toBe(3);
  });

  it('staleIfError: with the provider down, cached keys verify until lifetime + staleIfError, then 503 with Retry-After', async () => {
    const { idp, time, subject, token } = await afterFirstToken('max-age=100', { staleIfError: 50, cooldown: 10 });
    await idp.stop();
    time.advance(120); // expired; the refetch fails; stale keys serve
    expect(await status(subject, token)).toBe('authenticated');
    expect(subject.issuers[0]!.keySetState).toMatchObject({ status: 'stale', fetches: 2, failures: 1 });
    time.advance(5); // within the cooldown of the failed fetch: no new attempt
    expect(await status(subject, token)).toBe('authenticated');
    expect(subject.issuers[0]!.keySetState).toMatchObject({ fetches: 2 });
    expect(await subject.ready()).toBe(true);
    time.advance(26); // 151 s: past 100 + 50
    const request = Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
    const outcome = await subject.authenticate(request);
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'Token keys unavailable' });
    const response = (outcome as { response: { status: number; headers: { get(name: string): string | null } } }).response;
    expect([response.status, response.headers.get('retry-after'), response.headers.get('www-authenticate') ?? null]).toEqual([
      503,
      '10',
      null,
    ]);
    expect(subject.issuers[0]!.keySetState).toMatchObject({ status: 'expired', failures: 2 });
    expect(request.attributes.get('_security_token')?.keySet).toMatchObject({ status: 'expired' });
    expect(await subject.ready()).toBe(false);
  });

  it('readiness: fetches what is missing; false while no usable set can be had', async () => {
    const idp = await provider();
    const subject = subjectFor(idp, clock().now);
    expect(subject.issuers[0]!.keySetState).toMatchObject({ status: 'empty', fetches: 0 });
    expect(await subject.ready()).toBe(true);
    expect(idp.requests.jwks).toBe(1);
    const down = await provider();
    await down.stop();
    expect(await subjectFor(down, clock().now).ready()).toBe(false);
  });

  it('a provider answering an error, a non-JSON body or a document without keys gives no keys; a bad key is skipped', async () => {
    const idp = await provider();
    idp.publish({ kty: 'EC', kid: 'broken', crv: 'P-256', x: 'AAAA', y: 'AAAA' });
    idp.publish({ ...idp.publicJwk, kid: 'encryption', use: 'enc' });
    const subject = subjectFor(idp, clock().now);
    expect(await subject.ready()).toBe(true);
    expect(subject.issuers[0]!.keySetState?.kids).toEqual([idp.kid]);
    expect(await status(subject, await idp.issueToken({ identifier: 'ada' }, {}))).toBe('authenticated');
    expect(await status(subject, await idp.sign({ iss: idp.issuer, sub: 'x', aud: AUDIENCE, exp: 2e9 }, { kid: 'encryption' }))).toBe(
      '401 Invalid JWT Token',
    );
    const missing = new OidcAuthenticator({
      issuers: [{ issuer: idp.issuer, jwksUri: `${idp.issuer}/nowhere`, audience: AUDIENCE, algorithms: ['ES256'] }],
    });
    expect(await missing.ready()).toBe(false);
    expect(missing.issuers[0]!.keySetState).toMatchObject({
      status: 'empty',
      failures: 1,
      lastError: 'The identity provider answered 404.',
    });
  });

  it('refuses at construction: no issuer, an issuer twice, plain http off loopback, no audience', () => {
    expect(() => new OidcAuthenticator({ issuers: [] })).toThrow('no issuer');
    const one = { issuer: 'https://id.example.test', audience: AUDIENCE };
    expect(() => new OidcAuthenticator({ issuers: [one, one] })).toThrow('configured twice');
    expect(() => new OidcAuthenticator({ issuers: [{ issuer: 'http://id.example.test', audience: AUDIENCE }] })).toThrow('must use https');
    expect(() => new OidcAuthenticator({ issuers: [{ ...one, jwksUri: 'ftp://id.example.test/keys' }] })).toThrow('must use https');
    expect(() => new OidcAuthenticator({ issuers: [{ ...one, audience: [] }] })).toThrow('needs an audience');
  });
});
