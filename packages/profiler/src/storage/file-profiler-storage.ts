import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile, rm, unlink, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@switchboard/http-kernel';
import type { ProfileData, ProfileSummary } from '../profile/profile.js';
import { findNewestFirst, resolveBounds, type ProfilerStorage, type ProfileSearch, type StorageBounds } from './profiler-storage.js';
import { WriteBehindQueue, type QueuedProfile, type WriteBoundsOptions } from './write-behind-queue.js';

const INDEX_FILE = 'index.jsonl';
/** A storage only ever names files after tokens of this shape. */
const SAFE_TOKEN = /^[0-9a-f]{1,64}$/;

export interface FileProfilerStorageOptions extends StorageBounds, WriteBoundsOptions {
  /** Directory holding one `<token>.json` per profile and `index.jsonl`; created when missing (mode 0700). */
  directory: string;
  /** Told once when writes fall behind (the oldest queued profiles are dropped), and when a write fails. */
  logger?: Logger;
}

/** Profiles can hold what a request carried: only the user running the app reads them. */
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

/**
 * One JSON file per profile plus an append-only index (`index.jsonl`, one summary per line),
 * so profiles survive a restart. The index is also held in memory, in write order, to answer
 * `has` and `find` without reading files; past the bounds the oldest profiles go first.
 *
 * `write` only queues the profile (readable at once) in a `WriteBehindQueue`, whose writer writes
 * files in batches and appends their index lines; between batches, files of evicted profiles are
 * deleted, and the index file is rewritten once it has grown to twice the live entries. Files are
 * created 0600 in a 0700 directory.
 */
export class FileProfilerStorage implements ProfilerStorage {
  readonly directory: string;
  readonly #bounds: Required<StorageBounds>;
  readonly #logger: Logger | null;
  /** Every live profile, written or queued, oldest first. */
  readonly #index = new Map<string, ProfileSummary>();
  readonly #queue: WriteBehindQueue;
  /** Files of evicted profiles, deleted by the writer after its current batch. */
  #doomedFiles: string[] = [];
  readonly #now: () => number;
  #indexLines = 0;
  #failureReported = false;

  constructor(options: FileProfilerStorageOptions, now: () => number = Date.now) {
    this.directory = options.directory;
    this.#bounds = resolveBounds(options);
    this.#logger = options.logger ?? null;
    this.#now = now;
    this.#queue = new WriteBehindQueue(
      {
        writeBatch: (batch) => this.#writeBatch(batch),
        hasChores: () => this.#doomedFiles.length > 0 || this.#indexLines > 2 * Math.max(this.#index.size, 16),
        chores: () => this.#chores(),
        dropped: (token) => this.#index.delete(token),
      },
      { ...options, target: `to ${this.directory}`, logger: this.#logger },
    );
    mkdirSync(this.directory, { recursive: true, mode: DIRECTORY_MODE });
    try {
      // An existing directory keeps its mode otherwise.
      chmodSync(this.directory, DIRECTORY_MODE);
    } catch (error) {
      // Not ours (a shared folder): the files are still 0600.
      this.#logger?.warn(
        { err: error, directory: this.directory },
        `Profiler storage: cannot make ${this.directory} private (mode 0700); profile files are still created 0600.`,
      );
    }
    this.#loadIndex();
  }

  get size(): number {
    return this.#index.size;
  }

  /** Profiles queued and not written yet (at most `maxPendingWrites`, plus one batch being written). */
  get pendingWrites(): number {
    return this.#queue.size;
  }

  /** Profiles dropped since start because the queue was full, a write failed, or `flush` ran out of time. */
  get droppedWrites(): number {
    return this.#queue.dropped;
  }

  /** Queues the profile; it can be read at once, and is on disk once the writer got to it. */
  async write(profile: ProfileData, serialised?: string): Promise<void> {
    this.#fileOf(profile.token);
    const { summary } = this.#queue.enqueue(profile, serialised);
    // The queue may have dropped older profiles; this one is the newest, always queued.
    this.#index.delete(summary.token);
    this.#index.set(summary.token, summary);
    this.#evict();
  }

  async read(token: string): Promise<ProfileData | null> {
    if (!SAFE_TOKEN.test(token)) return null;
    const summary = this.#index.get(token);
    if (summary === undefined || this.#expired(summary)) return null;
    const queued = this.#queue.get(token);
    if (queued !== undefined) return queued.profile;
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
    return findNewestFirst(this.#index.values(), search, (summary) => this.#expired(summary));
  }

  async purge(): Promise<void> {
    await this.#queue.clear();
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
  flush(timeoutMs = Infinity): Promise<boolean> {
    return this.#queue.flush(timeoutMs);
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
      if (!this.#queue.remove(summary.token)) this.#doomedFiles.push(summary.token);
    }
    this.#queue.start();
  }

  async #writeBatch(batch: ReadonlyMap<string, QueuedProfile>): Promise<boolean> {
    const written = await Promise.all(
      [...batch].map(([token, queued]) =>
        writeFile(this.#fileOf(token), queued.json, { mode: FILE_MODE }).then(
          () => queued.summary,
          (error: unknown) => {
            this.#reportFailure(error);
            if (this.#index.delete(token)) this.#queue.countDropped();
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
        await appendFile(join(this.directory, INDEX_FILE), lines.join(''), { mode: FILE_MODE });
        this.#indexLines += lines.length;
      } catch (error) {
        // The files are there but a restart will not know them; this run still does.
        this.#reportFailure(error);
      }
    }
    return true;
  }

  async #chores(): Promise<void> {
    const doomed = this.#doomedFiles;
    this.#doomedFiles = [];
    await Promise.all(doomed.map((token) => unlink(this.#fileOf(token)).catch(() => undefined)));
    if (this.#indexLines > 2 * Math.max(this.#index.size, 16)) await this.#rewriteIndex();
  }

  /** The index file holds written profiles only: queued ones get their line when written. */
  async #rewriteIndex(): Promise<void> {
    const target = join(this.directory, INDEX_FILE);
    const temporary = `${target}.tmp`;
    const written = [...this.#index.values()].filter((summary) => !this.#queue.has(summary.token));
    try {
      await writeFile(temporary, written.map((summary) => `${JSON.stringify(summary)}\n`).join(''), { mode: FILE_MODE });
      await rename(temporary, target);
      this.#indexLines = written.length;
    } catch (error) {
      this.#reportFailure(error);
      // Not again at once: the next write tries.
      this.#indexLines = Math.min(this.#indexLines, 2 * Math.max(this.#index.size, 16));
    }
  }

  #reportFailure(error: unknown): void {
    if (this.#failureReported) return;
    this.#failureReported = true;
    this.#logger?.error(
      { err: error, directory: this.directory },
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
