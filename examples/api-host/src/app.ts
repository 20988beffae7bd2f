import { EventDispatcher, HttpKernel, type EventDispatcherInterface, type KernelEventMap, type Logger } from '@switchboard/http-kernel';
import type { OpenApiDocument } from '@switchboard/openapi';
import { RouteCollection, type Router } from '@switchboard/router';
import type { JwtTokenIssuer, PasswordHashingQueue } from '@switchboard/security';
import type { AppConfig } from './config.js';
import { createConsoleLogger } from './console-logger.js';
import type { Database } from './database/open-database.js';
import { wireCors } from './wiring/cors.js';
import { wireDatabase } from './wiring/database.js';
import { wireErrors } from './wiring/errors.js';
import { wireHttpCache } from './wiring/http-cache.js';
import { wireItemEvents } from './wiring/item-events.js';
import { wireItems } from './wiring/items.js';
import { wireLocale } from './wiring/locale.js';
import { wireObservability } from './wiring/observability.js';
import { wireOpenApi } from './wiring/openapi.js';
import { wirePayload } from './wiring/payload.js';
import { wireProfiler } from './wiring/profiler.js';
import { wireRateLimit } from './wiring/rate-limit.js';
import { wireRouting } from './wiring/routing.js';
import { wireSecurity } from './wiring/security.js';
import { wireServedBy } from './wiring/served-by.js';

/**
 * The example host: one kernel, one dispatcher, one route collection, and one wiring call per
 * concern (each in `src/wiring/<concern>.ts`). Wirings receive this object and take what they need.
 */
export interface App {
  readonly config: AppConfig;
  readonly debug: boolean;
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  /** What the kernel dispatches through: `dispatcher`, or in debug mode the profiler's traceable wrapper of it. */
  kernelDispatcher: EventDispatcherInterface<KernelEventMap>;
  /** Built on first use, once the wirings are done. */
  readonly kernel: HttpKernel;
  /** In debug mode the profiler wiring wraps it, so every later wiring's logs reach the profiles. */
  logger: Logger;
  /** Routes are added by the wirings, then compiled once by `wireRouting` (the last call). */
  readonly routes: RouteCollection;
  /** The compiled routes, set by `wireRouting`; `pnpm debug:router` prints them. */
  router: Router | null;
  /** The bound on password checks (`POST /api/token`), set by the security wiring; its `stats` say what it did. */
  passwordHashing: PasswordHashingQueue | null;
  /** The database the items API uses, set by its wiring. */
  database: Database | null;
  /** The API's OpenAPI document (also served at `GET /api/openapi.json`), set by its wiring. */
  openApiDocument: () => OpenApiDocument;
  /** Signs access tokens, set by the security wiring: what a test's `client.loginAs(user, app.tokenIssuer)` uses. */
  tokenIssuer: JwtTokenIssuer | null;
  /** Where the profiler answers (`/_profiler`), set by its wiring; shown in the startup line. */
  profilerPath: string | null;
  /** Registers work for shutdown (closing the database…); run last-registered first. */
  onShutdown(cleanup: () => void | Promise<void>): void;
  /** Runs the shutdown work; called by `main.ts` once the server stopped. */
  shutdown(): Promise<void>;
}

export interface CreateAppOptions {
  /** Default: lines on stderr (INFO and up; DEBUG too in debug mode). */
  logger?: Logger;
}

/**
 * Builds the example API service from `config` without listening: `main.ts` serves `app.kernel`,
 * tests hand it to `createTestClient` (`@switchboard/testing`). Call `app.shutdown()` when done.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<App> {
  const app = createHost(config, options.logger ?? createConsoleLogger(config.debug ? 'DEBUG' : 'INFO'));

  // First: in debug mode it wraps app.logger (logger panel), so every later wiring's logs reach the profiles.
  const profiler = wireProfiler(app);
  wireErrors(app);
  // Before security: the token controller throttles logins; the per-client limiter runs first of all.
  const rateLimit = wireRateLimit(app);
  // Security is wired in every mode; its secrets are then redacted from profiles when there are any.
  const security = wireSecurity(app, undefined, rateLimit.loginThrottle);
  if (profiler !== null) profiler.redact(security.secrets);
  app.passwordHashing = security.passwordHashing;
  app.tokenIssuer = security.tokenIssuer;
  app.onShutdown(() => security.passwordChecker.close());
  wireCors(app);
  wireLocale(app);
  wireObservability(app);
  wireHttpCache(app);
  wireServedBy(app);
  app.database = await wireDatabase(app);
  wireItems(app, app.database);
  await wireItemEvents(app, app.database);
  app.openApiDocument = wireOpenApi(app, security.firewalls);

  // Last: compiles the routes every wiring above added.
  app.router = wireRouting(app);
  return app;
}

function createHost(config: AppConfig, logger: Logger): App {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  // The payload step is both a listener and a value resolver, so the kernel is built with it.
  const argumentResolver = wirePayload({ dispatcher });
  let kernel: HttpKernel | undefined;
  const cleanups: Array<() => void | Promise<void>> = [];
  return {
    config,
    debug: config.debug,
    dispatcher,
    kernelDispatcher: dispatcher,
    get kernel() {
      return (kernel ??= new HttpKernel({ dispatcher: this.kernelDispatcher, logger, argumentResolver }));
    },
    logger,
    routes: new RouteCollection(),
    router: null,
    profilerPath: null,
    passwordHashing: null,
    database: null,
    openApiDocument: () => {
      throw new Error('The OpenAPI wiring has not run.');
    },
    tokenIssuer: null,
    onShutdown(cleanup) {
      cleanups.push(cleanup);
    },
    async shutdown() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}
