import { summaryOf, type ProfileData, type ProfileSummary } from './profile.js';

/** A profile's collector data and its JSON, as built from its recording. */
export interface BuiltProfile {
  readonly collectors: Readonly<Record<string, unknown>>;
  readonly json: string;
}

/**
 * A profile as the profiler writes it at kernel.terminate: its summary now, its collectors' data
 * (collected, redacted, fitted to the profile limits) and its JSON made when first asked for — by
 * a page, a test client, or a storage writing it out — and then kept. Until then it holds the
 * request's recording, whose size `estimatedBytes` estimates.
 */
export class RecordedProfile implements ProfileData {
  readonly token: string;
  readonly parentToken: string | null;
  readonly ip: string;
  readonly method: string;
  readonly url: string;
  readonly time: number;
  readonly statusCode: number;
  readonly virtualType: string;
  readonly childTokens: readonly string[];
  /** About how many characters of JSON the profile makes, known before it is built. */
  readonly estimatedBytes: number;
  #build: (() => BuiltProfile) | null;
  #built: BuiltProfile | null = null;

  constructor(summary: ProfileSummary, childTokens: readonly string[], estimatedBytes: number, build: () => BuiltProfile) {
    this.token = summary.token;
    this.parentToken = summary.parentToken;
    this.ip = summary.ip;
    this.method = summary.method;
    this.url = summary.url;
    this.time = summary.time;
    this.statusCode = summary.statusCode;
    this.virtualType = summary.virtualType;
    this.childTokens = childTokens;
    this.estimatedBytes = estimatedBytes;
    this.#build = build;
  }

  /** Whether the data was built (read, or written out by a storage). */
  get isBuilt(): boolean {
    return this.#built !== null;
  }

  get collectors(): Readonly<Record<string, unknown>> {
    return this.#data().collectors;
  }

  /** The profile's JSON, made once. */
  get json(): string {
    return this.#data().json;
  }

  /** `JSON.stringify` of a recorded profile gives its data, built. */
  toJSON(): ProfileData {
    return { ...summaryOf(this), childTokens: this.childTokens, collectors: this.collectors };
  }

  #data(): BuiltProfile {
    if (this.#built === null) {
      this.#built = this.#build!();
      // The recording is no longer needed: what it held can go.
      this.#build = null;
    }
    return this.#built;
  }
}

/** The JSON of any profile: a recorded one's, made once; another's, serialised now. */
export function profileJson(profile: ProfileData): string {
  return profile instanceof RecordedProfile ? profile.json : JSON.stringify(profile);
}

/** Characters a storage counts for a profile: a recorded one's estimate (not built for it), another's JSON. */
export function profileSize(profile: ProfileData): number {
  return profile instanceof RecordedProfile ? profile.estimatedBytes : JSON.stringify(profile).length;
}
