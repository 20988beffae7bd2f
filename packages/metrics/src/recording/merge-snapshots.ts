import { addHistograms } from './histogram-counts.js';
import type { ActiveRequestsData, CounterData, MetricsSnapshot, RequestSeriesData } from './metrics-snapshot.js';

/**
 * Several processes' snapshots as one: series with the same labels added (histograms bucket by
 * bucket), requests in flight and counters summed. `startTimeSeconds` is the caller's: when the
 * totals began.
 */
export function mergeSnapshots(startTimeSeconds: number, snapshots: readonly MetricsSnapshot[]): MetricsSnapshot {
  const requests = new Map<string, RequestSeriesData>();
  const active = new Map<string, ActiveRequestsData>();
  const counters = new Map<string, CounterData>();
  for (const snapshot of snapshots) {
    for (const series of snapshot.requests) {
      const key = JSON.stringify([series.method, series.route, series.status, series.scheme]);
      const known = requests.get(key);
      requests.set(
        key,
        known === undefined
          ? series
          : {
              ...known,
              duration: addHistograms(known.duration, series.duration),
              requestBodySize: addHistograms(known.requestBodySize, series.requestBodySize),
              responseBodySize: addHistograms(known.responseBodySize, series.responseBodySize),
              aborted: known.aborted + series.aborted,
            },
      );
    }
    for (const gauge of snapshot.activeRequests) {
      const key = `${gauge.scheme} ${gauge.method}`;
      active.set(key, { ...gauge, value: (active.get(key)?.value ?? 0) + gauge.value });
    }
    for (const counter of snapshot.counters) {
      const key = JSON.stringify([counter.name, counter.labels]);
      counters.set(key, { ...counter, value: (counters.get(key)?.value ?? 0) + counter.value });
    }
  }
  return { startTimeSeconds, requests: [...requests.values()], activeRequests: [...active.values()], counters: [...counters.values()] };
}

/** `snapshot` without what describes the present rather than a count: requests in flight. */
export function countsOnly(snapshot: MetricsSnapshot): MetricsSnapshot {
  return { ...snapshot, activeRequests: [] };
}
