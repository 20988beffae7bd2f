import { summaryOf, type ProfileData, type ProfileSummary } from '../profile/profile.js';
import {
  DEFAULT_SEARCH_LIMIT,
  matchesSearch,
  resolveBounds,
  type ProfilerStorage,
  type ProfileSearch,
  type StorageBounds,
} from './profiler-storage.js';

/**
 * Keeps profiles in memory, in write order (a Map keeps insertion order), dropping the oldest past
 * `maxProfiles` and any older than `maxAgeMs`. The default storage: nothing touches the disk.
 */
export class MemoryProfilerStorage implements ProfilerStorage {
  readonly #profiles = new Map<string, ProfileData>();
  readonly #bounds: Required<StorageBounds>;
  readonly #now: () => number;

  constructor(bounds: StorageBounds = {}, now: () => number = Date.now) {
    this.#bounds = resolveBounds(bounds);
    this.#now = now;
  }

  get size(): number {
    return this.#profiles.size;
  }

  async write(profile: ProfileData): Promise<void> {
    // Re-inserting moves the token to the newest end.
    this.#profiles.delete(profile.token);
    this.#profiles.set(profile.token, profile);
    this.#evict();
  }

  async read(token: string): Promise<ProfileData | null> {
    const profile = this.#profiles.get(token);
    if (profile === undefined) return null;
    if (this.#expired(profile)) {
      this.#evict();
      return null;
    }
    return profile;
  }

  has(token: string): boolean {
    return this.#profiles.has(token);
  }

  async find(search: ProfileSearch): Promise<ProfileSummary[]> {
    this.#evict();
    const limit = search.limit ?? DEFAULT_SEARCH_LIMIT;
    const found: ProfileSummary[] = [];
    if (limit <= 0) return found;
    const newestFirst = [...this.#profiles.values()].reverse();
    for (const profile of newestFirst) {
      if (!matchesSearch(profile, search)) continue;
      found.push(summaryOf(profile));
      if (found.length >= limit) break;
    }
    return found;
  }

  async purge(): Promise<void> {
    this.#profiles.clear();
  }

  #expired(profile: ProfileData): boolean {
    return profile.time < this.#now() - this.#bounds.maxAgeMs;
  }

  #evict(): void {
    while (this.#profiles.size > this.#bounds.maxProfiles) this.#dropOldest();
    // Write order is nearly time order, so expired profiles sit at the front.
    for (const profile of this.#profiles.values()) {
      if (!this.#expired(profile)) break;
      this.#profiles.delete(profile.token);
    }
  }

  #dropOldest(): void {
    const oldest = this.#profiles.keys().next();
    if (!oldest.done) this.#profiles.delete(oldest.value);
  }
}
