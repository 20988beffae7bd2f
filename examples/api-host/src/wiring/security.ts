import cluster from 'node:cluster';
import { nullLogger } from '@switchboard/http-kernel';
import { RouteCollection } from '@switchboard/router';
import {
  FirewallListener,
  FirewallMap,
  IS_AUTHENTICATED,
  IsGrantedListener,
  JwtAuthenticator,
  JwtTokenIssuer,
  PasswordHasherProcess,
  PasswordHashingQueue,
  PUBLIC_ACCESS,
  SameOriginListener,
  StatelessCheckListener,
  type LoginThrottle,
  type SameOriginOptions,
} from '@switchboard/security';
import { oidcAuthenticator, oidcConfigFromEnv } from '../security/oidc-config.js';
import { securityControllers } from '../security/security-controllers.js';
import { loadKeys, securityConfigFromEnv, securitySecrets, type SecurityConfig } from '../security/security-config.js';
import { RefreshCookie } from '../security/refresh-cookie.js';
import { RefreshTokenFamilies } from '../security/refresh-token-families.js';
import { refreshCookieKeys, refreshTtlSeconds } from '../security/refresh-settings.js';
import { ADMIN_RESPONSES, ME_RESPONSES, REFRESH_RESPONSES, TOKEN_RESPONSES } from '../security/security-responses.js';
import { readUsers, refuseDemoUsers } from '../security/users.js';
import { isCorsOrigin } from './cors.js';
import { isOn } from './observability.js';
import type { HostContext, Wiring } from './wiring.js';

/**
 * Who may ask for a token: a page of this origin or of an origin CORS lets in, and programs
 * (curl, servers: neither `Origin` nor `Sec-Fetch-Site`). Any other page is refused (403) before
 * a password is checked; with the 415 for a body that is not JSON, no cross-site page can make
 * its visitors' browsers run password checks.
 */
const TOKEN_SAME_ORIGIN: SameOriginOptions = { trustedOrigins: isCorsOrigin, allowNonBrowserClients: true };

/** A refresh is sent by a page's script with its cookie: a program without `Origin` has no business here. */
const REFRESH_SAME_ORIGIN: SameOriginOptions = { trustedOrigins: isCorsOrigin };

export interface WiredSecurity extends Wiring {
  /** The firewalls, in matching order (the OpenAPI document reads which paths they guard). */
  readonly firewalls: FirewallMap;
  /** Bounds the password checks of `POST /api/token`; its `stats` say what it did. */
  readonly passwordHashing: PasswordHashingQueue;
  /** Signs the tokens `POST /api/token` hands out; tests log users in with it (`client.loginAs`). */
  readonly tokenIssuer: JwtTokenIssuer;
  /** Readiness checks: `oidc` (the providers' key sets usable) when `OIDC_ISSUER` is set. */
  readonly readinessChecks: Readonly<Record<string, () => Promise<boolean>>>;
}

/**
 * The security of the example host: firewalls (`^/_profiler` and `^/health` open, `^/api`
 * stateless JWT: the host's own tokens, and those of OpenID Connect providers with `OIDC_ISSUER`), the same-origin, authorization and stateless checks, and the routes
 * `POST /api/token` (users from `SECURITY_USERS_FILE`, throttled by `loginThrottle`), `GET /api/me`
 * and `GET /api/admin` (ROLE_ADMIN). With `REFRESH_COOKIE=1` (see `isRefreshCookieOn`), also the
 * refresh-cookie flow: `"remember": true` sets a refresh cookie, `POST /api/token/refresh` spends
 * it. The key passphrase is a secret the profiler redacts. A key that cannot be loaded is a
 * `ConfigError` naming the file and the problem, never the passphrase.
 */
export function wireSecurity(
  host: HostContext,
  loginThrottle: LoginThrottle | null,
  settings: SecurityConfig = securityConfigFromEnv(host.env, host.logger),
): WiredSecurity {
  const { debug, logger } = host;
  const keys = loadKeys(settings);
  // A cluster's primary has warned already: one warning per host, not per worker.
  refuseDemoUsers(settings.usersFile, debug, host.env, cluster.isWorker ? nullLogger : logger);
  const localTokens = new JwtAuthenticator({ publicKey: keys.publicKey, clockSkew: 30 });
  // With OIDC_ISSUER, providers' tokens are accepted beside the host's own: the OIDC authenticator
  // decides tokens whose `iss` is one of its issuers, and leaves the others to the local keys.
  const oidcConfig = oidcConfigFromEnv(host.env);
  const oidc = oidcConfig === null ? null : oidcAuthenticator(oidcConfig);
  const firewalls = new FirewallMap([
    { name: 'profiler', pattern: /^\/_profiler(\/|$)/, security: false },
    { name: 'health', pattern: /^\/health(\/|$)/, security: false },
    { name: 'api', pattern: /^\/api(\/|$)/, authenticators: [...(oidc === null ? [] : [oidc]), localTokens] },
  ]);
  const passwordHashing = new PasswordHashingQueue({ logger });
  const passwordChecker = new PasswordHasherProcess({ logger });
  // Started now so the first login does not wait for it; a failed start is logged, and the next check tries again.
  passwordChecker.start().catch(() => undefined);
  const tokenIssuer = new JwtTokenIssuer({ privateKey: keys.privateKey!, ttl: settings.ttl });
  const users = readUsers(settings.usersFile);
  const refreshKeys = isRefreshCookieOn(host.env) ? refreshCookieKeys(host.env, logger) : null;
  const refresh =
    refreshKeys === null
      ? null
      : { families: new RefreshTokenFamilies({ ttlSeconds: refreshTtlSeconds(host.env) }), cookie: new RefreshCookie(refreshKeys) };
  const controllers = securityControllers({ users, issuer: tokenIssuer, passwordHashing, passwordChecker, loginThrottle, refresh, logger });

  const routes = new RouteCollection().add('api_token', '/api/token', {
    methods: ['POST'],
    controller: controllers.token,
    // Stateless as the rest of /api (the stateless check removes any cookie), unless it sets the refresh cookie.
    defaults: {
      _is_granted: PUBLIC_ACCESS,
      _same_origin: TOKEN_SAME_ORIGIN,
      ...(refresh === null ? {} : { _stateless: false }),
      _responses: TOKEN_RESPONSES,
    },
  });
  if (controllers.refresh !== null) {
    routes.add('api_token_refresh', '/api/token/refresh', {
      methods: ['POST'],
      controller: controllers.refresh,
      // The cookie is the credential: browsers only, from this origin or one CORS lets in.
      defaults: { _is_granted: PUBLIC_ACCESS, _same_origin: REFRESH_SAME_ORIGIN, _stateless: false, _responses: REFRESH_RESPONSES },
    });
  }
  routes
    .add('api_me', '/api/me', {
      methods: ['GET'],
      controller: controllers.me,
      defaults: { _is_granted: IS_AUTHENTICATED, _responses: ME_RESPONSES },
    })
    .add('api_admin', '/api/admin', {
      methods: ['GET'],
      controller: controllers.admin,
      defaults: { _is_granted: 'ROLE_ADMIN', _responses: ADMIN_RESPONSES },
    });
  return {
    subscribers: [
      new FirewallListener(firewalls, { logger }),
      new SameOriginListener(),
      new IsGrantedListener(),
      new StatelessCheckListener({ debug, logger }),
    ],
    routes,
    secrets: [...securitySecrets(settings), ...(refreshKeys ?? [])],
    onShutdown: () => passwordChecker.close(),
    firewalls,
    passwordHashing,
    tokenIssuer,
    readinessChecks: oidc === null ? {} : { oidc: () => oidc.ready() },
  };
}

/**
 * Env `REFRESH_COOKIE` (`1`, `true`, `on`, `yes`): the refresh-cookie flow of a single-page app.
 * Off by default: the API is stateless and bearer-token only, and sets no cookie; an operator who
 * serves such an app opts in.
 */
export function isRefreshCookieOn(env: NodeJS.ProcessEnv): boolean {
  return isOn(env['REFRESH_COOKIE']);
}
