/**
 * The known mix of requests the metrics tests send to the example host, and how they read the
 * exposition's counts of it (test/metrics.test.ts, test/metrics-cluster.test.ts).
 */
import http from 'node:http';
import pg from 'pg';
import { expect } from 'vitest';
import { select, type Sample } from '../../../../test/kit/prometheus-exposition.js';

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** One request on a connection of its own (in a cluster, the primary hands each connection to the next worker). */
export function send(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      new URL(path, origin),
      { method: options.method ?? 'GET', agent: false, headers: { accept: 'application/json', ...options.headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** How many of each the mix sends. */
export const MIX = { hellos: 7, itemLists: 4, randomPaths: 500 } as const;

/**
 * The mix, each request checked for the status it must get. The 500 is a real failure of the
 * host: the items table is dropped (`breakItems`) before the last item list.
 */
export async function sendMix(origin: string, breakItems: () => Promise<void>): Promise<void> {
  for (let i = 0; i < MIX.hellos; i++) expect((await send(origin, '/health')).status).toBe(200);
  for (let i = 0; i < MIX.itemLists; i++) expect((await send(origin, '/api/items')).status).toBe(200);
  for (let i = 0; i < MIX.randomPaths; i++) {
    const path = `/probe-${i}/${Math.random().toString(36).slice(2)}`;
    expect((await send(origin, path)).status).toBe(404);
  }
  expect((await send(origin, '/health', { method: 'PUT' })).status).toBe(405);
  await breakItems();
  expect((await send(origin, '/api/items')).status).toBe(500);
}

export const DURATION = 'http_server_request_duration_seconds';

/** The mix's counts per `route status`, from an exposition (the scrapes themselves left out). */
export function mixCounts(all: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of select(all, `${DURATION}_count`)) {
    if (sample.labels['route'] === 'metrics') continue;
    const key = `${sample.labels['method']} ${sample.labels['route']} ${sample.labels['status']}`;
    counts[key] = (counts[key] ?? 0) + sample.value;
  }
  return counts;
}

export const EXPECTED_MIX_COUNTS = {
  'GET health 200': MIX.hellos,
  'GET items_list 200': MIX.itemLists,
  'GET items_list 500': 1,
  'GET (none) 404': MIX.randomPaths,
  'PUT (none) 405': 1,
};

/** Buckets cumulative, ending at `_count`, for every duration series. */
export function expectConsistentHistograms(all: readonly Sample[]): void {
  for (const total of select(all, `${DURATION}_count`)) {
    const buckets = select(all, `${DURATION}_bucket`, total.labels);
    expect(buckets.at(-1)?.labels['le']).toBe('+Inf');
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(buckets.at(-1)!.value).toBe(total.value);
  }
}

/** The items table dropped on the database at `connectionString`: the next item list fails with a 500. */
export async function dropItemsTable(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('DROP TABLE items CASCADE');
  } finally {
    await client.end();
  }
}
