import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { base64url, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  currentUser,
  FirewallListener,
  FirewallMap,
  IsGrantedListener,
  JwtAuthenticator,
  JwtTokenIssuer,
  KeyLoadError,
  loadJwtKeys,
  PUBLIC_ACCESS,
  type JwsAlgorithm,
} from '../src/index.js';
import { generateKeyFiles, type KeyFiles } from './support/keys.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startTestHost, type TestHost } from './support/test-host.js';

const ISSUER = 'https://auth.switchboard.test';
const AUDIENCE = 'switchboard-api';
const SKEW = 30;

const NOT_FOUND = { status: 401, challenge: 'Bearer', body: '{"code":401,"message":"JWT Token not found"}' };
const INVALID = {
  status: 401,
  challenge: 'Bearer error="invalid_token", error_description="Invalid JWT Token"',
  body: '{"code":401,"message":"Invalid JWT Token"}',
};
const EXPIRED = {
  status: 401,
  challenge: 'Bearer error="invalid_token", error_description="Expired JWT Token"',
  body: '{"code":401,"message":"Expired JWT Token"}',
};

const ledger = new LeakLedger();
let keys: KeyFiles;
let privateKey: KeyObject;
let host: TestHost;

const me = defineController(['request'], (request: Request) => {
  const user = currentUser(request);
  return new JsonResponse({ user: user?.identifier ?? null, roles: user?.roles ?? [], firewall: request.attributes.get('_firewall') });
});

beforeAll(async () => {
  keys = generateKeyFiles('rsa');
  ledger.addSecret(keys.passphrase);
  for (const fragment of keys.secretFragments) ledger.addSecret(fragment);
  const loaded = loadJwtKeys(keys);
  privateKey = loaded.privateKey!;
  const authenticator = new JwtAuthenticator({
    publicKey: loaded.publicKey,
    algorithms: ['RS256'],
    issuer: ISSUER,
    audience: AUDIENCE,
    clockSkew: SKEW,
  });
  host = await startTestHost({
    ledger,
    routes: [
      { name: 'api_me', path: '/api/me', controller: me },
      { name: 'api_public', path: '/api/public', controller: me, defaults: { _is_granted: PUBLIC_ACCESS } },
      { name: 'api_admin', path: '/api/admin', controller: me, defaults: { _is_granted: ['ROLE_ADMIN'] } },
      { name: 'health', path: '/health', controller: () => new JsonResponse({ status: 'ok' }) },
    ],
    setup(dispatcher, logger) {
      dispatcher.addSubscriber(
        new FirewallListener(
          new FirewallMap([
            { name: 'health', pattern: /^\/health/, security: false },
            { name: 'api', pattern: /^\/api/, authenticators: [authenticator] },
          ]),
          { logger },
        ),
      );
      dispatcher.addSubscriber(new IsGrantedListener());
    },
  });
});

afterAll(async () => {
  await host?.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** A token with the given claims over the valid defaults; `undefined` removes a claim. */
function sign(claims: Record<string, unknown> = {}, alg: JwsAlgorithm = 'RS256', key: KeyObject = privateKey): Promise<string> {
  const payload: Record<string, unknown> = {
    username: 'alice',
    roles: ['ROLE_USER'],
    iss: ISSUER,
    aud: AUDIENCE,
    iat: now(),
    exp: now() + 600,
    ...claims,
  };
  for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg }).sign(key);
}

async function call(authorization?: string, path = '/api/me') {
  return host.request(path, authorization === undefined ? {} : { headers: { authorization } });
}

async function expectRefused(authorization: string | undefined, expected: typeof INVALID, path = '/api/me') {
  const response = await call(authorization, path);
  expect(response.status).toBe(expected.status);
  expect(response.headers.get('www-authenticate')).toBe(expected.challenge);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.body).toBe(expected.body);
  expect(response.headers.get('set-cookie')).toBeNull();
}

describe('JWT firewall over HTTP', () => {
  it('accepts a valid token and puts the user and firewall on the request', async () => {
    const response = await call(`Bearer ${await sign()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(JSON.parse(response.body)).toEqual({ user: 'alice', roles: ['ROLE_USER'], firewall: 'api' });
  });

  it('reads the scheme case-insensitively', async () => {
    expect((await call(`bEaReR ${await sign()}`)).status).toBe(200);
  });

  it('missing Authorization header → 401 "JWT Token not found", bare Bearer challenge', async () => {
    await expectRefused(undefined, NOT_FOUND);
  });

  it('wrong scheme → no token → "JWT Token not found"', async () => {
    await expectRefused(`Basic ${Buffer.from('alice:secret').toString('base64')}`, NOT_FOUND);
    await expectRefused(`Token ${await sign()}`, NOT_FOUND);
  });

  it('a header that is not exactly two parts → "JWT Token not found"', async () => {
    await expectRefused(`Bearer ${await sign()} extra`, NOT_FOUND);
    await expectRefused('Bearer', NOT_FOUND);
    await expectRefused(`Bearer  ${await sign()}`, NOT_FOUND);
  });

  it('a token in the query string or a cookie is ignored → "JWT Token not found"', async () => {
    const token = await sign();
    const inQuery = await host.request(`/api/me?bearer=${token}&access_token=${token}`);
    expect([inQuery.status, inQuery.body]).toEqual([401, NOT_FOUND.body]);
    const inCookie = await host.request('/api/me', { headers: { cookie: `BEARER=${token}` } });
    expect([inCookie.status, inCookie.body]).toEqual([401, NOT_FOUND.body]);
  });

  it('three-part garbage → "Invalid JWT Token"', async () => {
    await expectRefused('Bearer aaa.bbb.ccc', INVALID);
    await expectRefused('Bearer not-a-jwt-at-all', INVALID);
    await expectRefused('Bearer ....', INVALID);
  });

  it('alg: none → invalid', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(
      JSON.stringify({ username: 'admin', roles: ['ROLE_ADMIN'], iss: ISSUER, aud: AUDIENCE, exp: now() + 600 }),
    );
    await expectRefused(`Bearer ${header}.${payload}.`, INVALID);
    await expectRefused(`Bearer ${header}.${payload}`, INVALID);
  });

  it('HS256 signed with the public key as the HMAC secret (key confusion) → invalid', async () => {
    const publicPem = loadJwtKeys({ publicKeyPath: keys.publicKeyPath }).publicKey.export({ type: 'spki', format: 'pem' });
    const token = await new SignJWT({ username: 'admin', roles: ['ROLE_ADMIN'], iss: ISSUER, aud: AUDIENCE, exp: now() + 600 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(String(publicPem)));
    await expectRefused(`Bearer ${token}`, INVALID);
  });

  it('PS256 (same RSA key) when only RS256 is allowed → invalid', async () => {
    await expectRefused(`Bearer ${await sign({}, 'PS256')}`, INVALID);
  });

  it('tampered payload → invalid', async () => {
    const [header, , signature] = (await sign()).split('.');
    const forged = base64url.encode(
      JSON.stringify({ username: 'alice', roles: ['ROLE_ADMIN'], iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 600 }),
    );
    await expectRefused(`Bearer ${header}.${forged}.${signature}`, INVALID);
    await expectRefused(`Bearer ${header}.${forged}.${signature}`, INVALID, '/api/admin');
  });

  it('tampered signature → invalid', async () => {
    const token = await sign();
    const flipped = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await expectRefused(`Bearer ${flipped}`, INVALID);
  });

  it('expired beyond the clock skew → "Expired JWT Token"', async () => {
    await expectRefused(`Bearer ${await sign({ iat: now() - 3600, exp: now() - SKEW - 60 })}`, EXPIRED);
  });

  it('expired but within the clock skew → accepted', async () => {
    expect((await call(`Bearer ${await sign({ iat: now() - 3600, exp: now() - 5 })}`)).status).toBe(200);
  });

  it('an expired token whose signature is bad is "Invalid", not "Expired" (signature first)', async () => {
    const [header, payload] = (await sign({ exp: now() - 3600 })).split('.');
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const [, , foreign] = (await sign({ exp: now() - 3600 }, 'RS256', otherKey)).split('.');
    await expectRefused(`Bearer ${header}.${payload}.${foreign}`, INVALID);
  });

  it('nbf in the future (beyond skew) → invalid; within skew → accepted', async () => {
    await expectRefused(`Bearer ${await sign({ nbf: now() + SKEW + 120 })}`, INVALID);
    expect((await call(`Bearer ${await sign({ nbf: now() + 5 })}`)).status).toBe(200);
  });

  it('iat in the future (beyond skew) → invalid', async () => {
    await expectRefused(`Bearer ${await sign({ iat: now() + SKEW + 120 })}`, INVALID);
  });

  it('missing exp → invalid; non-numeric exp → invalid', async () => {
    await expectRefused(`Bearer ${await sign({ exp: undefined })}`, INVALID);
    await expectRefused(`Bearer ${await sign({ exp: 'tomorrow' })}`, INVALID);
  });

  it('wrong issuer → invalid; missing issuer → invalid', async () => {
    await expectRefused(`Bearer ${await sign({ iss: 'https://evil.example' })}`, INVALID);
    await expectRefused(`Bearer ${await sign({ iss: undefined })}`, INVALID);
  });

  it('wrong audience → invalid; missing audience → invalid', async () => {
    await expectRefused(`Bearer ${await sign({ aud: 'another-api' })}`, INVALID);
    await expectRefused(`Bearer ${await sign({ aud: undefined })}`, INVALID);
  });

  it('a token signed by another key → invalid', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await expectRefused(`Bearer ${await sign({}, 'RS256', other)}`, INVALID);
  });

  it('a token without the user claim, or with a non-string one → invalid', async () => {
    await expectRefused(`Bearer ${await sign({ username: undefined })}`, INVALID);
    await expectRefused(`Bearer ${await sign({ username: { $ne: null } })}`, INVALID);
  });

  it('an oversized token → invalid without parsing', async () => {
    await expectRefused(`Bearer ${'a'.repeat(9000)}.${'b'.repeat(10)}.c`, INVALID);
  });

  it('an unknown path is 404 from routing, never 401', async () => {
    const response = await call(undefined, '/api/nope');
    expect(response.status).toBe(404);
    expect(response.headers.get('www-authenticate')).toBeNull();
    const withBadToken = await call('Bearer aaa.bbb.ccc', '/api/nope');
    expect(withBadToken.status).toBe(404);
  });

  it('an open firewall (/health) needs no token', async () => {
    const response = await call(undefined, '/health');
    expect(response.status).toBe(200);
    expect(response.body).toBe('{"status":"ok"}');
  });

  it('a PUBLIC_ACCESS route on the secured firewall answers without a token, but still refuses a bad one', async () => {
    const anonymous = await call(undefined, '/api/public');
    expect(anonymous.status).toBe(200);
    expect(JSON.parse(anonymous.body)).toEqual({ user: null, roles: [], firewall: 'api' });
    await expectRefused('Bearer aaa.bbb.ccc', INVALID, '/api/public');
  });

  it('a role the user lacks → 403 through the error flow; a user with the role → 200', async () => {
    const denied = await host.request('/api/admin', { headers: { authorization: `Bearer ${await sign()}`, accept: 'application/json' } });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(denied.body)).toMatchObject({
      status: 403,
      detail: 'Access Denied by _is_granted(ROLE_ADMIN) on route "api_admin".',
    });
    const granted = await call(`Bearer ${await sign({ roles: ['ROLE_USER', 'ROLE_ADMIN'] })}`, '/api/admin');
    expect(granted.status).toBe(200);
  });

  it('logs each refusal on the security channel with the reason and never the token', async () => {
    const refusals = () =>
      host.logger.records.filter(
        (record) => record.channel === 'security' && record.message === 'Authentication refused: Expired JWT Token.',
      );
    // Earlier tests were refused with the same reason: count this call's line, not theirs.
    const before = refusals().length;
    const token = await sign({ exp: now() - 3600 });
    await call(`Bearer ${token}`);
    const logged = refusals();
    expect(logged).toHaveLength(before + 1);
    expect(logged.at(-1)!.context).toMatchObject({ firewall: 'api', authenticator: 'jwt', status: 401, path: '/api/me' });
    expect(JSON.stringify(host.logger.records)).not.toContain(token);
  });
});

describe('what the profiler records', () => {
  async function securityPanel(token: string | null) {
    expect(token).toMatch(/^[0-9a-f]+$/);
    // Profiles are saved at kernel.terminate, after the response was sent: wait for it, boundedly.
    for (let i = 0; i < 200 && !host.profiler!.storage.has(token!); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const profile = await host.profiler!.storage.read(token!);
    return { profile, security: profile?.collectors['security'] };
  }

  it('the security panel shows the firewall, the user and "stateless"; the token itself is nowhere in the profile', async () => {
    const token = await sign();
    const response = await fetch(`${host.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const { profile, security } = await securityPanel(response.headers.get('x-debug-token'));
    expect(security).toEqual({ firewall: 'api', user: { identifier: 'alice', roles: ['ROLE_USER'] }, stateless: true, sessionUsages: [] });
    expect(JSON.stringify(profile)).not.toContain(token);
    expect(JSON.stringify(profile)).not.toContain(token.split('.')[2]);
  });

  it('a refused request shows the firewall and no user', async () => {
    const response = await fetch(`${host.url}/api/me`, { headers: { authorization: 'Bearer aaa.bbb.ccc' } });
    expect(response.status).toBe(401);
    const { security } = await securityPanel(response.headers.get('x-debug-token'));
    expect(security).toEqual({ firewall: 'api', user: null, stateless: true, sessionUsages: [] });
  });
});

describe('JWT authenticator with other algorithms', () => {
  for (const [kind, alg] of [
    ['ec', 'ES256'],
    ['ed25519', 'EdDSA'],
  ] as const) {
    it(`${alg}: verifies its own tokens, refuses RS256 ones`, async () => {
      const files = generateKeyFiles(kind);
      ledger.addSecret(files.passphrase);
      const loaded = loadJwtKeys(files);
      const authenticator = new JwtAuthenticator({ publicKey: loaded.publicKey, algorithms: [alg] });
      const issued = await new JwtTokenIssuer({ privateKey: loaded.privateKey!, algorithm: alg, ttl: 60 }).issueToken({
        identifier: 'bob',
        roles: ['ROLE_USER'],
      });
      const asRequest = (token: string) => Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
      const { exp } = JSON.parse(Buffer.from(issued.split('.')[1]!, 'base64url').toString()) as { exp: number };
      expect(await authenticator.authenticate(asRequest(issued))).toEqual({
        kind: 'authenticated',
        user: { identifier: 'bob', roles: ['ROLE_USER'] },
        // When the token stops being good, for an event stream to end then.
        expiresAt: new Date(exp * 1000),
      });
      const rsToken = await sign();
      expect(await authenticator.authenticate(asRequest(rsToken))).toMatchObject({ kind: 'failed', reason: 'Invalid JWT Token' });
    });
  }

  it('key rotation: tokens of the previous key verify while it is listed in additionalPublicKeys', async () => {
    const previous = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const current = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const oldToken = await new JwtTokenIssuer({ privateKey: previous.privateKey }).issueToken({ identifier: 'carol', roles: [] });
    const newToken = await new JwtTokenIssuer({ privateKey: current.privateKey }).issueToken({ identifier: 'dave', roles: [] });
    const asRequest = (token: string) => Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
    const rotating = new JwtAuthenticator({ publicKey: current.publicKey, additionalPublicKeys: [previous.publicKey] });
    expect(await rotating.authenticate(asRequest(newToken))).toMatchObject({ kind: 'authenticated', user: { identifier: 'dave' } });
    expect(await rotating.authenticate(asRequest(oldToken))).toMatchObject({ kind: 'authenticated', user: { identifier: 'carol' } });
    const rotated = new JwtAuthenticator({ publicKey: current.publicKey });
    expect(await rotated.authenticate(asRequest(oldToken))).toMatchObject({ kind: 'failed', reason: 'Invalid JWT Token' });
    // The key is looked up by `kid`, not found by trying each: the previous key's signature under
    // the current key's `kid` is refused, and so is a `kid` nobody configured or a kid-less token of the previous key.
    const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string };
    const payload = { username: 'mallory', exp: Math.floor(Date.now() / 1000) + 60 };
    const underCurrentKid = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: header(newToken).kid })
      .sign(previous.privateKey);
    const unknownKid = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'not-configured' }).sign(previous.privateKey);
    const kidless = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256' }).sign(previous.privateKey);
    for (const token of [underCurrentKid, unknownKid, kidless]) {
      expect(await rotating.authenticate(asRequest(token))).toMatchObject({ kind: 'failed', reason: 'Invalid JWT Token' });
    }
    const kidlessCurrent = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256' }).sign(current.privateKey);
    expect(await rotating.authenticate(asRequest(kidlessCurrent))).toMatchObject({
      kind: 'authenticated',
      user: { identifier: 'mallory' },
    });
    expect(
      () => new JwtAuthenticator({ publicKey: current.publicKey, additionalPublicKeys: [generateKeyPairSync('ed25519').publicKey] }),
    ).toThrow('The JWT public key cannot verify RS256: RS256 needs a rsa key, got ed25519.');
  });

  it('refuses at construction an allow-list the key cannot serve', () => {
    const loaded = loadJwtKeys({ publicKeyPath: keys.publicKeyPath });
    expect(() => new JwtAuthenticator({ publicKey: loaded.publicKey, algorithms: ['ES256'] })).toThrow(
      'The JWT public key cannot verify ES256: ES256 needs a ec key, got rsa.',
    );
    expect(() => new JwtAuthenticator({ publicKey: loaded.publicKey, algorithms: ['HS256' as JwsAlgorithm] })).toThrow(
      'JWT algorithm "HS256" is not supported (use RS*, PS*, ES* or EdDSA).',
    );
    expect(() => new JwtAuthenticator({ publicKey: loaded.publicKey, algorithms: [] })).toThrow(KeyLoadError);
  });
});

describe('key loading at startup', () => {
  function startupError(action: () => unknown): KeyLoadError {
    try {
      action();
    } catch (error) {
      expect(error).toBeInstanceOf(KeyLoadError);
      const keyError = error as KeyLoadError;
      ledger.record('startup error', `${keyError.message}\n${keyError.stack ?? ''}\n${JSON.stringify(keyError)}`);
      return keyError;
    }
    throw new Error('expected a startup error');
  }

  it('a wrong passphrase → a clear error naming the file and the problem, not the secret', () => {
    const error = startupError(() => loadJwtKeys({ ...keys, passphrase: 'not-the-passphrase' }));
    expect(error.message).toBe(`Could not decrypt the JWT private key ${keys.privateKeyPath}: wrong passphrase or corrupt key.`);
    expect(error.message).not.toContain('not-the-passphrase');
    expect(error.cause).toBeUndefined();
  });

  it('an encrypted key without a passphrase → says so', () => {
    const error = startupError(() => loadJwtKeys({ privateKeyPath: keys.privateKeyPath, publicKeyPath: keys.publicKeyPath }));
    expect(error.message).toBe(`The JWT private key ${keys.privateKeyPath} is encrypted and no passphrase is configured.`);
  });

  it('a missing key file → names it', () => {
    const missing = join(keys.dir, 'missing.pem');
    expect(startupError(() => loadJwtKeys({ ...keys, privateKeyPath: missing })).message).toBe(
      `The JWT private key file ${missing} does not exist or is not readable.`,
    );
  });

  it('a public key that does not belong to the private key → says so', () => {
    const other = generateKeyFiles('rsa');
    expect(startupError(() => loadJwtKeys({ ...keys, publicKeyPath: other.publicKeyPath })).message).toBe(
      `The JWT public key ${other.publicKeyPath} does not match the private key ${keys.privateKeyPath}.`,
    );
  });

  it('a private key given as the public key file → refused, not silently derived', () => {
    expect(startupError(() => loadJwtKeys({ publicKeyPath: keys.privateKeyPath })).message).toBe(
      `The JWT public key file ${keys.privateKeyPath} holds a private key; give the public key (SPKI PEM).`,
    );
  });

  it('derives the public key from the private key when no public key file is given', () => {
    const loaded = loadJwtKeys({ privateKeyPath: keys.privateKeyPath, passphrase: keys.passphrase });
    expect(loaded.publicKey.type).toBe('public');
    expect(loaded.publicKey.asymmetricKeyType).toBe('rsa');
  });

  it('a corrupt encrypted key → the same clear message', () => {
    const corrupt = join(keys.dir, 'corrupt.pem');
    const pem = createPrivateKey({
      key: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      format: 'pem',
    }).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: keys.passphrase }) as string;
    const lines = pem.split('\n');
    lines[3] = lines[3]!.split('').reverse().join('');
    writeFileSync(corrupt, lines.join('\n'));
    expect(startupError(() => loadJwtKeys({ ...keys, privateKeyPath: corrupt, publicKeyPath: undefined })).message).toBe(
      `Could not decrypt the JWT private key ${corrupt}: wrong passphrase or corrupt key.`,
    );
  });
});

describe('leak scan of everything this file produced', () => {
  it('finds a planted secret (the scan can fail)', () => {
    const probe = new LeakLedger();
    probe.addSecret(keys.passphrase);
    probe.record('planted', `x-debug: ${encodeURIComponent(keys.passphrase)}`);
    expect(probe.findLeaks()).toEqual([`planted: ${keys.passphrase.slice(0, 6)}…`]);
  });

  it('no response, header, log line, stored profile or startup error contains the passphrase or the private key', async () => {
    await host.close();
    expect(ledger.secretCount).toBeGreaterThan(10);
    expect(ledger.size).toBeGreaterThan(40);
    expect(ledger.sources().filter((source) => source.startsWith('profile ')).length).toBeGreaterThan(40);
    expect(ledger.findLeaks()).toEqual([]);
  });
});
