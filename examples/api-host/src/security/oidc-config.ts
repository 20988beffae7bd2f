import { OidcAuthenticator } from '@switchboard/security';
import { ConfigError } from '../config.js';

/** Tokens of OpenID Connect providers, accepted beside the host's own (see docs/security.md, "OpenID Connect providers"). */
export interface OidcConfig {
  /** Env `OIDC_ISSUER`: one issuer URL, or several separated by commas. */
  readonly issuers: readonly string[];
  /** Env `OIDC_AUDIENCE`: the `aud` this API's tokens carry. Required with `OIDC_ISSUER`. */
  readonly audience: string;
  /** Env `OIDC_JWKS_URI`: the key set's address, skipping discovery; one issuer only. */
  readonly jwksUri: string | undefined;
  /** Env `OIDC_STALE_IF_ERROR`: seconds cached keys outlive their lifetime while the provider is down. Default 3600. */
  readonly staleIfError: number;
}

/** `null` when `OIDC_ISSUER` is unset: the host then accepts its own tokens only. */
export function oidcConfigFromEnv(env: NodeJS.ProcessEnv): OidcConfig | null {
  const issuers = (env['OIDC_ISSUER'] ?? '')
    .split(',')
    .map((issuer) => issuer.trim())
    .filter((issuer) => issuer !== '');
  const audience = env['OIDC_AUDIENCE']?.trim() ?? '';
  const jwksUri = env['OIDC_JWKS_URI']?.trim() || undefined;
  if (issuers.length === 0) {
    if (audience !== '' || jwksUri !== undefined) throw new ConfigError('OIDC_AUDIENCE and OIDC_JWKS_URI need OIDC_ISSUER.');
    return null;
  }
  if (audience === '') throw new ConfigError('OIDC_ISSUER is set but OIDC_AUDIENCE is not: name the audience of this API.');
  if (jwksUri !== undefined && issuers.length > 1)
    throw new ConfigError('OIDC_JWKS_URI names the keys of one issuer; OIDC_ISSUER lists several.');
  const stale = env['OIDC_STALE_IF_ERROR']?.trim() || '3600';
  if (!/^\d+$/.test(stale)) throw new ConfigError(`OIDC_STALE_IF_ERROR must be a whole number of seconds, got "${stale}".`);
  return { issuers, audience, jwksUri, staleIfError: Number(stale) };
}

/**
 * The authenticator for `config`: RS256 and ES256 tokens, 30 s of clock skew, key sets by the
 * library's defaults but `staleIfError`. Tokens of other issuers (the host's own) go on to the next authenticator.
 */
export function oidcAuthenticator(config: OidcConfig): OidcAuthenticator {
  try {
    return new OidcAuthenticator({
      issuers: config.issuers.map((issuer) => ({
        issuer,
        audience: config.audience,
        algorithms: ['RS256', 'ES256'],
        keySet: { staleIfError: config.staleIfError },
        ...(config.jwksUri === undefined ? {} : { jwksUri: config.jwksUri }),
      })),
      passOtherIssuers: true,
    });
  } catch (error) {
    throw error instanceof Error && error.name !== 'Error' ? new ConfigError(error.message) : error;
  }
}
