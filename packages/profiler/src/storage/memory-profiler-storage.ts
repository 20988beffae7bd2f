import type { ProfileData, ProfileSummary } from '../profile/profile.js';
import { profileSize } from '../profile/recorded-profile.js';
import { findNewestFirst, resolveBounds, type ProfilerStorage, type ProfileSearch, type StorageBounds } from './profiler-storage.js';

export interface MemoryStorageBounds extends StorageBounds {
  /**
   * Most memory kept, in characters of the profiles' JSON (default 16 MiB): past it the oldest
   * profiles go, so a few huge profiles cannot fill memory before `maxProfiles` is reached. A
   * profile the profiler recorded counts with its estimated size (its data is built when read).
   */
  maxBytes?: number;
}

export const DEFAULT_MEMORY_STORAGE_MAX_BYTES = 16 * 1024 * 1024;

interface StoredProfile {
  readonly profile: ProfileData;
  readonly bytes: number;
}

/**
 * Keeps profiles in memory, in write order (a Map keeps insertion order), dropping the oldest past
 * `maxProfiles` or `maxBytes` and any older than `maxAgeMs`. The default storage: nothing touches
 * the disk. A recorded profile is kept as it is, so its data is built only if someone reads it.
 */
export class MemoryProfilerStorage implements ProfilerStorage {
  readonly #profiles = new Map<string, StoredProfile>();
  readonly #bounds: Required<StorageBounds>;
  readonly #maxBytes: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(bounds: MemoryStorageBounds = {}, now: () => number = Date.now) {
    this.#bounds = resolveBounds(bounds);
    this.#maxBytes = bounds.maxBytes ?? DEFAULT_MEMORY_STORAGE_MAX_BYTES;
    if (!Number.isInteger(this.#maxBytes) || this.#maxBytes < 1) {
      throw new RangeError(`maxBytes must be a positive integer, got ${String(bounds.maxBytes)}.`);
    }
    this.#now = now;
  }

  get size(): number {
    return this.#profiles.size;
  }

  /** Characters the stored profiles count for (what `maxBytes` bounds): JSON given or estimated. */
  get bytes(): number {
    return this.#bytes;
  }

  write(profile: ProfileData, serialised?: string): void {
    // Re-inserting moves the token to the newest end.
    this.#delete(profile.token);
    const stored = { profile, bytes: serialised?.length ?? profileSize(profile) };
    this.#profiles.set(profile.token, stored);
    this.#bytes += stored.bytes;
    this.#evict();
  }

  async read(token: string): Promise<ProfileData | null> {
    const stored = this.#profiles.get(token);
    if (stored === undefined) return null;
    if (this.#expired(stored.profile)) {
      this.#evict();
      return null;
    }
    return stored.profile;
  }

  has(token: string): boolean {
    return this.#profiles.has(token);
  }

  async find(search: ProfileSearch): Promise<ProfileSummary[]> {
    this.#evict();
    return findNewestFirst(
      Array.from(this.#profiles.values(), (stored) => stored.profile),
      search,
      (summary) => this.#expired(summary),
    );
  }

  async purge(): Promise<void> {
    this.#profiles.clear();
    this.#bytes = 0;
  }

  #expired(profile: ProfileSummary): boolean {
    return profile.time < this.#now() - this.#bounds.maxAgeMs;
  }

  #evict(): void {
    // The newest profile stays even when it alone is larger than maxBytes.
    while (this.#profiles.size > this.#bounds.maxProfiles || (this.#bytes > this.#maxBytes && this.#profiles.size > 1)) {
      this.#delete(this.#profiles.keys().next().value as string);
    }
    // Write order is nearly time order, so expired profiles sit at the front.
    for (const { profile } of this.#profiles.values()) {
      if (!this.#expired(profile)) break;
      this.#delete(profile.token);
    }
  }

  #delete(token: string): void {
    const stored = this.#profiles.get(token);
    if (stored === undefined) return;
    this.#profiles.delete(token);
    this.#bytes -= stored.bytes;
  }
}
