import { ServiceUnavailableHttpError } from '@switchboard/http-kernel';
import type { MetricsSnapshot } from '../recording/metrics-snapshot.js';
import type { ServerMetrics } from '../recording/server-metrics.js';
import { isClusterMetricsMessage, type ClusterMetricsMessage } from './cluster-messages.js';

/**
 * In a `node:cluster` worker: sends this process's snapshot when the primary asks
 * (`ClusterMetricsPrimary`), and asks the primary for the whole host's totals (`collect`, the
 * source of the worker's exposition route).
 */
export class ClusterMetricsWorker {
  readonly #metrics: ServerMetrics;
  readonly #timeoutMs: number;
  readonly #waiting = new Map<number, (snapshot: MetricsSnapshot) => void>();
  #nextId = 1;
  readonly #onMessage = (message: unknown): void => this.#received(message);

  constructor(metrics: ServerMetrics, options: { collectTimeoutMs?: number } = {}) {
    this.#metrics = metrics;
    this.#timeoutMs = options.collectTimeoutMs ?? 5_000;
  }

  attach(): this {
    process.on('message', this.#onMessage);
    return this;
  }

  detach(): void {
    process.off('message', this.#onMessage);
  }

  /** The whole host's totals, from the primary; a 503 when it does not answer in time. */
  collect(): Promise<MetricsSnapshot> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new ServiceUnavailableHttpError('The cluster primary did not send its metrics in time.'));
      }, this.#timeoutMs);
      this.#waiting.set(id, (snapshot) => {
        clearTimeout(timer);
        resolve(snapshot);
      });
      if (!send({ switchboard: 'metrics', kind: 'collect', id })) {
        clearTimeout(timer);
        this.#waiting.delete(id);
        reject(new ServiceUnavailableHttpError('This process has no cluster primary to ask.'));
      }
    });
  }

  #received(message: unknown): void {
    if (!isClusterMetricsMessage(message)) return;
    if (message.kind === 'report') send({ switchboard: 'metrics', kind: 'snapshot', id: message.id, snapshot: this.#metrics.snapshot() });
    else if (message.kind === 'totals') {
      const resolve = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      resolve?.(message.snapshot);
    }
  }
}

function send(message: ClusterMetricsMessage): boolean {
  if (process.send === undefined || !process.connected) return false;
  process.send(message);
  return true;
}
