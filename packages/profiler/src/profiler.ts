import { isIP } from 'node:net';
import type { MaybePromise } from '@switchboard/http-kernel';
import { describeError } from '@switchboard/http-kernel/internal';
import type { DataCollector } from './collector/data-collector.js';
import { defaultCollectors } from './collector/default-collectors.js';
import { Profile, type ProfileData, type ProfileSummary } from './profile/profile.js';
import { RecordedProfile, type BuiltProfile } from './profile/recorded-profile.js';
import { exceedsItemLimits, fitProfileData, resolveProfileLimits, truncatedString, type ProfileLimits } from './profile/profile-budget.js';
import { credentialsOf, DEFAULT_REDACTED_HEADERS, DEFAULT_SECRET_NAMES, DEFAULT_WHOLE_SECRET_NAMES, Redactor } from './profile/redactor.js';
import { DEFAULT_TOKEN_LENGTH, generateToken, isValidToken } from './profile/token.js';
import { ProfilerRecorder } from './recording/profiler-recorder.js';
import type { ChainRecording, RequestRecording } from './recording/request-recording.js';
import { MemoryProfilerStorage } from './storage/memory-profiler-storage.js';
import type { ProfilerStorage, ProfileSearch } from './storage/profiler-storage.js';

export interface ProfilerOptions {
  /** Defaults to a `MemoryProfilerStorage` with the default bounds. */
  storage?: ProfilerStorage;
  /** Defaults to `defaultCollectors()`; each collector's name is a panel. */
  collectors?: readonly DataCollector[];
  /** Values never to show (key passphrases, signing keys…): replaced wherever they occur. */
  secrets?: readonly string[];
  /**
   * Header names whose values are never stored; default `DEFAULT_REDACTED_HEADERS` (Authorization,
   * Cookie, Proxy-Authorization, Set-Cookie, X-Api-Key, X-Auth-Token, X-Amz-Security-Token…).
   */
  redactHeaders?: readonly string[];
  /**
   * Names of query parameters (and headers) whose values are secrets, matched as a whole name or its
   * last dash- or underscore-separated part (`access_token`, `X-Amz-Security-Token`); default
   * `DEFAULT_SECRET_NAMES` (password, passwd, secret, token, api_key, apikey…).
   */
  redactSecretNames?: readonly string[];
  /** Names whose values are secrets only as a whole name; default `DEFAULT_WHOLE_SECRET_NAMES` (`code`, OAuth's authorization code). */
  redactWholeSecretNames?: readonly string[];
  /** How large one profile may grow (default 64 KiB, strings 4,096 characters, lists 100 items). */
  profileLimits?: ProfileLimits;
  /** Length of tokens in hex characters (default 6). */
  tokenLength?: number;
}

/** The child tokens of a profile without sub-requests (most of them): one list for all. */
const NO_CHILD_TOKENS: readonly string[] = Object.freeze([]);

/** Tokens of the profiled sub-requests of `recording`, in the order they started. */
function childTokensOf(recording: RequestRecording, chain: ChainRecording): readonly string[] {
  let tokens: string[] | null = null;
  for (const child of chain.requests) {
    if (child.parent === recording && child.token !== null) (tokens ??= []).push(child.token);
  }
  return tokens ?? NO_CHILD_TOKENS;
}

/** Tokens handed out recently but perhaps not saved yet; a ring of this size keeps them unique. */
const RECENT_TOKENS = 4096;

/**
 * The profiler service: hands out tokens, turns a finished request chain into profiles whose
 * collector data is built when read, saves them, and loads and searches them for the pages.
 */
export class Profiler {
  readonly storage: ProfilerStorage;
  readonly collectors: readonly DataCollector[];
  readonly recorder = new ProfilerRecorder();
  #redactor: Redactor;
  readonly tokenLength: number;
  readonly profileLimits: Required<ProfileLimits>;
  readonly #recentTokens = new Set<string>();
  /** The same tokens in the order they were handed out, to forget the oldest. */
  readonly #recentOrder: string[] = [];
  #oldestRecent = 0;

  constructor(options: ProfilerOptions = {}) {
    this.storage = options.storage ?? new MemoryProfilerStorage();
    this.collectors = options.collectors ?? defaultCollectors();
    this.#redactor = new Redactor({
      secrets: options.secrets ?? [],
      headers: options.redactHeaders ?? DEFAULT_REDACTED_HEADERS,
      secretNames: options.redactSecretNames ?? DEFAULT_SECRET_NAMES,
      wholeSecretNames: options.redactWholeSecretNames ?? DEFAULT_WHOLE_SECRET_NAMES,
    });
    this.profileLimits = resolveProfileLimits(options.profileLimits);
    this.tokenLength = options.tokenLength ?? DEFAULT_TOKEN_LENGTH;
    if (!Number.isInteger(this.tokenLength) || this.tokenLength < 4 || this.tokenLength > 32) {
      throw new RangeError(`tokenLength must be an integer from 4 to 32, got ${String(options.tokenLength)}.`);
    }
  }

  /** Hides sensitive headers and the configured secrets in profiles and pages. */
  get redactor(): Redactor {
    return this.#redactor;
  }

  /**
   * Adds secrets to redact from now on, for secrets known only once other parts are configured
   * (a key passphrase read by the security wiring).
   */
  redact(secrets: Iterable<string>): void {
    this.#redactor = this.#redactor.with(secrets);
  }

  /** A fresh token, unique among stored profiles and those handed out recently. */
  newToken(): string {
    const token = generateToken(this.#isTaken, this.tokenLength);
    this.#recentTokens.add(token);
    if (this.#recentOrder.length < RECENT_TOKENS) this.#recentOrder.push(token);
    else {
      this.#recentTokens.delete(this.#recentOrder[this.#oldestRecent]!);
      this.#recentOrder[this.#oldestRecent] = token;
      this.#oldestRecent = (this.#oldestRecent + 1) % RECENT_TOKENS;
    }
    return token;
  }

  readonly #isTaken = (candidate: string): boolean => this.#recentTokens.has(candidate) || this.storage.has(candidate);

  isValidToken(token: unknown): token is string {
    return isValidToken(token, this.tokenLength);
  }

  /**
   * The profiles of a finished chain (each request that got a token), closed at kernel.terminate:
   * summaries and links now, sub-requests children of their parent's profile; each one's collector
   * data is collected, redacted and fitted when it is first read. Listed sub-requests first, main
   * request last (the order they are written in).
   */
  record(chain: ChainRecording): RecordedProfile[] {
    chain.close();
    const profiles: RecordedProfile[] = [];
    for (const recording of chain.requests) {
      if (recording.token === null) continue;
      const summary = this.#summaryOf(recording);
      const childTokens = childTokensOf(recording, chain);
      const build = () => this.#build(recording, chain, summary, childTokens);
      profiles.push(new RecordedProfile(summary, childTokens, recording.estimatedBytes(), build));
    }
    return profiles.reverse();
  }

  #summaryOf(recording: RequestRecording): ProfileSummary {
    const request = recording.request;
    return {
      token: recording.token!,
      parentToken: recording.parent?.token ?? null,
      ip: request.clientIp,
      method: request.method,
      url: truncatedString(this.redactor.text(request.uri), this.profileLimits.maxStringLength),
      time: recording.time,
      statusCode: recording.snapshot?.status ?? 0,
      virtualType: 'request',
    };
  }

  /** Runs every collector over `recording` and redacts the result; the profile's data and JSON within the limits. */
  #build(recording: RequestRecording, chain: ChainRecording, summary: ProfileSummary, childTokens: readonly string[]): BuiltProfile {
    const profile = new Profile({ ...summary, childTokens });
    const request = recording.request;
    const redactor = this.redactor.with(credentialsOf(request.headers, request.query, this.redactor));
    const collected: Record<string, unknown> = {};
    for (const collector of this.collectors) {
      let data: unknown;
      try {
        data = collector.collect({ recording, chain, profile, redactor });
      } catch (error) {
        data = { collectorFailed: describeError(error) };
      }
      if (data !== undefined) collected[collector.name] = redactor.deep(data);
    }
    const json = this.#withinLimits(profile, collected);
    return { collectors: profile.collectors, json };
  }

  /**
   * Gives `profile` its collectors' data, cut to the profile limits when it is over one, and
   * returns the profile's JSON: measured once, then kept with the profile.
   */
  #withinLimits(profile: Profile, collected: Record<string, unknown>): string {
    const limits = this.profileLimits;
    const json = JSON.stringify({ ...profile.toData(), collectors: collected });
    if (json.length <= limits.maxBytes && !exceedsItemLimits(collected, limits)) {
      Object.assign(profile.collectors, collected);
      return json;
    }
    // Redacted whole first, then cut: a cut never leaves half a secret.
    // The summary fields (the URL cut at maxStringLength) take their share of the budget first.
    const forCollectors = Math.max(1024, limits.maxBytes - JSON.stringify(profile.toData()).length);
    Object.assign(profile.collectors, fitProfileData(collected, { ...limits, maxBytes: forCollectors }));
    return JSON.stringify(profile.toData());
  }

  /**
   * Writes profiles in order (sub-requests first, so the main request is the newest): recorded
   * ones as they are (built when read), a `Profile` as its plain data.
   */
  save(profiles: ReadonlyArray<Profile | ProfileData>): MaybePromise<void> {
    return this.#saveFrom(profiles, 0);
  }

  /** The rest waits for a storage that has to; one that stored a profile at once costs no promise. */
  #saveFrom(profiles: ReadonlyArray<Profile | ProfileData>, from: number): MaybePromise<void> {
    for (let i = from; i < profiles.length; i++) {
      const profile = profiles[i]!;
      const written = this.storage.write(profile instanceof Profile ? profile.toData() : profile);
      if (written instanceof Promise) return written.then(() => this.#saveFrom(profiles, i + 1));
    }
  }

  /** The stored profile with its parent and children loaded; `null` for an unknown or invalid token. */
  async loadProfile(token: string): Promise<Profile | null> {
    if (!this.isValidToken(token)) return null;
    const data = await this.storage.read(token);
    if (data === null) return null;
    const profile = Profile.fromData(data);
    if (profile.parentToken !== null) {
      const parent = await this.storage.read(profile.parentToken);
      if (parent !== null) profile.parent = Profile.fromData(parent);
    }
    for (const childToken of profile.childTokens) {
      const child = await this.storage.read(childToken);
      if (child !== null) profile.children.push(Profile.fromData(child));
    }
    return profile;
  }

  find(search: ProfileSearch): Promise<ProfileSummary[]> {
    return this.storage.find(search);
  }

  /**
   * The newest profile of virtual type `type`, from client `ip` when given. `ip` and `type` apply together.
   * `ip` must be an IP address; anything else is refused with a RangeError before storage is read.
   */
  async latest(options: { ip?: string; type?: string } = {}): Promise<ProfileSummary | null> {
    if (options.ip !== undefined && isIP(options.ip) === 0) throw new RangeError(`"${options.ip}" is not an IP address.`);
    const [found] = await this.storage.find({
      virtualType: options.type ?? 'request',
      ...(options.ip === undefined ? {} : { ip: options.ip }),
      limit: 1,
    });
    return found ?? null;
  }
}
