import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FirewallMap, JwtAuthenticator } from '../src/index.js';

const authenticator = new JwtAuthenticator({ publicKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey });

describe('FirewallMap', () => {
  it('picks the first firewall whose pattern matches, in configuration order', () => {
    const map = new FirewallMap([
      { name: 'token', pattern: /^\/api\/token$/, security: false },
      { name: 'api', pattern: /^\/api(\/|$)/, authenticators: [authenticator] },
    ]);
    expect(map.match('/api/token')?.name).toBe('token');
    expect(map.match('/api/me')?.name).toBe('api');
    expect(map.match('/apiary')).toBeNull();
    expect(map.match('/health')).toBeNull();
  });

  it('defaults to secured and stateless', () => {
    const [firewall] = new FirewallMap([{ name: 'api', pattern: /^\/api/, authenticators: [authenticator] }]).firewalls;
    expect(firewall).toMatchObject({ security: true, stateless: true });
  });

  it('refuses a secured firewall without an authenticator, and a name used twice', () => {
    expect(() => new FirewallMap([{ name: 'api', pattern: /^\/api/ }])).toThrow(
      'Firewall "api" is secured but has no authenticator; add one or set security: false.',
    );
    expect(
      () =>
        new FirewallMap([
          { name: 'open', pattern: /^\/a/, security: false },
          { name: 'open', pattern: /^\/b/, security: false },
        ]),
    ).toThrow('Firewall "open" is configured twice.');
  });

  it('a global regex does not make matching depend on the previous request', () => {
    const map = new FirewallMap([{ name: 'api', pattern: /^\/api/g, authenticators: [authenticator] }]);
    expect([map.match('/api/a')?.name, map.match('/api/b')?.name, map.match('/api/c')?.name]).toEqual(['api', 'api', 'api']);
  });
});
