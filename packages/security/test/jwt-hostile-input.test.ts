import { generateKeyPairSync } from 'node:crypto';
import { Request } from '@switchboard/http-kernel';
import fc from 'fast-check';
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { JwtAuthenticator } from '../src/index.js';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const authenticator = new JwtAuthenticator({
  publicKey,
  algorithms: ['RS256'],
  issuer: 'https://auth.test',
  audience: 'api',
  clockSkew: 5,
});

const withAuthorization = (value: string) => Request.fromUrl('http://localhost/api/me', { headers: { authorization: value } });
const segment = (value: unknown) => base64url.encode(typeof value === 'string' ? value : JSON.stringify(value));

/** Whatever the token, the outcome is "absent" or a 401 — never a throw (which would be a 500). */
async function outcomeOf(token: string): Promise<string> {
  const outcome = await authenticator.authenticate(withAuthorization(`Bearer ${token}`));
  return outcome.kind === 'failed' ? `${outcome.kind} ${outcome.response.status} ${outcome.reason}` : outcome.kind;
}

describe('JwtAuthenticator against hostile tokens', () => {
  it('hand-made headers that confuse key handling are refused as invalid, never thrown', async () => {
    const payload = segment({ username: 'root', exp: 9_999_999_999, iss: 'https://auth.test', aud: 'api' });
    const headers: unknown[] = [
      { alg: 'RS256', crit: ['exp'] },
      { alg: 'RS256', b64: false, crit: ['b64'] },
      { alg: 'RS256', jwk: publicKey.export({ format: 'jwk' }) },
      { alg: 'RS256', kid: '../../etc/passwd' },
      { alg: 'HS256' },
      { alg: 'none' },
      { alg: 'None' },
      { alg: 'ES256' },
      { alg: 'EdDSA' },
      { alg: 'RSA-OAEP' },
      { alg: 123 },
      { alg: ['RS256'] },
      { alg: null },
      {},
      [],
      'RS256',
      42,
      null,
      { alg: 'RS256', enc: 'A256GCM' },
      { alg: '__proto__' },
      { alg: 'constructor' },
    ];
    for (const header of headers) {
      for (const signature of ['', 'AAAA', segment('x'.repeat(256)), '***']) {
        expect(await outcomeOf(`${segment(header)}.${payload}.${signature}`), JSON.stringify(header)).toBe('failed 401 Invalid JWT Token');
      }
    }
    for (const token of [
      '.',
      '..',
      '...',
      'a.b',
      'a.b.c.d',
      'a.b.c.d.e',
      '\u0000.\u0000.\u0000',
      `${segment({ alg: 'RS256' })}.${segment('not json')}.AAAA`,
    ]) {
      expect(await outcomeOf(token), token).toBe('failed 401 Invalid JWT Token');
    }
  });

  it('random tokens and random JOSE headers never throw', async () => {
    const header = fc.oneof(
      fc.record(
        { alg: fc.oneof(fc.constantFrom('RS256', 'PS256', 'HS256', 'none', 'ES256', 'EdDSA'), fc.string(), fc.integer()) },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    const claims = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          username: fc.jsonValue(),
          exp: fc.jsonValue(),
          nbf: fc.jsonValue(),
          iat: fc.jsonValue(),
          iss: fc.jsonValue(),
          aud: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    const crafted = fc.tuple(header, claims, fc.base64String()).map(([h, c, s]) => `${segment(h)}.${segment(c)}.${s.replaceAll('=', '')}`);
    const raw = fc.string({ unit: 'grapheme-ascii', maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(crafted, raw), async (token) => {
        const outcome = await outcomeOf(token);
        expect(['absent', 'failed 401 Invalid JWT Token', 'failed 401 Expired JWT Token']).toContain(outcome);
      }),
      { numRuns: 400 },
    );
  });
});
