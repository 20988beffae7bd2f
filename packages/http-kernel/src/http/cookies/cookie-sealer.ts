import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Each key is known by the first bytes of its hash, so that opening tries the right key first. */
const KEY_ID_BYTES = 4;

/**
 * Seals cookie values with AES-256-GCM so that a client can neither read nor change them: the
 * cookie holds `keyId.iv.ciphertext.tag` (base64url), the cookie's name bound in as associated
 * data (a sealed value cannot be moved to another cookie). Seals with the first key and opens
 * with any listed: to rotate, put the new key first, drop the old one once its cookies expired.
 */
export class CookieSealer {
  readonly #keys: readonly { id: string; key: Buffer }[];

  /** Each key exactly 32 bytes (`randomBytes(32)`, or 64 hex characters). */
  constructor(keys: readonly (string | Uint8Array)[]) {
    if (keys.length === 0) throw new RangeError('CookieSealer needs at least one key.');
    this.#keys = keys.map((key) => {
      const bytes = typeof key === 'string' ? Buffer.from(key, 'hex') : Buffer.from(key);
      if (bytes.length !== 32) throw new RangeError('A cookie sealing key must be 32 bytes (64 hex characters).');
      return { id: createHash('sha256').update(bytes).digest().subarray(0, KEY_ID_BYTES).toString('base64url'), key: bytes };
    });
  }

  seal(name: string, value: string): string {
    const { id, key } = this.#keys[0]!;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(name, 'utf8'));
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [id, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The value a sealed cookie carries, or `null` when it is missing, malformed, or no key opens it. */
  open(name: string, sealed: string | undefined): string | null {
    if (sealed === undefined) return null;
    const parts = sealed.split('.');
    if (parts.length !== 4) return null;
    const [id, ivText, dataText, tagText] = parts as [string, string, string, string];
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
    const data = Buffer.from(dataText, 'base64url');
    const candidates = [...this.#keys].sort((a, b) => Number(b.id === id) - Number(a.id === id));
    for (const { key } of candidates) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES }).setAAD(Buffer.from(name, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        // Not this key (or a forged value): the next one is tried.
      }
    }
    return null;
  }
}
