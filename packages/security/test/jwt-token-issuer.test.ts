import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { JwtTokenIssuer, KeyLoadError } from '../src/index.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const fixedNow = new Date('2026-01-02T03:04:05Z');
const epoch = Math.floor(fixedNow.getTime() / 1000);

describe('JwtTokenIssuer', () => {
  it('signs the identifier, roles, iat/nbf/exp and the configured iss/aud', async () => {
    const issuer = new JwtTokenIssuer({ privateKey, ttl: 900, issuer: 'https://auth.test', audience: 'api', now: () => fixedNow });
    const token = await issuer.issueToken({ identifier: 'ada', roles: ['ROLE_USER'] }, { tenant: 't1' });
    // `kid` is the key's RFC 7638 thumbprint, as jose computes it.
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT', kid });
    expect(decodeJwt(token)).toEqual({
      tenant: 't1',
      username: 'ada',
      roles: ['ROLE_USER'],
      iat: epoch,
      nbf: epoch,
      exp: epoch + 900,
      iss: 'https://auth.test',
      aud: ['api'],
    });
  });

  it('extra claims cannot override the registered ones or the identity', async () => {
    const issuer = new JwtTokenIssuer({ privateKey, ttl: 60, now: () => fixedNow });
    const token = await issuer.issueToken(
      { identifier: 'ada', roles: [] },
      { exp: 9_999_999_999, username: 'root', roles: ['ROLE_ADMIN'] },
    );
    expect(decodeJwt(token)).toMatchObject({ exp: epoch + 60, username: 'ada', roles: [] });
  });

  it('refuses a public key, a key that does not fit the algorithm, and a bad lifetime', () => {
    expect(() => new JwtTokenIssuer({ privateKey: publicKey })).toThrow(KeyLoadError);
    expect(() => new JwtTokenIssuer({ privateKey, algorithm: 'EdDSA' })).toThrow(
      'The JWT private key cannot sign EdDSA: EdDSA needs a ed25519 key, got rsa.',
    );
    expect(() => new JwtTokenIssuer({ privateKey, ttl: 0 })).toThrow(RangeError);
  });
});
