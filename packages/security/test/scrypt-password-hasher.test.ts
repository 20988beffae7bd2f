import { describe, expect, it } from 'vitest';
import { scryptPasswordHasher } from '../src/index.js';

const cheap = { N: 2 ** 10, r: 8, p: 1 };

describe('scryptPasswordHasher', () => {
  it('verifies the right password and refuses a wrong one; each hash has its own salt', async () => {
    const hash = await scryptPasswordHasher.hash('correct horse', cheap);
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await scryptPasswordHasher.verify('correct horse', hash)).toBe(true);
    expect(await scryptPasswordHasher.verify('correct horsE', hash)).toBe(false);
    expect(await scryptPasswordHasher.hash('correct horse', cheap)).not.toBe(hash);
  });

  it('verifySync gives the answers of verify, on the calling thread', async () => {
    const hash = await scryptPasswordHasher.hash('correct horse', cheap);
    expect(scryptPasswordHasher.verifySync('correct horse', hash)).toBe(true);
    expect(scryptPasswordHasher.verifySync('correct horsE', hash)).toBe(false);
    expect(scryptPasswordHasher.verifySync('cafe\u0301', await scryptPasswordHasher.hash('caf\u00e9', cheap))).toBe(true);
    expect(scryptPasswordHasher.verifySync('pw', 'plain-text-password')).toBe(false);
  });

  it('uses OWASP minimum cost by default', async () => {
    expect(await scryptPasswordHasher.hash('x')).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('normalises Unicode, so the same password typed as NFD or NFC matches', async () => {
    const hash = await scryptPasswordHasher.hash('caf\u00e9', cheap);
    expect(await scryptPasswordHasher.verify('cafe\u0301', hash)).toBe(true);
  });

  it('refuses hashes it cannot read, or that ask for too much work, without throwing', async () => {
    const hash = await scryptPasswordHasher.hash('pw', cheap);
    const parts = hash.split('$');
    for (const broken of [
      '',
      'plain-text-password',
      hash.replace('scrypt', 'bcrypt'),
      [...parts.slice(0, 1), String(2 ** 24), ...parts.slice(2)].join('$'),
      [...parts.slice(0, 5), 'c2hvcnQ='].join('$'),
      [...parts.slice(0, 1), '-1', ...parts.slice(2)].join('$'),
    ]) {
      expect(await scryptPasswordHasher.verify('pw', broken), broken).toBe(false);
      expect(scryptPasswordHasher.costOf(broken), broken).toBeNull();
    }
  });

  it('reads the cost a stored hash was made with', async () => {
    expect(scryptPasswordHasher.costOf(await scryptPasswordHasher.hash('pw', cheap))).toEqual(cheap);
    expect(scryptPasswordHasher.costOf(await scryptPasswordHasher.hash('pw', { N: 2 ** 11, r: 4, p: 2 }))).toEqual({
      N: 2 ** 11,
      r: 4,
      p: 2,
    });
  });
});
