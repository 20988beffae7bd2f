import type { KeyObject } from 'node:crypto';
import type { JwsAlgorithm } from '../key/jws-algorithms.js';
import { assertFetchableUrl, fetchJson } from './fetch-json.js';
import { KeySetUnavailableError, RemoteKeySet, type KeySetState, type RemoteKeySetOptions } from './remote-key-set.js';

/** Where an issuer's keys are: its discovery document, or the key set's address given outright. */
export interface OidcIssuerKeys {
  /** The exact `iss` its tokens carry; `<issuer>/.well-known/openid-configuration` is read unless `jwksUri` is given. */
  readonly issuer: string;
  /** The JWKS address, skipping discovery. */
  readonly jwksUri?: string;
  readonly keySet?: RemoteKeySetOptions;
}

/**
 * One issuer's keys: discovery (once, and again a cooldown after a failure), then the key set.
 * The discovery document must name the issuer exactly (OpenID Connect Discovery §4.3), so a
 * document served elsewhere cannot claim another issuer's tokens.
 */
export class OidcIssuer {
  readonly issuer: string;
  readonly #options: RemoteKeySetOptions;
  #keySet: RemoteKeySet | null = null;
  #discovering: Promise<RemoteKeySet | null> | null = null;
  #lastDiscovery = Number.NEGATIVE_INFINITY;
  readonly #now: () => Date;

  constructor(config: OidcIssuerKeys) {
    this.issuer = config.issuer;
    this.#options = config.keySet ?? {};
    this.#now = this.#options.now ?? (() => new Date());
    assertFetchableUrl(config.issuer, 'issuer');
    if (config.jwksUri !== undefined) {
      assertFetchableUrl(config.jwksUri, 'JWKS URI');
      this.#keySet = new RemoteKeySet(config.jwksUri, this.#options);
    }
  }

  /** The key for the token's `kid` and `alg` from this issuer's set only; see `RemoteKeySet.keyFor`. */
  async keyFor(kid: string | undefined, alg: JwsAlgorithm): Promise<KeyObject | null> {
    return (await this.#resolvedKeySet()).keyFor(kid, alg);
  }

  /** Discovery done and a usable key set cached (fetching when needed): what readiness asks. */
  async ready(): Promise<boolean> {
    try {
      return await (await this.#resolvedKeySet()).ready();
    } catch (error) {
      if (error instanceof KeySetUnavailableError) return false;
      throw error;
    }
  }

  /** The key set's state; `null` while discovery has not found it. */
  get keySetState(): KeySetState | null {
    return this.#keySet?.state ?? null;
  }

  /** Seconds before the set is fetched again: what a 503's `Retry-After` says. */
  get retryAfter(): number {
    return Math.max(1, Math.ceil(this.#options.cooldown ?? 30));
  }

  async #resolvedKeySet(): Promise<RemoteKeySet> {
    if (this.#keySet !== null) return this.#keySet;
    const cooldown = (this.#options.cooldown ?? 30) * 1000;
    if (this.#discovering === null && this.#now().getTime() - this.#lastDiscovery >= cooldown) {
      this.#discovering = this.#discover().finally(() => {
        this.#discovering = null;
      });
    }
    const keySet = this.#discovering === null ? null : await this.#discovering;
    if (keySet === null) throw new KeySetUnavailableError(`${this.issuer} (discovery)`);
    return keySet;
  }

  async #discover(): Promise<RemoteKeySet | null> {
    this.#lastDiscovery = this.#now().getTime();
    const url = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    try {
      const { body } = await fetchJson(url, { timeout: this.#options.timeout ?? 5000, maxBytes: 262_144 });
      const document = body as { issuer?: unknown; jwks_uri?: unknown } | null;
      if (document?.issuer !== this.issuer || typeof document.jwks_uri !== 'string') return null;
      assertFetchableUrl(document.jwks_uri, 'JWKS URI');
      this.#keySet = new RemoteKeySet(document.jwks_uri, this.#options);
      return this.#keySet;
    } catch {
      return null;
    }
  }
}
