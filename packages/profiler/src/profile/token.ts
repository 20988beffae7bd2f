import { randomFillSync } from 'node:crypto';

/** Symfony's length: short enough to read aloud, long enough with bounded storage. */
export const DEFAULT_TOKEN_LENGTH = 6;

/** How many fresh tokens to try before concluding the token space is exhausted. */
const MAX_ATTEMPTS = 64;

/** Random bytes drawn in blocks: one system call serves hundreds of tokens. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomHex(length: number): string {
  const bytes = Math.ceil(length / 2);
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  // Used bytes are never handed out twice.
  poolOffset += bytes;
  return hex.slice(0, length);
}

/**
 * A new profile token: `length` lowercase hex characters from a cryptographic random source
 * (never sequential, so tokens cannot be guessed from one another), differing from every token
 * `isTaken` reports.
 */
export function generateToken(isTaken: (token: string) => boolean, length = DEFAULT_TOKEN_LENGTH): string {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const token = randomHex(length);
    if (!isTaken(token)) return token;
  }
  throw new Error(
    `No free profiler token of ${length} hex characters after ${MAX_ATTEMPTS} tries; raise tokenLength or lower the storage bound.`,
  );
}

/**
 * Whether `value` has the shape of a token this profiler issues. Checked before any storage is
 * read, so a path such as `../../etc/passwd` never reaches a file name or a lookup.
 */
export function isValidToken(value: unknown, length = DEFAULT_TOKEN_LENGTH): value is string {
  return typeof value === 'string' && value.length === length && /^[0-9a-f]+$/.test(value);
}
