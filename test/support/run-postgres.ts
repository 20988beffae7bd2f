import { RUN_POSTGRES_URL_ENV, startPostgres } from '../kit/services/database-servers.js';

/**
 * Vitest global setup: one PostgreSQL server for the whole run, its URL in
 * `SWITCHBOARD_TEST_POSTGRES_URL`, which test workers and the processes they start inherit. Test
 * hosts get a database of their own on it (`createTestDatabase`); it stops when the run ends.
 */
export default async function runPostgres(): Promise<() => Promise<void>> {
  const server = await startPostgres();
  process.env[RUN_POSTGRES_URL_ENV] = server.connectionString;
  return () => server.stop();
}
