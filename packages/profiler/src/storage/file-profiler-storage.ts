import { mkdirSync, readFileSync } from 'node:fs';
import { appendFile, readFile, rm, unlink, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { summaryOf, type ProfileData, type ProfileSummary } from '../profile/profile.js';
import {
  DEFAULT_SEARCH_LIMIT,
  matchesSearch,
  resolveBounds,
  type ProfilerStorage,
  type ProfileSearch,
  type StorageBounds,
} from './profiler-storage.js';

const INDEX_FILE = 'index.jsonl';
/** A storage only ever names files after tokens of this shape. */
const SAFE_TOKEN = /^[0-9a-f]{1,64}$/;

export interface FileProfilerStorageOptions extends StorageBounds {
  /** Directory holding one `<token>.json` per profile and `index.jsonl`; created when missing. */
  directory: string;
}

/**
 * One JSON file per profile plus an append-only index (`index.jsonl`, one summary per line),
 * so profiles survive a restart. The index is also held in memory, in write order, to answer
 * `has` and `find` without reading files. Past the bounds the oldest files are deleted; the index
 * file is rewritten when it has grown to twice the live entries. Writes are serialised.
 */
export class FileProfilerStorage implements ProfilerStorage {
  readonly directory: string;
  readonly #bounds: Required<StorageBounds>;
  readonly #index = new Map<string, ProfileSummary>();
  readonly #now: () => number;
  #indexLines = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: FileProfilerStorageOptions, now: () => number = Date.now) {
    this.directory = options.directory;
    this.#bounds = resolveBounds(options);
    this.#now = now;
    mkdirSync(this.directory, { recursive: true });
    this.#loadIndex();
  }

  get size(): number {
    return this.#index.size;
  }

  write(profile: ProfileData): Promise<void> {
    const file = this.#fileOf(profile.token);
    const summary = summaryOf(profile);
    return this.#serialised(async () => {
      await writeFile(file, JSON.stringify(profile));
      this.#index.delete(profile.token);
      this.#index.set(profile.token, summary);
      await appendFile(join(this.directory, INDEX_FILE), `${JSON.stringify(summary)}\n`);
      this.#indexLines++;
      await this.#evict();
      if (this.#indexLines > 2 * Math.max(this.#index.size, 16)) await this.#rewriteIndex();
    });
  }

  async read(token: string): Promise<ProfileData | null> {
    if (!SAFE_TOKEN.test(token)) return null;
    const summary = this.#index.get(token);
    if (summary === undefined || this.#expired(summary)) return null;
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

  purge(): Promise<void> {
    return this.#serialised(async () => {
      const tokens = [...this.#index.keys()];
      this.#index.clear();
      await Promise.all(tokens.map((token) => rm(this.#fileOf(token), { force: true })));
      await rm(join(this.directory, INDEX_FILE), { force: true });
      this.#indexLines = 0;
    });
  }

  /** Resolves once every write queued so far has finished. */
  flush(): Promise<void> {
    return this.#serialised(async () => {});
  }

  #fileOf(token: string): string {
    if (!SAFE_TOKEN.test(token)) throw new Error(`Refusing a profile file name from an invalid token.`);
    return join(this.directory, `${token}.json`);
  }

  #expired(summary: ProfileSummary): boolean {
    return summary.time < this.#now() - this.#bounds.maxAgeMs;
  }

  async #evict(): Promise<void> {
    const doomed: string[] = [];
    for (const summary of this.#index.values()) {
      if (this.#index.size - doomed.length <= this.#bounds.maxProfiles && !this.#expired(summary)) break;
      doomed.push(summary.token);
    }
    for (const token of doomed) this.#index.delete(token);
    await Promise.all(doomed.map((token) => unlink(this.#fileOf(token)).catch(() => undefined)));
  }

  async #rewriteIndex(): Promise<void> {
    const target = join(this.directory, INDEX_FILE);
    const temporary = `${target}.tmp`;
    const lines = [...this.#index.values()].map((summary) => `${JSON.stringify(summary)}\n`).join('');
    await writeFile(temporary, lines);
    await rename(temporary, target);
    this.#indexLines = this.#index.size;
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
    void this.#serialised(() => this.#evict());
  }

  #serialised(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
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
