import { normaliseIp, type ProfileSearch, type ProfileSummary } from '@switchboard/profiler/storage';

/** Every key the storage writes starts with its prefix; one Redis can serve several apps. */
export const DEFAULT_KEY_PREFIX = 'switchboard:profiler:';

/**
 * The key names under a prefix:
 * - `profile:<token>`: the profile's JSON, expiring when the profile is `maxAgeMs` old;
 * - `entries`: a hash, token → `IndexEntry` JSON (the summary, and the indexes holding the token);
 * - `by-time`: a sorted set of every stored token, newest highest (the score is `scoreOf`);
 * - `by-ip:<ip>`, `by-method:<METHOD>`, `by-status:<code>`, `by-type:<type>`: sorted sets of the
 *   tokens with that value, same scores, so a search reads only matching tokens, newest first;
 * - `seq`: a counter that orders profiles written within the same millisecond.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  profile(token: string): string {
    return `${this.prefix}profile:${token}`;
  }

  get entries(): string {
    return `${this.prefix}entries`;
  }

  get byTime(): string {
    return `${this.prefix}by-time`;
  }

  /** Index keys of the criteria a search compares exactly; empty when it has none. */
  searchIndexes(search: ProfileSearch): string[] {
    const given = (value: string | undefined): value is string => value !== undefined && value !== '';
    const names: string[] = [];
    if (given(search.ip)) names.push(`by-ip:${normaliseIp(search.ip)}`);
    if (given(search.method)) names.push(`by-method:${search.method.toUpperCase()}`);
    if (search.statusCode !== undefined) names.push(`by-status:${search.statusCode}`);
    if (given(search.virtualType)) names.push(`by-type:${search.virtualType}`);
    return names.map((name) => this.prefix + name);
  }
}

/** What `entries` holds per token: the summary for search results, and the index names (without prefix) to clean up on eviction. */
export interface IndexEntry {
  readonly summary: ProfileSummary;
  readonly indexes: readonly string[];
}

export function indexEntryOf(summary: ProfileSummary): IndexEntry {
  return {
    summary,
    indexes: [
      `by-ip:${normaliseIp(summary.ip)}`,
      `by-method:${summary.method}`,
      `by-status:${summary.statusCode}`,
      `by-type:${summary.virtualType}`,
    ],
  };
}

/**
 * Scores are the profile's time in milliseconds times 1024, plus a write counter modulo 1024: newest
 * highest, and of two profiles of the same millisecond the one written last (a main request after
 * its sub-requests) comes first. Times up to the year 2248 keep the score an exact integer in a double.
 */
export const SCORE_SLOTS_PER_MS = 1024;

export function lowestScoreAt(time: number): string {
  return String(Math.max(0, time) * SCORE_SLOTS_PER_MS);
}

export function highestScoreAt(time: number): string {
  return String(time * SCORE_SLOTS_PER_MS + SCORE_SLOTS_PER_MS - 1);
}
