import type { EventDispatcher, HttpKernel, KernelEventMap, Logger } from '@switchboard/http-kernel';
import type { OpenApiDocument } from '@switchboard/openapi';
import type { ServerMetrics } from '@switchboard/metrics';
import type { Readiness } from '@switchboard/operations';
import type { RouteCollection, Router } from '@switchboard/router';
import type { JwtTokenIssuer, PasswordHashingQueue } from '@switchboard/security';
import { AppAssembly } from './app-assembly.js';
import type { AppConfig } from './config.js';
import { createHostLogger } from './operations/host-logger.js';
import type { Database } from './database/open-database.js';
import { wireCompression } from './wiring/compression.js';
import { wireCors } from './wiring/cors.js';
import { wireDatabase } from './wiring/database.js';
import { wireErrors } from './wiring/errors.js';
import { wireHealth } from './wiring/health.js';
import { wireHttpCache } from './wiring/http-cache.js';
import { wireItemExport } from './wiring/item-export.js';
import { wireItemImport } from './wiring/item-import.js';
import { wireItemEvents } from './wiring/item-events.js';
import { wireItems } from './wiring/items.js';
import { wireLocale } from './wiring/locale.js';
import { wireMetrics } from './wiring/metrics.js';
import { wireObservability } from './wiring/observability.js';
import { wireOpenApi } from './wiring/openapi.js';
import { wireOperations } from './wiring/operations.js';
import { removeLeftoverUploads, wirePayload } from './wiring/payload.js';
import { wireProfiler } from './wiring/profiler.js';
import { wireRange } from './wiring/range.js';
import { wireRateLimit } from './wiring/rate-limit.js';
import { wireSecurity } from './wiring/security.js';
import { wireSecurityHeaders } from './wiring/security-headers.js';
import { wireServedBy } from './wiring/served-by.js';

/** The example API service, built and not yet listening. */
export interface App {
  readonly config: AppConfig;
  readonly debug: boolean;
  /** In debug mode it also files each record under the current request's profile. */
  readonly logger: Logger;
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  readonly kernel: HttpKernel;
  /** Every route, in matching order. */
  readonly routes: RouteCollection;
  /** The compiled routes; `pnpm debug:router` prints them. */
  readonly router: Router;
  /** Where the profiler answers (`/_profiler`), or `null` with debug off; shown in the startup line. */
  readonly profilerPath: string | null;
  /** The database the items API uses. */
  readonly database: Database;
  /** The bound on password checks (`POST /api/token`); its `stats` say what it did. */
  readonly passwordHashing: PasswordHashingQueue;
  /** Signs access tokens: what a test's `client.loginAs(user, app.tokenIssuer)` uses. */
  readonly tokenIssuer: JwtTokenIssuer;
  /** The API's OpenAPI document (also served at `GET /api/openapi.json`). */
  openApiDocument(): OpenApiDocument;
  /** Security headers for the answers the node adapter writes itself: `serve()`'s `answerHeaders`. */
  readonly answerHeaders: Readonly<Record<string, string>>;
  /** `GET /ready`'s state: `main.ts` tells it when shutdown starts. */
  readonly readiness: Readiness;
  /** What `GET /metrics` shows of this process (`METRICS=1`), or `null`. */
  readonly metrics: ServerMetrics | null;
  /** Runs the wirings' shutdown work (closing the database…); `main.ts` calls it once the server stopped. */
  shutdown(): Promise<void>;
}

export interface CreateAppOptions {
  /** Default: lines on stderr (INFO and up; DEBUG too in debug mode), JSON with `LOG_FORMAT=json`. */
  logger?: Logger;
}

/**
 * Builds the example API service from `config` without listening: `main.ts` serves `app.kernel`,
 * tests hand it to `createTestClient` (`@switchboard/testing`). Call `app.shutdown()` when done.
 *
 * One wiring per concern, each in `src/wiring/<concern>.ts`, returns what it adds (listeners,
 * routes, shutdown work…); `AppAssembly` builds the router, the dispatcher and the kernel from them.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<App> {
  const logger = options.logger ?? createHostLogger(config.env, config.debug ? 'DEBUG' : 'INFO');
  // First: in debug mode the host's logger files every wiring's records under the request's profile.
  const host = new AppAssembly(config, logger, await wireProfiler(config, logger));

  await removeLeftoverUploads(logger);
  // The wirings that others depend on.
  const rateLimit = await wireRateLimit(host);
  const security = wireSecurity(host, rateLimit.loginThrottle);
  const database = await wireDatabase(host);
  const itemEvents = await wireItemEvents(host, database.database);
  const openApi = wireOpenApi(host, security.firewalls);
  const operations = wireOperations(host, database.database, security.readinessChecks);
  const securityHeaders = wireSecurityHeaders();
  const metrics = wireMetrics(host);

  // Routes are tried, and listeners of equal priority run, in this order.
  const app = host.assemble([
    wirePayload(),
    wireErrors(host),
    rateLimit,
    security,
    wireCors(),
    securityHeaders,
    wireCompression(),
    wireLocale(),
    await wireObservability(host, metrics.metrics),
    wireHttpCache(),
    wireRange(),
    wireServedBy(host),
    database,
    wireItems(database.database),
    wireItemExport(database.database),
    wireItemImport(host, database.database),
    itemEvents,
    openApi,
    wireHealth(),
    operations,
    metrics,
  ]);
  return {
    ...app,
    config,
    debug: config.debug,
    logger: host.logger,
    database: database.database,
    passwordHashing: security.passwordHashing,
    tokenIssuer: security.tokenIssuer,
    openApiDocument: openApi.document,
    readiness: operations.readiness,
    answerHeaders: securityHeaders.answerHeaders,
    metrics: metrics.metrics,
  };
}
