import { defineController, Response } from '@switchboard/http-kernel';
import type { MetricsSnapshot } from '../recording/metrics-snapshot.js';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from './prometheus-text.js';

/** Where the exposition's numbers come from: a process's `ServerMetrics`, or a cluster's totals. */
export type SnapshotSource = () => MetricsSnapshot | Promise<MetricsSnapshot>;

/**
 * A controller answering with `source`'s snapshot in Prometheus' text format, never cached. Mount it
 * on a route of your own (`GET /metrics`) and decide there who may read it: the counts describe
 * your traffic.
 */
export function prometheusController(source: SnapshotSource): () => Promise<Response> {
  return defineController([], async () => {
    const text = prometheusText(await source());
    return new Response(text, 200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
}
