import type { MaybePromise } from '@switchboard/http-kernel';
import { summaryOf, type ProfileData, type ProfileSummary } from '../profile/profile.js';

/** Criteria of `ProfilerStorage.find`; every given criterion must hold. */
export interface ProfileSearch {
  /** Client IP, compared exactly. */
  ip?: string;
  /** HTTP method, case-insensitive. */
  method?: string;
  /** Substring of the absolute URL. */
  url?: string;
  statusCode?: number;
  /** Virtual type, `request` for HTTP requests. */
  virtualType?: string;
  /** Only profiles at or after this time (epoch ms). */
  start?: number;
  /** Only profiles at or before this time (epoch ms). */
  end?: number;
  /** Most results returned; defaults to `DEFAULT_SEARCH_LIMIT`. */
  limit?: number;
}

export const DEFAULT_SEARCH_LIMIT = 10;

/** How much a storage keeps: the oldest profiles go first past either bound. */
export interface StorageBounds {
  /** Most profiles kept (a main request with an error page makes two). */
  maxProfiles?: number;
  /** Profiles older than this (ms) are dropped. */
  maxAgeMs?: number;
}

/**
 * Small enough that a scanner sending millions of 404s leaves memory flat (each profile is a few
 * kilobytes), large enough to find the request you just made among the last few hundred.
 */
export const DEFAULT_STORAGE_BOUNDS: Required<StorageBounds> = { maxProfiles: 500, maxAgeMs: 60 * 60 * 1000 };

/**
 * Where profiles live. Tokens passed in are validated by the profiler first; a storage still
 * treats any token that is not lowercase hex as unknown.
 */
export interface ProfilerStorage {
  /**
   * Stores a profile, replacing one with the same token. Enforces the bounds. The profiler writes
   * `RecordedProfile`s, whose data is built when first read: count them with `profileSize` and
   * serialise them with `profileJson` only when writing them out. `serialised`, when a caller
   * gives it, is `JSON.stringify(profile)`, to use instead of serialising the profile again.
   * A storage that keeps it at once returns nothing: the profiler then saves without a promise.
   */
  write(profile: ProfileData, serialised?: string): MaybePromise<void>;
  read(token: string): Promise<ProfileData | null>;
  /** Whether a profile with this token is stored; synchronous so token generation stays cheap. */
  has(token: string): boolean;
  /** Matching profiles, newest first. */
  find(search: ProfileSearch): Promise<ProfileSummary[]>;
  /** Number of profiles stored now. */
  readonly size: number;
  /** Removes every profile. */
  purge(): Promise<void>;
  /**
   * Whether the storage can be reached now. Storages in this process (memory, files) leave it out
   * and are always available; a networked one (Redis) says when it is not, and the pages tell why
   * a token is not found.
   */
  readonly status?: ProfilerStorageStatus;
}

export interface ProfilerStorageStatus {
  readonly available: boolean;
  /** What a person reads on the profiler pages: where the storage is, what failed, what happens to new profiles. */
  readonly message: string;
}

/** The common filter of the storages' `find`. */
export function matchesSearch(summary: ProfileSummary, search: ProfileSearch): boolean {
  if (search.ip !== undefined && search.ip !== '' && normaliseIp(summary.ip) !== normaliseIp(search.ip)) return false;
  if (search.method !== undefined && search.method !== '' && summary.method !== search.method.toUpperCase()) return false;
  if (search.url !== undefined && search.url !== '' && !summary.url.includes(search.url)) return false;
  if (search.statusCode !== undefined && summary.statusCode !== search.statusCode) return false;
  if (search.virtualType !== undefined && search.virtualType !== '' && summary.virtualType !== search.virtualType) return false;
  if (search.start !== undefined && summary.time < search.start) return false;
  if (search.end !== undefined && summary.time > search.end) return false;
  return true;
}

export function resolveBounds(bounds: StorageBounds = {}): Required<StorageBounds> {
  const resolved = {
    maxProfiles: bounds.maxProfiles ?? DEFAULT_STORAGE_BOUNDS.maxProfiles,
    maxAgeMs: bounds.maxAgeMs ?? DEFAULT_STORAGE_BOUNDS.maxAgeMs,
  };
  if (!Number.isInteger(resolved.maxProfiles) || resolved.maxProfiles < 1) {
    throw new RangeError(`maxProfiles must be a positive integer, got ${String(resolved.maxProfiles)}.`);
  }
  if (!(resolved.maxAgeMs > 0)) throw new RangeError(`maxAgeMs must be positive, got ${String(resolved.maxAgeMs)}.`);
  return resolved;
}

/** `find` over summaries held oldest first: the live matching ones, newest first, up to the limit. */
export function findNewestFirst(
  oldestFirst: Iterable<ProfileSummary>,
  search: ProfileSearch,
  expired: (summary: ProfileSummary) => boolean,
): ProfileSummary[] {
  const limit = search.limit ?? DEFAULT_SEARCH_LIMIT;
  const found: ProfileSummary[] = [];
  if (limit <= 0) return found;
  for (const summary of [...oldestFirst].reverse()) {
    if (expired(summary) || !matchesSearch(summary, search)) continue;
    found.push(summaryOf(summary));
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * `find` of a write-behind storage: the queued summaries (oldest first, not stored yet) that match,
 * merged with what the backend found, newest first, each token once, up to the limit.
 */
export function mergeQueuedAndStored(
  queuedOldestFirst: Iterable<ProfileSummary>,
  stored: readonly ProfileSummary[],
  search: ProfileSearch,
  expired: (summary: ProfileSummary) => boolean,
): ProfileSummary[] {
  const limit = search.limit ?? DEFAULT_SEARCH_LIMIT;
  const waiting = findNewestFirst(queuedOldestFirst, search, expired);
  const seen = new Set(waiting.map((summary) => summary.token));
  const merged = [...waiting, ...stored.filter((summary) => !seen.has(summary.token))];
  // Stable: of equal times, queued profiles (written last) stay first.
  return merged.sort((a, b) => b.time - a.time).slice(0, Math.max(0, limit));
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) is `127.0.0.1`; brackets dropped. */
export function normaliseIp(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const lower = bare.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}
