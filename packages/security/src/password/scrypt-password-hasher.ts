import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Cost parameters; the defaults are OWASP's minimum for scrypt (N=2^17, r=8, p=1). */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

const DEFAULT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** A stored hash cannot ask for more work than this (a tampered config must not stall the server). */
const MAX_N = 2 ** 20;

interface StoredHash {
  cost: ScryptCost;
  salt: Buffer;
  expected: Buffer;
}

function scryptOptions(cost: ScryptCost): ScryptOptions {
  return { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
}

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, scryptOptions(cost), (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `null` for a hash it cannot read or that asks for too much work. */
function parse(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > MAX_N || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== KEY_LENGTH || salt.length < 8) return null;
  return { cost: { N, r, p }, salt, expected };
}

/**
 * Password hashes as `scrypt$N$r$p$<salt b64>$<hash b64>` with node:crypto, compared in
 * constant time. Used for the users a host defines in configuration.
 */
export const scryptPasswordHasher = {
  async hash(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, cost);
    return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  },

  /**
   * The cost a stored hash was made with; `null` for a hash it cannot read. A login that checks an
   * unknown user against a stand-in hash makes that hash at its users' cost, so that both take as long.
   */
  costOf(stored: string): ScryptCost | null {
    return parse(stored)?.cost ?? null;
  },

  /** `false` for a wrong password and for a hash it cannot read. Hashes on node's thread pool. */
  async verify(password: string, stored: string): Promise<boolean> {
    const hash = parse(stored);
    if (hash === null) return false;
    return timingSafeEqual(await derive(password, hash.salt, hash.cost), hash.expected);
  },

  /**
   * `verify` on the calling thread, blocking it for the whole hash: for a process that does
   * nothing else (`PasswordHasherProcess`), where the thread that hashes must be the one whose
   * priority was lowered.
   */
  verifySync(password: string, stored: string): boolean {
    const hash = parse(stored);
    if (hash === null) return false;
    const actual = scryptSync(password.normalize('NFC'), hash.salt, KEY_LENGTH, scryptOptions(hash.cost));
    return timingSafeEqual(actual, hash.expected);
  },
};
