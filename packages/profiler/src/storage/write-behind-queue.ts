import { channel } from 'node:diagnostics_channel';
import type { Logger } from '@switchboard/http-kernel';
import type { ProfileData, ProfileSummary } from '../profile/profile.js';
import { summaryOf } from '../profile/profile.js';
import { profileJson, profileSize } from '../profile/recorded-profile.js';

/** Published once per profile a storage's write queue drops (`ProfileDroppedMessage`), for metrics. */
export const PROFILE_DROPPED_CHANNEL = 'switchboard.profiler.profile-dropped';

/** What `PROFILE_DROPPED_CHANNEL` carries: nothing but the drop, for now (the channel's version 1). */
export type ProfileDroppedMessage = Record<string, never>;

const profileDropped = channel(PROFILE_DROPPED_CHANNEL);
const NOTHING: ProfileDroppedMessage = {};

/**
 * A profile waiting to be written: its JSON is made when a batch writes it (a recorded profile's
 * data is built then), and the queue counts it by the size given or estimated.
 */
export class QueuedProfile {
  readonly summary: ProfileSummary;
  /** Characters counted against `maxPendingBytes`. */
  readonly bytes: number;
  readonly profile: ProfileData;
  #json: string | null;

  constructor(profile: ProfileData, serialised?: string) {
    this.summary = summaryOf(profile);
    this.profile = profile;
    this.#json = serialised ?? null;
    this.bytes = serialised?.length ?? profileSize(profile);
  }

  get json(): string {
    this.#json ??= profileJson(this.profile);
    return this.#json;
  }
}

/** What a storage gives its queue: how to write a batch, and when it may. */
export interface BatchWriter {
  /**
   * Writes a batch, oldest first. `true`: done (a storage drops by itself what it could not write,
   * calling `queue.countDropped`); `false`: nothing was written, the batch goes back to the front
   * of the queue and the writer stops until the storage calls `start` again.
   */
  writeBatch(batch: ReadonlyMap<string, QueuedProfile>): Promise<boolean>;
  /** Whether the writer may run now (a networked storage: connected, not waiting to retry). Default: always. */
  canWrite?(): boolean;
  /** Work of the storage's own to do between batches (deleting evicted files); the writer runs while there is. */
  hasChores?(): boolean;
  chores?(): Promise<void>;
  /** A queued profile was dropped (queue full, `flush` out of time): it is gone, its token must answer 404. */
  dropped?(token: string): void;
}

/** The bounds of a storage's write queue; past either, the oldest queued profile is dropped (its token answers 404). */
export interface WriteBoundsOptions {
  /** Most profiles waiting to be written (default 256). */
  maxPendingWrites?: number;
  /**
   * Most JSON waiting to be written, in characters of the serialised profiles (default 16 MiB;
   * a recorded profile counts with its estimated size): a few huge profiles cannot fill memory either.
   */
  maxPendingBytes?: number;
}

export interface WriteBehindQueueOptions extends WriteBoundsOptions {
  /** Profiles handed to one `writeBatch` (default 32). */
  batchSize?: number;
  logger?: Logger | null;
  /** Where profiles go, for log lines: `to /var/profiles`, `to Redis at 127.0.0.1:6379`. */
  target: string;
}

export const DEFAULT_MAX_PENDING_BYTES = 16 * 1024 * 1024;

/**
 * The bounded write-behind queue of a profile storage: `enqueue` never waits for the storage;
 * a single writer hands queued profiles to the storage in batches. Past `maxPendingWrites` or
 * `maxPendingBytes` the oldest queued profile is dropped for each new one, counted (`dropped`) and
 * said once per backlog. Queued profiles stay readable (`get`) until written. `flush` waits for
 * the queue to drain, within a time limit, at shutdown.
 */
export class WriteBehindQueue {
  readonly #writer: BatchWriter;
  readonly #maxPending: number;
  readonly #maxBytes: number;
  readonly #batchSize: number;
  readonly #logger: Logger | null;
  readonly #target: string;
  /** Queued, not being written yet, oldest first. */
  #pending = new Map<string, QueuedProfile>();
  #pendingBytes = 0;
  /** Being written by the current batch. */
  readonly #inFlight = new Map<string, QueuedProfile>();
  #running = false;
  #closed = false;
  #dropped = 0;
  /** Whether this backlog's drops were told already. */
  #dropsReported = false;
  #failureReported = false;
  #idleWaiters: Array<() => void> = [];

  constructor(writer: BatchWriter, options: WriteBehindQueueOptions) {
    this.#writer = writer;
    this.#maxPending = resolvePositiveInteger('maxPendingWrites', options.maxPendingWrites, 256);
    this.#maxBytes = resolvePositiveInteger('maxPendingBytes', options.maxPendingBytes, DEFAULT_MAX_PENDING_BYTES);
    this.#batchSize = resolvePositiveInteger('batchSize', options.batchSize, 32);
    this.#logger = options.logger ?? null;
    this.#target = options.target;
  }

  get maxPendingWrites(): number {
    return this.#maxPending;
  }

  /** Profiles queued and not written yet (at most `maxPendingWrites`, plus one batch being written). */
  get size(): number {
    return this.#pending.size + this.#inFlight.size;
  }

  /** Profiles dropped since start: queue full, `flush` out of time, closed, or counted by the storage. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Queues the profile (replacing one with its token) and starts the writer; after `close`, drops it. `serialised`: its JSON, when made already. */
  enqueue(profile: ProfileData, serialised?: string): QueuedProfile {
    const queued = new QueuedProfile(profile, serialised);
    if (this.#closed) {
      this.#countDrops(1);
      return queued;
    }
    this.#remove(profile.token);
    this.#add(profile.token, queued);
    this.#trim();
    this.start();
    return queued;
  }

  /** The queued or in-flight profile of `token`. */
  get(token: string): QueuedProfile | undefined {
    return this.#pending.get(token) ?? this.#inFlight.get(token);
  }

  has(token: string): boolean {
    return this.#pending.has(token) || this.#inFlight.has(token);
  }

  /** Every queued profile, oldest first (the batch being written, then the rest). */
  *entries(): IterableIterator<[string, QueuedProfile]> {
    yield* this.#inFlight;
    yield* this.#pending;
  }

  /** Takes a profile out of the queue before it is written (evicted by the storage's bounds); `false` if not queued. */
  remove(token: string): boolean {
    return this.#remove(token);
  }

  /** A profile the storage lost on its own (a failed write). */
  countDropped(count = 1): void {
    this.#countDrops(count);
  }

  /** Drops here are expected and were said already (a storage's outage message): not told again in this backlog. */
  dropsExplained(): void {
    this.#dropsReported = true;
  }

  /** Starts the writer if it is not running, there is work, and the storage may write. */
  start(): void {
    if (this.#running || this.#closed || !this.#hasWork() || this.#writer.canWrite?.() === false) return;
    this.#running = true;
    void this.#run();
  }

  /** Empties the queue without counting drops (a purge), then waits for the batch being written. */
  async clear(): Promise<void> {
    this.#pending.clear();
    this.#pendingBytes = 0;
    await this.idle();
  }

  /** Resolves once the writer is not running. */
  idle(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Resolves `true` once every profile queued so far is written, or `false` after `timeoutMs`: then
   * the profiles still queued are dropped, so their tokens answer 404 rather than name a profile
   * the storage does not hold.
   */
  async flush(timeoutMs = Infinity): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const drained = (async () => {
      // A stopped writer (storage unavailable) leaves profiles queued: wait for the run that writes them.
      while (this.#running || this.size > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
      return true as const;
    })();
    const done = await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    if (!done && this.#pending.size > 0) {
      for (const token of [...this.#pending.keys()]) this.#drop(token);
      this.#logger?.warn(
        { target: this.#target, dropped: this.#dropped },
        `Profiler storage: not every queued profile was written ${this.#target} within ${timeoutMs} ms; the rest are dropped (${this.#dropped} dropped since start).`,
      );
    }
    return done;
  }

  /** Later profiles are dropped and counted; the writer stops after its batch. */
  close(): void {
    this.#closed = true;
  }

  #hasWork(): boolean {
    return this.#pending.size > 0 || this.#writer.hasChores?.() === true;
  }

  async #run(): Promise<void> {
    try {
      while (this.#hasWork() && !this.#closed && this.#writer.canWrite?.() !== false) {
        if (this.#pending.size > 0 && !(await this.#writeBatch())) break;
        if (this.#writer.chores !== undefined) await this.#writer.chores();
      }
    } finally {
      // Nothing is awaited between the loop's last check and here: a profile queued later starts a new writer.
      this.#running = false;
      if (this.size === 0) this.#dropsReported = false;
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  async #writeBatch(): Promise<boolean> {
    for (const [token, queued] of this.#pending) {
      if (this.#inFlight.size >= this.#batchSize) break;
      this.#remove(token);
      this.#inFlight.set(token, queued);
    }
    let written: boolean;
    try {
      written = await this.#writer.writeBatch(this.#inFlight);
    } catch (error) {
      // A storage that throws loses the batch; the queue goes on with the next one.
      this.#reportFailure(error);
      for (const token of this.#inFlight.keys()) {
        this.#countDrops(1);
        this.#writer.dropped?.(token);
      }
      written = true;
    }
    if (!written) {
      // Back at the front, except profiles queued again meanwhile (the newer copy stays).
      const rest = this.#pending;
      this.#pending = new Map();
      this.#pendingBytes = 0;
      for (const [token, queued] of [...this.#inFlight, ...rest]) if (!this.#pending.has(token)) this.#add(token, queued);
      this.#trim();
    }
    this.#inFlight.clear();
    return written;
  }

  /** Past either bound the oldest go; one profile larger than `maxPendingBytes` alone is kept. */
  #trim(): void {
    while (this.#pending.size > 1 && (this.#pending.size > this.#maxPending || this.#pendingBytes > this.#maxBytes)) this.#dropOldest();
  }

  #add(token: string, queued: QueuedProfile): void {
    this.#pending.set(token, queued);
    this.#pendingBytes += queued.bytes;
  }

  #remove(token: string): boolean {
    const queued = this.#pending.get(token);
    if (queued === undefined) return false;
    this.#pending.delete(token);
    this.#pendingBytes -= queued.bytes;
    return true;
  }

  #drop(token: string): void {
    this.#remove(token);
    this.#countDrops(1);
    this.#writer.dropped?.(token);
  }

  /** Counted, and published on `PROFILE_DROPPED_CHANNEL` once per profile when someone listens. */
  #countDrops(count: number): void {
    this.#dropped += count;
    if (!profileDropped.hasSubscribers) return;
    for (let i = 0; i < count; i++) profileDropped.publish(NOTHING);
  }

  #reportFailure(error: unknown): void {
    if (this.#failureReported) return;
    this.#failureReported = true;
    this.#logger?.error(
      { err: error, target: this.#target },
      `Profiler storage: writing ${this.#target} failed; the profiles of that batch are dropped. Said once.`,
    );
  }

  #dropOldest(): void {
    const oldest = this.#pending.keys().next();
    if (oldest.done) return;
    this.#drop(oldest.value);
    if (this.#dropsReported) return;
    this.#dropsReported = true;
    this.#logger?.warn(
      { target: this.#target, maxPendingWrites: this.#maxPending, maxPendingBytes: this.#maxBytes },
      `Profiler storage: writes ${this.#target} fall behind; dropping the oldest queued profiles (their tokens answer 404). Said once; see droppedWrites for the count.`,
    );
  }
}

function resolvePositiveInteger(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}.`);
  return resolved;
}
