import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@switchboard/http-kernel';

/** Sent by a worker once its server listens (`reportListening`). */
interface ListeningMessage {
  readonly switchboard: 'listening';
  readonly url: string;
}

/** A worker's exit code for a configuration error (as `main.ts` exits alone): retrying cannot help. */
const EX_CONFIG = 78;

export interface ClusterPrimaryOptions {
  workers: number;
  /** The primary's own lines (`Cluster: …`); workers log for themselves. */
  logger: Logger;
  /** Called once, when every first worker listens, with the URL they share. */
  onListening(url: string): void;
  /** How long each worker's own shutdown may take (its `shutdownTimeout`); the primary waits a little longer, then kills. */
  workerShutdownTimeoutMs: number;
}

/**
 * The primary of the example host's cluster: forks `workers` processes that serve one port (the
 * primary accepts connections and hands them out in turn), replaces a worker that exits, and on
 * SIGTERM or SIGINT passes SIGTERM to every worker, each of which drains as a single host would
 * (in-flight requests answered, profiles written, pools closed), then exits with 0 if all did.
 *
 * Replacement is bounded: workers that exit before listening count as startup failures, and
 * `MAX_STARTUP_FAILURES` of them in a row stop the cluster (a start that fails will fail again);
 * a worker refused its configuration (exit 78) stops it at once. A worker that listened resets the count.
 */
export class ClusterPrimary {
  static readonly MAX_STARTUP_FAILURES = 3;
  /** Beyond the workers' own shutdown bound: the time to exit once drained. */
  static readonly EXIT_MARGIN_MS = 5_000;

  readonly #options: ClusterPrimaryOptions;
  readonly #listening = new Set<number>();
  #startupFailures = 0;
  #announced = false;
  #stopping: { code: number } | null = null;
  #done!: (code: number) => void;
  readonly #finished = new Promise<number>((resolve) => (this.#done = resolve));

  constructor(options: ClusterPrimaryOptions) {
    this.#options = options;
  }

  /** Forks the workers and resolves with the exit code once the cluster has stopped. */
  run(): Promise<number> {
    cluster.on('message', (worker, message: unknown) => this.#onMessage(worker, message));
    cluster.on('exit', (worker, code, signal) => this.#onExit(worker, code, signal));
    const onSignal = (signal: NodeJS.Signals): void => this.#onSignal(signal);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    for (let i = 0; i < this.#options.workers; i++) cluster.fork();
    return this.#finished;
  }

  #onMessage(worker: Worker, message: unknown): void {
    if (!isListeningMessage(message)) return;
    this.#listening.add(worker.id);
    this.#startupFailures = 0;
    this.#options.logger.info({ worker: worker.id, pid: worker.process.pid }, `Cluster: worker ${describe(worker)} listening.`);
    if (!this.#announced && this.#listening.size >= this.#options.workers) {
      this.#announced = true;
      this.#options.onListening(message.url);
    }
  }

  #onExit(worker: Worker, code: number | null, signal: string | null): void {
    const listened = this.#listening.delete(worker.id);
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    if (this.#stopping !== null) {
      if (code !== 0) {
        this.#options.logger.error(
          { worker: worker.id, code, signal },
          `Cluster: worker ${describe(worker)} exited with ${how} while stopping.`,
        );
        if (this.#stopping.code === 0) this.#stopping.code = 1;
      }
      this.#finishWhenEmpty();
      return;
    }
    const { logger } = this.#options;
    if (!listened) {
      if (code === EX_CONFIG) {
        logger.error({ worker: worker.id }, `Cluster: worker ${describe(worker)} refused its configuration (exit 78); stopping.`);
        this.#stop(EX_CONFIG);
        return;
      }
      this.#startupFailures++;
      if (this.#startupFailures >= ClusterPrimary.MAX_STARTUP_FAILURES) {
        logger.error(
          { failures: this.#startupFailures },
          `Cluster: ${this.#startupFailures} workers in a row exited before listening (the last with ${how}); stopping instead of forking again.`,
        );
        this.#stop(1);
        return;
      }
    }
    const replacement = cluster.fork();
    logger.error(
      { worker: worker.id, code, signal, replacement: replacement.id },
      `Cluster: worker ${describe(worker)} exited with ${how}${listened ? '' : ' before listening'}; replaced by worker ${describe(replacement)}.`,
    );
  }

  #onSignal(signal: NodeJS.Signals): void {
    // Later signals are the same stop (one Ctrl-C arrives again from each pnpm or npm above us).
    if (this.#stopping !== null) return;
    this.#options.logger.info(
      { signal },
      `Cluster: ${signal} received: stopping ${this.#liveWorkers().length} workers (each finishes its requests).`,
    );
    this.#stop(0);
  }

  /** Passes SIGTERM to every worker, then finishes with `code` once all have exited (killing any still there after the bound). */
  #stop(code: number): void {
    this.#stopping = { code };
    for (const worker of this.#liveWorkers()) worker.process.kill('SIGTERM');
    const bound = this.#options.workerShutdownTimeoutMs + ClusterPrimary.EXIT_MARGIN_MS;
    setTimeout(() => {
      const left = this.#liveWorkers();
      if (left.length === 0) return;
      this.#options.logger.error({ workers: left.length }, `Cluster: ${left.length} worker(s) still running after ${bound} ms: killed.`);
      for (const worker of left) worker.process.kill('SIGKILL');
      this.#stopping!.code = 1;
    }, bound).unref();
    this.#finishWhenEmpty();
  }

  #finishWhenEmpty(): void {
    if (this.#stopping !== null && this.#liveWorkers().length === 0) this.#done(this.#stopping.code);
  }

  #liveWorkers(): Worker[] {
    return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
  }
}

/** In a worker: tells the primary that this worker's server listens on `url`. */
export function reportListening(url: string): void {
  const message: ListeningMessage = { switchboard: 'listening', url };
  process.send?.(message);
}

function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { switchboard?: unknown }).switchboard === 'listening';
}

function describe(worker: Worker): string {
  return `${worker.id} (pid ${worker.process.pid})`;
}
