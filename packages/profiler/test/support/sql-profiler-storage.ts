/**
 * A third profile storage, in PostgreSQL, written the way a storage author would on top of
 * `@switchboard/profiler/storage`: the `WriteBehindQueue` does the bounded queueing, this file
 * says how to write a batch, read one profile and find summaries. `sql-storage.test.ts` runs the
 * storage contract of `@switchboard/profiler/testing` against it (on PGlite, in process).
 */
import type { Logger } from '@switchboard/http-kernel';
import {
  DEFAULT_SEARCH_LIMIT,
  mergeQueuedAndStored,
  normaliseIp,
  resolveBounds,
  WriteBehindQueue,
  type ProfileData,
  type ProfilerStorage,
  type ProfileSearch,
  type ProfileSummary,
  type QueuedProfile,
  type StorageBounds,
  type WriteBoundsOptions,
} from '../../src/storage.js';

/** What node-postgres' `Pool`/`Client` and PGlite have in common. */
export interface SqlQueryable {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

export interface SqlProfilerStorageOptions extends StorageBounds, WriteBoundsOptions {
  database: SqlQueryable;
  /** Default `switchboard_profiles`; letters, digits and `_` only. */
  table?: string;
  /** Told when writes fall behind or a batch fails. */
  logger?: Logger;
}

const SAFE_TOKEN = /^[0-9a-f]{1,64}$/;
const SAFE_TABLE = /^[a-z_][a-z0-9_]*$/;
const SUMMARY_COLUMNS =
  'token, parent_token AS "parentToken", ip, method, url, time, status_code AS "statusCode", virtual_type AS "virtualType"';

/** Profiles in one PostgreSQL table, newest by `seq`; a batch is one insert and one eviction. */
export class SqlProfilerStorage implements ProfilerStorage {
  readonly #database: SqlQueryable;
  readonly #table: string;
  readonly #bounds: Required<StorageBounds>;
  readonly #queue: WriteBehindQueue;
  readonly #now: () => number;
  readonly #ready: Promise<unknown>;
  /** Tokens in the table as of the last write: `has` and `size` are synchronous. */
  #stored = new Set<string>();

  constructor(options: SqlProfilerStorageOptions, now: () => number = Date.now) {
    this.#database = options.database;
    this.#table = options.table ?? 'switchboard_profiles';
    if (!SAFE_TABLE.test(this.#table)) throw new RangeError(`Not a plain table name: ${this.#table}`);
    this.#bounds = resolveBounds(options);
    this.#now = now;
    this.#queue = new WriteBehindQueue(
      { writeBatch: (batch) => this.#writeBatch(batch) },
      { ...options, target: `to table ${this.#table}` },
    );
    this.#ready = this.#database.query(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (token text PRIMARY KEY, parent_token text, ip text, ip_key text,
        method text, url text, time double precision, status_code integer, virtual_type text, profile text,
        seq bigserial)`,
    );
  }

  get size(): number {
    let queued = 0;
    for (const [token] of this.#queue.entries()) if (!this.#stored.has(token)) queued++;
    return this.#stored.size + queued;
  }

  async write(profile: ProfileData): Promise<void> {
    if (!SAFE_TOKEN.test(profile.token)) throw new RangeError('Refusing a profile from an invalid token.');
    this.#queue.enqueue(profile);
  }

  async read(token: string): Promise<ProfileData | null> {
    if (!SAFE_TOKEN.test(token)) return null;
    let json = this.#queue.get(token)?.json;
    if (json === undefined) {
      await this.#ready;
      const { rows } = await this.#database.query<{ profile: string }>(`SELECT profile FROM ${this.#table} WHERE token = $1`, [token]);
      json = rows[0]?.profile;
    }
    const profile = json === undefined ? null : (JSON.parse(json) as ProfileData);
    return profile === null || this.#expired(profile) ? null : profile;
  }

  has(token: string): boolean {
    return this.#queue.has(token) || this.#stored.has(token);
  }

  async find(search: ProfileSearch): Promise<ProfileSummary[]> {
    const queued = Array.from(this.#queue.entries(), ([, entry]) => entry.summary);
    const where = ['time >= $1'];
    const values: unknown[] = [Math.max(search.start ?? 0, this.#now() - this.#bounds.maxAgeMs)];
    const given = (value: string | undefined): value is string => value !== undefined && value !== '';
    const add = (condition: string, value: unknown) => where.push(condition.replace('?', `$${values.push(value)}`));
    if (search.end !== undefined) add('time <= ?', search.end);
    if (given(search.ip)) add('ip_key = ?', normaliseIp(search.ip));
    if (given(search.method)) add('method = ?', search.method.toUpperCase());
    if (given(search.url)) add('strpos(url, ?) > 0', search.url);
    if (search.statusCode !== undefined) add('status_code = ?', search.statusCode);
    if (given(search.virtualType)) add('virtual_type = ?', search.virtualType);
    const limit = Math.max(0, search.limit ?? DEFAULT_SEARCH_LIMIT);
    await this.#ready;
    const { rows } = await this.#database.query<ProfileSummary>(
      `SELECT ${SUMMARY_COLUMNS} FROM ${this.#table} WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ${limit}`,
      values,
    );
    return mergeQueuedAndStored(queued, rows, search, (summary) => this.#expired(summary));
  }

  async purge(): Promise<void> {
    await this.#queue.clear();
    await this.#ready;
    await this.#database.query(`DELETE FROM ${this.#table}`);
    this.#stored = new Set();
  }

  flush(timeoutMs = Infinity): Promise<boolean> {
    return this.#queue.flush(timeoutMs);
  }

  #expired(summary: ProfileSummary): boolean {
    return summary.time < this.#now() - this.#bounds.maxAgeMs;
  }

  /** One insert (a token written again gets a new `seq`: it is the newest), then the bounds. */
  async #writeBatch(batch: ReadonlyMap<string, QueuedProfile>): Promise<boolean> {
    await this.#ready;
    const values: unknown[] = [];
    const rows = [...batch.values()].map(({ summary: s, json }) => {
      const row = [s.token, s.parentToken, s.ip, normaliseIp(s.ip), s.method, s.url, s.time, s.statusCode, s.virtualType, json];
      return `(${row.map((value) => `$${values.push(value)}`).join(', ')})`;
    });
    await this.#database.query(
      `INSERT INTO ${this.#table} (token, parent_token, ip, ip_key, method, url, time, status_code, virtual_type, profile)
       VALUES ${rows.join(', ')}
       ON CONFLICT (token) DO UPDATE SET parent_token = excluded.parent_token, ip = excluded.ip, ip_key = excluded.ip_key,
         method = excluded.method, url = excluded.url, time = excluded.time, status_code = excluded.status_code,
         virtual_type = excluded.virtual_type, profile = excluded.profile, seq = excluded.seq`,
      values,
    );
    const { rows: kept } = await this.#database.query<{ token: string }>(
      `WITH evicted AS (
         DELETE FROM ${this.#table} WHERE time < $1
           OR token IN (SELECT token FROM ${this.#table} ORDER BY seq DESC OFFSET $2)
         RETURNING token)
       SELECT token FROM ${this.#table} WHERE token NOT IN (SELECT token FROM evicted)`,
      [this.#now() - this.#bounds.maxAgeMs, this.#bounds.maxProfiles],
    );
    this.#stored = new Set(kept.map((row) => row.token));
    return true;
  }
}
