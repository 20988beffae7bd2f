import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs cookie values so that a client can read but not change them: `value.signature`, the
 * signature an HMAC-SHA256 of the cookie's name and value (a signed value cannot be moved to
 * another cookie). Signs with the first key and accepts any listed: to rotate, put the new key
 * first and drop the old one once the cookies it signed have expired.
 */
export class CookieSigner {
  readonly #keys: readonly Buffer[];

  /** Each key at least 32 bytes (a string is taken as UTF-8). */
  constructor(keys: readonly (string | Uint8Array)[]) {
    if (keys.length === 0) throw new RangeError('CookieSigner needs at least one key.');
    this.#keys = keys.map((key) => {
      const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
      if (bytes.length < 32) throw new RangeError('A cookie signing key must be at least 32 bytes long.');
      return bytes;
    });
  }

  sign(name: string, value: string): string {
    return `${value}.${this.#mac(this.#keys[0]!, name, value).toString('base64url')}`;
  }

  /** The value a signed cookie carries, or `null` when it is missing or its signature matches no key. */
  verify(name: string, signed: string | undefined): string | null {
    if (signed === undefined) return null;
    const dot = signed.lastIndexOf('.');
    if (dot === -1) return null;
    const value = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1), 'base64url');
    for (const key of this.#keys) {
      const expected = this.#mac(key, name, value);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return value;
    }
    return null;
  }

  #mac(key: Buffer, name: string, value: string): Buffer {
    return createHmac('sha256', key).update(name).update('\u0000').update(value).digest();
  }
}
