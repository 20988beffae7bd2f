import cluster, { type Worker } from 'node:cluster';
import { countsOnly, mergeSnapshots } from '../recording/merge-snapshots.js';
import type { MetricsSnapshot } from '../recording/metrics-snapshot.js';
import { isClusterMetricsMessage, type ClusterMetricsMessage } from './cluster-messages.js';

export interface ClusterMetricsPrimaryOptions {
  /** How long a worker may take to send its snapshot; its last one is used after that. Default 2 s. */
  reportTimeoutMs?: number;
}

/**
 * In a `node:cluster` primary: answers a worker's `collect` with the totals of the whole host.
 * It asks every live worker for its snapshot and adds the counts of workers that exited (the last
 * snapshot each sent), so that counters never go down while the primary runs: a replaced worker
 * starts from 0, the totals do not, and `process_start_time_seconds` is the primary's start. The
 * totals reset only when the primary restarts, and then that time changes too.
 */
export class ClusterMetricsPrimary {
  readonly startTimeSeconds = Math.round(Date.now() - performance.now()) / 1000;
  readonly #timeoutMs: number;
  /** Each live worker's last snapshot. */
  readonly #latest = new Map<number, MetricsSnapshot>();
  /** The counts of workers that exited, as their last snapshots said. */
  #retired: MetricsSnapshot = { startTimeSeconds: this.startTimeSeconds, requests: [], activeRequests: [], counters: [] };
  readonly #pending = new Map<number, { waiting: Set<number>; done: () => void }>();
  #nextId = 1;
  readonly #onMessage = (worker: Worker, message: unknown): void => this.#received(worker, message);
  readonly #onExit = (worker: Worker): void => this.#exited(worker);

  constructor(options: ClusterMetricsPrimaryOptions = {}) {
    this.#timeoutMs = options.reportTimeoutMs ?? 2_000;
  }

  /** Starts answering the workers. */
  attach(): this {
    cluster.on('message', this.#onMessage);
    cluster.on('exit', this.#onExit);
    return this;
  }

  detach(): void {
    cluster.off('message', this.#onMessage);
    cluster.off('exit', this.#onExit);
  }

  /** The whole host's snapshot: every live worker asked now, workers that exited added. */
  async totals(): Promise<MetricsSnapshot> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker?.isConnected() === true);
    const id = this.#nextId++;
    await new Promise<void>((resolve) => {
      const waiting = new Set(workers.map((worker) => worker.id));
      const timer = setTimeout(() => done(), this.#timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve();
      };
      this.#pending.set(id, { waiting, done });
      for (const worker of workers) send(worker, { switchboard: 'metrics', kind: 'report', id });
      if (waiting.size === 0) done();
    });
    return mergeSnapshots(this.startTimeSeconds, [this.#retired, ...this.#latest.values()]);
  }

  #received(worker: Worker, message: unknown): void {
    if (!isClusterMetricsMessage(message)) return;
    if (message.kind === 'snapshot') {
      this.#latest.set(worker.id, message.snapshot);
      const pending = this.#pending.get(message.id);
      pending?.waiting.delete(worker.id);
      if (pending?.waiting.size === 0) pending.done();
    } else if (message.kind === 'collect') {
      void this.totals().then((snapshot) => send(worker, { switchboard: 'metrics', kind: 'totals', id: message.id, snapshot }));
    }
  }

  #exited(worker: Worker): void {
    const last = this.#latest.get(worker.id);
    this.#latest.delete(worker.id);
    if (last !== undefined) this.#retired = mergeSnapshots(this.startTimeSeconds, [this.#retired, countsOnly(last)]);
    for (const pending of this.#pending.values()) {
      pending.waiting.delete(worker.id);
      if (pending.waiting.size === 0) pending.done();
    }
  }
}

function send(worker: Worker, message: ClusterMetricsMessage): void {
  if (!worker.isConnected()) return;
  try {
    worker.send(message);
  } catch {
    // The worker is going away: its exit is handled.
  }
}
