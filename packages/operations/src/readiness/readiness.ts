import { defineController, JsonResponse, type Controller, type Request } from '@switchboard/http-kernel';

/**
 * A dependency the service cannot answer without (a database, a Redis store): resolves when it
 * is reachable; throws, rejects or returns `false` when it is not.
 */
export type DependencyCheck = () => unknown;

export interface ReadinessOptions {
  /** Checks by name (`database`, `redis`); the readiness answer lists each one's outcome. */
  checks?: Readonly<Record<string, DependencyCheck>>;
  /** Time each check may take, in ms; past it the check counts as failed. Default 2000. */
  checkTimeoutMs?: number;
}

export type CheckOutcome = 'ok' | 'failed' | 'timeout';

export interface ReadinessReport {
  readonly ready: boolean;
  /** True once the server started shutting down: no new traffic should come. */
  readonly draining: boolean;
  readonly checks: Readonly<Record<string, CheckOutcome>>;
}

/**
 * Whether this instance should get traffic, for a balancer or an orchestrator's readiness probe;
 * distinct from liveness (is the process up). Not ready once shutdown started (`startDraining`,
 * which `serve({ onShutdownStart })` calls), so the balancer stops sending before connections
 * close, and while a declared dependency check fails. Concurrent probes share one run of the
 * checks; a check's error is logged through the request's logger, never put in the answer.
 */
export class Readiness {
  readonly #checks: ReadonlyArray<readonly [string, DependencyCheck]>;
  readonly #checkTimeoutMs: number;
  #draining = false;
  #running: Promise<Readonly<Record<string, CheckOutcome>>> | undefined;

  constructor(options: ReadinessOptions = {}) {
    this.#checks = Object.entries(options.checks ?? {});
    this.#checkTimeoutMs = options.checkTimeoutMs ?? 2000;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on the instance reports not ready. */
  startDraining(): void {
    this.#draining = true;
  }

  /** Runs the checks (or joins the run in progress) and says whether the instance is ready. */
  async report(onFailure?: (name: string, error: unknown) => void): Promise<ReadinessReport> {
    if (this.#draining) return { ready: false, draining: true, checks: {} };
    const checks = await (this.#running ??= this.#runChecks(onFailure).finally(() => {
      this.#running = undefined;
    }));
    const ready = !this.#draining && Object.values(checks).every((outcome) => outcome === 'ok');
    return { ready, draining: this.#draining, checks };
  }

  /**
   * A controller for the readiness route: 200 `{"status":"ready","checks":{…}}`, or 503 with
   * `status` `draining` or `unavailable`, never cached. Mark its route `_load_shedding: 'exempt'`.
   */
  readonly controller: Controller = defineController(
    ['request'],
    async (request: Request): Promise<JsonResponse> => {
      const logger = request.logger.child({ channel: 'readiness' });
      const report = await this.report((name, error) => logger.warn({ check: name, err: error }, `Readiness check "${name}" failed.`));
      const status = report.ready ? 'ready' : report.draining ? 'draining' : 'unavailable';
      return new JsonResponse({ status, checks: report.checks }, report.ready ? 200 : 503, { 'cache-control': 'no-store' });
    },
    'readiness',
  );

  async #runChecks(onFailure: ((name: string, error: unknown) => void) | undefined): Promise<Record<string, CheckOutcome>> {
    const outcomes = await Promise.all(this.#checks.map(([name, check]) => this.#outcome(name, check, onFailure)));
    return Object.fromEntries(this.#checks.map(([name], index) => [name, outcomes[index]!]));
  }

  async #outcome(
    name: string,
    check: DependencyCheck,
    onFailure: ((name: string, error: unknown) => void) | undefined,
  ): Promise<CheckOutcome> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#checkTimeoutMs);
    });
    const checked = Promise.resolve()
      .then(check)
      .then(
        (result): CheckOutcome => (result === false ? 'failed' : 'ok'),
        (error: unknown): CheckOutcome => {
          onFailure?.(name, error);
          return 'failed';
        },
      );
    try {
      return await Promise.race([checked, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
