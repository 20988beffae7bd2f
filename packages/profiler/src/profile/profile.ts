/** What the profile list and searches show of a profile; also what storages index. */
export interface ProfileSummary {
  readonly token: string;
  /** Token of the request this one was a sub-request of. */
  readonly parentToken: string | null;
  readonly ip: string;
  readonly method: string;
  /** Absolute URL with the query string. */
  readonly url: string;
  /** When the response was profiled, epoch milliseconds. */
  readonly time: number;
  readonly statusCode: number;
  /** `request` for HTTP requests; other kinds of profiles (commands, messages) may use their own. */
  readonly virtualType: string;
}

/** A profile as storages keep it: plain JSON data, collectors keyed by panel name. */
export interface ProfileData extends ProfileSummary {
  readonly childTokens: readonly string[];
  readonly collectors: Readonly<Record<string, unknown>>;
}

/**
 * What the profiler recorded about one request (main or sub). Sub-request profiles are children
 * of their parent request's profile; storages keep the links as tokens, and `Profiler.loadProfile`
 * fills `parent` and `children` with the linked profiles.
 */
export class Profile implements ProfileData {
  readonly token: string;
  parentToken: string | null;
  readonly ip: string;
  readonly method: string;
  readonly url: string;
  readonly time: number;
  statusCode: number;
  readonly virtualType: string;
  readonly childTokens: string[];
  readonly collectors: Record<string, unknown>;
  parent: Profile | null = null;
  readonly children: Profile[] = [];

  constructor(data: Omit<ProfileData, 'childTokens' | 'collectors' | 'parentToken'> & Partial<ProfileData>) {
    this.token = data.token;
    this.parentToken = data.parentToken ?? null;
    this.ip = data.ip;
    this.method = data.method;
    this.url = data.url;
    this.time = data.time;
    this.statusCode = data.statusCode;
    this.virtualType = data.virtualType;
    this.childTokens = [...(data.childTokens ?? [])];
    this.collectors = { ...data.collectors };
  }

  static fromData(data: ProfileData): Profile {
    return new Profile(data);
  }

  addChild(child: Profile): void {
    child.parent = this;
    child.parentToken = this.token;
    if (!this.childTokens.includes(child.token)) this.childTokens.push(child.token);
    if (!this.children.includes(child)) this.children.push(child);
  }

  /** The loaded child profile of `token`, or `null` when it was not loaded (dropped from storage). */
  childProfile(token: string): Profile | null {
    return this.children.find((child) => child.token === token) ?? null;
  }

  /** Own keys only: a panel name from a query string (`constructor`, `__proto__`) is just unknown. */
  hasCollector(name: string): boolean {
    return this.getCollector(name) !== undefined;
  }

  /** The data a collector stored, typed by the caller who knows the collector. */
  getCollector<T>(name: string): T | undefined {
    return Object.hasOwn(this.collectors, name) ? (this.collectors[name] as T | undefined) : undefined;
  }

  get collectorNames(): string[] {
    return Object.keys(this.collectors).filter((name) => this.collectors[name] !== undefined);
  }

  summary(): ProfileSummary {
    return summaryOf(this);
  }

  /** Plain data for a storage: links as tokens, no object references. */
  toData(): ProfileData {
    return { ...this.summary(), childTokens: [...this.childTokens], collectors: { ...this.collectors } };
  }
}

/** Only the summary fields of a profile (what `find` returns and the file storage indexes). */
export function summaryOf(profile: ProfileSummary): ProfileSummary {
  return {
    token: profile.token,
    parentToken: profile.parentToken,
    ip: profile.ip,
    method: profile.method,
    url: profile.url,
    time: profile.time,
    statusCode: profile.statusCode,
    virtualType: profile.virtualType,
  };
}
