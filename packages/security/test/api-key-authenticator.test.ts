import { Request } from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator, type StoredApiKey } from '../src/index.js';

function withKey(...values: string[]): Request {
  const request = Request.fromUrl('http://localhost/api/items');
  for (const value of values) request.headers.append('x-api-key', value);
  return request;
}

describe('ApiKeyAuthenticator', () => {
  const robot = ApiKeyAuthenticator.generate({ identifier: 'robot', roles: ['SCOPE_items:write'] });
  const other = ApiKeyAuthenticator.generate({ identifier: 'other', roles: [] }, 'fixedprefix');

  it('stores only the prefix and a hash: the key itself appears nowhere in the stored record', () => {
    expect(robot.key.startsWith(`${robot.stored.prefix}.`)).toBe(true);
    expect(JSON.stringify(robot.stored)).not.toContain(robot.key.split('.')[1]);
    expect(other.stored.prefix).toBe('fixedprefix');
  });

  it('authenticates the key it finds by prefix; a wrong secret, an unknown prefix or a malformed key is 401', async () => {
    const authenticator = new ApiKeyAuthenticator({ keys: [robot.stored, other.stored] });
    expect(await authenticator.authenticate(withKey(robot.key))).toEqual({ kind: 'authenticated', user: robot.stored.user });
    const [prefix, secret] = robot.key.split('.') as [string, string];
    const flipped = `${prefix}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, `${other.stored.prefix}.${secret}`, `unknown.${secret}`, 'no-dot', `${prefix}.short`]) {
      const outcome = await authenticator.authenticate(withKey(bad));
      expect(outcome).toMatchObject({ kind: 'failed', reason: 'Invalid API key', response: { status: 401 } });
      const response = (outcome as { response: { headers: { get(name: string): string | null }; body: unknown } }).response;
      expect(response.headers.get('www-authenticate')).toBe('ApiKey error="invalid_key"');
      expect(JSON.stringify(response.body)).not.toContain(secret.slice(0, 8));
    }
    expect(await authenticator.authenticate(withKey(robot.key, robot.key))).toMatchObject({ kind: 'failed' });
    expect(await authenticator.authenticate(withKey())).toEqual({ kind: 'absent' });
    expect(authenticator.start().status).toBe(401);
  });

  it('asks a store by prefix, once per request, and never hands it the secret', async () => {
    const asked: string[] = [];
    const store = {
      findByPrefix(prefix: string): StoredApiKey | null {
        asked.push(prefix);
        return prefix === robot.stored.prefix ? robot.stored : null;
      },
    };
    const authenticator = new ApiKeyAuthenticator({ keys: store, header: 'X-Machine-Key' });
    const request = Request.fromUrl('http://localhost/api/items', { headers: { 'x-machine-key': robot.key } });
    expect(await authenticator.authenticate(request)).toMatchObject({ kind: 'authenticated' });
    expect(asked).toEqual([robot.stored.prefix]);
  });

  it('refuses two keys with one prefix at construction', () => {
    expect(() => new ApiKeyAuthenticator({ keys: [robot.stored, robot.stored] })).toThrow('Two API keys have the prefix');
  });
});
