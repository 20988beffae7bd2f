/** How large one profile may grow; past a limit, values are cut and a marker says what was left out. */
export interface ProfileLimits {
  /** Most JSON per profile, in characters (default 64 KiB; a typical profile is about 10 KiB). */
  maxBytes?: number;
  /** Longest string kept whole (default 4,096 characters); longer ones keep their start and a marker. */
  maxStringLength?: number;
  /** Most items kept of one list, and entries of one object (default 100); a marker item stands for the rest. */
  maxItems?: number;
}

export const DEFAULT_PROFILE_LIMITS: Required<ProfileLimits> = { maxBytes: 64 * 1024, maxStringLength: 4096, maxItems: 100 };

/** Marker of a string cut at `maxStringLength`. */
export function truncatedString(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength)}…[truncated: ${text.length} characters]` : text;
}

/** Once the budget is spent, every further string is this. */
export const OVER_BUDGET = '[truncated: over the profile budget]';

/** A first fit spends 90 % of `maxBytes`, leaving room for the markers and punctuation it adds. */
const FIRST_SPENDING = 0.9;
/** Fits tried before the last one's result is kept: each spends less, in proportion to the overshoot. */
const MAX_FITS = 4;

/**
 * The collectors' data of one profile (panel name → data, in panel order) within `maxBytes` of
 * JSON: fitted by a `ProfileBudget`, measured, and fitted again with less to spend while it is over
 * (markers on lists and objects past the budget cost characters the first fit could not foresee).
 */
export function fitProfileData(data: Readonly<Record<string, unknown>>, limits: Required<ProfileLimits>): Record<string, unknown> {
  let spending = limits.maxBytes * FIRST_SPENDING;
  let fitted: Record<string, unknown> = {};
  for (let fit = 0; fit < MAX_FITS; fit++) {
    const budget = new ProfileBudget(limits, spending);
    fitted = Object.fromEntries(Object.entries(data).map(([name, value]) => [name, budget.fit(value)]));
    // What the budget spent is never less than the JSON's length: serialise only when it may be over.
    if (budget.spent <= limits.maxBytes) break;
    const size = JSON.stringify(fitted).length;
    if (size <= limits.maxBytes) break;
    spending = Math.max(0, spending * (limits.maxBytes / size) * FIRST_SPENDING);
  }
  return fitted;
}

/**
 * Whether a fit would cut something of the collectors' data besides its size: a string longer than
 * `maxStringLength`, a list or object with more than `maxItems` items, nesting deeper than a fit
 * keeps. Read without copying; the size is measured on the profile's JSON.
 */
export function exceedsItemLimits(data: Readonly<Record<string, unknown>>, limits: Required<ProfileLimits>): boolean {
  for (const name of Object.keys(data)) if (exceeds(data[name], limits, 0)) return true;
  return false;
}

function exceeds(value: unknown, limits: Required<ProfileLimits>, depth: number): boolean {
  if (typeof value === 'string') return value.length > limits.maxStringLength;
  if (value === null || typeof value !== 'object') return false;
  if (depth > 32) return true;
  if (Array.isArray(value)) {
    if (value.length > limits.maxItems) return true;
    for (const item of value) if (exceeds(item, limits, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > limits.maxItems) return true;
  for (const key of keys) if (exceeds(record[key], limits, depth + 1)) return true;
  return false;
}

export function resolveProfileLimits(limits: ProfileLimits = {}): Required<ProfileLimits> {
  const resolved = { ...DEFAULT_PROFILE_LIMITS, ...withoutUndefined(limits) };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}.`);
  }
  return resolved;
}

/**
 * Spends one profile's byte budget over its collectors' data, in panel order: strings are cut at
 * `maxStringLength`, lists and objects at `maxItems`, and once the budget is spent every further
 * string becomes `OVER_BUDGET` and every list keeps a single marker item. Shapes are kept (a list
 * stays a list, a header pair stays a pair), so the panels render what is left. A cut list ends
 * with a marker item shaped like its items, its strings saying how many items were left out.
 */
export class ProfileBudget {
  readonly #limits: Required<ProfileLimits>;
  readonly #spending: number;
  #spent = 0;

  /** `spending`: characters spent before strings become markers; default 90 % of `maxBytes`. */
  constructor(limits: Required<ProfileLimits>, spending = limits.maxBytes * FIRST_SPENDING) {
    this.#limits = limits;
    this.#spending = spending;
  }

  /** Characters spent so far: at least the length of the JSON of what `fit` returned (keys, punctuation and all). */
  get spent(): number {
    return this.#spent;
  }

  /** `value` within what is left of the budget; the characters it takes are spent. */
  fit(value: unknown): unknown {
    return this.#fit(value, 0);
  }

  #exhausted(): boolean {
    return this.#spent > this.#spending;
  }

  #fit(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.#string(value);
    if (value === null || typeof value !== 'object') {
      // `NaN` serialises as `null`: one more than its name.
      this.#spent += String(value).length + 2;
      return value;
    }
    if (depth > 32) return this.#string('[truncated: nested too deep]');
    this.#spent += 2;
    if (Array.isArray(value)) return this.#list(value, depth);
    const entries = Object.entries(value);
    const kept: Array<[string, unknown]> = [];
    for (const [key, item] of entries) {
      if (kept.length >= this.#limits.maxItems) {
        this.#spent += 5;
        kept.push(['…', this.#string(`[truncated: ${entries.length - kept.length} more entries]`)]);
        break;
      }
      this.#spent += jsonLength(key) + 2;
      kept.push([key, this.#fit(item, depth + 1)]);
    }
    // fromEntries defines own properties: a key named `__proto__` stays a key.
    return Object.fromEntries(kept);
  }

  #list(items: readonly unknown[], depth: number): unknown[] {
    const kept: unknown[] = [];
    for (const item of items) {
      if (kept.length >= this.#limits.maxItems || this.#exhausted()) break;
      kept.push(this.#fit(item, depth + 1));
    }
    const left = items.length - kept.length;
    if (left > 0) {
      const marker = markerLike(items[kept.length], left);
      this.#spent += JSON.stringify(marker).length + 1;
      kept.push(marker);
    }
    return kept;
  }

  #string(text: string): string {
    const cut = this.#exhausted() ? OVER_BUDGET : truncatedString(text, this.#limits.maxStringLength);
    const cost = jsonLength(cut) + 1;
    if (cut !== OVER_BUDGET && this.#spent + cost > this.#spending) {
      // The string that crosses the limit keeps what fits.
      const room = Math.max(0, Math.floor(this.#spending - this.#spent - 64));
      const partial = room > 0 ? `${text.slice(0, room)}…[truncated: ${text.length} characters, over the profile budget]` : OVER_BUDGET;
      this.#spent += jsonLength(partial) + 1;
      return partial;
    }
    this.#spent += cost;
    return cut;
  }
}

/** Characters of `text` as a JSON string; serialised only when it holds characters JSON escapes. */
function jsonLength(text: string): number {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).length : text.length + 2;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029]/;

/** An item shaped like `sample` whose strings say `n` items were left out; numbers 0, booleans false. */
function markerLike(sample: unknown, left: number, depth = 0): unknown {
  const text = `[truncated: ${left} more items]`;
  if (typeof sample === 'string') return text;
  if (typeof sample === 'number') return 0;
  if (typeof sample === 'boolean') return false;
  if (sample === null || typeof sample !== 'object' || depth > 4) return text;
  if (Array.isArray(sample)) return sample.slice(0, 4).map((item) => markerLike(item, left, depth + 1));
  return Object.fromEntries(Object.entries(sample).map(([key, item]) => [key, markerLike(item, left, depth + 1)]));
}

function withoutUndefined(limits: ProfileLimits): ProfileLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
