import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  defineController,
  JsonResponse,
  nullLogger,
  ServiceUnavailableHttpError,
  type Controller,
  type EventDispatcher,
  type KernelEventMap,
  type Logger,
  type Request,
} from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import type { RouteOptions } from '@switchboard/router';
import {
  currentUser,
  FirewallListener,
  FirewallMap,
  IS_AUTHENTICATED,
  IsGrantedListener,
  JwtAuthenticator,
  JwtTokenIssuer,
  KeyLoadError,
  type LoginThrottle,
  loadJwtKeys,
  PUBLIC_ACCESS,
  SameOriginListener,
  PasswordHasherProcess,
  PasswordHashingQueue,
  scryptPasswordHasher,
  type ScryptCost,
  SessionGuard,
  StatelessCheckListener,
  type JwtKeys,
  type SameOriginOptions,
} from '@switchboard/security';
import { z } from 'zod';
import { ConfigError, HOST_ROOT } from '../config.js';
import { isCorsOrigin } from './cors.js';
import { ADMIN_RESPONSES, ME_RESPONSES, TOKEN_RESPONSES } from '../security/security-responses.js';

/** What this wiring needs from the app: the dispatcher, somewhere to add routes, the mode, a logger, the environment. */
export interface SecurityHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  routes: { add(name: string, path: string, options: RouteOptions): unknown };
  debug: boolean;
  logger?: Logger;
  config?: { env: NodeJS.ProcessEnv };
}

export interface SecurityConfig {
  /** Private key PEM (encrypted PKCS#8). Env `JWT_SECRET_KEY`; default `var/jwt/private.pem`, generated at first start. */
  privateKeyPath: string;
  /** Env `JWT_PUBLIC_KEY`; default `var/jwt/public.pem`. */
  publicKeyPath: string;
  /** Env `JWT_PASSPHRASE`; when unset, the one generated at first start in `var/jwt/passphrase` (git-ignored). */
  passphrase: string | undefined;
  /** Env `JWT_TTL`, seconds. Default 900. */
  ttl: number;
  /** Env `SECURITY_USERS_FILE`; default `config/security-users.json`. */
  usersFile: string;
}

interface ConfiguredUser {
  username: string;
  roles: string[];
  password: string;
}

/**
 * Reads the security configuration from the environment. With the default key paths, the
 * first start creates `var/jwt/` (key pair, and the passphrase when `JWT_PASSPHRASE` is unset);
 * keys configured elsewhere must exist — never generated behind the operator's back. The
 * passphrase itself is never logged.
 */
export function securityConfigFromEnv(env: NodeJS.ProcessEnv, logger: Logger, varDir = join(HOST_ROOT, 'var')): SecurityConfig {
  const jwtDir = join(varDir, 'jwt');
  const explicitKeys = nonEmpty(env['JWT_SECRET_KEY']) !== undefined || nonEmpty(env['JWT_PUBLIC_KEY']) !== undefined;
  let passphrase = nonEmpty(env['JWT_PASSPHRASE']);
  if (!explicitKeys && !existsSync(join(jwtDir, 'private.pem')) && createKeyDirectory(varDir, jwtDir, passphrase)) {
    logger.warn({ directory: jwtDir }, 'Generated a JWT key pair for local use (first start).');
  }
  const passphraseFile = join(jwtDir, 'passphrase');
  if (passphrase === undefined && existsSync(passphraseFile)) {
    passphrase = readFileSync(passphraseFile, 'utf8').trim();
    logger.warn(
      { file: passphraseFile },
      `JWT_PASSPHRASE is not set: using the passphrase generated in ${passphraseFile} (git-ignored). Set JWT_PASSPHRASE outside local development.`,
    );
  }
  return {
    privateKeyPath: nonEmpty(env['JWT_SECRET_KEY']) ?? join(jwtDir, 'private.pem'),
    publicKeyPath: nonEmpty(env['JWT_PUBLIC_KEY']) ?? join(jwtDir, 'public.pem'),
    passphrase,
    ttl: Number(nonEmpty(env['JWT_TTL']) ?? 900),
    usersFile: nonEmpty(env['SECURITY_USERS_FILE']) ?? DEMO_USERS_FILE,
  };
}

/** The users file shipped with the example: its passwords are published in the docs. */
export const DEMO_USERS_FILE = join(HOST_ROOT, 'config/security-users.json');

/**
 * Production mode does not start with the demo accounts (their passwords are in the docs): a
 * users file holding any of the shipped entries (the shipped file, a copy, a file they were
 * pasted into) is refused with a `ConfigError` naming `SECURITY_USERS_FILE`, unless
 * `ALLOW_DEMO_USERS=1` says the operator wants the demo. Entries are compared by their stored
 * hash, which is unique to the shipped file (its own salt).
 */
export function refuseDemoUsers(usersFile: string, debug: boolean, env: NodeJS.ProcessEnv): void {
  if (debug || env['ALLOW_DEMO_USERS']?.trim() === '1') return;
  const demoHashes = new Set([...readUsers(DEMO_USERS_FILE).values()].map((user) => user.password));
  const demoUsers = [...readUsers(usersFile).values()].filter((user) => demoHashes.has(user.password)).map((user) => user.username);
  if (demoUsers.length === 0) return;
  throw new ConfigError(
    `Production mode (APP_DEBUG=0) refuses the demo accounts (${demoUsers.join(', ')}) of ${usersFile}: their passwords are published. ` +
      'Set SECURITY_USERS_FILE to your own users file (or ALLOW_DEMO_USERS=1 to serve the demo accounts anyway).',
  );
}

/**
 * Builds the key directory aside and renames it into place, so hosts starting together (test
 * workers) never see half a directory or mix two key pairs: the first rename wins, the others
 * drop theirs. Returns whether this process created it.
 */
function createKeyDirectory(varDir: string, jwtDir: string, envPassphrase: string | undefined): boolean {
  mkdirSync(varDir, { recursive: true });
  const staging = mkdtempSync(join(varDir, '.jwt-'));
  try {
    const passphrase = envPassphrase ?? randomBytes(32).toString('base64url');
    if (envPassphrase === undefined) writeFileSync(join(staging, 'passphrase'), passphrase, { mode: 0o600 });
    const pair = generateKeyPairSync('rsa', { modulusLength: 3072 });
    writeFileSync(
      join(staging, 'private.pem'),
      pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }),
      { mode: 0o600 },
    );
    writeFileSync(join(staging, 'public.pem'), pair.publicKey.export({ type: 'spki', format: 'pem' }));
    renameSync(staging, jwtDir);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Values the profiler must redact wherever they occur (its `secrets` option). */
export function securitySecrets(config: SecurityConfig): string[] {
  return config.passphrase === undefined ? [] : [config.passphrase];
}

/**
 * The security of the example host: firewalls (`^/_profiler` and `^/health` open, `^/api`
 * stateless JWT), the same-origin, authorization and stateless checks, and three routes:
 * `POST /api/token` (demo users from configuration), `GET /api/me`, `GET /api/admin` (ROLE_ADMIN).
 * Returns the session guard for any component that would touch session state, and the secrets
 * the profiler must redact (its `secrets` option). A key that
 * cannot be loaded is a `ConfigError` (main prints it and exits 78), its message naming the file
 * and the problem, never the passphrase.
 */
export interface WiredSecurity {
  /** The firewalls, in matching order (the OpenAPI document reads which paths they guard). */
  firewalls: FirewallMap;
  sessionGuard: SessionGuard;
  secrets: string[];
  /** Bounds the password checks of `POST /api/token` (one at a time, eight waiting). */
  passwordHashing: PasswordHashingQueue;
  /** Runs those checks in a child process at the lowest CPU priority; the app closes it at shutdown. */
  passwordChecker: PasswordHasherProcess;
  /** Signs the tokens `POST /api/token` hands out; tests log users in with it (`client.loginAs`). */
  tokenIssuer: JwtTokenIssuer;
}

export function wireSecurity(host: SecurityHost, config?: SecurityConfig, loginThrottle: LoginThrottle | null = null): WiredSecurity {
  const logger = host.logger ?? nullLogger;
  const settings = config ?? securityConfigFromEnv(host.config?.env ?? process.env, logger);
  let keys: JwtKeys;
  try {
    keys = loadJwtKeys(settings);
  } catch (error) {
    if (error instanceof KeyLoadError) throw new ConfigError(error.message);
    throw error;
  }
  const { dispatcher, debug } = host;
  refuseDemoUsers(settings.usersFile, debug, host.config?.env ?? process.env);
  const users = readUsers(settings.usersFile);
  const issuer = new JwtTokenIssuer({ privateKey: keys.privateKey!, ttl: settings.ttl });
  const authenticator = new JwtAuthenticator({ publicKey: keys.publicKey, clockSkew: 30 });

  const firewalls = new FirewallMap([
    { name: 'profiler', pattern: /^\/_profiler(\/|$)/, security: false },
    { name: 'health', pattern: /^\/health(\/|$)/, security: false },
    { name: 'api', pattern: /^\/api(\/|$)/, authenticators: [authenticator] },
  ]);
  dispatcher.addSubscriber(new FirewallListener(firewalls, { logger }));
  dispatcher.addSubscriber(new SameOriginListener());
  dispatcher.addSubscriber(new IsGrantedListener());
  dispatcher.addSubscriber(new StatelessCheckListener({ debug, logger }));

  const passwordHashing = new PasswordHashingQueue({ logger });
  const passwordChecker = new PasswordHasherProcess({ logger });
  // Started now so the first login does not wait for it; a failed start is logged, and the next check tries again.
  passwordChecker.start().catch(() => undefined);
  host.routes.add('api_token', '/api/token', {
    methods: ['POST'],
    controller: tokenController(users, issuer, passwordHashing, passwordChecker, loginThrottle),
    defaults: { _is_granted: PUBLIC_ACCESS, _same_origin: TOKEN_SAME_ORIGIN, _responses: TOKEN_RESPONSES },
  });
  host.routes.add('api_me', '/api/me', {
    methods: ['GET'],
    controller: defineController(
      ['request'],
      (request: Request) => {
        const user = currentUser(request)!;
        return new JsonResponse({ username: user.identifier, roles: user.roles });
      },
      'api_me',
    ),
    defaults: { _is_granted: IS_AUTHENTICATED, _responses: ME_RESPONSES },
  });
  host.routes.add('api_admin', '/api/admin', {
    methods: ['GET'],
    controller: defineController(
      ['request'],
      (request: Request) => new JsonResponse({ admin: currentUser(request)!.identifier }),
      'api_admin',
    ),
    defaults: { _is_granted: 'ROLE_ADMIN', _responses: ADMIN_RESPONSES },
  });
  return {
    firewalls,
    sessionGuard: new SessionGuard({ debug, logger }),
    secrets: securitySecrets(settings),
    passwordHashing,
    passwordChecker,
    tokenIssuer: issuer,
  };
}

function readUsers(file: string): ReadonlyMap<string, ConfiguredUser> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { users?: ConfiguredUser[] };
  return new Map((parsed.users ?? []).map((user) => [user.username, user]));
}

/**
 * Checked against for an unknown user, so that it costs one scrypt like a wrong password (no user
 * enumeration by timing): hashed at the users' cost (the highest, if they differ), since a
 * stand-in dearer or cheaper than their hashes would tell unknown names apart. Hashed once, at
 * the first login rather than at startup: a start does not pay a scrypt (~0.3 s of CPU and
 * 128 MiB at the default cost) for a host that may see no login, and the first login waits for
 * it whoever logs in.
 */
export function standInHashForUnknownUsers(users: ReadonlyMap<string, { password: string }>): () => Promise<string> {
  let hash: Promise<string> | undefined;
  return () => (hash ??= scryptPasswordHasher.hash(randomBytes(16).toString('hex'), usersCost(users)));
}

/** The highest cost among the users' hashes; the hasher's default when none can be read. */
function usersCost(users: ReadonlyMap<string, { password: string }>): ScryptCost | undefined {
  const costs = [...users.values()].flatMap((user) => scryptPasswordHasher.costOf(user.password) ?? []);
  return costs.reduce<ScryptCost | undefined>(
    (highest, cost) => (highest === undefined || cost.N * cost.r * cost.p > highest.N * highest.r * highest.p ? cost : highest),
    undefined,
  );
}

/**
 * Who may ask for a token: a page of this origin or of an origin CORS lets in, and programs
 * (curl, servers: neither `Origin` nor `Sec-Fetch-Site`). Any other page is refused (403) before
 * a password is checked; with the 415 for a body that is not JSON, no cross-site page can make
 * its visitors' browsers run password checks.
 */
const TOKEN_SAME_ORIGIN: SameOriginOptions = { trustedOrigins: isCorsOrigin, allowNonBrowserClients: true };

/** The body of `POST /api/token`, `application/json` only (415 otherwise, 400 malformed, 422 wrong shape). */
const CredentialsSchema = z.object({
  username: z.string().max(200),
  password: z.string().max(1024),
});

function tokenController(
  users: ReadonlyMap<string, ConfiguredUser>,
  issuer: JwtTokenIssuer,
  passwordHashing: PasswordHashingQueue,
  passwordChecker: PasswordHasherProcess,
  loginThrottle: LoginThrottle | null,
): Controller {
  const hashForUnknownUsers = standInHashForUnknownUsers(users);
  return defineTypedController(
    ['request', mapPayload('credentials', { from: 'json', schema: CredentialsSchema })],
    async (request: Request, { username, password }) => {
      const forUnknownUsers = await hashForUnknownUsers();
      const user = users.get(username);
      const stored = user?.password ?? forUnknownUsers;
      // Throttled before the hashing queue, known user or not: 429 with Retry-After, even for the right password.
      const throttled = await loginThrottle?.check(request, username);
      if (throttled) return throttled;
      // Bounded (503 + Retry-After past the queue), skipped when the client left while waiting, and
      // hashed in the low-priority checker process (503 + Retry-After if it died during the check).
      let valid: boolean;
      try {
        valid = await passwordHashing.run(
          () => passwordChecker.verify(password, stored),
          () => request.clientGone,
        );
      } catch (error) {
        // Answered here, not through the error flow: a client's flood of logins must not write a
        // CRITICAL line per request (the queue logs its refusals itself, as warnings).
        if (!(error instanceof ServiceUnavailableHttpError)) throw error;
        return new JsonResponse({ code: 503, message: error.message }, 503, { 'retry-after': String(error.headers['retry-after']) });
      }
      if (user === undefined || !valid) {
        return new JsonResponse({ code: 401, message: 'Invalid credentials.' }, 401, { 'www-authenticate': 'Bearer' });
      }
      await loginThrottle?.succeeded(request, username);
      const token = await issuer.issueToken({ identifier: user.username, roles: user.roles });
      return new JsonResponse({ token, token_type: 'Bearer', expires_in: issuer.ttl }, 200, { 'cache-control': 'no-store' });
    },
    'api_token',
  );
}
