import type { Logger } from '@switchboard/http-kernel';
import {
  DEFAULT_SEARCH_LIMIT,
  matchesSearch,
  resolveBounds,
  type ProfileData,
  type ProfilerStorage,
  type ProfilerStorageStatus,
  type ProfileSearch,
  type ProfileSummary,
  mergeQueuedAndStored,
  WriteBehindQueue,
  type QueuedProfile,
  type StorageBounds,
  type WriteBoundsOptions,
} from '@switchboard/profiler/storage';
import { RedisCommandTimeoutError, RedisConnection, RedisScript, type RedisClient, type RunOptions } from '@switchboard/redis-connection';
import { DEFAULT_KEY_PREFIX, highestScoreAt, indexEntryOf, lowestScoreAt, RedisKeys, type IndexEntry } from './redis-keys.js';
import { WRITE_SCRIPT } from './write-script.js';

export interface RedisProfilerStorageOptions extends StorageBounds, WriteBoundsOptions {
  /** `redis://[[user]:password@]host[:port][/database]` (`rediss://` for TLS). Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Prefix of every key written; apps sharing one Redis each use their own. Default `switchboard:profiler:`. */
  keyPrefix?: string;
  /** A command not answered within this time fails, and counts as Redis being unavailable. Default 2,000 ms. */
  commandTimeoutMs?: number;
  /** Told once when Redis becomes unavailable, once when it is back, and once when writes fall behind. */
  logger?: Logger;
}

/** A storage only ever names keys after tokens of this shape. */
const SAFE_TOKEN = /^[0-9a-f]{1,64}$/;
/** Summaries read per round trip while a search filters (by URL, say) what the indexes cannot. */
const SEARCH_PAGE = 100;
/** After a failed write, the next attempt waits this long, unless the client reconnects first. */
const RETRY_DELAY_MS = 1_000;
const SCRIPT = new RedisScript(WRITE_SCRIPT);

/**
 * Profiles in Redis, shared by every process of an app behind a load balancer: the token in a
 * response of one process finds its profile through any other.
 *
 * Each profile is a key expiring when it is `maxAgeMs` old, listed in sorted-set indexes (all, and by
 * IP, method, status and type) that `find` and `latest` read newest first; one Lua script writes a
 * batch of profiles and evicts the oldest past `maxProfiles` atomically (see `RedisKeys`).
 *
 * `write` never waits for Redis: it queues the profile (readable at once from this process) in a
 * `WriteBehindQueue`, whose single writer sends batches while Redis is available. While Redis is
 * down or slow, the oldest waiting profiles are dropped past the queue's bounds and counted
 * (`droppedWrites`). An outage is logged once
 * when it starts and once when it ends, `status` says it to the profiler pages, reads and searches
 * answer from what this process still holds, and no Redis error reaches the caller. `close` writes
 * what is queued (bounded in time) and closes the connection at shutdown.
 *
 * For one Redis server reached by its URL, not Redis Cluster: the script touches keys it derives
 * from stored data, which Cluster does not allow.
 */
export class RedisProfilerStorage implements ProfilerStorage {
  readonly #connection: RedisConnection;
  readonly #keys: RedisKeys;
  readonly #bounds: Required<StorageBounds>;
  readonly #now: () => number;
  readonly #queue: WriteBehindQueue;
  /** Tokens stored in Redis as of the last write, by any process: `has` answers from it and the queues. */
  #stored = new Set<string>();
  /** Reads work while writes may not (a Redis refusing writes): while profiles wait, only a write ends an outage. */
  readonly #read: RunOptions = { endsOutage: () => this.pendingWrites === 0 };
  /** A write that timed out but may still be answered: no other is sent before it settles. */
  #unsettledWrite: Promise<unknown> | null = null;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: RedisProfilerStorageOptions = {}, now: () => number = Date.now) {
    const logger = options.logger ?? null;
    this.#keys = new RedisKeys(options.keyPrefix ?? DEFAULT_KEY_PREFIX);
    this.#bounds = resolveBounds(options);
    this.#now = now;
    this.#connection = new RedisConnection({
      ...(options.url === undefined ? {} : { url: options.url }),
      commandTimeoutMs: options.commandTimeoutMs ?? 2_000,
      subject: 'Profiler storage',
      logger,
      duringOutage: () => `New profiles wait in this process, at most ${this.#queue.maxPendingWrites}; older ones are dropped past that.`,
      // Drops during the outage are the expected consequence, said in its line rather than on the first one.
      onUnavailable: () => this.#queue.dropsExplained(),
      afterOutage: () => ({ note: `(${this.droppedWrites} profiles dropped since start)`, fields: { dropped: this.droppedWrites } }),
      onReady: () => this.#resume(),
      now,
    });
    this.#queue = new WriteBehindQueue(
      {
        writeBatch: (batch) => this.#writeBatch(batch),
        canWrite: () => this.#retryTimer === undefined && this.#unsettledWrite === null && this.#connection.isReady,
      },
      { ...options, target: `to Redis at ${this.#connection.location}`, logger },
    );
  }

  /** Available while connected and the last command succeeded; otherwise why not, and what happens to new profiles. */
  get status(): ProfilerStorageStatus {
    const location = this.#connection.location;
    if (this.#closed) return { available: false, message: `The connection to Redis at ${location} is closed.` };
    const waiting = `${this.pendingWrites} new profiles wait in this process (at most ${this.#queue.maxPendingWrites}), ${this.droppedWrites} dropped since start.`;
    const outage = this.#connection.outage;
    if (outage !== null) {
      const since = new Date(outage.since).toISOString();
      return { available: false, message: `Redis at ${location} is unavailable since ${since} (${outage.reason}). ${waiting}` };
    }
    if (!this.#connection.isReady) return { available: false, message: `Connecting to Redis at ${location}. ${waiting}` };
    return { available: true, message: `Redis at ${location}.` };
  }

  /**
   * Resolves `true` once connected (at once when already), `false` after `timeoutMs`. Optional: the
   * storage connects, and reconnects, by itself; for a startup log line or a script's first read.
   */
  async waitUntilAvailable(timeoutMs: number): Promise<boolean> {
    return !this.#closed && (await this.#connection.waitUntilAvailable(timeoutMs));
  }

  /**
   * Resolves once Redis answers `PING`; rejects at once while disconnected, and after
   * `commandTimeoutMs` when it does not answer, connected or not (a readiness check).
   */
  async ping(): Promise<void> {
    if (this.#closed) throw new Error(`The connection to Redis at ${this.#connection.location} is closed.`);
    await this.#connection.run((client) => client.ping());
  }

  /** Stored profiles, as of the last write, plus those waiting. */
  get size(): number {
    let waiting = 0;
    for (const [token] of this.#queue.entries()) if (!this.#stored.has(token)) waiting++;
    return this.#stored.size + waiting;
  }

  /** Profiles queued and not written yet (at most `maxPendingWrites`, plus one batch being written). */
  get pendingWrites(): number {
    return this.#queue.size;
  }

  /** Profiles dropped since start because the queue was full or `close` ran out of time. */
  get droppedWrites(): number {
    return this.#queue.dropped;
  }

  /** Queues the profile; readable at once from this process, and from every process once written. */
  async write(profile: ProfileData, serialised?: string): Promise<void> {
    if (!SAFE_TOKEN.test(profile.token)) throw new RangeError('Refusing a profile key from an invalid token.');
    if (this.#expired(profile) && !this.#closed) return;
    this.#queue.enqueue(profile, serialised);
  }

  async read(token: string): Promise<ProfileData | null> {
    if (!SAFE_TOKEN.test(token)) return null;
    // A queued profile is read as it is: a recorded one is built when its data is read, not serialised for it.
    const queued = this.#queue.get(token);
    if (queued !== undefined) return this.#expired(queued.profile) ? null : queued.profile;
    let json: string | null;
    try {
      json = await this.#connection.run((client) => client.get(this.#keys.profile(token)), this.#read);
    } catch {
      // The connection has counted it in an outage.
      return null;
    }
    const profile = json === null ? null : parseJson<ProfileData>(json);
    return profile === null || this.#expired(profile) ? null : profile;
  }

  has(token: string): boolean {
    return this.#queue.has(token) || this.#stored.has(token);
  }

  /** Waiting profiles and stored ones merged, newest first; only the waiting ones while Redis is unavailable. */
  async find(search: ProfileSearch): Promise<ProfileSummary[]> {
    const limit = search.limit ?? DEFAULT_SEARCH_LIMIT;
    if (limit <= 0) return [];
    // Taken before the backend is asked: a profile written meanwhile is then in one list or both.
    const queued = Array.from(this.#queue.entries(), ([, entry]) => entry.summary);
    let stored: ProfileSummary[] = [];
    try {
      stored = await this.#connection.run((client) => this.#findStored(client, search, limit), this.#read);
    } catch {
      // The connection has counted it in an outage: what waits here is the answer.
    }
    return mergeQueuedAndStored(queued, stored, search, (summary) => this.#expired(summary));
  }

  /** Removes every key under the prefix, and what waits in this process. Fails when Redis does, or does not answer in time. */
  async purge(): Promise<void> {
    await this.#queue.clear();
    const pattern = `${this.#keys.prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const page = await this.#connection.run((client) => client.scan(cursor, { MATCH: pattern, COUNT: 500 }));
      if (page.keys.length > 0) await this.#connection.run((client) => client.del(page.keys));
      cursor = String(page.cursor);
    } while (cursor !== '0');
    this.#stored = new Set();
  }

  /**
   * Resolves once every profile queued so far is in Redis (`true`), or after `timeoutMs` (`false`):
   * then the profiles still waiting are dropped.
   */
  flush(timeoutMs = Infinity): Promise<boolean> {
    return this.#queue.flush(timeoutMs);
  }

  /** For shutdown: `flush(timeoutMs)`, then closes the connection (within `commandTimeoutMs`). Later writes are dropped. */
  async close(timeoutMs = 2_000): Promise<void> {
    if (this.#closed) return;
    await this.flush(this.#connection.isReady ? timeoutMs : 0);
    this.#closed = true;
    this.#queue.close();
    clearTimeout(this.#retryTimer);
    await this.#connection.close();
  }

  async #findStored(client: RedisClient, search: ProfileSearch, limit: number): Promise<ProfileSummary[]> {
    const lowest = lowestScoreAt(Math.max(search.start ?? 0, this.#now() - this.#bounds.maxAgeMs));
    const highest = search.end === undefined ? '+inf' : highestScoreAt(search.end);
    const indexes = this.#keys.searchIndexes(search);
    // One criterion or none: page through its index. Several: their intersection, sorted here.
    const [first, ...others] = indexes;
    const intersection =
      first !== undefined && others.length > 0
        ? (await client.zInterWithScores([first, ...others], { AGGREGATE: 'MAX' }))
            .filter(({ score }) => score >= Number(lowest) && (highest === '+inf' || score <= Number(highest)))
            .sort((a, b) => b.score - a.score)
            .map(({ value }) => String(value))
        : null;
    const index = first ?? this.#keys.byTime;
    const found: ProfileSummary[] = [];
    for (let offset = 0; found.length < limit; offset += SEARCH_PAGE) {
      const tokens =
        intersection?.slice(offset, offset + SEARCH_PAGE) ??
        (await client.zRange(index, highest, lowest, { BY: 'SCORE', REV: true, LIMIT: { offset, count: SEARCH_PAGE } })).map(String);
      if (tokens.length === 0) break;
      const entries = await client.hmGet(this.#keys.entries, tokens);
      for (const entry of entries) {
        // Missing: evicted between the two reads.
        const summary = entry === null ? undefined : parseJson<IndexEntry>(String(entry))?.summary;
        if (summary !== undefined && matchesSearch(summary, search)) found.push(summary);
        if (found.length >= limit) break;
      }
      if (tokens.length < SEARCH_PAGE) break;
    }
    return found;
  }

  #expired(profile: ProfileSummary): boolean {
    return profile.time < this.#now() - this.#bounds.maxAgeMs;
  }

  /** Sends one batch; `false` when it failed, the batch then back at the front of the queue. */
  async #writeBatch(batch: ReadonlyMap<string, QueuedProfile>): Promise<boolean> {
    const now = this.#now();
    const args = [
      this.#keys.prefix,
      lowestScoreAt(now - this.#bounds.maxAgeMs),
      String(this.#bounds.maxProfiles),
      String(this.#bounds.maxAgeMs),
    ];
    for (const [token, queued] of batch) {
      const { summary, json } = queued;
      args.push(token, String(summary.time), String(summary.time + this.#bounds.maxAgeMs), JSON.stringify(indexEntryOf(summary)), json);
    }
    try {
      const stored = await this.#connection.evaluate(SCRIPT, [], args);
      this.#stored = new Set((stored as unknown[]).map(String));
      this.#resume();
      return true;
    } catch (error) {
      if (error instanceof RedisCommandTimeoutError) {
        const settled = () => {
          this.#unsettledWrite = null;
          this.#queue.start();
        };
        this.#unsettledWrite = error.pending.then(settled, settled);
      }
      this.#retryTimer = setTimeout(() => {
        this.#retryTimer = undefined;
        this.#queue.start();
      }, RETRY_DELAY_MS).unref();
      // The script runs whole or not at all (a timeout may still have run it: writing again is harmless).
      return false;
    }
  }

  /** The client (re)connected, or a write went through: what waits is written now. */
  #resume(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#queue.start();
  }
}

/** Damaged data under our keys (written by something else) reads as absent, not as an error. */
function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
