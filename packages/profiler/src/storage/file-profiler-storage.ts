import { mkdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile, rm, unlink, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@switchboard/http-kernel';
import { summaryOf, type ProfileData, type ProfileSummary } from '../profile/profile.js';
import {
  DEFAULT_SEARCH_LIMIT,
  matchesSearch,
  resolveBounds,
  resolveMaxPendingWrites,
  type ProfilerStorage,
  type ProfileSearch,
  type StorageBounds,
} from './profiler-storage.js';

const INDEX_FILE = 'index.jsonl';
/** A storage only ever names files after tokens of this shape. */
const SAFE_TOKEN = /^[0-9a-f]{1,64}$/;
/** Files written at once by the writer; the rest of the queue waits for the next round. */
const WRITE_BATCH = 32;

export interface FileProfilerStorageOptions extends StorageBounds {
  /** Directory holding one `<token>.json` per profile and `index.jsonl`; created when missing. */
  directory: string;
  /**
   * Most profiles waiting to be written (default 256, a few MiB). When the disk falls behind,
   * the oldest waiting profile is dropped for each new one: its token then answers 404.
   */
  maxPendingWrites?: number;
  /** Told once, at the first dropped profile, and when a write fails. */
  logger?: Logger;
}

interface PendingProfile {
  readonly summary: ProfileSummary;
  /** Serialised when queued: the queue's memory is that of its strings, and nothing else is kept alive. */
  readonly json: string;
}

/**
 * One JSON file per profile plus an append-only index (`index.jsonl`, one summary per line),
 * so profiles survive a restart. The index is also held in memory, in write order, to answer
 * `has` and `find` without reading files; past the bounds the oldest profiles go first.
 *
 * `write` only queues the profile (readable at once) for a single background writer, which writes
 * files in batches, appends their index lines, deletes evicted files, and rewrites the index file
 * once it has grown to twice the live entries. The queue is bounded (`maxPendingWrites`): under
 * more load than the disk takes, the oldest queued profiles are dropped and counted
 * (`droppedWrites`), so memory stays flat. `flush` waits for the queue, within a time limit, at
 * shutdown.
 */
export class FileProfilerStorage implements ProfilerStorage {
  readonly directory: string;
  readonly #bounds: Required<StorageBounds>;
  readonly #maxPending: number;
  readonly #logger: Logger | null;
  /** Every live profile, written or queued, oldest first. */
  readonly #index = new Map<string, ProfileSummary>();
  /** Queued, not being written yet, oldest first. */
  readonly #pending = new Map<string, PendingProfile>();
  /** Being written by the current batch. */
  readonly #inFlight = new Map<string, PendingProfile>();
  /** Files of evicted profiles, deleted by the writer after its current batch. */
  #doomedFiles: string[] = [];
  readonly #now: () => number;
  #indexLines = 0;
  #writerRunning = false;
  #idleWaiters: Array<() => void> = [];
  #dropped = 0;
  #dropReported = false;
  #failureReported = false;

  constructor(options: FileProfilerStorageOptions, now: () => number = Date.now) {
    this.directory = options.directory;
    this.#bounds = resolveBounds(options);
    this.#maxPending = resolveMaxPendingWrites(options.maxPendingWrites);
    this.#logger = options.logger ?? null;
    this.#now = now;
    mkdirSync(this.directory, { recursive: true });
    this.#loadIndex();
  }

  get size(): number {
    return this.#index.size;
  }

  /** Profiles queued and not written yet (at most `maxPendingWrites`, plus one batch being written). */
  get pendingWrites(): number {
    return this.#pending.size + this.#inFlight.size;
  }

  /** Profiles dropped since start because the queue was full, a write failed, or `flush` ran out of time. */
  get droppedWrites(): number {
    return this.#dropped;
  }

  /** Queues the profile; it can be read at once, and is on disk once the writer got to it. */
  async write(profile: ProfileData): Promise<void> {
    const token = profile.token;
    this.#fileOf(token);
    const summary = summaryOf(profile);
    this.#pending.delete(token);
    this.#pending.set(token, { summary, json: JSON.stringify(profile) });
    this.#index.delete(token);
    this.#index.set(token, summary);
    this.#evict();
    if (this.#pending.size > this.#maxPending) this.#dropOldestPending();
    this.#startWriter();
  }

  async read(token: string): Promise<ProfileData | null> {
    if (!SAFE_TOKEN.test(token)) return null;
    const summary = this.#index.get(token);
    if (summary === undefined || this.#expired(summary)) return null;
    const queued = this.#pending.get(token) ?? this.#inFlight.get(token);
    if (queued !== undefined) return JSON.parse(queued.json) as ProfileData;
    try {
      return JSON.parse(await readFile(this.#fileOf(token), 'utf8')) as ProfileData;
    } catch {
      // Deleted by an eviction racing this read, or damaged: unknown either way.
      return null;
    }
  }

  has(token: string): boolean {
    return this.#index.has(token);
  }

  async find(search: ProfileSearch): Promise<ProfileSummary[]> {
    const limit = search.limit ?? DEFAULT_SEARCH_LIMIT;
    const found: ProfileSummary[] = [];
    if (limit <= 0) return found;
    for (const summary of [...this.#index.values()].reverse()) {
      if (this.#expired(summary) || !matchesSearch(summary, search)) continue;
      found.push(summary);
      if (found.length >= limit) break;
    }
    return found;
  }

  async purge(): Promise<void> {
    this.#pending.clear();
    await this.#writerIdle();
    const tokens = [...this.#index.keys()];
    this.#index.clear();
    await Promise.all(tokens.map((token) => rm(this.#fileOf(token), { force: true })));
    await rm(join(this.directory, INDEX_FILE), { force: true });
    this.#indexLines = 0;
  }

  /**
   * Resolves once every profile queued so far is on disk (`true`), or after `timeoutMs` (`false`):
   * then the profiles still queued are dropped, so their tokens answer 404 rather than name a
   * profile no file holds. For shutdown.
   */
  async flush(timeoutMs = Infinity): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const done = await Promise.race([this.#writerIdle().then(() => true as const), timedOut]);
    clearTimeout(timer);
    if (!done) {
      for (const token of [...this.#pending.keys()]) this.#drop(token);
      this.#logger?.warn(
        { directory: this.directory, dropped: this.#dropped },
        `Profiler storage: not every queued profile was written within ${timeoutMs} ms; the rest are dropped (${this.#dropped} dropped since start).`,
      );
    }
    return done;
  }

  #fileOf(token: string): string {
    if (!SAFE_TOKEN.test(token)) throw new Error(`Refusing a profile file name from an invalid token.`);
    return join(this.directory, `${token}.json`);
  }

  #expired(summary: ProfileSummary): boolean {
    return summary.time < this.#now() - this.#bounds.maxAgeMs;
  }

  /** Past the bounds: a queued profile is simply not written; a written one's file is deleted. */
  #evict(): void {
    for (const summary of this.#index.values()) {
      if (this.#index.size <= this.#bounds.maxProfiles && !this.#expired(summary)) break;
      this.#index.delete(summary.token);
      if (!this.#pending.delete(summary.token)) this.#doomedFiles.push(summary.token);
    }
  }

  #dropOldestPending(): void {
    const oldest = this.#pending.keys().next();
    if (oldest.done) return;
    this.#drop(oldest.value);
    if (this.#dropReported) return;
    this.#dropReported = true;
    this.#logger?.warn(
      { directory: this.directory, maxPendingWrites: this.#maxPending },
      `Profiler storage: writes to ${this.directory} fall behind; dropping the oldest queued profiles (their tokens answer 404). Said once; see droppedWrites for the count.`,
    );
  }

  #drop(token: string): void {
    this.#pending.delete(token);
    this.#index.delete(token);
    this.#dropped++;
  }

  #startWriter(): void {
    if (this.#writerRunning) return;
    this.#writerRunning = true;
    void this.#runWriter();
  }

  #writerIdle(): Promise<void> {
    if (!this.#writerRunning) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #runWriter(): Promise<void> {
    try {
      while (this.#pending.size > 0 || this.#doomedFiles.length > 0) {
        await this.#writeBatch();
        await this.#deleteDoomedFiles();
        if (this.#indexLines > 2 * Math.max(this.#index.size, 16)) await this.#rewriteIndex();
      }
    } finally {
      // Nothing is awaited between the loop's last check and here: a write queued later starts a new writer.
      this.#writerRunning = false;
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  async #writeBatch(): Promise<void> {
    for (const [token, queued] of this.#pending) {
      if (this.#inFlight.size >= WRITE_BATCH) break;
      this.#pending.delete(token);
      this.#inFlight.set(token, queued);
    }
    const written = await Promise.all(
      [...this.#inFlight].map(([token, queued]) =>
        writeFile(this.#fileOf(token), queued.json).then(
          () => queued.summary,
          (error: unknown) => {
            this.#reportFailure(error);
            if (this.#index.delete(token)) this.#dropped++;
            return null;
          },
        ),
      ),
    );
    // Index lines only for profiles still live: one evicted meanwhile has its file in #doomedFiles.
    const lines = written
      .filter((summary) => summary !== null && this.#index.has(summary.token))
      .map((summary) => `${JSON.stringify(summary)}\n`);
    if (lines.length > 0) {
      try {
        await appendFile(join(this.directory, INDEX_FILE), lines.join(''));
        this.#indexLines += lines.length;
      } catch (error) {
        // The files are there but a restart will not know them; this run still does.
        this.#reportFailure(error);
      }
    }
    this.#inFlight.clear();
  }

  async #deleteDoomedFiles(): Promise<void> {
    const doomed = this.#doomedFiles;
    this.#doomedFiles = [];
    await Promise.all(doomed.map((token) => unlink(this.#fileOf(token)).catch(() => undefined)));
  }

  /** The index file holds written profiles only: queued ones get their line when written. */
  async #rewriteIndex(): Promise<void> {
    const target = join(this.directory, INDEX_FILE);
    const temporary = `${target}.tmp`;
    const written = [...this.#index.values()].filter((summary) => !this.#pending.has(summary.token));
    try {
      await writeFile(temporary, written.map((summary) => `${JSON.stringify(summary)}\n`).join(''));
      await rename(temporary, target);
      this.#indexLines = written.length;
    } catch (error) {
      this.#reportFailure(error);
    }
  }

  #reportFailure(error: unknown): void {
    if (this.#failureReported) return;
    this.#failureReported = true;
    this.#logger?.error(
      { exception: error, directory: this.directory },
      `Profiler storage: writing to ${this.directory} failed; profiles that could not be written are dropped. Said once.`,
    );
  }

  #loadIndex(): void {
    let text: string;
    try {
      text = readFileSync(join(this.directory, INDEX_FILE), 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      this.#indexLines++;
      const summary = parseSummary(line);
      if (summary === null) continue;
      this.#index.delete(summary.token);
      this.#index.set(summary.token, summary);
    }
    // Bounds may have shrunk since the last run.
    this.#evict();
    if (this.#doomedFiles.length > 0) this.#startWriter();
  }
}

function parseSummary(line: string): ProfileSummary | null {
  try {
    const value = JSON.parse(line) as Partial<ProfileSummary>;
    if (typeof value.token !== 'string' || !SAFE_TOKEN.test(value.token)) return null;
    if (typeof value.time !== 'number' || typeof value.url !== 'string') return null;
    return value as ProfileSummary;
  } catch {
    return null;
  }
}
