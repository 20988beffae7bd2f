import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { JsonResponse, type Request, type Response } from '@switchboard/http-kernel';
import type { SecurityUser } from '../user/security-user.js';
import type { AuthenticationOutcome, Authenticator } from './authenticator.js';

/** A machine client's key as stored: its public prefix, the SHA-256 of the whole key, and who it is. */
export interface StoredApiKey {
  /** The key's first part, before the `.`: how the key is found. Not secret. */
  readonly prefix: string;
  /** base64url SHA-256 of the whole key. The key itself is never stored. */
  readonly hash: string;
  readonly user: SecurityUser;
}

/** Where stored keys are looked up by prefix (a database table, a file read at start…). */
export interface ApiKeyStore {
  findByPrefix(prefix: string): StoredApiKey | null | Promise<StoredApiKey | null>;
}

export interface ApiKeyAuthenticatorOptions {
  /** The keys, or a store to ask. */
  keys: readonly StoredApiKey[] | ApiKeyStore;
  /** The request header carrying the key. Default `x-api-key`. */
  header?: string;
}

export const API_KEY_MESSAGES = { missing: 'API key not found', invalid: 'Invalid API key' } as const;

/** The SHA-256 compared when a prefix is unknown, so an unknown prefix costs what a known one does. */
const NO_KEY_HASH = createHash('sha256').update('no such key').digest();

/** A key's shape: `<prefix>.<secret>`, both base64url; anything else is refused unread. */
const KEY_SHAPE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16,256})$/;

/**
 * Authenticates machine clients by an API key in a header (`X-API-Key: <prefix>.<secret>`). Only
 * hashes are stored: the prefix finds the record, and the SHA-256 of the presented key is compared
 * with the stored one in constant time (a fast hash fits: keys are 192 random bits, not passwords).
 * A bad key is a 401 with `WWW-Authenticate: ApiKey`; the key is never logged nor echoed.
 */
export class ApiKeyAuthenticator implements Authenticator {
  readonly name = 'api-key';
  readonly #store: ApiKeyStore;
  readonly #header: string;

  constructor(options: ApiKeyAuthenticatorOptions) {
    if (Array.isArray(options.keys)) {
      const byPrefix = new Map<string, StoredApiKey>();
      for (const key of options.keys as readonly StoredApiKey[]) {
        if (byPrefix.has(key.prefix)) throw new Error(`Two API keys have the prefix "${key.prefix}".`);
        byPrefix.set(key.prefix, key);
      }
      this.#store = { findByPrefix: (prefix) => byPrefix.get(prefix) ?? null };
    } else {
      this.#store = options.keys as ApiKeyStore;
    }
    this.#header = (options.header ?? 'x-api-key').toLowerCase();
  }

  /**
   * A new key for `user`: `key` to hand to the client once, `stored` to keep. The prefix is
   * random unless given (`prefix` must be base64url, at most 64 characters).
   */
  static generate(user: SecurityUser, prefix = randomBytes(6).toString('base64url')): { key: string; stored: StoredApiKey } {
    const key = `${prefix}.${randomBytes(24).toString('base64url')}`;
    if (!KEY_SHAPE.test(key)) throw new TypeError('An API key prefix is 1 to 64 base64url characters.');
    return { key, stored: { prefix, hash: hashOf(key).toString('base64url'), user } };
  }

  async authenticate(request: Request): Promise<AuthenticationOutcome> {
    const values = request.headers.getAll(this.#header);
    if (values.length === 0) return { kind: 'absent' };
    const match = values.length === 1 ? KEY_SHAPE.exec(values[0]!) : null;
    if (match === null) return this.#invalid();
    const stored = await this.#store.findByPrefix(match[1]!);
    const expected = stored === null ? NO_KEY_HASH : Buffer.from(stored.hash, 'base64url');
    const presented = hashOf(values[0]!);
    const equal = expected.length === presented.length && timingSafeEqual(expected, presented);
    if (stored === null || !equal) return this.#invalid();
    return { kind: 'authenticated', user: stored.user };
  }

  start(): Response {
    return refusal(API_KEY_MESSAGES.missing, 'ApiKey');
  }

  #invalid(): AuthenticationOutcome {
    return { kind: 'failed', reason: API_KEY_MESSAGES.invalid, response: refusal(API_KEY_MESSAGES.invalid, 'ApiKey error="invalid_key"') };
  }
}

function hashOf(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function refusal(message: string, challenge: string): JsonResponse {
  return new JsonResponse({ code: 401, message }, 401, { 'www-authenticate': challenge });
}
