import type { MetricsSnapshot } from '../recording/metrics-snapshot.js';

/** Messages between a cluster's primary and its workers about metrics, on the cluster's IPC channel. */
export type ClusterMetricsMessage =
  /** Worker → primary: a scrape wants the cluster's totals. */
  | { readonly switchboard: 'metrics'; readonly kind: 'collect'; readonly id: number }
  /** Primary → worker: send your snapshot. */
  | { readonly switchboard: 'metrics'; readonly kind: 'report'; readonly id: number }
  /** Worker → primary: my snapshot. */
  | { readonly switchboard: 'metrics'; readonly kind: 'snapshot'; readonly id: number; readonly snapshot: MetricsSnapshot }
  /** Primary → worker: the totals asked for by `collect`. */
  | { readonly switchboard: 'metrics'; readonly kind: 'totals'; readonly id: number; readonly snapshot: MetricsSnapshot };

export function isClusterMetricsMessage(message: unknown): message is ClusterMetricsMessage {
  return typeof message === 'object' && message !== null && (message as { switchboard?: unknown }).switchboard === 'metrics';
}
