import { randomBytes } from 'node:crypto';
import { defineController, JsonResponse, ServiceUnavailableHttpError, type Logger, type Request } from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import {
  currentUser,
  scryptPasswordHasher,
  type JwtTokenIssuer,
  type ScryptCost,
  type LoginThrottle,
  type PasswordHasherProcess,
  type PasswordHashingQueue,
  type PasswordHashingReservation,
} from '@switchboard/security';
import { z } from 'zod';
import type { RefreshCookie } from './refresh-cookie.js';
import type { RefreshTokenFamilies } from './refresh-token-families.js';
import type { ConfiguredUser } from './users.js';

/** The refresh-cookie flow (`"remember": true`, `POST /api/token/refresh`): the token families and their cookie. */
export interface RefreshFlow {
  families: RefreshTokenFamilies;
  cookie: RefreshCookie;
}

/** What `POST /api/token` checks passwords with, and signs tokens with. */
export interface SecurityControllerDependencies {
  users: ReadonlyMap<string, ConfiguredUser>;
  issuer: JwtTokenIssuer;
  /** Bounds the checks: one at a time, a few waiting, 503 past that. */
  passwordHashing: PasswordHashingQueue;
  /** Runs each check in a child process at the lowest CPU priority. */
  passwordChecker: PasswordHasherProcess;
  /** Login throttling, or `null` when it is off. */
  loginThrottle: LoginThrottle | null;
  /** The refresh-cookie flow, or `null` when it is off (`REFRESH_COOKIE`). */
  refresh: RefreshFlow | null;
  logger: Logger;
}

/** The body of `POST /api/token`, `application/json` only (415 otherwise, 400 malformed, 422 wrong shape). */
const CredentialsSchema = z.object({
  username: z.string().max(200),
  password: z.string().max(1024),
  /** Also set a refresh cookie, for `POST /api/token/refresh` to hand out new tokens (the SPA pattern); ignored when that flow is off. */
  remember: z.boolean().optional(),
});

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
 * A 503 of the hashing queue or the checker, answered here rather than through the error flow: a
 * client's flood of logins must not write a CRITICAL line per request (the queue logs its refusals
 * itself, as counted warnings). Anything else is rethrown.
 */
function serviceUnavailable(error: unknown): JsonResponse {
  if (!(error instanceof ServiceUnavailableHttpError)) throw error;
  return new JsonResponse({ code: 503, message: error.message }, 503, { 'retry-after': String(error.headers['retry-after']) });
}

/** The 401 of a refresh that cannot be honoured; the cookie goes with it. */
function refreshRefused(cookie: RefreshCookie): JsonResponse {
  const response = new JsonResponse({ code: 401, message: 'No valid refresh cookie: log in again.' }, 401, { 'cache-control': 'no-store' });
  cookie.clear(response);
  return response;
}

/**
 * The controllers of the security routes: `POST /api/token`, `POST /api/token/refresh` (`null`
 * when the refresh flow is off: the route is not there), `GET /api/me`, `GET /api/admin`.
 */
export function securityControllers({
  users,
  issuer,
  passwordHashing,
  passwordChecker,
  loginThrottle,
  refresh,
  logger,
}: SecurityControllerDependencies) {
  const hashForUnknownUsers = standInHashForUnknownUsers(users);
  return {
    // `credentials` is typed from the schema and reaches the controller only once valid.
    token: defineTypedController(
      ['request', mapPayload('credentials', { from: 'json', schema: CredentialsSchema })],
      async (request: Request, { username, password, remember }) => {
        const forUnknownUsers = await hashForUnknownUsers();
        const user = users.get(username);
        const stored = user?.password ?? forUnknownUsers;
        // 1. A client with no attempt left takes no place in the queue: `check` answers it 429 (known
        //    user or not, even for the right password), taking nothing.
        // 2. Any other takes its place in the hashing queue first (503 + Retry-After past it), so that
        //    a login the full queue refuses spends no throttle attempt.
        // 3. `check` counts the attempt: 429 if a parallel attempt took the last one, and the place goes back.
        let place: PasswordHashingReservation | undefined;
        let valid: boolean;
        try {
          if (!(await loginThrottle?.exhausted(request, username))) place = passwordHashing.reserve();
          const throttled = await loginThrottle?.check(request, username);
          if (throttled) return throttled;
          // A limit that freed up between the two throttle steps: the place is taken now.
          place ??= passwordHashing.reserve();
          // Skipped when the client left while waiting, and hashed in the low-priority checker
          // process (503 + Retry-After if it died during the check).
          valid = await place.run(
            () => passwordChecker.verify(password, stored),
            () => request.clientGone,
          );
        } catch (error) {
          return serviceUnavailable(error);
        } finally {
          // Nothing once the check ran; a refused or failed attempt gives its place back.
          place?.release();
        }
        if (user === undefined || !valid) {
          return new JsonResponse({ code: 401, message: 'Invalid credentials.' }, 401, { 'www-authenticate': 'Bearer' });
        }
        await loginThrottle?.succeeded(request, username);
        const token = await issuer.issueToken({ identifier: user.username, roles: user.roles });
        const response = new JsonResponse({ token, token_type: 'Bearer', expires_in: issuer.ttl }, 200, { 'cache-control': 'no-store' });
        if (remember === true && refresh !== null) {
          const first = refresh.families.start({ identifier: user.username, roles: user.roles });
          refresh.cookie.write(response, first, refresh.families.ttlSeconds);
        }
        return response;
      },
      'api_token',
    ),

    refresh: refresh === null ? null : refreshController(refresh, issuer, logger),

    // Both routes require a user (`_is_granted`), so there is one.
    me: defineController(
      ['request'],
      (request: Request) => {
        const user = currentUser(request)!;
        return new JsonResponse({ username: user.identifier, roles: user.roles });
      },
      'api_me',
    ),

    admin: defineController(['request'], (request: Request) => new JsonResponse({ admin: currentUser(request)!.identifier }), 'api_admin'),
  };
}

/** `POST /api/token/refresh`. No body: the refresh cookie is the credential. A spent cookie revokes its whole family. */
function refreshController(refresh: RefreshFlow, issuer: JwtTokenIssuer, logger: Logger) {
  return defineController(
    ['request'],
    async (request: Request) => {
      const ref = refresh.cookie.read(request);
      if (ref === null) return refreshRefused(refresh.cookie);
      const rotated = refresh.families.rotate(ref);
      if ('refused' in rotated) {
        if (rotated.refused === 'reused') logger.warn({ family: ref.family }, 'A spent refresh token came back: its family is revoked.');
        return refreshRefused(refresh.cookie);
      }
      const token = await issuer.issueToken(rotated.user);
      const response = new JsonResponse({ token, token_type: 'Bearer', expires_in: issuer.ttl }, 200, { 'cache-control': 'no-store' });
      refresh.cookie.write(response, rotated.next, refresh.families.ttlSeconds);
      return response;
    },
    'api_token_refresh',
  );
}
