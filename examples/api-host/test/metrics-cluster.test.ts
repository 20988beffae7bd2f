/**
 * `METRICS=1` with `WORKERS=2`: the host as a `node:cluster` primary with two workers against a
 * real PostgreSQL server. Whichever worker a scrape reaches, `GET /metrics` shows the whole host:
 * the known mix is counted exactly, and a worker killed and replaced takes none of its counts
 * with it, while `process_start_time_seconds` (the primary's start) stays the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { promtoolCheck, samples, select, type Sample } from '../../../test/kit/prometheus-exposition.js';
import { dropItemsTable, EXPECTED_MIX_COUNTS, expectConsistentHistograms, mixCounts, send, sendMix } from './support/metrics-mix.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

let postgres: TestDatabase;
let host: HostProcess;
let url: string;

beforeAll(async () => {
  postgres = await createTestDatabase();
  host = await startHostProcess({
    WORKERS: '2',
    DATABASE_URL: postgres.connectionString,
    APP_DEBUG: '0',
    API_HOST_CONFIG: '',
    // Login throttling would need Redis to count in across workers; this test does not log in.
    LOGIN_THROTTLING: 'off',
    METRICS: '1',
  });
  url = await host.url;
});
afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null && host.child.signalCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  await postgres?.stop();
});

async function scrape(): Promise<Sample[]> {
  const answer = await send(url, '/metrics');
  expect(answer.status).toBe(200);
  promtoolCheck(answer.body);
  return samples(answer.body);
}

/** The pids the primary logged as listening, in order. */
const listeningPids = (): number[] =>
  [...host.log().matchAll(/Cluster: worker \d+ \(pid (\d+)\) listening\./g)].map((match) => Number(match[1]));

describe('WORKERS=2, METRICS=1', () => {
  let first: Sample[];
  beforeAll(async () => {
    await sendMix(url, () => dropItemsTable(postgres.connectionString));
    first = await scrape();
  });

  it('counts the mix exactly, whichever worker answers the scrape', async () => {
    expect(mixCounts(first)).toEqual(EXPECTED_MIX_COUNTS);
    expectConsistentHistograms(first);
    // Each scrape is a new connection: the primary hands them to the workers in turn.
    for (let i = 0; i < 3; i++) expect(mixCounts(await scrape())).toEqual(EXPECTED_MIX_COUNTS);
  });

  it('keeps a killed worker’s counts and the start time once it is replaced', async () => {
    const start = select(first, 'process_start_time_seconds')[0]!.value;
    const [victim] = listeningPids();
    process.kill(victim!, 'SIGKILL');
    const replaced = new RegExp(`\\(pid ${victim}\\) exited with signal SIGKILL; replaced by worker \\d+ \\(pid (\\d+)\\)`);
    await expect.poll(() => replaced.exec(host.log()), { timeout: 30_000, interval: 20 }).not.toBeNull();
    const replacement = Number(replaced.exec(host.log())![1]);
    await expect.poll(() => listeningPids(), { timeout: 100_000, interval: 50 }).toContain(replacement);
    for (let i = 0; i < 2; i++) {
      const after = await scrape();
      expect(mixCounts(after)).toEqual(EXPECTED_MIX_COUNTS);
      expect(select(after, 'process_start_time_seconds')[0]!.value).toBe(start);
    }
  });
});
