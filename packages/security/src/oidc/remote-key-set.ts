import { createPublicKey, type KeyObject } from 'node:crypto';
import { isSupportedAlgorithm, keyFitsAlgorithm, type JwsAlgorithm } from '../key/jws-algorithms.js';
import { freshnessLifetime } from './cache-control.js';
import { fetchJson } from './fetch-json.js';

export interface RemoteKeySetOptions {
  /**
   * Seconds an unknown `kid` waits after the last fetch an unknown `kid` caused (a stream of tokens
   * with random `kid`s costs the provider one request per cooldown), and any fetch after a failed
   * one. Default 30.
   */
  cooldown?: number;
  /** Seconds the set is used when the provider's `Cache-Control` says nothing. Default 600. */
  defaultCacheAge?: number;
  /** Upper bound on the provider's `max-age`, in seconds, so a rotation is seen within it. Default 86 400. */
  maxCacheAge?: number;
  /**
   * Lower bound on the provider's `max-age`, in seconds: a provider that says `max-age=0` or
   * `no-store` would otherwise cost it one fetch per token verified. Default 5.
   */
  minCacheAge?: number;
  /**
   * Part of the set's lifetime after which a token's lookup refetches it in the background (the
   * token is verified with the cached keys meanwhile). Default 0.8.
   */
  refreshAhead?: number;
  /** Seconds past its lifetime the cached set keeps verifying while the provider cannot be reached. Default 3600. */
  staleIfError?: number;
  /** Milliseconds a fetch may take. Default 5000. */
  timeout?: number;
  /** Largest key set accepted, in bytes. Default 256 KiB. */
  maxBytes?: number;
  /** The current time; tests may drive it. */
  now?: () => Date;
}

/** The key set as readiness and the profiler show it. */
export interface KeySetState {
  readonly url: string;
  /**
   * `empty`: no set fetched yet (or none since the last one ran out); `fresh`: within its lifetime;
   * `stale`: past it, the provider not reachable, within `staleIfError`; `expired`: past that too.
   */
  readonly status: 'empty' | 'fresh' | 'stale' | 'expired';
  readonly kids: readonly string[];
  readonly fetchedAt: Date | null;
  readonly expiresAt: Date | null;
  /** Fetches started, and how many of them failed. */
  readonly fetches: number;
  readonly failures: number;
  /** Why the last fetch failed (a fixed phrase), or `null` when it succeeded. */
  readonly lastError: string | null;
}

/** Thrown when no usable set is cached and the provider cannot give one. */
export class KeySetUnavailableError extends Error {
  constructor(url: string) {
    super(`The key set ${url} is not available.`);
    this.name = 'KeySetUnavailableError';
  }
}

interface CachedKey {
  readonly kid: string | undefined;
  /** The JWK's own `alg`, when it names one: the only algorithm the key then serves. */
  readonly alg: string | undefined;
  readonly key: KeyObject;
}

interface CachedSet {
  readonly keys: readonly CachedKey[];
  readonly byKid: ReadonlyMap<string, readonly CachedKey[]>;
  readonly fetchedAt: number;
  readonly lifetime: number;
}

/**
 * A provider's JWKS, fetched with `fetch` and kept by its `Cache-Control`: keys are found by
 * `kid` (and the token's `alg` must fit the key's type, curve and own `alg`), never tried in
 * turn. One fetch at a time, and at most one per cooldown; symmetric (`oct`) keys, encryption
 * keys and keys with private parts are left out of the set.
 */
export class RemoteKeySet {
  readonly url: string;
  readonly #cooldown: number;
  readonly #defaultCacheAge: number;
  readonly #maxCacheAge: number;
  readonly #minCacheAge: number;
  readonly #refreshAhead: number;
  readonly #staleIfError: number;
  readonly #fetchOptions: { timeout: number; maxBytes: number };
  readonly #now: () => Date;
  #set: CachedSet | null = null;
  #inFlight: Promise<void> | null = null;
  /** When the last fetch started (ms), successful or not: an expired set or a failing provider waits a cooldown from it. */
  #lastAttempt = Number.NEGATIVE_INFINITY;
  /** When an unknown `kid` last caused a fetch (ms): the next one waits a cooldown from it. */
  #lastKidRefetch = Number.NEGATIVE_INFINITY;
  #fetches = 0;
  #failures = 0;
  #lastError: string | null = null;

  constructor(url: string, options: RemoteKeySetOptions = {}) {
    this.url = url;
    this.#cooldown = seconds('cooldown', options.cooldown ?? 30) * 1000;
    this.#defaultCacheAge = seconds('defaultCacheAge', options.defaultCacheAge ?? 600);
    this.#maxCacheAge = seconds('maxCacheAge', options.maxCacheAge ?? 86_400);
    this.#minCacheAge = Math.min(seconds('minCacheAge', options.minCacheAge ?? 5), this.#maxCacheAge);
    this.#staleIfError = seconds('staleIfError', options.staleIfError ?? 3600) * 1000;
    this.#refreshAhead = options.refreshAhead ?? 0.8;
    if (!(this.#refreshAhead > 0 && this.#refreshAhead <= 1)) throw new RangeError('refreshAhead must be in (0, 1].');
    this.#fetchOptions = { timeout: options.timeout ?? 5000, maxBytes: options.maxBytes ?? 262_144 };
    this.#now = options.now ?? (() => new Date());
  }

  /** Seconds between fetches: what a `Retry-After` can say while the set is unavailable. */
  get cooldownSeconds(): number {
    return Math.ceil(this.#cooldown / 1000);
  }

  /**
   * The key for a token's `kid` and `alg`, or `null` when the set has none (after at most one
   * refetch per cooldown). A token without `kid` gets the set's only key for `alg`, if there is
   * exactly one. Throws `KeySetUnavailableError` when no set is usable at all.
   */
  async keyFor(kid: string | undefined, alg: JwsAlgorithm): Promise<KeyObject | null> {
    const fetchesBefore = this.#fetches;
    const set = await this.#usableSet();
    const key = pick(set, kid, alg);
    // An unknown `kid` may be a rotation: refetch, unless this call fetched already or the cooldown forbids.
    if (key !== null || this.#fetches !== fetchesBefore || !this.#mayRefetchForKid()) return key;
    if (this.#inFlight === null) this.#lastKidRefetch = this.#now().getTime();
    await this.#refetch();
    return pick(this.#set ?? set, kid, alg);
  }

  /** Fetches the set unless a usable one is cached (for readiness and startup); `false` when none is usable. */
  async ready(): Promise<boolean> {
    try {
      await this.#usableSet();
      return true;
    } catch (error) {
      if (error instanceof KeySetUnavailableError) return false;
      throw error;
    }
  }

  get state(): KeySetState {
    const set = this.#set;
    return {
      url: this.url,
      status: set === null ? 'empty' : this.#statusOf(set, this.#now().getTime()),
      kids: set === null ? [] : set.keys.flatMap((key) => (key.kid === undefined ? [] : [key.kid])),
      fetchedAt: set === null ? null : new Date(set.fetchedAt),
      expiresAt: set === null ? null : new Date(set.fetchedAt + set.lifetime),
      fetches: this.#fetches,
      failures: this.#failures,
      lastError: this.#lastError,
    };
  }

  #statusOf(set: CachedSet, now: number): KeySetState['status'] {
    const expiresAt = set.fetchedAt + set.lifetime;
    if (now < expiresAt) return 'fresh';
    return now < expiresAt + this.#staleIfError ? 'stale' : 'expired';
  }

  /** The cached set when it may be used, fetching first when needed and allowed. */
  async #usableSet(): Promise<CachedSet> {
    const now = this.#now().getTime();
    const cached = this.#set;
    if (cached !== null && now < cached.fetchedAt + cached.lifetime) {
      // Fresh: refresh in the background once most of its lifetime has passed.
      if (now >= cached.fetchedAt + cached.lifetime * this.#refreshAhead && this.#mayFetch()) void this.#refetch();
      return cached;
    }
    if (this.#mayFetch()) await this.#refetch();
    const set = this.#set;
    if (set === null) throw new KeySetUnavailableError(this.url);
    // Past its lifetime (the provider unreachable, or within the cooldown of the last try): stale keys within the bound.
    if (this.#statusOf(set, this.#now().getTime()) === 'expired') throw new KeySetUnavailableError(this.url);
    return set;
  }

  /** A fetch is in flight to join, the last one succeeded, or it failed a cooldown ago (a provider that is down is not hammered). */
  #mayFetch(): boolean {
    return this.#inFlight !== null || this.#lastError === null || this.#now().getTime() - this.#lastAttempt >= this.#cooldown;
  }

  #mayRefetchForKid(): boolean {
    return this.#inFlight !== null || this.#now().getTime() - this.#lastKidRefetch >= this.#cooldown;
  }

  /** Joins the fetch in flight, or starts one. Never rejects: a failure is recorded in the state. */
  #refetch(): Promise<void> {
    this.#inFlight ??= this.#fetch().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #fetch(): Promise<void> {
    this.#lastAttempt = this.#now().getTime();
    this.#fetches += 1;
    try {
      const fetched = await fetchJson(this.url, this.#fetchOptions);
      const keys = importKeys(fetched.body);
      const stated = freshnessLifetime(fetched.cacheControl, fetched.age) ?? this.#defaultCacheAge;
      const lifetime = Math.min(Math.max(stated, this.#minCacheAge), this.#maxCacheAge);
      const byKid = new Map<string, CachedKey[]>();
      for (const key of keys) if (key.kid !== undefined) byKid.set(key.kid, [...(byKid.get(key.kid) ?? []), key]);
      this.#set = { keys, byKid, fetchedAt: this.#now().getTime(), lifetime: lifetime * 1000 };
      this.#lastError = null;
    } catch (error) {
      this.#failures += 1;
      this.#lastError = error instanceof Error && error.name === 'Error' ? error.message : 'The identity provider could not be reached.';
    }
  }
}

function seconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number of seconds ≥ 0, got ${String(value)}.`);
  return value;
}

/** The one key of `set` for this `kid` and `alg`. */
function pick(set: CachedSet, kid: string | undefined, alg: JwsAlgorithm): KeyObject | null {
  if (!isSupportedAlgorithm(alg)) return null;
  const fits = (candidate: CachedKey) => (candidate.alg === undefined || candidate.alg === alg) && keyFitsAlgorithm(alg, candidate.key);
  if (kid !== undefined) return set.byKid.get(kid)?.find(fits)?.key ?? null;
  const fitting = set.keys.filter(fits);
  return fitting.length === 1 ? fitting[0]!.key : null;
}

/** The verification keys of a JWKS document; a document that is not one throws. */
function importKeys(document: unknown): CachedKey[] {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('The key set has no "keys" array.');
  const imported: CachedKey[] = [];
  for (const jwk of keys as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { kty, use, key_ops: keyOps, kid, alg } = jwk as Record<string, unknown>;
    // Never HMAC from a key set: a public document cannot hold a shared secret.
    if (kty !== 'RSA' && kty !== 'EC' && kty !== 'OKP') continue;
    if (use !== undefined && use !== 'sig') continue;
    if (keyOps !== undefined && !(Array.isArray(keyOps) && keyOps.includes('verify'))) continue;
    if ('d' in jwk) continue;
    if (kid !== undefined && typeof kid !== 'string') continue;
    if (alg !== undefined && typeof alg !== 'string') continue;
    try {
      imported.push({ kid, alg, key: createPublicKey({ key: jwk as JsonWebKeyInput['key'], format: 'jwk' }) });
    } catch {
      // A key node:crypto cannot read is left out; the others still serve.
    }
  }
  return imported;
}

type JsonWebKeyInput = import('node:crypto').JsonWebKeyInput;
