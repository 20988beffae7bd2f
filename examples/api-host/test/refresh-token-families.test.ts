import { MemoryLogger } from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { RefreshTokenFamilies } from '../src/security/refresh-token-families.js';
import { refreshCookieKeys, refreshTtlSeconds } from '../src/security/refresh-settings.js';

const ada = { identifier: 'ada', roles: ['ROLE_USER'] };

describe('RefreshTokenFamilies', () => {
  it('rotates a token at each use; a spent one revokes the family', () => {
    const families = new RefreshTokenFamilies({ ttlSeconds: 60 });
    const first = families.start(ada);
    const rotated = families.rotate(first);
    if (!('next' in rotated)) throw new Error('refused');
    expect(rotated.user).toEqual(ada);
    expect(rotated.next.family).toBe(first.family);
    expect(rotated.next.token).not.toBe(first.token);
    expect(families.rotate(first)).toEqual({ refused: 'reused' });
    expect(families.rotate(rotated.next)).toEqual({ refused: 'unknown' });
  });

  it('ends a family at its lifetime, and keeps at most maxFamilies (the oldest go)', () => {
    let now = 1_000_000;
    const families = new RefreshTokenFamilies({ ttlSeconds: 10, maxFamilies: 2, now: () => now });
    const a = families.start(ada);
    const b = families.start(ada);
    const c = families.start(ada);
    expect(families.rotate(a)).toEqual({ refused: 'unknown' });
    now += 10_000;
    expect(families.rotate(b)).toEqual({ refused: 'expired' });
    expect(families.rotate(c)).toEqual({ refused: 'expired' });
  });
});

describe('refresh settings', () => {
  it('reads REFRESH_TTL and REFRESH_COOKIE_KEYS, refusing malformed values', () => {
    const logger = new MemoryLogger();
    expect(refreshTtlSeconds({})).toBe(14 * 24 * 3600);
    expect(refreshTtlSeconds({ REFRESH_TTL: '3600' })).toBe(3600);
    expect(() => refreshTtlSeconds({ REFRESH_TTL: '1.5' })).toThrow(ConfigError);
    const key = 'ab'.repeat(32);
    expect(refreshCookieKeys({ REFRESH_COOKIE_KEYS: `${key}, ${'cd'.repeat(32)}` }, logger)).toEqual([key, 'cd'.repeat(32)]);
    expect(() => refreshCookieKeys({ REFRESH_COOKIE_KEYS: 'short' }, logger)).toThrow(/key 1 is not 64 hex characters/);
    expect(refreshCookieKeys({}, logger)[0]).toMatch(/^[0-9a-f]{64}$/);
  });
});
