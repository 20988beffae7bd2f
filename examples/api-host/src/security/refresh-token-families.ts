import { randomBytes } from 'node:crypto';

/** Who a refresh token family logs in, as the access token names them. */
export interface RefreshedUser {
  readonly identifier: string;
  readonly roles: readonly string[];
}

/** What a refresh cookie carries (sealed): its family and which token of the family it is. */
export interface RefreshTokenRef {
  readonly family: string;
  readonly token: string;
}

interface Family {
  readonly user: RefreshedUser;
  /** The one token of the family that may be used next; every earlier one is spent. */
  current: string;
  /** Epoch ms; the family ends then, whatever is refreshed before. */
  readonly expiresAt: number;
}

/** Why a refresh was refused, for the log line: the client gets the same 401 for each. */
export type RefreshRefusal = 'unknown' | 'expired' | 'reused';

/**
 * Refresh tokens by family (one per login with "remember me"), rotated at each use: a refresh
 * spends its token and hands out the next. A spent token coming back means two parties hold the
 * family (a stolen cookie, or the legitimate client after the thief refreshed): the family is
 * revoked, so both must log in again.
 *
 * Kept in the process's memory, bounded: a restart logs everybody out, and a cluster's workers
 * each know their own families only (a shared store, such as Redis, is what a real deployment needs).
 */
export class RefreshTokenFamilies {
  readonly #families = new Map<string, Family>();
  readonly #ttlMs: number;
  readonly #maxFamilies: number;
  readonly #now: () => number;

  constructor(options: { ttlSeconds: number; maxFamilies?: number; now?: () => number }) {
    this.#ttlMs = options.ttlSeconds * 1000;
    this.#maxFamilies = options.maxFamilies ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** A new family for `user`; its first token. */
  start(user: RefreshedUser): RefreshTokenRef {
    if (this.#families.size >= this.#maxFamilies) this.#evictOldest();
    const family = randomBytes(16).toString('base64url');
    const token = randomBytes(16).toString('base64url');
    this.#families.set(family, { user, current: token, expiresAt: this.#now() + this.#ttlMs });
    return { family, token };
  }

  /** Spends `ref` and returns the family's next token, or why it cannot (a reuse revokes the family). */
  rotate(ref: RefreshTokenRef): { user: RefreshedUser; next: RefreshTokenRef } | { refused: RefreshRefusal } {
    const family = this.#families.get(ref.family);
    if (family === undefined) return { refused: 'unknown' };
    if (family.expiresAt <= this.#now()) {
      this.#families.delete(ref.family);
      return { refused: 'expired' };
    }
    if (family.current !== ref.token) {
      this.#families.delete(ref.family);
      return { refused: 'reused' };
    }
    family.current = randomBytes(16).toString('base64url');
    return { user: family.user, next: { family: ref.family, token: family.current } };
  }

  /** Seconds a family lives: the refresh cookie's `Max-Age`. */
  get ttlSeconds(): number {
    return this.#ttlMs / 1000;
  }

  /** The oldest family goes first (Map keeps insertion order). */
  #evictOldest(): void {
    const oldest = this.#families.keys().next();
    if (oldest.done !== true) this.#families.delete(oldest.value);
  }
}
